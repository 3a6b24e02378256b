#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore
import TextSupport

/// Numbers with their unit, durations and dates, as charts and the dashboard show them to people.
///
/// Counts, millilitres, grams, kilocalories and beats per minute are whole numbers; kilograms, pounds, fluid ounces
/// and percentages have one decimal; other units up to two. Tables use the same rules (one set of number rules). Large numbers are grouped (`12,345`). Percentages, stored as fractions, are
/// shown in percent. Dates are English and independent of the locale (`Mon 27 May`).
enum ChartFormat {
    private static let wholeUnits: Set<String> = ["count", "mL", "g", "mg", "kcal", "Cal", "kJ", "count/min", "ms", "mg/dL", "m",
                                                  "ft", "s", "min"]
    private static let oneDecimalUnits: Set<String> = ["kg", "lb", "st", "hr", "cm", "in", "degC", "degF", "%", "fl_oz_us", "fl_oz_imp"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                     "September", "October", "November", "December"]
    private static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// Decimals shown for values in `unit`.
    static func fractionDigits(for unit: HealthUnit?) -> Int {
        guard let unit else { return 0 }
        return fractionDigits(forUnitString: unit.unitString)
    }

    /// Decimals shown for values in the unit spelled `unitString` (HealthKit's spelling).
    static func fractionDigits(forUnitString unitString: String) -> Int {
        if wholeUnits.contains(unitString) { return 0 }
        return oneDecimalUnits.contains(unitString) ? 1 : 2
    }

    /// How a unit reads after a number: `fl oz` for HealthKit's `fl_oz_us`, `°C` for `degC`, else HealthKit's
    /// spelling (which JSON and CSV keep).
    static func unitName(_ unitString: String) -> String {
        switch unitString {
        case "fl_oz_us": return "fl oz"
        case "fl_oz_imp": return "imp fl oz"
        case "degC": return "°C"
        case "degF": return "°F"
        default: return unitString
        }
    }

    /// `value` as people read it in `unit`: `8,012`, `72.4`, `21.5` (for 0.215 `%`).
    static func number(_ value: Double, unit: HealthUnit?) -> String {
        let shown = unit == .percent() ? value * 100 : value
        return number(shown, unitString: unit?.unitString)
    }

    /// `shown` (already in percent for `%`) with the decimals of `unitString`: exactly one for the one-decimal units,
    /// so that `72.0 kg` stands beside `71.7 kg`; up to two, trailing zeros dropped, for the others.
    static func number(_ shown: Double, unitString: String?) -> String {
        guard let unitString else { return NumberFormatting.human(shown, fractionDigits: 0) }
        if oneDecimalUnits.contains(unitString) { return NumberFormatting.grouped(shown, fractionDigits: 1) }
        return NumberFormatting.human(shown, fractionDigits: fractionDigits(forUnitString: unitString))
    }

    /// The labels of `scale`'s ticks in one format for the whole axis (``axisLabels(_:unit:)``):
    /// `71.0 71.2 71.4`, `71.00 71.25 71.50`, `2,500 5,000 7,500 10,000`.
    static func tickLabels(_ scale: AxisScale, unit: HealthUnit?) -> [String] {
        axisLabels(scale.ticks, unit: unit)
    }

    /// Labels of an axis's values in one format: every value with as many decimals as the one needing most (at most
    /// 4), thousands grouped as everywhere (``NumberFormatting``); percentages (stored as fractions) in percent.
    static func axisLabels(_ values: [Double], unit: HealthUnit?) -> [String] {
        let factor = unit == .percent() ? 100.0 : 1
        // The fewest decimals that write a value exactly (71.25 → 2), at most 4.
        let digits = values.map { value in
            (0...4).first { digits in
                let scaled = value * factor * pow(10, Double(digits))
                return abs(scaled - scaled.rounded()) < 1e-6 * max(1, abs(scaled))
            } ?? 4
        }.max() ?? 0
        return values.map { NumberFormatting.grouped($0 * factor, fractionDigits: digits) }
    }

    /// The unit's name as shown after a number: `steps` for step counts, `bpm`, `%`, else the unit string.
    static func unitLabel(_ unit: HealthUnit?, type: SampleType) -> String {
        guard let unit else { return "" }
        switch unit.unitString {
        case "count": return type.name == "steps" ? "steps" : ""
        case "count/min": return "bpm"
        default: return unitName(unit.unitString)
        }
    }

    /// A number with its unit: `8,012 steps`, `72.4 kg`, `1,500 mL`.
    static func amount(_ value: Double, unit: HealthUnit?, type: SampleType) -> String {
        let label = unitLabel(unit, type: type)
        let number = number(value, unit: unit)
        return label.isEmpty ? number : label == "%" ? number + " %" : number + " " + label
    }

    /// A duration to the minute, as tables show it: `7 h 12 min`, `45 min`, `8 h 00 min` (``Display/duration(_:)``).
    static func duration(_ seconds: TimeInterval) -> String { Display.duration(max(0, seconds)) }

    /// A day with its weekday: `Mon 27 May`.
    static func day(_ date: Date, calendar: GregorianCalendar) -> String {
        let local = calendar.localTime(of: date)
        return "\(weekdays[local.weekday - 1]) \(local.day) \(months[local.month - 1])"
    }

    /// A day without its weekday: `27 May`.
    static func shortDay(_ date: Date, calendar: GregorianCalendar) -> String {
        let local = calendar.localTime(of: date)
        return "\(local.day) \(months[local.month - 1])"
    }

    /// A date in full: `Saturday 1 June 2024`.
    static func longDay(_ date: Date, calendar: GregorianCalendar) -> String {
        let local = calendar.localTime(of: date)
        return "\(weekdayNames[local.weekday - 1]) \(local.day) \(monthNames[local.month - 1]) \(local.year)"
    }

    /// A time of day: `23:10`.
    static func clock(_ date: Date, calendar: GregorianCalendar) -> String {
        let local = calendar.localTime(of: date)
        return (local.hour < 10 ? "0" : "") + String(local.hour) + (local.minute < 10 ? ":0" : ":") + String(local.minute)
    }

    /// The label of the period starting at `start`: an hour (`14:00`), a day (`Mon 27 May`), a week (`wk 27 May`),
    /// a month (`May 2024`) or a year (`2024`).
    static func period(_ start: Date, bucket: BucketUnit, calendar: GregorianCalendar) -> String {
        let local = calendar.localTime(of: start)
        switch bucket {
        case .hour: return clock(start, calendar: calendar)
        case .day: return day(start, calendar: calendar)
        case .week: return "wk " + shortDay(start, calendar: calendar)
        case .month: return "\(months[local.month - 1]) \(local.year)"
        case .year: return "\(local.year)"
        }
    }

    /// The days from `start` to the last instant before `end`: `27 May – 2 Jun 2024`, `1 Jun 2024`.
    static func range(from start: Date, to end: Date, calendar: GregorianCalendar) -> String {
        let last = max(start, end.addingTimeInterval(-0.001))
        let year = calendar.localTime(of: last).year
        let first = shortDay(start, calendar: calendar)
        let final = shortDay(last, calendar: calendar)
        if calendar.isDate(start, inSameDayAs: last) { return "\(final) \(year)" }
        let firstYear = calendar.localTime(of: start).year
        return firstYear == year ? "\(first) – \(final) \(year)" : "\(first) \(firstYear) – \(final) \(year)"
    }
}
