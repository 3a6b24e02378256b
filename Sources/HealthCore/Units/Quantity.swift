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

    /// The same amount in another unit.
    public func converted(to target: HealthUnit) throws -> Quantity { Quantity(try value(in: target), target) }

    public var description: String { "\(NumberFormatting.json(value)) \(unit.unitString)" }
}
