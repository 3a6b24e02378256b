// The glue between state of mind and the sample types: its identifier, its type, where it is looked up. Kept in
// this one file so that a change of how types are modelled touches only it.

extension StateOfMind {
    /// HealthKit's identifier of the state of mind type: `HKDataTypeStateOfMind` (the value of the constant
    /// `HKDataTypeIdentifierStateOfMind`).
    public static let typeIdentifier = "HKDataTypeStateOfMind"
    /// The state of mind type; like the workout type it is not in the catalogue (its samples are neither quantities
    /// nor category values). Its name is `mood`.
    static let sampleType = SampleType(identifier: typeIdentifier, name: "mood", title: "State of mind", kind: .category,
                                       aggregation: nil, canonicalUnit: nil, displayUnit: nil, examples: ["pleasant"],
                                       categoryValues: [], maximumDuration: nil, validRange: nil)
}

extension SampleType {
    /// The type of states of mind, as `HKSampleType.stateOfMindType()`.
    public static func stateOfMindType() -> SampleType { StateOfMind.sampleType }
}
