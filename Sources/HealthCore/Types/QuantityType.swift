/// A type whose samples hold an amount: HealthKit's `HKQuantityType`, made with `QuantityType(.stepCount)` or looked
/// up with ``ObjectType/quantityType(forIdentifier:)``. Its ``SampleType/aggregation`` tells how amounts combine and
/// its ``SampleType/canonicalUnit`` the unit statistics answer in.
public final class QuantityType: SampleType, @unchecked Sendable {
    /// The quantity type with this identifier, as `HKQuantityType(_:)`. Every static member of
    /// ``QuantityTypeIdentifier`` names one; a raw value the standard catalogue does not know is a programming error
    /// and stops the program (``ObjectType/quantityType(forIdentifier:)`` returns nil instead).
    public convenience init(_ identifier: QuantityTypeIdentifier) {
        guard let type = ObjectType.quantityType(forIdentifier: identifier) else {
            preconditionFailure("No quantity type has the identifier '\(identifier.rawValue)' in the standard catalogue")
        }
        self.init(copying: type)
    }
}
