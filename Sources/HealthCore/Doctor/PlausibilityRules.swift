/// Rules for data that is well-formed but unlikely to be true: `hkctl doctor` reports it as warnings and never
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
        guard let type else { return problems }
        if let maximum = type.maximumDuration, sample.duration > maximum {
            problems.append("it lasts \(NumberFormatting.human(sample.duration / 3600, fractionDigits: 1)) hours; a \(type.name) "
                + "sample lasts at most \(NumberFormatting.human(maximum / 3600, fractionDigits: 0)) hours")
        }
        guard case let .quantity(quantity) = sample.value, let canonical = type.canonicalUnit,
              let value = try? quantity.value(in: canonical) else { return problems }
        let unit = canonical.unitString
        if let range = type.validRange, !range.contains(value) {
            problems.append("its value \(NumberFormatting.json(value)) \(unit) is outside the plausible range "
                + "\(NumberFormatting.json(range.lowerBound))–\(NumberFormatting.json(range.upperBound)) \(unit) for \(type.name)")
        }
        if let maximum = maximumPerMinute[type.identifier], sample.duration > 0 {
            let minutes = max(sample.duration / 60, 1)
            if value / minutes > maximum {
                problems.append("\(NumberFormatting.json(value)) \(unit) in \(NumberFormatting.human(sample.duration / 60, fractionDigits: 1)) "
                    + "min is more than \(NumberFormatting.json(maximum)) \(unit) a minute")
            }
        }
        return problems
    }
}
