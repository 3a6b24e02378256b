import HealthCore
import HKCtlSupport
import TextSupport

/// A blood-pressure reading as typed (`120/80`, `120/80mmHg`, `16/10.7kPa`), before it becomes a correlation of a
/// systolic and a diastolic sample.
///
/// Without a unit the numbers are mmHg. A diastolic value above the systolic one is refused: it is almost always
/// the two numbers swapped. Each value must be in its type's plausible range (systolic 40–300, diastolic 20–200 mmHg).
struct BloodPressureEntry: Sendable {
    /// The reading as typed.
    var reading: String
    /// When it was taken (default: now).
    var at: TimeExpression?
    /// Metadata for the correlation and its members.
    var metadata: [String: MetadataValue]

    /// Creates an entry.
    init(reading: String, at: TimeExpression? = nil, metadata: [String: MetadataValue] = [:]) {
        self.reading = reading
        self.at = at
        self.metadata = metadata
    }

    /// The samples to save in one batch: systolic, diastolic, then the correlation.
    ///
    /// - Throws: ``CorrelationError``, ``UnitError`` or ``SampleError`` naming what is wrong.
    func samples(source: String, context: TimeContext, catalogue: SampleTypeCatalogue = .standard) throws -> [Sample] {
        let systolicType = try catalogue.type(named: QuantityTypeIdentifier.bloodPressureSystolic.rawValue)
        let diastolicType = try catalogue.type(named: QuantityTypeIdentifier.bloodPressureDiastolic.rawValue)
        let compact = reading.replacingEvery(" ", with: "")
        let parts = compact.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = parts.first, !first.isEmpty, !parts[1].isEmpty,
              first.allSatisfy({ $0.isNumber || $0 == "." }) else { throw CorrelationError.badBloodPressure(reading) }
        let second = parts[1]
        let digits = second.prefix { $0.isNumber || $0 == "." }
        guard !digits.isEmpty else { throw CorrelationError.badBloodPressure(reading) }
        let unitText = second.dropFirst(digits.count).isEmpty ? "mmHg" : String(second.dropFirst(digits.count))
        let systolic = try QuantityInput.parse(String(first) + unitText, for: systolicType)
        let diastolic = try QuantityInput.parse(String(digits) + unitText, for: diastolicType)
        let mmHg = try HealthUnit(parsing: "mmHg")
        if try diastolic.value(in: mmHg) > systolic.value(in: mmHg) {
            throw CorrelationError.diastolicAboveSystolic(systolic: systolic.description, diastolic: diastolic.description)
        }
        let date = at?.date ?? context.now
        func member(_ type: SampleType, _ quantity: Quantity) throws -> Sample {
            try Sample(typeIdentifier: type.identifier, start: date, end: date, value: .quantity(quantity), source: source,
                       created: context.now, metadata: metadata)
                .validated(as: type, now: context.now, timeZone: context.timeZone)
        }
        let members = [try member(systolicType, systolic), try member(diastolicType, diastolic)]
        return members + [Correlation.sample(of: .bloodPressure, members: members, start: date, end: date, source: source,
                                             created: context.now, metadata: metadata)]
    }
}
