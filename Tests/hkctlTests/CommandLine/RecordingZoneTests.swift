import Foundation
import Testing
import TestKit
@testable import HealthCore
@testable import HKCtlCommands

/// The zone `add` records (`HKTimeZone`, issue 31) is named without reading the zone's file a second time (issue 32):
/// a zone found by its name while the options were resolved is known by that name; anything else is still checked
/// against the database, as before.
struct RecordingZoneTests {
    /// A tz database over the system's files that counts its reads.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func record(_ path: String) { lock.lock(); paths.append(path); lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return paths.count }
    }

    static func database(_ reads: Reads) -> ZoneDatabase {
        ZoneDatabase(directory: "/usr/share/zoneinfo", readFile: { path in
            reads.record(path)
            return FileManager.default.contents(atPath: path).map { Array($0) }
        }, readLink: { _ in nil })
    }

    static var hasZoneFiles: Bool { FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Paris") }

    func options(_ environment: [String: String], arguments: [String] = [], reads: Reads) throws -> GlobalOptions {
        let parsed = try ArgumentParser.parse(arguments, options: GlobalOptions.specs, command: "add")
        let environment = environment.merging(["HKCTL_STORE": "/nonexistent"]) { given, _ in given }
        return try GlobalOptions.resolve(parsed, environment: environment,
                                         clock: Date(timeIntervalSince1970: 1_700_000_000), command: "add",
                                         zones: Self.database(reads))
    }

    @Test(.enabled(if: hasZoneFiles, "no tz database at /usr/share/zoneinfo"),
          arguments: [(["TZ": "Europe/Paris"], [String]()), (["TZ": ":Europe/Paris"], []),
                      (["HKCTL_TZ": "Europe/Paris"], []), (["TZ": "UTC"], ["--tz", "Europe/Paris"])])
    func aZoneFoundByNameIsRecordedWithoutASecondRead(environment: [String: String], arguments: [String]) throws {
        let reads = Reads()
        let globals = try options(environment, arguments: arguments, reads: reads)
        expectEqual(globals.recordingZoneName, "Europe/Paris")
        expectEqual(reads.count, 1, "the zone file was read \(reads.count) times")
    }

    /// Zones not found by the name they carry are checked against the database as before: a POSIX rule in `$TZ` is
    /// not recorded, a fixed offset is recorded when the database knows its name.
    @Test(.enabled(if: hasZoneFiles, "no tz database at /usr/share/zoneinfo"),
          arguments: ["CET-1CEST,M3.5.0,M10.5.0/3", "GMT+2", "/usr/share/zoneinfo/Asia/Tokyo", "", "No/Such_Zone"])
    func otherZonesAreStillCheckedAgainstTheDatabase(tz: String) throws {
        let reads = Reads()
        let globals = try options(["TZ": tz], reads: reads)
        let name = globals.time.timeZone.identifier
        let expected = Self.database(Reads()).zone(named: name) == nil ? nil : name
        expectEqual(globals.recordingZoneName, expected)
        if tz.hasPrefix("CET") { expectNil(globals.recordingZoneName) }
    }

    @Test func zoneNamesInTZ() {
        expectEqual(GlobalOptions.zoneName(inTZ: "Europe/Paris"), "Europe/Paris")
        expectEqual(GlobalOptions.zoneName(inTZ: ":Asia/Tokyo"), "Asia/Tokyo")
        expectNil(GlobalOptions.zoneName(inTZ: "/etc/localtime"))
        expectNil(GlobalOptions.zoneName(inTZ: ":/etc/localtime"))
        #expect(GlobalOptions.zoneName(inTZ: "") == nil && GlobalOptions.zoneName(inTZ: ":") == nil)
        expectNil(GlobalOptions.zoneName(inTZ: nil))
    }
}
