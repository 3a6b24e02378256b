#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore
import TextSupport

/// A line chart for a terminal: the values of discrete types (weight, heart rate) as points on an axis that fits
/// the data, joined by dotted lines, with tick labels, the first and last period under the axis, a summary and
/// a sparkline.
///
/// Every tick of the axis has a row and the same number of rows lies between two ticks, so the labels are evenly
/// spaced and every row stands for the same step of value. Consecutive readings are joined by dots (`·`); readings
/// on either side of periods without data are joined by sparser dots (`· ·`), explained under the chart, so the
/// line never drops to zero or breaks. Nothing is drawn before the first reading or after the last. When there are
/// more periods than columns, several share a column.
struct LineChart: Sendable {
    /// The data.
    var series: ChartSeries
    /// The calendar of period labels.
    var calendar: GregorianCalendar
    /// The least number of rows of the plot (at least 3); it has more when its ticks need them to be evenly spaced.
    var height: Int

    /// Creates a chart of `series`, at least `height` rows high.
    init(series: ChartSeries, calendar: GregorianCalendar, height: Int = 8) {
        self.series = series
        self.calendar = calendar
        self.height = max(3, height)
    }

    /// The chart's lines, none wider than `style.width`.
    func render(style: TerminalStyle) -> [String] {
        var lines = fitted(series.title(calendar: calendar), width: style.width).map { style.paint($0, .bold) }
        let recorded = series.recorded
        guard let low = recorded.min(), let high = recorded.max() else {
            return style.finish(lines + ["no data in this range"])
        }
        let scale = AxisScale(covering: low, high, targetTicks: 4)
        let tickLabels = ChartFormat.tickLabels(scale, unit: series.unit)
        let intervals = max(1, tickLabels.count - 1)
        let rowsPerTick = max(1, (height - 1 + intervals - 1) / intervals)
        let rows = intervals * rowsPerTick + 1
        let labelWidth = tickLabels.map(\.count).max() ?? 1
        let plotWidth = max(5, style.width - labelWidth - 2)
        var grid = [[String]](repeating: [String](repeating: " ", count: plotWidth), count: rows)
        var kinds = [[Int]](repeating: [Int](repeating: 0, count: plotWidth), count: rows)
        let columns = series.points.indices.map { column(for: $0, width: plotWidth) }
        func row(_ value: Double) -> Int {
            let fraction = min(1, max(0, scale.fraction(value)))
            return rows - 1 - max(0, min(rows - 1, Int(saturating: (fraction * Double(rows - 1)).rounded())))
        }
        // Dotted joins between consecutive readings (sparser across periods without data), then the points on top.
        let readings = series.readingIndices
        for (index, next) in zip(readings, readings.dropFirst()) {
            let (from, to) = (series.points[index].value!, series.points[next].value!)
            let (start, end) = (columns[index], columns[next])
            let acrossGap = next - index > 1
            guard end - start > 1 else { continue }
            for x in (start + 1)..<end where !acrossGap || (x - start) % 2 == 1 {
                let y = row(from + (to - from) * Double(x - start) / Double(end - start))
                grid[y][x] = style.glyph("·", ".")
                kinds[y][x] = 1
            }
        }
        for index in readings {
            let y = row(series.points[index].value!)
            grid[y][columns[index]] = style.glyph("•", "*")
            kinds[y][columns[index]] = 2
        }
        for y in 0..<rows {
            var line = StyledLine()
            if y % rowsPerTick == 0 {
                let label = tickLabels[intervals - y / rowsPerTick]
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
        if series.bridgesGaps { lines.append(style.glyph("· ·", ". .") + " across \(series.bucket.rawValue)s without data") }
        if let note = series.partialNote { lines.append(note) }
        return style.finish(lines)
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
        let label: (ChartSeries.Point) -> String = { point in
            series.bucket == .day ? ChartFormat.shortDay(point.start, calendar: calendar) + (point.partial ? "*" : "")
                : series.label(point, calendar: calendar)
        }
        let left = label(first)
        guard series.points.count > 1 else {
            return String(repeating: " ", count: offset + max(0, column(for: 0, width: width) - left.count / 2)) + left
        }
        let right = label(last)
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
