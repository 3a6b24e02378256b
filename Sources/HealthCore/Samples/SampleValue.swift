/// What a sample measured: a quantity, or a category type's raw value.
public enum SampleValue: Hashable, Sendable {
    /// An amount with its unit, as entered or imported.
    case quantity(Quantity)
    /// The raw value of a category type (sleep stage 3 = asleepCore).
    case category(Int)
    /// A value the library cannot type yet (an unknown category value, a unit it does not know), kept exactly as
    /// written so that nothing imported is lost and a later version can type it.
    case generic(value: String, unit: String?)

    /// The quantity, if this is one.
    public var quantity: Quantity? {
        if case let .quantity(quantity) = self { return quantity }
        return nil
    }

    /// The category raw value, if this is one.
    public var categoryRawValue: Int? {
        if case let .category(raw) = self { return raw }
        return nil
    }
}
