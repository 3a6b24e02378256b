import TextSupport

/// An amount in a unit, like HealthKit's `HKQuantity`.
public struct Quantity: Hashable, Sendable, CustomStringConvertible {
    /// The number, in ``unit``. For `%` it is a fraction: 0.215 means 21.5 %.
    public var value: Double
    /// The unit the value is measured in.
    public var unit: HealthUnit

    /// Creates a quantity.
    public init(_ value: Double, _ unit: HealthUnit) {
        self.value = value
        self.unit = unit
    }

    /// The value expressed in another unit.
    ///
    /// - Throws: ``UnitError/incompatible(_:_:)`` when the units measure different things.
    public func value(in target: HealthUnit) throws -> Double { try unit.convert(value, to: target) }

    /// Whether `other` is the same amount, whatever unit each is written in (`72400 g` and `72.4 kg`): its value in this
    /// unit equals this value to within the rounding of the conversion (a relative 1e-12). False for units of another
    /// dimension.
    public func isSameAmount(as other: Quantity) -> Bool {
        guard let converted = try? other.value(in: unit) else { return false }
        return converted == value || abs(converted - value) <= 1e-12 * max(abs(converted), abs(value))
    }

    /// The same amount in another unit.
    public func converted(to target: HealthUnit) throws -> Quantity { Quantity(try value(in: target), target) }

    public var description: String { "\(NumberFormatting.json(value)) \(unit.unitString)" }
}
