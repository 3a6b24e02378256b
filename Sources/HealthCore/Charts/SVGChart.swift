/// A standalone SVG image of a chart, for a browser or a document: title, date range, a value axis with round
/// ticks and its unit, period labels along the bottom, and the data as columns (totals, with the goal as a dashed
/// line), a line with points (averages), or stacked columns of sleep stages per night with a legend.
///
/// The image has a white background, uses only generic font families and has no external references.
public struct SVGChart: Sendable {
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int
    /// The calendar of dates.
    public var calendar: GregorianCalendar

    private var left: Double { 78 }
    private var right: Double { Double(width) - 24 }
    private var top: Double { 64 }
    private var bottom: Double { Double(height) - 64 }

    /// Creates a renderer for images of `width` × `height` pixels.
    public init(width: Int = 800, height: Int = 420, calendar: GregorianCalendar) {
        self.width = max(320, width)
        self.height = max(240, height)
        self.calendar = calendar
    }

    /// The SVG document of `series`.
    public func render(_ series: ChartSeries) -> String {
        var body: [String] = []
        let recorded = series.recorded
        let low = series.style == .bars ? 0 : recorded.min() ?? 0
        let high = max(recorded.max() ?? 1, series.style == .bars ? series.goal ?? 0 : -Double.infinity)
        let scale = AxisScale(covering: low, high, targetTicks: 5)
        let unit = ChartFormat.unitLabel(series.unit, type: series.type)
        body += axes(scale: scale, unitLabel: unit.isEmpty ? series.type.title.lowercased() : unit,
                     tickLabel: { ChartFormat.number($0, unit: series.unit) })
        body += periodLabels(series.points.map { ChartFormat.period($0.start, bucket: series.bucket, calendar: calendar) })
        let slot = (right - left) / Double(max(1, series.points.count))
        func y(_ value: Double) -> Double { bottom - scale.fraction(value) * (bottom - top) }
        switch series.style {
        case .bars:
            for (index, point) in series.points.enumerated() {
                guard let value = point.value, value > 0 else { continue }
                let reached = series.goal.map { value >= $0 } ?? false
                let x = left + slot * Double(index) + slot * 0.15
                body.append(element("rect", ["x": x, "y": y(value), "width": slot * 0.7, "height": bottom - y(value)],
                                    ["fill": reached ? "#2e9e6b" : "#3d8bd9"],
                                    title: ChartFormat.period(point.start, bucket: series.bucket, calendar: calendar) + ": " + series.amount(value)))
            }
            if let goal = series.goal {
                body.append(element("line", ["x1": left, "y1": y(goal), "x2": right, "y2": y(goal)],
                                    ["stroke": SVGChart.goalColour, "stroke-width": "2", "stroke-dasharray": "6 4"]))
                body.append(text("goal " + series.amount(goal), x: right, y: y(goal) - 6, anchor: "end", size: 12, fill: SVGChart.goalColour))
            }
        case .line:
            var run: [String] = []
            func flush() {
                if run.count > 1 {
                    body.append(element("polyline", [:], ["points": run.joined(separator: " "), "fill": "none",
                                                          "stroke": "#3d8bd9", "stroke-width": "2"]))
                }
                run = []
            }
            for (index, point) in series.points.enumerated() {
                guard let value = point.value else { flush(); continue }
                run.append(number(left + slot * (Double(index) + 0.5)) + "," + number(y(value)))
            }
            flush()
            for (index, point) in series.points.enumerated() {
                guard let value = point.value else { continue }
                body.append(element("circle", ["cx": left + slot * (Double(index) + 0.5), "cy": y(value), "r": 4],
                                    ["fill": "#1f4e9c"],
                                    title: ChartFormat.period(point.start, bucket: series.bucket, calendar: calendar) + ": " + series.amount(value)))
            }
        }
        return document(title: series.title(calendar: calendar), body: body)
    }

    /// The SVG document of a per-night sleep chart.
    public func render(sleep nights: [SleepNight], goal: TimeInterval?) -> String {
        var body: [String] = []
        let longest = nights.map { night in SleepStage.allCases.reduce(0) { $0 + $1.seconds(in: night) } }.max() ?? 0
        let scale = AxisScale(covering: 0, max(longest, goal ?? 0, 3600) / 3600, targetTicks: 5)
        body += axes(scale: scale, unitLabel: "hours", tickLabel: { ChartFormat.number($0, unit: nil) })
        body += periodLabels(nights.map { ChartFormat.day($0.date, calendar: calendar) })
        let slot = (right - left) / Double(max(1, nights.count))
        func y(_ hours: Double) -> Double { bottom - scale.fraction(hours) * (bottom - top) }
        for (index, night) in nights.enumerated() {
            var elapsed = 0.0
            for stage in SleepStage.allCases {
                let seconds = stage.seconds(in: night)
                guard seconds > 0 else { continue }
                let (from, to) = (y(elapsed / 3600), y((elapsed + seconds) / 3600))
                elapsed += seconds
                body.append(element("rect", ["x": left + slot * Double(index) + slot * 0.15, "y": to, "width": slot * 0.7,
                                             "height": from - to], ["fill": stage.fill],
                                    title: ChartFormat.day(night.date, calendar: calendar) + ", " + stage.label + ": "
                                        + ChartFormat.duration(seconds)))
            }
        }
        if let goal {
            body.append(element("line", ["x1": left, "y1": y(goal / 3600), "x2": right, "y2": y(goal / 3600)],
                                ["stroke": SVGChart.goalColour, "stroke-width": "2", "stroke-dasharray": "6 4"]))
            body.append(text("goal " + ChartFormat.duration(goal), x: right, y: y(goal / 3600) - 6, anchor: "end", size: 12,
                             fill: SVGChart.goalColour))
        }
        var x = left
        for stage in SleepStage.allCases {
            body.append(element("rect", ["x": x, "y": Double(height) - 22, "width": 12, "height": 12], ["fill": stage.fill]))
            body.append(text(stage.label, x: x + 16, y: Double(height) - 12, anchor: "start", size: 12, fill: "#333333"))
            x += 34 + Double(stage.label.count) * 8
        }
        var title = ["Sleep per night"]
        if let first = nights.first, let last = nights.last {
            title.append(ChartFormat.range(from: first.date, to: last.date.addingTimeInterval(1), calendar: calendar))
        }
        if let goal { title.append("goal " + ChartFormat.duration(goal)) }
        return document(title: title, body: body)
    }

