import HealthCore
import TextSupport

/// Reads a workout's length as people type it: `45min`, `45m`, `1.5h`, `1h30m`, `1h 30min`, `90s`, `2hr`.
enum WorkoutDuration {
    /// The longest workout hkctl accepts, in hours.
    static let maximumHours = 48

    /// Seconds in `text`.
    ///
    /// - Throws: ``WorkoutError/badDuration(_:)`` when it is not a duration,
    ///   ``WorkoutError/durationOutOfRange(_:maximumHours:)`` when it is zero or too long.
    static func parse(_ text: String) throws -> TimeInterval {
        let units: [(names: [String], seconds: Double)] = [
            (["h", "hr", "hrs", "hour", "hours"], 3600), (["m", "min", "mins", "minute", "minutes"], 60),
            (["s", "sec", "secs", "second", "seconds"], 1),
        ]
        var total = 0.0
        var rest = Substring(text.lowercased().replacingEvery(" ", with: ""))
        var usedUnits = Set<Double>()
        guard !rest.isEmpty else { throw WorkoutError.badDuration(text) }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            rest = rest.dropFirst(number.count)
            let word = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(word.count)
            guard let value = Double(number), value.isFinite,
                  let unit = units.first(where: { $0.names.contains(String(word)) }),
                  usedUnits.insert(unit.seconds).inserted else { throw WorkoutError.badDuration(text) }
            total += value * unit.seconds
        }
        guard total > 0, total <= Double(maximumHours) * 3600 else {
            throw WorkoutError.durationOutOfRange(text, maximumHours: maximumHours)
        }
        return total
    }
}
