import HealthCore
import TextSupport

/// A per-night sleep chart for a terminal: one row per night (named after its morning) with a bar of its stages
/// (deep, core, REM, asleep without a stage, awake, in bed), the time asleep, a legend and a summary.
///
/// Stages are drawn in that order, each as long as the time spent in it (not when it happened); the goal mark
/// is placed at the goal's time asleep.
struct SleepChart: Sendable {
    /// The nights, in order.
    var nights: [SleepNight]
    /// Seconds of sleep to aim for a night; nil for none.
    var goal: TimeInterval?
    /// The calendar of night labels.
    var calendar: GregorianCalendar

    /// Creates a chart.
    init(nights: [SleepNight], goal: TimeInterval?, calendar: GregorianCalendar) {
        self.nights = nights
        self.goal = goal
        self.calendar = calendar
    }

    /// The chart's lines, none wider than `style.width`.
    func render(style: TerminalStyle) -> [String] {
        var title = ["Sleep per night"]
        if let first = nights.first, let last = nights.last {
            title.append(ChartFormat.range(from: first.date, to: last.date.addingTimeInterval(1), calendar: calendar))
        }
        if let goal { title.append("goal " + ChartFormat.duration(goal)) }
        var lines = fitted(title, width: style.width).map { style.paint($0, .bold) }
        guard !nights.isEmpty else { return style.finish(lines + ["no nights in this range"]) }
        let labels = nights.map { ChartFormat.day($0.date, calendar: calendar) }
        let values = nights.map { $0.sampleCount > 0 ? ChartFormat.duration($0.asleep) : "-" }
        let labelWidth = labels.map(\.count).max() ?? 0
        let valueWidth = values.map(\.count).max() ?? 1
        let barWidth = max(5, style.width - labelWidth - 3 - valueWidth)
        let longest = nights.map { night in SleepStage.allCases.reduce(0) { $0 + $1.seconds(in: night) } }.max() ?? 0
        let scale = AxisScale(covering: 0, max(longest, goal ?? 0) / 3600, targetTicks: 4)
        let goalCell = goal.map { min(barWidth - 1, Int(saturating: (scale.fraction($0 / 3600) * Double(barWidth)).rounded(.down))) }
        for (index, night) in nights.enumerated() {
            var line = StyledLine(labels[index])
            line.pad(to: labelWidth + 2)
            var cells: [(String, TerminalStyle.Colour?)] = []
            var elapsed = 0.0
            for stage in SleepStage.allCases {
                let start = cells.count
                elapsed += stage.seconds(in: night)
                let end = min(barWidth, Int(saturating: (scale.fraction(elapsed / 3600) * Double(barWidth)).rounded()))
                for _ in start..<max(start, end) { cells.append((style.glyph(stage.glyphs.unicode, stage.glyphs.ascii), stage.colour)) }
            }
            while cells.count < barWidth { cells.append((" ", nil)) }
            if let goalCell, [" ", style.glyph("·", "-")].contains(cells[goalCell].0) { cells[goalCell] = (style.glyph("│", "|"), .yellow) }
            for cell in cells { line.append(cell.0, cell.1) }
            line.append(" " + String(repeating: " ", count: valueWidth - values[index].count) + values[index])
            lines.append(line.render(style))
        }
        let ticks = ChartFormat.axisLabels([scale.lower, scale.upper], unit: nil)
        let high = (ticks.last ?? "") + " h"
        var axis = StyledLine(String(repeating: " ", count: labelWidth + 2) + (ticks.first ?? "0") + " h")
        axis.pad(to: labelWidth + 2 + barWidth - high.count)
        axis.append(high)
        lines.append(style.paint(axis.render(style), .dim))
        var legend = StyledLine()
        for stage in SleepStage.allCases {
            if legend.count > 0 && legend.count + 2 + 2 + stage.label.count > style.width {
                lines.append(legend.render(style))
                legend = StyledLine()
            }
            if legend.count > 0 { legend.append("  ") }
            legend.append(style.glyph(stage.glyphs.unicode, stage.glyphs.ascii), stage.colour)
            legend.append(" " + stage.label)
        }
        lines.append(legend.render(style))
        lines.append(contentsOf: fitted(summary(), width: style.width))
        return style.finish(lines)
    }

    private func summary() -> [String] {
        let recorded = nights.filter { $0.sampleCount > 0 }
        guard !recorded.isEmpty else { return ["no sleep recorded in this range"] }
        var parts = ["average " + ChartFormat.duration(recorded.map(\.asleep).reduce(0, +) / Double(recorded.count))
                     + " a night"]
        if let goal {
            parts.append("goal met on \(recorded.filter { $0.asleep >= goal }.count) of \(nights.count) nights")
        }
        return parts
    }
}
