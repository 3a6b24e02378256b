/// The range of the store-wide change numbers that samples and tombstones carry as `seq` (see docs/STORE.md).
///
/// Readers and writers agree on one range: from 1 to 2^53 − 1, the largest whole number a reader that holds JSON
/// numbers as doubles (this store's own decoder, jq, JavaScript) reads exactly. A writer refuses to hand out a
/// number beyond it, and a reader treats a larger one as damage.
enum ChangeNumbers {
    /// The largest change number a writer hands out and a reader accepts: 2^53 − 1 = 9,007,199,254,740,991.
    static let maximum: UInt64 = (1 << 53) - 1

    /// The whole number `value` as a change number, or nil when it is fractional, negative or beyond ``maximum``.
    static func exact(_ value: Double) -> UInt64? {
        guard let whole = UInt64(exactly: value), whole <= maximum else { return nil }
        return whole
    }

    /// The numbers after `last` for `count` new lines, or an error naming the counter when they would pass
    /// ``maximum``.
    ///
    /// - Throws: ``StoreError/changeNumbersExhausted(_:last:)``; nothing may be written then.
    static func next(after last: UInt64, count: Int, counter: String) throws -> ClosedRange<UInt64> {
        guard count > 0, last <= maximum, UInt64(count) <= maximum - last else {
            throw StoreError.changeNumbersExhausted(counter, last: last)
        }
        return last + 1...last + UInt64(count)
    }
}
