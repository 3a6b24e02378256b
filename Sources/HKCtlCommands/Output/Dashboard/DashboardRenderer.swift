import HealthCore
import TextSupport

/// Draws a ``DailySummary`` for a terminal: a heading, then one row per measure with a small bar (progress
/// toward the goal, the weight's last seven days as a sparkline, last night's stages) and its figures.
///
/// ```
/// Today · Saturday 1 June 2024
///
/// Water   ███████████████░░░░░  1,500 of 2,000 mL · 75 %
/// Steps   ████████████████░░░░  8,012 of 10,000 steps · 80 %
/// Weight  ▂▄▆█▅▃▁               72.1 kg · −0.4 kg in 7 days
/// Sleep   ██▓▓▓▓▓▓▓▒▒▒░░░░░░░░  7 h 12 min of 8 h · 90 %
///         23:10–07:05 · deep 1 h 20 min · core 4 h · REM 1 h 30 min · awake 20 min
/// ```
struct DashboardRenderer: Sendable {
    /// The calendar of dates and times.
    var calendar: GregorianCalendar

    private static let labelWidth = 8

    /// Creates a renderer.
    init(calendar: GregorianCalendar) { self.calendar = calendar }

    /// The dashboard's lines, none wider than `style.width` (except a single word that cannot fit).
    func render(_ summary: DailySummary, style: TerminalStyle) -> [String] {
        let barWidth = min(20, max(8, style.width - DashboardRenderer.labelWidth - 2 - 34))
        var lines = [style.paint("Today · " + ChartFormat.longDay(summary.date, calendar: calendar), .bold), ""]
        for progress in [summary.water, summary.steps] {
            var figures = [ChartFormat.number(progress.total, unit: progress.unit)]
            if let goal = progress.goal {
                figures[0] += " of " + ChartFormat.amount(goal, unit: progress.unit, type: progress.type)
                figures.append(percent(progress.fraction ?? 0))
            } else {
                figures[0] = ChartFormat.amount(progress.total, unit: progress.unit, type: progress.type)
            }
            let bar = progressBar([(progress.fraction ?? 0, nil)], width: barWidth, style: style,
                                  reached: (progress.fraction ?? 0) >= 1)
            lines += row(progress.type.title, bar: bar, figures: figures, style: style)
        }
        lines += weightRow(summary.weight, day: summary.date, barWidth: barWidth, style: style)
        lines += sleepRows(summary.sleep, goal: summary.sleepGoal, barWidth: barWidth, style: style)
        return style.finish(lines)
    }

    private func weightRow(_ weight: DailySummary.Weight, day: Date, barWidth: Int, style: TerminalStyle) -> [String] {
        guard let latest = weight.latest else {
            return row("Weight", bar: StyledLine(), figures: ["no weight recorded yet"], style: style, barWidth: barWidth)
        }
        var figures = [ChartFormat.amount(latest, unit: weight.unit, type: weight.type)]
        if let date = weight.latestDate, !calendar.isDate(date, inSameDayAs: day) {
            figures[0] += " on " + ChartFormat.shortDay(date, calendar: calendar)
        }
        if let change = weight.change {
            let sign = change > 0 ? "+" : change < 0 ? style.glyph("−", "-") : "±"
            figures.append(sign + ChartFormat.number(abs(change), unit: weight.unit) + " " + (weight.unit?.unitString ?? "")
                           + " in 7 days")
        }
        let spark = StyledLine(Sparkline.render(weight.days, unicode: style.unicode), .cyan)
        return row("Weight", bar: spark, figures: figures, style: style, barWidth: barWidth)
    }

    private func sleepRows(_ night: SleepNight, goal: TimeInterval?, barWidth: Int, style: TerminalStyle) -> [String] {
        guard night.sampleCount > 0 else {
            return row("Sleep", bar: StyledLine(), figures: ["no sleep recorded last night"], style: style, barWidth: barWidth)
        }
        let scale = max(goal ?? 0, night.asleep, 1)
        let stages: [SleepStage] = [.deep, .core, .rem, .asleep]
        let bar = progressBar(stages.map { ($0.seconds(in: night) / scale, $0) }, width: barWidth, style: style,
                              reached: goal.map { night.asleep >= $0 } ?? false)
        var figures = [ChartFormat.duration(night.asleep) + " asleep"]
        if let goal {
            figures[0] = ChartFormat.duration(night.asleep) + " of " + ChartFormat.duration(goal)
            figures.append(percent(night.asleep / goal))
        }
        var details: [String] = []
        if let start = night.sleepStart, let end = night.sleepEnd {
            details.append(ChartFormat.clock(start, calendar: calendar) + style.glyph("–", "-") + ChartFormat.clock(end, calendar: calendar))
        }
        for stage in stages + [.awake] where stage.seconds(in: night) > 0 {
            details.append(stage.label + " " + ChartFormat.duration(stage.seconds(in: night)))
        }
        let indent = String(repeating: " ", count: DashboardRenderer.labelWidth)
        return row("Sleep", bar: bar, figures: figures, style: style)
            + fitted(details, width: style.width - indent.count).map { indent + $0 }
    }

    /// A bar of `parts` (fractions of the whole width, each in its stage's glyph, or a full block), then an empty
    /// track.
    private func progressBar(_ parts: [(fraction: Double, stage: SleepStage?)], width: Int, style: TerminalStyle,
                             reached: Bool) -> StyledLine {
        var line = StyledLine()
        var elapsed = 0.0
        for part in parts {
            let start = line.count
            elapsed += max(0, part.fraction)
            let end = min(width, Int(saturating: (elapsed * Double(width)).rounded()))
            guard end > start else { continue }
            let glyph = part.stage.map { style.glyph($0.glyphs.unicode, $0.glyphs.ascii) } ?? style.glyph("█", "#")
            line.append(String(repeating: glyph, count: end - start), part.stage?.colour ?? (reached ? .green : .cyan))
        }
        line.append(String(repeating: style.glyph("░", "."), count: width - line.count), .dim)
        return line
    }

    /// `Label   bar  figures`, the figures joined with ` · ` and continued on further lines when too long.
    private func row(_ label: String, bar: StyledLine, figures: [String], style: TerminalStyle, barWidth: Int? = nil) -> [String] {
        var line = StyledLine(label, .bold)
        line.pad(to: DashboardRenderer.labelWidth)
        line.append(contentsOf: bar)
        line.pad(to: DashboardRenderer.labelWidth + max(bar.count, barWidth ?? 0) + 2)
        let column = line.count
        let text = fitted(figures, width: max(10, style.width - column))
        line.append(text[0])
        let indent = String(repeating: " ", count: column)
        return [line.render(style)] + text.dropFirst().map { indent + $0 }
    }

    private func percent(_ fraction: Double) -> String { "\(Int(saturating: (fraction * 100).rounded())) %" }
}
