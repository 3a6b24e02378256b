#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds zones by name in the system's tz database (`/usr/share/zoneinfo`, or `$TZDIR`), and the user's own zone
/// from `$TZ` or `/etc/localtime`.
///
/// Names are the database's (`Europe/Paris`, `America/New_York`, `UTC`, `EST5EDT`) plus fixed offsets written
/// `GMT+2`, `UTC-0530` or `GMT+05:30`. The file system is reached only through the two closures, so tests can
/// hand in their own files.
public struct ZoneDatabase: Sendable {
    /// The folder the zone files are in.
    public var directory: String
    /// The bytes of the file at a path, or nil when it cannot be read.
    public var readFile: @Sendable (String) -> [UInt8]?
    /// The target of a symbolic link, or nil when the path is not one.
    public var readLink: @Sendable (String) -> String?

    /// Creates a database over the given folder and file access.
    public init(directory: String, readFile: @escaping @Sendable (String) -> [UInt8]?,
                readLink: @escaping @Sendable (String) -> String?) {
        self.directory = directory
        self.readFile = readFile
        self.readLink = readLink
    }

    /// The system's database: `$TZDIR` when set, else `/usr/share/zoneinfo`.
    public static func system(environment: [String: String]) -> ZoneDatabase {
        let directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        return ZoneDatabase(directory: directory, readFile: SystemFiles.contents, readLink: SystemFiles.link)
    }

    /// The zone called `name`, or nil when the database has no such zone.
    ///
    /// Besides the database's names, a few short names that Foundation (through ICU) also accepts and the
    /// database has no file for are read as the zone they stand for: `PST`, `CST`, `JST`, `IST`, `AET`, `ECT`.
    ///
    /// - Parameter offsets: Whether `GMT+2` is the fixed offset +02:00 (as `--tz` reads it). `$TZ` is read as the C
    ///   library reads it: there `GMT+2` is a POSIX rule, two hours west of UTC (``current(environment:)``).
    public func zone(named name: String, offsets: Bool = true) -> ZoneRules? {
        // `GMT` and `UTC` (and a zero offset, which reads the same either way) are GMT in both readings.
        if let fixed = Self.fixedZone(name), offsets || fixed.secondsFromGMT(for: Date(timeIntervalSince1970: 0)) == 0 { return fixed }
        guard Self.isPlausibleName(name) else { return nil }
        if let bytes = readFile(directory + "/" + name) { return TZifParser.rules(identifier: name, bytes: bytes) }
        guard let target = Self.shortNames[name], let bytes = readFile(directory + "/" + target) else { return nil }
        return TZifParser.rules(identifier: name, bytes: bytes)
    }

    /// The zone names the database lists for people to choose from (its `zone1970.tab`, else `zone.tab`: one
    /// canonical zone per region, `Europe/Paris`), sorted, with `UTC` first; just `UTC` when it lists none.
    public func listedNames() -> [String] {
        guard let bytes = readFile(directory + "/zone1970.tab") ?? readFile(directory + "/zone.tab") else { return ["UTC"] }
        var names = Set<String>()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            // Country codes, coordinates, the zone, an optional comment, separated by tabs.
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count >= 3, Self.isPlausibleName(String(fields[2])) { names.insert(String(fields[2])) }
        }
        return ["UTC"] + names.sorted()
    }

    /// ICU's short zone names that have no file in the tz database, and the zone each stands for.
    private static let shortNames = [
        "PST": "America/Los_Angeles", "CST": "America/Chicago", "JST": "Asia/Tokyo", "IST": "Asia/Kolkata",
        "AET": "Australia/Sydney", "ECT": "Europe/Paris",
    ]

    /// The user's zone, as the C library finds it: `$TZ` (a zone name, `:name`, a file path, or a POSIX rule such
    /// as `CET-1CEST,M3.5.0,M10.5.0/3` or `GMT+2`, whose offset counts hours west of UTC as POSIX's do: UTC-2; empty
    /// means UTC), else `/etc/localtime`, else UTC.
    public func current(environment: [String: String]) -> ZoneRules {
        if let value = environment["TZ"] {
            var name = Substring(value)
            if name.first == ":" { name = name.dropFirst() }
            if name.isEmpty { return .gmt }
            if name.first == "/" { return zone(atPath: String(name)) ?? .gmt }
            if let zone = zone(named: String(name), offsets: false) { return zone }
            if let rule = PosixZoneRule(String(name)) {
                return ZoneRules(identifier: String(name), transitions: [], offsetsAfter: [],
                                 initialOffset: rule.standardOffset, rule: rule)
            }
            return .gmt
        }
        return zone(atPath: "/etc/localtime") ?? .gmt
    }

    /// The zone in the file at `path`, named after the database entry it is or links to (`Europe/Paris` for
    /// `/etc/localtime -> /usr/share/zoneinfo/Europe/Paris`).
    private func zone(atPath path: String) -> ZoneRules? {
        guard let bytes = readFile(path) else { return nil }
        var identifier = path
        if let target = readLink(path) { identifier = target }
        if let name = Self.nameAfterZoneinfo(identifier) {
            identifier = name
        } else if identifier.hasPrefix(directory + "/") {
            identifier = String(identifier.dropFirst(directory.count + 1))
        } else if identifier == "/etc/localtime" {
            identifier = "localtime"
        }
        return TZifParser.rules(identifier: identifier, bytes: bytes)
    }

    /// The part of `path` after its last `zoneinfo/` folder, if it has one.
    private static func nameAfterZoneinfo(_ path: String) -> String? {
        let bytes = Array(path.utf8), marker = Array("zoneinfo/".utf8)
        guard bytes.count > marker.count else { return nil }
        for start in stride(from: bytes.count - marker.count, through: 0, by: -1)
        where bytes[start..<(start + marker.count)].elementsEqual(marker) {
            return start + marker.count < bytes.count ? String(decoding: bytes[(start + marker.count)...], as: UTF8.self) : nil
        }
        return nil
    }

    /// A relative path inside the database: no `..`, no leading `/`, printable ASCII only.
    static func isPlausibleName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, name.first != "/", !name.hasSuffix("/") else { return false }
        guard name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        // No component is empty, `.` or `..` (counted byte by byte: every command looks its zone up by name).
        var length = 0, dots = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (dots == length && length <= 2) { return false }
                (length, dots) = (0, 0)
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return !(dots == length && length <= 2)
    }

    /// `GMT`, `UTC`, `GMT+2`, `UTC-05`, `GMT+0530`, `GMT+05:30` (the sign is east of UTC, unlike POSIX).
    static func fixedZone(_ name: String) -> ZoneRules? {
        let bytes = Array(name.utf8)
        guard bytes.count >= 3 else { return nil }
        let prefix = String(decoding: bytes[0..<3], as: UTF8.self)
        guard prefix == "GMT" || prefix == "UTC" else { return nil }
        if bytes.count == 3 { return .gmt }  // Foundation names UTC `GMT` too
        guard bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-") else { return nil }
        let sign = bytes[3] == UInt8(ascii: "-") ? -1 : 1
        var digits = Array(bytes[4...])
        if digits.count == 5, digits[2] == UInt8(ascii: ":") { digits.remove(at: 2) }
        guard (1...4).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let (hours, minutes) = digits.count <= 2 ? (value, 0) : (value / 100, value % 100)
        guard hours <= 18, minutes < 60 else { return nil }
        return ZoneRules(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
    }
}

/// Whole-file reads and symbolic links through the C library.
private enum SystemFiles {
    @Sendable static func contents(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; return nil }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            if result.count > 1 << 20 { return nil }
        }
    }

    @Sendable static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