    // MARK: - Pieces

    private func document(title: [String], body: [String]) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)" viewBox="0 0 \#(width) \#(height)" font-family="Helvetica, Arial, sans-serif">"#,
            "<title>\(SVGChart.escape(title.joined(separator: " · ")))</title>",
            element("rect", ["x": 0, "y": 0, "width": Double(width), "height": Double(height)], ["fill": "#ffffff"]),
            text(title[0], x: left, y: 28, anchor: "start", size: 18, fill: "#111111", bold: true),
        ]
        if title.count > 1 {
            lines.append(text(title.dropFirst().joined(separator: " · "), x: left, y: 48, anchor: "start", size: 13, fill: "#555555"))
        }
        return (lines + body + ["</svg>"]).joined(separator: "\n") + "\n"
    }

    /// Grid lines, tick labels, the axis lines and the unit.
    private func axes(scale: AxisScale, unitLabel: String, tickLabel: (Double) -> String) -> [String] {
        var parts: [String] = []
        for tick in scale.ticks {
            let y = bottom - scale.fraction(tick) * (bottom - top)
            parts.append(element("line", ["x1": left, "y1": y, "x2": right, "y2": y], ["stroke": "#e3e6eb", "stroke-width": "1"]))
            parts.append(text(tickLabel(tick), x: left - 8, y: y + 4, anchor: "end", size: 12, fill: "#555555"))
        }
        parts.append(element("line", ["x1": left, "y1": top, "x2": left, "y2": bottom], ["stroke": "#333333", "stroke-width": "1"]))
        parts.append(element("line", ["x1": left, "y1": bottom, "x2": right, "y2": bottom], ["stroke": "#333333", "stroke-width": "1"]))
        let middle = (top + bottom) / 2
        let rotate = "rotate(-90 18 \(number(middle)))"
        parts.append(text(unitLabel, x: 18, y: middle, anchor: "middle", size: 13, fill: "#333333", transform: rotate))
        return parts
    }

    /// Labels under the columns, thinned so that they do not overlap.
    private func periodLabels(_ labels: [String]) -> [String] {
        guard !labels.isEmpty else { return [] }
        let slot = (right - left) / Double(labels.count)
        let widest = Double(labels.map(\.count).max() ?? 1) * 7 + 12
        let every = max(1, Int(saturating: (widest / slot).rounded(.up)))
        return labels.enumerated().compactMap { index, label in
            guard index % every == 0 else { return nil }
            return text(label, x: left + slot * (Double(index) + 0.5), y: bottom + 20, anchor: "middle", size: 12, fill: "#333333")
        }
    }

    private func text(_ content: String, x: Double, y: Double, anchor: String, size: Int, fill: String, bold: Bool = false,
                      transform: String? = nil) -> String {
        var extra = bold ? #" font-weight="bold""# : ""
        if fill == SVGChart.goalColour { extra += ##" stroke="#ffffff" stroke-width="3" paint-order="stroke""## }
        if let transform { extra += #" transform="\#(transform)""# }
        return #"<text x="\#(number(x))" y="\#(number(y))" text-anchor="\#(anchor)" font-size="\#(size)" fill="\#(fill)"\#(extra)>\#(SVGChart.escape(content))</text>"#
    }

    /// An element with numeric attributes (rounded to 0.1) and text attributes, optionally with a tooltip.
    private func element(_ name: String, _ numbers: [String: Double], _ attributes: [String: String], title: String? = nil) -> String {
        let numeric = numbers.keys.sorted().map { "\($0)=\"\(number(numbers[$0]!))\"" }
        let textual = attributes.keys.sorted().map { "\($0)=\"\(SVGChart.escape(attributes[$0]!))\"" }
        let head = "<\(name) " + (numeric + textual).joined(separator: " ")
        guard let title else { return head + "/>" }
        return head + "><title>\(SVGChart.escape(title))</title></\(name)>"
    }

    private func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(saturating: rounded)) : String(rounded)
    }

    private static let goalColour = "#d0463b"

    /// `text` with XML's special characters escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
