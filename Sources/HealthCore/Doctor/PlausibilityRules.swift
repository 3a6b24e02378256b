import TextSupport

/// Rules for data that is well-formed but unlikely to be true: ``StoreDoctor`` reports it as warnings and never
/// changes it (a person decides).
public struct PlausibilityRules: Sendable {
    /// The highest believable rate per minute for cumulative types, in the type's canonical unit.
    public var maximumPerMinute: [String: Double] = [
        "HKQuantityTypeIdentifierStepCount": 400,
        "HKQuantityTypeIdentifierDistanceWalkingRunning": 1_000,
        "HKQuantityTypeIdentifierDistanceCycling": 2_000,
        "HKQuantityTypeIdentifierFlightsClimbed": 60,
        "HKQuantityTypeIdentifierActiveEnergyBurned": 100,
    ]
    /// How far after "now" a sample may end before it is reported (clocks differ a little).
    public var futureTolerance: TimeInterval = 86_400

    public init() {}

    /// The warnings for one sample (empty when it looks fine).
    ///
    /// - Parameters:
    ///   - sample: The sample.
    ///   - type: Its type, when the catalogue knows it.
    ///   - now: The current time.
    public func problems(with sample: Sample, type: SampleType?, now: Date) -> [String] {
        var problems: [String] = []
        if sample.end.timeIntervalSince(now) > futureTolerance {
            let years = sample.end.timeIntervalSince(now) / (365.25 * 86_400)
            let ahead = years >= 2 ? "\(Int(years)) years" : "\(Int(sample.end.timeIntervalSince(now) / 86_400)) days"
            problems.append("it ends \(ahead) after now (\(ISODate.format(sample.end, in: .gmt)))")
        }
        // A record kept as written (an export's or Health Auto Export's value hkctl cannot type, such as a day's
        // count of stand hours) is not a sample of its type: the type's limits do not apply to it.
        if case .generic = sample.value { return problems }
        guard let type else { return problems }
        if let maximum = type.maximumDuration, sample.duration > maximum {
            problems.append("it lasts \(NumberFormatting.human(sample.duration / 3600, fractionDigits: 1)) hours; a \(type.name) "
                + "sample lasts at most \(NumberFormatting.human(maximum / 3600, fractionDigits: 0)) hours")
        }
        guard case let .quantity(quantity) = sample.value, let canonical = type.canonicalUnit,
              let value = try? quantity.value(in: canonical) else { return problems }
        let unit = canonical.unitString
        if let maximum = maximumPerMinute[type.identifier], sample.duration > 0 {
            let minutes = max(sample.duration / 60, 1)
            if value / minutes > maximum {
                problems.append("\(NumberFormatting.json(value)) \(unit) in \(NumberFormatting.human(sample.duration / 60, fractionDigits: 1)) "
                    + "min is more than \(NumberFormatting.json(maximum)) \(unit) a minute")
            }
        }
        return problems
    }

    /// Values no writer stores (saves and imports refuse them; only a hand-edited file holds them), for which
    /// ``StoreDoctor`` reports errors: a quantity outside its type's valid range or not finite, a workout's energy
    /// or distance outside ``Workout/energyRange`` or ``Workout/distanceRange``. Sums of such values can overflow.
    public func rangeErrors(with sample: Sample, type: SampleType?) -> [String] {
        if sample.detail?.workout != nil {
            guard let workout = Workout(sample: sample), !workout.hasPlausibleTotals else { return [] }
            let energy = workout.detail.totalEnergyBurned.flatMap { try? $0.value(in: Workout.kilocalorie) }
            let distance = workout.detail.totalDistance.flatMap { try? $0.value(in: Workout.meter) }
            var parts: [String] = []
            if let energy, !(energy.isFinite && Workout.energyRange.contains(energy)) {
                parts.append("its energy \(workout.detail.totalEnergyBurned.map { NumberFormatting.json($0.value) + " " + $0.unit.unitString } ?? "") is outside the valid range 0–\(NumberFormatting.json(Workout.energyRange.upperBound)) kcal")
            }
            if let distance, !(distance.isFinite && Workout.distanceRange.contains(distance)) {
                parts.append("its distance \(workout.detail.totalDistance.map { NumberFormatting.json($0.value) + " " + $0.unit.unitString } ?? "") is outside the valid range 0–\(NumberFormatting.json(Workout.distanceRange.upperBound)) m")
            }
            return parts
        }
        guard let type, case let .quantity(quantity) = sample.value, let canonical = type.canonicalUnit,
              let value = try? quantity.value(in: canonical), OverflowCheck.isOutOfRange(value, of: type) else { return [] }
        let unit = canonical.unitString
        let range = type.validRange.map { " \(NumberFormatting.json($0.lowerBound))–\(NumberFormatting.json($0.upperBound)) \(unit)" } ?? ""
        let shown = value.isFinite ? "\(NumberFormatting.json(value)) \(unit)" : "\(NumberFormatting.json(quantity.value)) \(quantity.unit.unitString)"
        return ["its value \(shown) is outside the valid range\(range) for \(type.name); "
            + "no writer stores it, and sums that include it can overflow (correct it, or delete the sample)"]
    }
}
