#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The user's time zone, found from the environment hkctl was given.
///
/// On Linux this follows the same steps as Foundation's `TimeZone.current` (`$TZ` as an abbreviation such as `PST`,
/// then as an identifier; then the zone `/etc/localtime` links to), but reads the environment it is handed instead
/// of building Foundation's copy of the whole process environment, which costs more start-up time than a week of
/// statistics (see BENCHMARKS.md). Anything it cannot settle (`$TZFILE`, an unknown `$TZ`, a copied rather than
/// linked `/etc/localtime`, other systems) is left to `TimeZone.current`, so the answer is always Foundation's.
public enum LocalTimeZone {
    /// Where Linux keeps the system zone and the zone files.
    static let localtimePath = "/etc/localtime"
    static let zoneDirectory = "/usr/share/zoneinfo/"

    /// The user's zone.
    ///
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - localtimeLink: Reads where `/etc/localtime` links to (nil when it is not a link).
    ///   - current: The fallback, Foundation's `TimeZone.current`.
    public static func resolve(environment: [String: String], localtimeLink: () -> String? = readLocaltimeLink,
                               current: () -> TimeZone = { TimeZone.current }) -> TimeZone {
        #if os(Linux)
        if environment["TZFILE"] != nil { return current() }
        if let name = environment["TZ"] {
            return TimeZone.abbreviationDictionary[name].flatMap(TimeZone.init(identifier:))
                ?? TimeZone(identifier: name) ?? current()
        }
        if let target = localtimeLink(), let range = target.range(of: zoneDirectory),
           let zone = TimeZone(identifier: String(target[range.upperBound...])) {
            return zone
        }
        #endif
        return current()
    }

    /// The target of the `/etc/localtime` link, or nil when it is missing or not a link.
    public static func readLocaltimeLink() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(localtimePath, &buffer, Int(PATH_MAX))
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
