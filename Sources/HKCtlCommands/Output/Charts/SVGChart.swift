import HealthCore
import TextSupport

/// A standalone SVG image of a chart, for a browser or a document: title, date range, a value axis with round
/// ticks in one format and its unit, period labels along the bottom, and the data as columns (totals, with the goal
/// as a dashed line labelled in the right margin, clear of the bars), a line with points (averages; readings on
/// either side of periods without data joined by a dashed segment), or stacked columns of sleep stages per night
/// with a legend. A period only partly in the range (the first or last week of `--by week`) is drawn lighter, its
/// label marked `*` and explained in a note.
///
/// The image has a white background, uses only generic font families and has no external references.
struct SVGChart: Sendable {
    /// Image width in pixels.
    var width: Int
    /// Image height in pixels.
    var height: Int
    /// The calendar of dates.
    var calendar: GregorianCalendar

    /// The plot area: from `left` to `right`, `top` to `bottom` (pixels), and the value axis drawn on it.
    private struct Plot {
        let left: Double, right: Double, top: Double, bottom: Double
        let scale: AxisScale
        func y(_ value: Double) -> Double { bottom - scale.fraction(value) * (bottom - top) }
        /// The centre of column `index` of `count`.
        func x(_ index: Int, of count: Int) -> Double { left + slot(count) * (Double(index) + 0.5) }
        func slot(_ count: Int) -> Double { (right - left) / Double(max(1, count)) }
    }

    /// Creates a renderer for images of `width` × `height` pixels.
    init(width: Int = 800, height: Int = 420, calendar: GregorianCalendar) {
        self.width = max(320, width)
        self.height = max(240, height)
        self.calendar = calendar
    }

    /// The plot area on `scale`, narrowed on the right to make room for the goal's label when there is one.
    private func plot(_ scale: AxisScale, goalLabel: String?) -> Plot {
        let margin = goalLabel.map { SVGChart.textWidth($0, size: 12) + 8 } ?? 0
        return Plot(left: 78, right: Double(width) - 24 - margin, top: 64, bottom: Double(height) - 64, scale: scale)
    }

    /// The SVG document of `series`.
    func render(_ series: ChartSeries) -> String {
        var body: [String] = []
        let recorded = series.recorded
        let low = series.style == .bars ? 0 : recorded.min() ?? 0
        let high = max(recorded.max() ?? 1, series.style == .bars ? series.goal ?? 0 : -Double.infinity)
        let goalLabel = series.style == .bars ? series.goal.map { "goal " + series.amount($0) } : nil
        let plot = plot(AxisScale(covering: low, high, targetTicks: 5), goalLabel: goalLabel)
        let unit = ChartFormat.unitLabel(series.unit, type: series.type)
        body += axes(plot, labels: ChartFormat.tickLabels(plot.scale, unit: series.unit),
                     unitLabel: unit.isEmpty ? series.type.title.lowercased() : unit)
        body += periodLabels(series.points.map { series.label($0, calendar: calendar) }, plot: plot)
        let count = series.points.count
        let tooltip = { (point: ChartSeries.Point, value: Double) in series.label(point, calendar: self.calendar) + ": " + series.amount(value) }
        switch series.style {
        case .bars:
            for (index, point) in series.points.enumerated() {
                guard let value = point.value, value > 0 else { continue }
                let reached = series.goal.map { value >= $0 } ?? false
                var look = ["fill": reached ? "#2e9e6b" : "#3d8bd9"]
                if point.partial { look["fill-opacity"] = "0.45" }
                body.append(element("rect", ["x": plot.x(index, of: count) - plot.slot(count) * 0.35, "y": plot.y(value),
                                             "width": plot.slot(count) * 0.7, "height": plot.bottom - plot.y(value)],
                                    look, title: tooltip(point, value)))
            }
            if let goal = series.goal, let goalLabel { body += goalMarker(plot.y(goal), label: goalLabel, plot: plot) }
        case .line:
            body += line(series, plot: plot)
            for (index, point) in series.points.enumerated() {
                guard let value = point.value else { continue }
                var look = ["fill": "#1f4e9c"]
                if point.partial { look["fill-opacity"] = "0.45" }
                body.append(element("circle", ["cx": plot.x(index, of: count), "cy": plot.y(value), "r": 4], look,
                                    title: tooltip(point, value)))
            }
        }
        var notes: [String] = []
        if series.style == .line && series.bridgesGaps {
            notes.append("dashed: across \(series.bucket.rawValue)s without data")
        }
        if let note = series.partialNote { notes.append(note) }
        if !notes.isEmpty {
            body.append(text(notes.joined(separator: "   "), x: plot.left, y: Double(height) - 14, anchor: "start", size: 12, fill: "#555555"))
        }
        return document(title: series.title(calendar: calendar), body: body)
    }

