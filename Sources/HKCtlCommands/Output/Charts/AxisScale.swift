#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore
import TextSupport

/// A value axis with round tick marks (1, 2, 2.5 or 5 times a power of ten) that covers a range of data.
///
/// Invariant: `lower < upper`, `step > 0`, and `ticks` runs from `lower` to `upper` in steps of `step`.
struct AxisScale: Equatable, Sendable {
    /// The bottom of the axis.
    let lower: Double
    /// The top of the axis.
    let upper: Double
    /// The distance between ticks.
    let step: Double

    /// An axis covering `low...high` with about `targetTicks` intervals. An empty range is widened around its
    /// value; non-finite input gives `0...1`.
    init(covering low: Double, _ high: Double, targetTicks: Int = 5) {
        var (low, high) = (min(low, high), max(low, high))
        if !low.isFinite || !high.isFinite { (low, high) = (0, 1) }
        if high - low < 1e-9 {
            let pad = low == 0 ? 1 : abs(low) * 0.05
            (low, high) = (low >= 0 && low - pad < 0 ? 0 : low - pad, high + pad)
        }
        let raw = (high - low) / Double(max(1, targetTicks))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let normalised = raw / magnitude
        let nice: Double = normalised <= 1 ? 1 : normalised <= 2 ? 2 : normalised <= 2.5 ? 2.5 : normalised <= 5 ? 5 : 10
        var (step, lower) = (nice * magnitude, 0.0)
        lower = (low / step).rounded(.down) * step
        let top = (high / step).rounded(.up) * step
        var upper = top > lower ? top : lower + step
        if !(step.isFinite && lower.isFinite && upper.isFinite && (upper - lower).isFinite) {
            // Values near the largest Double: an axis from 0 to the largest finite value, in five steps.
            (lower, upper, step) = (0, .greatestFiniteMagnitude, .greatestFiniteMagnitude / 5)
        }
        (self.step, self.lower, self.upper) = (step, lower, upper)
    }

    /// The tick values from ``lower`` to ``upper``.
    var ticks: [Double] {
        let count = Swift.min(1000, Swift.max(0, Int(saturating: ((upper - lower) / step).rounded())))
        return (0...count).map { lower + Double($0) * step }
    }

    /// Where `value` lies on the axis: 0 at ``lower``, 1 at ``upper`` (not clamped).
    func fraction(_ value: Double) -> Double { (value - lower) / (upper - lower) }
}
