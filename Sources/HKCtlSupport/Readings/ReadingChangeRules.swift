import HealthCore

/// How far a body measurement can plausibly move between two readings: a weight of 27.2 kg the day after 72.3 kg
/// is a typing mistake (27.2 lb, or 72.2 kg), not a change. A program can warn about such a jump and save the reading
/// anyway: a person decides.
///
/// A reading is compared with the type's previous reading (the latest that starts before it). The change allowed
/// grows with the time between the two, up to a cap, since slow real change adds up: for mass it is relative (5 % of
/// the previous value plus 1 % a day, at most 50 %), for the others absolute, in the type's canonical unit.
package struct ReadingChangeRules: Sendable {
    /// One type's allowance.
    package struct Allowance: Sendable, Equatable {
        /// The change allowed between readings close together, in the canonical unit (or as a fraction when
        /// ``relative``).
        package var base: Double
        /// What is added per day between the readings.
        package var perDay: Double
        /// The most the allowance grows to, however far apart the readings are.
        package var cap: Double
        /// Whether the figures are fractions of the previous value rather than amounts of the canonical unit.
        package var relative: Bool

        /// Creates an allowance.
        package init(base: Double, perDay: Double, cap: Double, relative: Bool) {
            self.base = base
            self.perDay = perDay
            self.cap = cap
            self.relative = relative
        }

        /// The largest believable change from `previous` after `days` days.
        package func allowed(from previous: Double, days: Double) -> Double {
            let fraction = min(base + perDay * max(days, 0), cap)
            return relative ? abs(previous) * fraction : fraction
        }
    }

    /// The allowance per type identifier; types not listed are never checked (steps, water and heart rate vary
    /// freely).
    package var allowances: [String: Allowance] = [
        "HKQuantityTypeIdentifierBodyMass": Allowance(base: 0.05, perDay: 0.01, cap: 0.5, relative: true),
        "HKQuantityTypeIdentifierLeanBodyMass": Allowance(base: 0.05, perDay: 0.01, cap: 0.5, relative: true),
        "HKQuantityTypeIdentifierBodyMassIndex": Allowance(base: 0.05, perDay: 0.01, cap: 0.5, relative: true),
        // Fractions: 0.05 is five percentage points.
        "HKQuantityTypeIdentifierBodyFatPercentage": Allowance(base: 0.05, perDay: 0.005, cap: 0.3, relative: false),
        // Metres: 3 cm of measuring error, then growth of about 11 cm a year.
        "HKQuantityTypeIdentifierHeight": Allowance(base: 0.03, perDay: 0.0003, cap: 0.5, relative: false),
        "HKQuantityTypeIdentifierWaistCircumference": Allowance(base: 0.05, perDay: 0.005, cap: 0.5, relative: false),
    ]

    package init() {}

    /// A jump from one reading to the next that is too large to believe.
    package struct Jump: Sendable, Equatable {
        /// The new reading's value in the type's canonical unit.
        package var value: Double
        /// The previous reading's value in the same unit.
        package var previousValue: Double
        /// When the previous reading started.
        package var previousDate: Date
        /// The largest change believable over the time between the two.
        package var allowed: Double
        /// The canonical unit both values are in.
        package var unit: HealthUnit
    }

    /// The jump from `previous` to `reading` when it is larger than the type allows, else nil (also for types with no
    /// allowance and values that are not quantities of the type's dimension).
    ///
    /// - Parameters:
    ///   - reading: The new sample.
    ///   - previous: The type's reading before it.
    ///   - type: Their type.
    package func jump(to reading: Sample, from previous: Sample, type: SampleType) -> Jump? {
        guard let allowance = allowances[type.identifier], let unit = type.canonicalUnit,
              let new = try? reading.value.quantity?.value(in: unit), let old = try? previous.value.quantity?.value(in: unit),
              new.isFinite, old.isFinite else { return nil }
        let days = abs(reading.start.timeIntervalSince(previous.start)) / 86_400
        let allowed = allowance.allowed(from: old, days: days)
        guard abs(new - old) > allowed else { return nil }
        return Jump(value: new, previousValue: old, previousDate: previous.start, allowed: allowed, unit: unit)
    }
}
