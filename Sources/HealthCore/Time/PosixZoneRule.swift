/// A POSIX `TZ` rule such as `PST8PDT,M3.2.0,M11.1.0` or `<+0330>-3:30`: a standard offset and, optionally, a
/// daylight-saving offset with the yearly days and times it starts and ends.
///
/// TZif files end with one (their "footer") for the years after their table of transitions. The syntax is POSIX's
/// with RFC 8536's extensions (hours from -167 to 167 in transition times).
struct PosixZoneRule: Sendable, Equatable {
    /// When in a year a change happens: the local day and the second of that day (which may be negative or pass
    /// 24 h).
    struct Change: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: day 1…365, February 29 never counted.
            case julianNoLeap(Int)
            /// `n`: day 0…365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…4, 5 = the last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }
        var day: Day
        var secondOfDay: Int
    }

    /// Daylight-saving time: its offset and the changes into and out of it.
    struct Daylight: Sendable, Equatable {
        var offset: Int
        var start: Change
        var end: Change
    }

    /// Seconds east of UTC outside daylight-saving time.
    var standardOffset: Int
    var daylight: Daylight?

    /// Parses a rule; nil when `text` is not one.
    init?(_ text: String) {
        var scanner = RuleScanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        standardOffset = -standard
        if scanner.atEnd { daylight = nil; return }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if let value = scanner.peekIsOffsetStart ? scanner.offset() : nil { daylightOffset = -value }
        // Without rules POSIX leaves the dates to the implementation; tzcode uses the US rules since 2007.
        var start = Change(day: .monthWeekDay(month: 3, week: 2, weekday: 0), secondOfDay: 7200)
        var end = Change(day: .monthWeekDay(month: 11, week: 1, weekday: 0), secondOfDay: 7200)
        if !scanner.atEnd {
            guard scanner.take(UInt8(ascii: ",")), let first = scanner.change(), scanner.take(UInt8(ascii: ",")),
                  let second = scanner.change(), scanner.atEnd else { return nil }
            (start, end) = (first, second)
        }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    /// Seconds east of UTC at `seconds` since 1970.
    func offset(at seconds: Int64) -> Int {
        isDaylightSavingTime(at: seconds) ? daylight?.offset ?? standardOffset : standardOffset
    }

    /// Whether `seconds` since 1970 falls in daylight-saving time.
    func isDaylightSavingTime(at seconds: Int64) -> Bool {
        guard let daylight else { return false }
        let year = Self.year(of: seconds + Int64(standardOffset))
        var inDaylight = false
        var latest = Int64.min
        // Of two changes at one instant (a rule for all-year daylight time), the later year's counts.
        for y in year - 1...year + 1 {
            for (instant, startsDaylight) in changes(in: y, daylight) where instant <= seconds && instant >= latest {
                latest = instant
                inDaylight = startsDaylight
            }
        }
        return inDaylight
    }

    /// The first change strictly after `seconds`.
    func nextTransition(after seconds: Int64) -> Int64? {
        guard let daylight else { return nil }
        let year = Self.year(of: seconds + Int64(standardOffset))
        var best: Int64?
        for y in year - 1...year + 1 {
            for (instant, _) in changes(in: y, daylight) where instant > seconds && instant < (best ?? .max) {
                best = instant
            }
        }
        return best
    }

    /// The year's two changes as UTC instants, each with whether it starts daylight time. The start's time is
    /// read in standard time, the end's in daylight time.
    private func changes(in year: Int, _ daylight: Daylight) -> [(Int64, Bool)] {
        let start = Self.localSeconds(daylight.start, year: year) - Int64(standardOffset)
        let end = Self.localSeconds(daylight.end, year: year) - Int64(daylight.offset)
        return [(start, true), (end, false)]
    }

    /// Seconds since 1970, as if the zone were UTC, of `change` in `year`.
    private static func localSeconds(_ change: Change, year: Int) -> Int64 {
        let firstOfYear = ISODate.daysFromCivil(year, 1, 1)
        let days: Int
        switch change.day {
        case let .julianNoLeap(n):
            let leap = ISODate.daysInMonth(year: year, month: 2) == 29
            days = firstOfYear + n - 1 + (leap && n >= 60 ? 1 : 0)
        case let .zeroBased(n):
            days = firstOfYear + n
        case let .monthWeekDay(month, week, weekday):
            let first = ISODate.daysFromCivil(year, month, 1)
            let firstWeekday = ((first % 7) + 11) % 7  // 1970-01-01 was a Thursday (4)
            var day = first + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = ISODate.daysInMonth(year: year, month: month)
            while day >= first + length { day -= 7 }
            days = day
        }
        return Int64(days) * 86_400 + Int64(change.secondOfDay)
    }

    private static func year(of localSeconds: Int64) -> Int {
        let days = localSeconds >= 0 ? localSeconds / 86_400 : (localSeconds - 86_399) / 86_400
        return ISODate.civil(fromDays: Int(days)).year
    }
}

/// A cursor over the bytes of a POSIX `TZ` rule.
private struct RuleScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    var peekIsOffsetStart: Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        return byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39)
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A zone abbreviation: three or more letters, or anything between `<` and `>`.
    mutating func name() -> Bool {
        if take(UInt8(ascii: "<")) {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") { index += 1 }
            guard index < bytes.count, index > start else { return false }
            index += 1
            return true
        }
        let start = index
        while index < bytes.count, (bytes[index] | 0x20) >= UInt8(ascii: "a"), (bytes[index] | 0x20) <= UInt8(ascii: "z") {
            index += 1
        }
        return index - start >= 3
    }

    /// `[+-]h[h][:mm[:ss]]` in seconds, with the sign as written (POSIX offsets count west of UTC).
    mutating func offset(maximumHours: Int = 24) -> Int? {
        var sign = 1
        if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
        guard let hours = number(maximumDigits: 3), hours <= maximumHours else { return nil }
        var seconds = hours * 3600
        if take(UInt8(ascii: ":")) {
            guard let minutes = number(maximumDigits: 2), minutes < 60 else { return nil }
            seconds += minutes * 60
            if take(UInt8(ascii: ":")) {
                guard let secs = number(maximumDigits: 2), secs < 60 else { return nil }
                seconds += secs
            }
        }
        return sign * seconds
    }

    /// `date[/time]`.
    mutating func change() -> PosixZoneRule.Change? {
        let day: PosixZoneRule.Change.Day
        if take(UInt8(ascii: "J")) {
            guard let n = number(maximumDigits: 3), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        } else if take(UInt8(ascii: "M")) {
            guard let month = number(maximumDigits: 2), (1...12).contains(month), take(UInt8(ascii: ".")),
                  let week = number(maximumDigits: 1), (1...5).contains(week), take(UInt8(ascii: ".")),
                  let weekday = number(maximumDigits: 1), (0...6).contains(weekday) else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let n = number(maximumDigits: 3), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var second = 7200
        if take(UInt8(ascii: "/")) {
            guard let time = offset(maximumHours: 167) else { return nil }
            second = time
        }
        return PosixZoneRule.Change(day: day, secondOfDay: second)
    }

    private mutating func number(maximumDigits: Int) -> Int? {
        var value = 0, digits = 0
        while index < bytes.count, digits < maximumDigits, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            digits += 1
        }
        return digits == 0 ? nil : value
    }
}
