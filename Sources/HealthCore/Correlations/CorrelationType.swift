/// A kind of correlation, HealthKit's `HKCorrelationType`: samples recorded together as one reading.
///
/// Blood pressure holds exactly one systolic and one diastolic sample; food holds any dietary samples, with the
/// food's name in `HKFoodType` metadata. As in HealthKit, a source is never asked for permission on the correlation
/// type itself: it needs permission for the member types.
public final class CorrelationType: SampleType, @unchecked Sendable {
    /// Other accepted names.
    public let aliases: [String]
    /// The member types it must hold (blood pressure), or nil when any dietary type may be a member (food).
    public let requiredMembers: [String]?
    /// The types a source must be allowed to read to see other sources' correlations of this type.
    public let readTypes: [String]

    init(identifier: String, name: String, aliases: [String], requiredMembers: [String]?, readTypes: [String]) {
        self.aliases = aliases
        self.requiredMembers = requiredMembers
        self.readTypes = readTypes
        super.init(identifier: identifier, name: name, title: name, kind: .correlation, aggregation: nil,
                   canonicalUnit: nil, displayUnit: nil, examples: [], categoryValues: [], maximumDuration: nil,
                   validRange: nil)
    }

    /// The correlation type with this identifier, as `HKCorrelationType(_:)`; an identifier without one is a
    /// programming error and stops the program.
    public convenience init(_ identifier: CorrelationTypeIdentifier) {
        guard let type = CorrelationType.identified(identifier.rawValue) else {
            preconditionFailure("No correlation type has the identifier '\(identifier.rawValue)'")
        }
        self.init(identifier: type.identifier, name: type.name, aliases: type.aliases,
                  requiredMembers: type.requiredMembers, readTypes: type.readTypes)
    }

    static let systolic = "HKQuantityTypeIdentifierBloodPressureSystolic"
    static let diastolic = "HKQuantityTypeIdentifierBloodPressureDiastolic"
    static let dietaryEnergy = "HKQuantityTypeIdentifierDietaryEnergyConsumed"
    /// The metadata key of a food's name.
    public static let foodTypeKey = "HKFoodType"

    /// Systolic and diastolic pressure, in mmHg.
    public static let bloodPressure = CorrelationType(
        identifier: "HKCorrelationTypeIdentifierBloodPressure", name: "blood-pressure", aliases: ["bp", "bloodPressure"],
        requiredMembers: [systolic, diastolic], readTypes: [systolic, diastolic])
    /// A meal or food: dietary energy and nutrients.
    public static let food = CorrelationType(
        identifier: "HKCorrelationTypeIdentifierFood", name: "food", aliases: ["meal", "foods"], requiredMembers: nil,
        readTypes: [dietaryEnergy])
    /// Both correlation types HealthKit has.
    public static let all = [bloodPressure, food]

    /// The correlation type `text` names: its name, alias or identifier, case-insensitively.
    public static func named(_ text: String) -> CorrelationType? {
        let lowered = text.lowercased()
        return all.first { type in
            ([type.name, type.identifier] + type.aliases).contains { $0.lowercased() == lowered }
        }
    }

    /// The correlation type with this identifier.
    public static func identified(_ identifier: String) -> CorrelationType? { all.first { $0.identifier == identifier } }

    /// The correlation type itself, as a ``SampleType`` (it is one).
    public var sampleType: SampleType { self }

    /// Whether a sample of this type may be a member.
    public func allows(member identifier: String) -> Bool {
        requiredMembers.map { $0.contains(identifier) } ?? identifier.hasPrefix("HKQuantityTypeIdentifierDietary")
    }
}