    /// The line of a series: a solid polyline through each run of consecutive readings, and a dashed path joining
    /// the readings on either side of periods without data (never a drop to zero).
    private func line(_ series: ChartSeries, plot: Plot) -> [String] {
        var parts: [String] = []
        let count = series.points.count
        let readings = series.readingIndices
        func point(_ index: Int) -> String { number(plot.x(index, of: count)) + "," + number(plot.y(series.points[index].value!)) }
        var run: [Int] = []
        func flush() {
            if run.count > 1 {
                parts.append(element("polyline", [:], ["points": run.map(point).joined(separator: " "), "fill": "none",
                                                       "stroke": "#3d8bd9", "stroke-width": "2"]))
            }
            run = []
        }
        for (position, index) in readings.enumerated() {
            if let previous = run.last, index - previous > 1 {
                flush()
                let from = readings[position - 1]
                parts.append(element("path", [:], ["d": "M" + point(from).replacingEvery(",", with: " ") + " L" + point(index).replacingEvery(",", with: " "),
                                                   "fill": "none", "stroke": "#3d8bd9", "stroke-width": "2",
                                                   "stroke-dasharray": "5 5", "class": "gap"]))
            }
            run.append(index)
        }
        flush()
        return parts
    }

    /// The SVG document of a per-night sleep chart.
    func render(sleep nights: [SleepNight], goal: TimeInterval?) -> String {
        var body: [String] = []
        let longest = nights.map { night in SleepStage.allCases.reduce(0) { $0 + $1.seconds(in: night) } }.max() ?? 0
        let goalLabel = goal.map { "goal " + ChartFormat.duration($0) }
        let plot = plot(AxisScale(covering: 0, max(longest, goal ?? 0, 3600) / 3600, targetTicks: 5), goalLabel: goalLabel)
        body += axes(plot, labels: ChartFormat.tickLabels(plot.scale, unit: nil), unitLabel: "hours")
        body += periodLabels(nights.map { ChartFormat.day($0.date, calendar: calendar) }, plot: plot)
        let slot = plot.slot(nights.count)
        for (index, night) in nights.enumerated() {
            var elapsed = 0.0
            for stage in SleepStage.allCases {
                let seconds = stage.seconds(in: night)
                guard seconds > 0 else { continue }
                let (from, to) = (plot.y(elapsed / 3600), plot.y((elapsed + seconds) / 3600))
                elapsed += seconds
                body.append(element("rect", ["x": plot.x(index, of: nights.count) - slot * 0.35, "y": to, "width": slot * 0.7,
                                             "height": from - to], ["fill": stage.fill],
                                    title: ChartFormat.day(night.date, calendar: calendar) + ", " + stage.label + ": "
                                        + ChartFormat.duration(seconds)))
            }
        }
        if let goal, let goalLabel { body += goalMarker(plot.y(goal / 3600), label: goalLabel, plot: plot) }
        var x = plot.left
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
            text(title[0], x: 78, y: 28, anchor: "start", size: 18, fill: "#111111", bold: true),
        ]
        if title.count > 1 {
            lines.append(text(title.dropFirst().joined(separator: " · "), x: 78, y: 48, anchor: "start", size: 13, fill: "#555555"))
        }
        return (lines + body + ["</svg>"]).joined(separator: "\n") + "\n"
    }

    /// Grid lines, tick labels (`labels`, one per tick of the plot's scale), the axis lines and the unit.
    private func axes(_ plot: Plot, labels: [String], unitLabel: String) -> [String] {
        var parts: [String] = []
        for (tick, label) in zip(plot.scale.ticks, labels) {
            let y = plot.y(tick)
            parts.append(element("line", ["x1": plot.left, "y1": y, "x2": plot.right, "y2": y], ["stroke": "#e3e6eb", "stroke-width": "1"]))
            parts.append(text(label, x: plot.left - 8, y: y + 4, anchor: "end", size: 12, fill: "#555555"))
        }
        parts.append(element("line", ["x1": plot.left, "y1": plot.top, "x2": plot.left, "y2": plot.bottom], ["stroke": "#333333", "stroke-width": "1"]))
        parts.append(element("line", ["x1": plot.left, "y1": plot.bottom, "x2": plot.right, "y2": plot.bottom], ["stroke": "#333333", "stroke-width": "1"]))
        let middle = (plot.top + plot.bottom) / 2
        let rotate = "rotate(-90 18 \(number(middle)))"
        parts.append(text(unitLabel, x: 18, y: middle, anchor: "middle", size: 13, fill: "#333333", transform: rotate))
        return parts
    }

    /// Labels under the columns, thinned so that they do not overlap.
    private func periodLabels(_ labels: [String], plot: Plot) -> [String] {
        guard !labels.isEmpty else { return [] }
        let slot = plot.slot(labels.count)
        let widest = Double(labels.map(\.count).max() ?? 1) * 7 + 12
        let every = max(1, Int(saturating: (widest / slot).rounded(.up)))
        return labels.enumerated().compactMap { index, label in
            guard index % every == 0 else { return nil }
            return text(label, x: plot.x(index, of: labels.count), y: plot.bottom + 20, anchor: "middle", size: 12, fill: "#333333")
        }
    }

    /// The goal: a dashed line across the plot at `y`, and its label just right of the plot, in the margin kept
    /// for it, so that it never covers a bar.
    private func goalMarker(_ y: Double, label: String, plot: Plot) -> [String] {
        [element("line", ["x1": plot.left, "y1": y, "x2": plot.right, "y2": y],
                 ["stroke": SVGChart.goalColour, "stroke-width": "2", "stroke-dasharray": "6 4"]),
         text(label, x: plot.right + 6, y: y + 4, anchor: "start", size: 12, fill: SVGChart.goalColour)]
    }

    /// About how wide `text` is drawn at `size` pixels in a sans-serif face (wide enough for digits and most
    /// letters, 0.6 em each).
    static func textWidth(_ text: String, size: Double) -> Double { Double(text.count) * size * 0.6 }

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
