import Foundation

/// The set of sample types hkctl knows, with lookup by any of their names.
public struct SampleTypeCatalogue: Sendable {
    /// Every type, in the order `hkctl types` lists them.
    public let types: [SampleType]
    private let index: [String: SampleType]

    /// Creates a catalogue; names and identifiers must be unique.
    public init(_ types: [SampleType]) {
        self.types = types
        var index: [String: SampleType] = [:]
        for type in types {
            for key in [type.name, type.identifier, type.shortIdentifier] {
                let lowered = key.lowercased()
                precondition(index[lowered] == nil || index[lowered] == type, "duplicate type name \(key)")
                index[lowered] = type
            }
        }
        self.index = index
    }

    /// The type called `text`: its short name (`water`), HealthKit identifier
    /// (`HKQuantityTypeIdentifierDietaryWater`) or identifier without prefix (`dietaryWater`), in any case.
    ///
    /// - Throws: ``SampleError/unknownType(_:known:)`` naming the known short names.
    public func type(named text: String) throws -> SampleType {
        if let type = index[text.lowercased()] { return type }
        throw SampleError.unknownType(text, known: types.map(\.name))
    }

    /// The type with this exact HealthKit identifier, if known.
    public func type(identifier: String) -> SampleType? { index[identifier.lowercased()] }
}

extension SampleTypeCatalogue {
    /// Sleep stages with HealthKit's raw values; `asleepUnspecified` was called `asleep` before iOS 16.
    public static let sleepValues: [CategoryValue] = [
        CategoryValue(rawValue: 0, name: "inBed", exportNames: ["HKCategoryValueSleepAnalysisInBed"], aliases: ["inbed", "bed"]),
        CategoryValue(rawValue: 1, name: "asleepUnspecified",
                      exportNames: ["HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleep"],
                      aliases: ["asleep", "sleep", "unspecified"], countsAsAsleep: true),
        CategoryValue(rawValue: 2, name: "awake", exportNames: ["HKCategoryValueSleepAnalysisAwake"], aliases: ["awake"]),
        CategoryValue(rawValue: 3, name: "asleepCore", exportNames: ["HKCategoryValueSleepAnalysisAsleepCore"],
                      aliases: ["core", "light"], countsAsAsleep: true),
        CategoryValue(rawValue: 4, name: "asleepDeep", exportNames: ["HKCategoryValueSleepAnalysisAsleepDeep"],
                      aliases: ["deep"], countsAsAsleep: true),
        CategoryValue(rawValue: 5, name: "asleepREM", exportNames: ["HKCategoryValueSleepAnalysisAsleepREM"],
                      aliases: ["rem"], countsAsAsleep: true),
    ]

    /// The types hkctl ships with.
    public static let standard = SampleTypeCatalogue([
        .quantity("HKQuantityTypeIdentifierDietaryWater", name: "water", title: "Water", aggregation: .cumulative,
                  unit: "mL", examples: ["500mL", "0.5L", "16.9fl_oz_us"], validRange: 0...20_000),
        .quantity("HKQuantityTypeIdentifierStepCount", name: "steps", title: "Steps", aggregation: .cumulative,
                  unit: "count", examples: ["8000"], validRange: 0...1_000_000),
        .quantity("HKQuantityTypeIdentifierBodyMass", name: "weight", title: "Weight",
                  aggregation: .discreteArithmetic, unit: "kg", examples: ["72.4kg", "160lb", "11st"],
                  validRange: 0.5...700),
        .category(SampleType.sleepAnalysisIdentifier, name: "sleep", title: "Sleep", values: sleepValues,
                  examples: ["23:10-07:05"], maximumDuration: 24 * 3600),
    ])
}
