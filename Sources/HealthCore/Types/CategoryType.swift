/// A type whose samples hold one of a fixed set of values: HealthKit's `HKCategoryType`, made with
/// `CategoryType(.sleepAnalysis)` or looked up with ``ObjectType/categoryType(forIdentifier:)``. Its values are
/// ``SampleType/categoryValues``.
public final class CategoryType: SampleType, @unchecked Sendable {
    /// The category type with this identifier, as `HKCategoryType(_:)`; see ``QuantityType/init(_:)``.
    public convenience init(_ identifier: CategoryTypeIdentifier) {
        guard let type = ObjectType.categoryType(forIdentifier: identifier) else {
            preconditionFailure("No category type has the identifier '\(identifier.rawValue)' in the standard catalogue")
        }
        self.init(copying: type)
    }
}
