#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A line chart for a terminal: the values of discrete types (weight, heart rate) as points on an axis that fits
/// the data, joined by dotted lines, with tick labels, the first and last period under the axis, a summary and
/// a sparkline.
///
/// When there are more periods than columns, several share a column. A period without data leaves a gap.
public struct LineChart: Sendable {
    /// The data.
    public var series: ChartSeries
    /// The calendar of period labels.
    public var calendar: GregorianCalendar
    /// Rows of the plot (at least 3).
    public var height: Int

    /// Creates a chart of `series`, `height` rows high.
    public init(series: ChartSeries, calendar: GregorianCalendar, height: Int = 8) {
        self.series = series
        self.calendar = calendar
        self.height = max(3, height)
    }

    /// The chart's lines, none wider than `style.width`.
    public func render(style: TerminalStyle) -> [String] {
        var lines = fitted(series.title(calendar: calendar), width: style.width).map { style.paint($0, .bold) }
        let recorded = series.recorded
        guard let low = recorded.min(), let high = recorded.max() else {
            return style.finish(lines + ["no data in this range"])
        }
        let scale = AxisScale(covering: low, high, targetTicks: 4)
        // As many decimals as the step needs (0.25 → 2), at least the unit's.
        let digits = max(ChartFormat.fractionDigits(for: series.unit),
                         (0...4).first { abs(scale.step * pow(10, Double($0)) - (scale.step * pow(10, Double($0))).rounded()) < 1e-6 } ?? 4)
        let tickLabel = { (value: Double) in
            NumberFormatting.decimal(series.unit == .percent() ? value * 100 : value, fractionDigits: digits)
        }
        let tickRows = Dictionary(scale.ticks.map { (row(for: $0, scale: scale), tickLabel($0)) },
                                  uniquingKeysWith: { first, _ in first })
        let labelWidth = tickRows.values.map(\.count).max() ?? 1
        let plotWidth = max(5, style.width - labelWidth - 2)
        var grid = [[String]](repeating: [String](repeating: " ", count: plotWidth), count: height)
        var kinds = [[Int]](repeating: [Int](repeating: 0, count: plotWidth), count: height)
        let columns = series.points.indices.map { column(for: $0, width: plotWidth) }
        // Dotted joins between consecutive recorded points, then the points on top.
        for index in series.points.indices.dropLast() {
            guard let from = series.points[index].value, let to = series.points[index + 1].value else { continue }
            let (start, end) = (columns[index], columns[index + 1])
            guard end - start > 1 else { continue }
            for x in (start + 1)..<end {
                let value = from + (to - from) * Double(x - start) / Double(end - start)
                let y = row(for: value, scale: scale)
                grid[y][x] = style.glyph("·", ".")
                kinds[y][x] = 1
            }
        }
        for (index, point) in series.points.enumerated() {
            guard let value = point.value else { continue }
            let y = row(for: value, scale: scale)
            grid[y][columns[index]] = style.glyph("•", "*")
            kinds[y][columns[index]] = 2
        }
        for y in 0..<height {
            var line = StyledLine()
            if let label = tickRows[y] {
                line.append(String(repeating: " ", count: labelWidth - label.count) + label + " " + style.glyph("┤", "+"), .dim)
            } else {
                line.append(String(repeating: " ", count: labelWidth + 1) + style.glyph("│", "|"), .dim)
            }
            for x in 0..<plotWidth { line.append(grid[y][x], kinds[y][x] == 2 ? .cyan : kinds[y][x] == 1 ? .dim : nil) }
            lines.append(line.render(style))
        }
        lines.append(style.paint(String(repeating: " ", count: labelWidth + 1) + style.glyph("└", "+")
                                 + String(repeating: style.glyph("─", "-"), count: plotWidth), .dim))
        lines.append(dateLine(offset: labelWidth + 2, width: plotWidth))
        lines.append(contentsOf: fitted(summary(style: style), width: style.width))
        return style.finish(lines)
    }

    /// Row 0 is the top.
    private func row(for value: Double, scale: AxisScale) -> Int {
        let fraction = min(1, max(0, scale.fraction(value)))
        return height - 1 - max(0, min(height - 1, Int(saturating: (fraction * Double(height - 1)).rounded())))
    }

    private func column(for index: Int, width: Int) -> Int {
        let count = series.points.count
        guard count > 1 else { return width / 2 }
        if count <= width / 2 {
            // Evenly spaced with a margin of half a step at each end.
            let step = Double(width) / Double(count)
            return min(width - 1, Int(saturating: step * (Double(index) + 0.5)))
        }
        return Int((Double(index) * Double(width - 1) / Double(count - 1)).rounded())
    }

    /// The first and last period under the axis, aligned with their points.
    private func dateLine(offset: Int, width: Int) -> String {
        guard let first = series.points.first, let last = series.points.last else { return "" }
        let label: (Date) -> String = { date in
            series.bucket == .day ? ChartFormat.shortDay(date, calendar: calendar)
                : ChartFormat.period(date, bucket: series.bucket, calendar: calendar)
        }
        let left = label(first.start)
        guard series.points.count > 1 else {
            return String(repeating: " ", count: offset + max(0, column(for: 0, width: width) - left.count / 2)) + left
        }
        let right = label(last.start)
        let firstColumn = max(0, column(for: 0, width: width) - left.count / 2)
        let lastColumn = min(width - right.count, column(for: series.points.count - 1, width: width) - right.count / 2)
        let gap = max(1, lastColumn - firstColumn - left.count)
        return String(repeating: " ", count: offset + firstColumn) + left + String(repeating: " ", count: gap) + right
    }

    /// Latest, minimum, maximum and change, then the sparkline.
    private func summary(style: TerminalStyle) -> [String] {
        let recordedPoints = series.points.filter { $0.value != nil }
        guard let first = recordedPoints.first, let last = recordedPoints.last, let lastValue = last.value,
              let low = series.recorded.min(), let high = series.recorded.max() else { return [] }
        var parts = ["latest " + series.amount(lastValue) + " (" + ChartFormat.shortDay(last.start, calendar: calendar) + ")",
                     "min " + series.amount(low), "max " + series.amount(high)]
        if recordedPoints.count > 1, let firstValue = first.value {
            let change = lastValue - firstValue
            let sign = change > 0 ? "+" : change < 0 ? style.glyph("−", "-") : "±"
            parts.append("change \(sign)" + series.amount(abs(change)))
        }
        if series.points.count <= style.width - 2 {
            parts.append(Sparkline.render(series.points.map(\.value), unicode: style.unicode))
        }
        return parts
    }
}
