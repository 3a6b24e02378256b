extension Int {
    /// `value` rounded toward zero, clamped to `Int`'s range instead of trapping: NaN is 0, +∞ and anything above
    /// `Int.max` is `Int.max`, −∞ and anything below `Int.min` is `Int.min`. Output code converts with this, so a
    /// stored value near the largest `Double` can never crash a chart or a table.
    @inlinable
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.2233720368547748e18 {
            self = .max
        } else if value <= -9.2233720368547758e18 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
