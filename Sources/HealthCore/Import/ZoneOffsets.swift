/// A time zone's offset from UTC at whole-second instants, asked of the zone once per stretch between two of its
/// transitions rather than once per instant.
///
/// The stretch starts at the instant asked and runs to the zone's next transition
/// (``ZoneRules/nextTransition(after:)``, which covers every offset change the zone data knows), so instants
/// that mostly go forward, as in an export, cost a comparison each.
struct ZoneOffsets {
    let timeZone: ZoneRules
    /// The stretch `[from, until)` (seconds since 1970) over which `offset` holds.
    private var from: Int64 = .max
    private var until: Int64 = .min
    private var offset = 0

    init(timeZone: ZoneRules) {
        self.timeZone = timeZone
    }

    /// Seconds east of UTC at `seconds` since 1970.
    @inline(__always)
    mutating func offset(at seconds: Int64) -> Int {
        if seconds >= from && seconds < until { return offset }
        return lookUp(seconds)
    }

    private mutating func lookUp(_ seconds: Int64) -> Int {
        let date = Date(timeIntervalSince1970: Double(seconds))
        offset = timeZone.secondsFromGMT(for: date)
        from = seconds
        if let next = timeZone.nextTransition(after: date) {
            until = max(seconds + 1, Int64(next.timeIntervalSince1970.rounded(.down)))
        } else {
            until = .max
        }
        return offset
    }
}
