import HealthCore
import TextSupport

/// A horizontal bar chart for a terminal: one row per period with its label, a bar from zero and the value,
/// the goal marked on every row, an axis and a summary line.
///
/// Bars use eighth blocks (`█▉▊▋▌▍▎▏`) for a resolution of an eighth of a column, or `#` in ASCII. A bar that
/// reaches the goal is green, others cyan; the goal mark (`│`, `|`) shows where a bar falls short of it and is never
/// drawn over a bar. A period only partly in the range (the first or last week of `--by week`) or not over yet (today,
/// this week) has `*` after its label, a dim bar and a note under the chart, and is left out of the average a period
/// (the summary says `(* left out)`) unless no whole period has data (`(* included)`). The axis's two labels share one format (``ChartFormat/axisLabels(_:unit:)``).
struct BarChart: Sendable {
    private static let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The data.
    var series: ChartSeries
    /// The calendar of period labels.
    var calendar: GregorianCalendar

    /// Creates a chart of `series`.
    init(series: ChartSeries, calendar: GregorianCalendar) {
        self.series = series
        self.calendar = calendar
    }

    /// The chart's lines, none wider than `style.width`.
    func render(style: TerminalStyle) -> [String] {
        var lines = fitted(series.title(calendar: calendar), width: style.width).map { style.paint($0, .bold) }
        let labels = series.points.map { series.label($0, calendar: calendar) }
        let values = series.points.map { $0.value.map { ChartFormat.number($0, unit: series.unit) } ?? "-" }
        let labelWidth = labels.map(\.count).max() ?? 0
        let valueWidth = values.map(\.count).max() ?? 1
        let barWidth = max(5, style.width - labelWidth - 2 - 1 - valueWidth)
        let scale = AxisScale(covering: 0, max(series.recorded.max() ?? 0, series.goal ?? 0), targetTicks: 4)
        let goalCell = series.goal.map { min(barWidth - 1, Int(saturating: (scale.fraction($0) * Double(barWidth)).rounded(.down))) }
        for (index, point) in series.points.enumerated() {
            var line = StyledLine(labels[index])
            line.pad(to: labelWidth + 2)
            line.append(contentsOf: bar(point, width: barWidth, scale: scale, goalCell: goalCell, style: style))
            line.append(" ")
            line.append(String(repeating: " ", count: valueWidth - values[index].count) + values[index])
            lines.append(line.render(style))
        }
        let ticks = ChartFormat.axisLabels([scale.lower, scale.upper], unit: series.unit)
        let high = ticks.last ?? ""
        var axis = StyledLine(String(repeating: " ", count: labelWidth + 2) + (ticks.first ?? "0"))
        axis.pad(to: labelWidth + 2 + barWidth - high.count)
        axis.append(high)
        lines.append(style.paint(axis.render(style), .dim))
        lines.append(contentsOf: fitted(summary(), width: style.width))
        if let note = series.partialNote { lines.append(note) }
        return style.finish(lines)
    }

    /// The bar of one period: `width` cells, the goal mark in the cell at the goal when the bar leaves it empty.
    private func bar(_ point: ChartSeries.Point, width: Int, scale: AxisScale, goalCell: Int?, style: TerminalStyle) -> StyledLine {
        let value = point.value
        var cells = [String](repeating: " ", count: width)
        if let value, value > 0 {
            let eighths = max(0, min(width * 8, Int(saturating: (scale.fraction(value) * Double(width * 8)).rounded())))
            let filled = style.unicode ? eighths / 8 : Int((Double(eighths) / 8).rounded())
            for cell in 0..<filled { cells[cell] = style.glyph("█", "#") }
            if style.unicode, eighths % 8 > 0, filled < width { cells[filled] = BarChart.partials[eighths % 8] }
        }
        let reached = value.map { value in series.goal.map { value >= $0 } ?? false } ?? false
        var marked = -1
        if let goalCell, cells[goalCell] == " " {
            cells[goalCell] = style.glyph("│", "|")
            marked = goalCell
        }
        var line = StyledLine()
        for (index, cell) in cells.enumerated() {
            line.append(cell, index == marked ? .yellow : cell == " " ? nil : point.partial ? .dim : reached ? .green : .cyan)
        }
        return line
    }

    /// Total (bars of totals), average, and on how many days the goal was met.
    private func summary() -> [String] {
        let recorded = series.recorded
        guard let average = series.average else { return ["no data in this range"] }
        var parts: [String] = []
        if series.style == .bars { parts.append("total " + series.amount(recorded.reduce(0, +))) }
        // A partial period (marked *) is left out of the average, unless there is no whole one; the line says which.
        let partial = series.averageLeavesOutPartial ? " (* left out)" : series.averageIncludesPartial ? " (* included)" : ""
        parts.append("average " + series.amount(average) + " a \(series.bucket.rawValue)" + partial)
        if let goal = series.goal {
            let met = recorded.filter { $0 >= goal }.count
            parts.append("goal met on \(met) of \(series.points.count) \(series.bucket.rawValue)s")
        }
        return parts
    }
}

extension StyledLine {
    mutating func append(contentsOf other: StyledLine) {
        for piece in other.pieces { append(piece.text, piece.colour) }
    }
}
