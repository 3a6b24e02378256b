/// A time zone: its name and the offset from UTC it has at every instant, read from the system's tz database
/// (see ``ZoneDatabase``) rather than from ICU.
///
/// The rules are a table of transitions (the instants at which the offset changes) and, for instants after the
/// table, a POSIX rule (`PST8PDT,M3.2.0,M11.1.0`) that repeats every year. A fixed-offset zone has neither.
public struct ZoneRules: Sendable, Equatable, CustomStringConvertible {
    /// The zone's name: `America/Los_Angeles`, `UTC`, `GMT+0530`.
    public let identifier: String
    /// Transition instants in seconds since 1970, ascending.
    let transitions: [Int64]
    /// The offset (seconds east of UTC) that starts at each transition.
    let offsetsAfter: [Int32]
    /// The offset before the first transition (or always, without transitions and rule).
    let initialOffset: Int
    /// The yearly rule for instants after the last transition.
    let rule: PosixZoneRule?

    /// Universal time.
    public static let gmt = ZoneRules(identifier: "GMT", fixedOffset: 0)

    /// The process's zone (`$TZ`, else `/etc/localtime`, else UTC), from the system's tz database. Commands pass
    /// their own environment to ``ZoneDatabase/current(environment:)`` instead.
    public static var current: ZoneRules {
        let environment = ProcessInfo.processInfo.environment
        return ZoneDatabase.system(environment: environment).current(environment: environment)
    }

    /// A zone that is always `seconds` east of UTC, named like Foundation names them (`GMT+0530`, `GMT-0800`).
    public init(secondsFromGMT seconds: Int) {
        self.init(identifier: ZoneRules.fixedName(seconds), fixedOffset: seconds)
    }

    init(identifier: String, fixedOffset: Int) {
        self.init(identifier: identifier, transitions: [], offsetsAfter: [], initialOffset: fixedOffset, rule: nil)
    }

    init(identifier: String, transitions: [Int64], offsetsAfter: [Int32], initialOffset: Int, rule: PosixZoneRule?) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsetsAfter = offsetsAfter
        self.initialOffset = initialOffset
        self.rule = rule
    }

    public var description: String { identifier }

    /// Whether the zone has one offset at every instant (UTC, `Etc/GMT+5`, `GMT+0200`).
    public var isFixed: Bool {
        guard transitions.isEmpty, let rule else { return transitions.isEmpty }
        return rule.daylight == nil && rule.standardOffset == initialOffset
    }

    /// Seconds east of UTC at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        offset(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The next instant after `date` at which the zone's offset may change, or nil when it never does again.
    public func nextTransition(after date: Date) -> Date? {
        nextTransition(after: Int64(date.timeIntervalSince1970.rounded(.down))).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// Seconds east of UTC at `seconds` since 1970.
    func offset(at seconds: Int64) -> Int {
        if let last = transitions.last, seconds >= last, let rule { return rule.offset(at: seconds) }
        guard let index = lastTransitionIndex(atOrBefore: seconds) else {
            if transitions.isEmpty, let rule { return rule.offset(at: seconds) }
            return initialOffset
        }
        return Int(offsetsAfter[index])
    }

    /// The first transition strictly after `seconds`.
    func nextTransition(after seconds: Int64) -> Int64? {
        if let last = transitions.last, seconds < last {
            let index = lastTransitionIndex(atOrBefore: seconds).map { $0 + 1 } ?? 0
            return transitions[index]
        }
        return rule?.nextTransition(after: seconds)
    }

    /// Which of two instants showing the same wall-clock time (in the hour repeated when clocks go back).
    enum RepeatedTime { case first, second }

    /// The instant at which the wall-clock time `local` (seconds since 1970 as if the zone were UTC) is shown.
    ///
    /// A time shown twice gives the first of the two instants unless told otherwise; a time skipped when clocks
    /// go forward is read with the offset before the change, so 02:30 on a spring-forward night is the instant
    /// shown as 03:30. These are Foundation's choices for `Calendar.date(from:)`.
    func instant(ofLocal local: Int64, repeated: RepeatedTime = .first) -> Int64 {
        // Every instant showing `local` lies within 26 hours of it (offsets stay within ±26 h).
        let window: Int64 = 26 * 3600
        var start = local - window
        var current = offset(at: start)
        var skippedOffset: Int?
        var found: Int64?
        while true {
            let next = nextTransition(after: start)
            let end = min(next ?? .max, local + window + 1)
            let candidate = local - Int64(current)
            if candidate >= start && candidate < end {
                if repeated == .first { return candidate }
                found = candidate
            }
            guard let next, next <= local + window else { break }
            let following = offset(at: next)
            if local >= next + Int64(current) && local < next + Int64(following) { skippedOffset = current }
            start = next
            current = following
        }
        return found ?? local - Int64(skippedOffset ?? current)
    }

    /// The wall-clock times skipped when clocks went forward, if `local` (seconds since 1970 as if the zone were
    /// UTC) is one of them: the first skipped local time and the first shown again (02:00 and 03:00 on a
    /// spring-forward night in New York), and the offset in force before; nil when some instant shows `local`.
    func skippedSpan(containingLocal local: Int64) -> (start: Int64, end: Int64, offsetBefore: Int)? {
        let window: Int64 = 26 * 3600
        var start = local - window
        var current = offset(at: start)
        while let next = nextTransition(after: start), next <= local + window {
            let following = offset(at: next)
            if following > current && local >= next + Int64(current) && local < next + Int64(following) {
                return (next + Int64(current), next + Int64(following), current)
            }
            start = next
            current = following
        }
        return nil
    }

    private func lastTransitionIndex(atOrBefore seconds: Int64) -> Int? {
        var low = 0, high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// `GMT`, `GMT+0530`, `GMT-0800`, as Foundation names fixed-offset zones.
    static func fixedName(_ seconds: Int) -> String {
        if seconds == 0 { return "GMT" }
        let minutes = abs(seconds) / 60
        let digits = String(minutes / 60 * 100 + minutes % 60)
        return "GMT" + (seconds < 0 ? "-" : "+") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
