/// The span of dates the store keeps, 1900 to 2999.
///
/// A query, a statistics request or a sleep-nights query over exactly `distantStart..<distantEnd` means "all time":
/// statistics and nights then run from the first to the last sample found rather than over eleven centuries of empty
/// buckets.
public enum DateRange: Sendable {
    /// The earliest instant the store keeps (1900-01-01 UTC).
    public static let distantStart = Date(timeIntervalSince1970: -2_208_988_800)
    /// An instant after anything the store keeps (3000-01-01 UTC).
    public static let distantEnd = Date(timeIntervalSince1970: 32_503_680_000)
}
