import Foundation
import HealthCore
import HKCtlSupport

/// Builders for the tests of hkctl's renderers, which draw samples held in an ``InMemorySampleStore``.
enum TestSupport {
    static func context(_ zone: String = "UTC", now: Date = EntryTestKit.referenceNow) -> TimeContext {
        guard let rules = ZoneDatabase.system(environment: [:]).zone(named: zone) else { fatalError("no zone \(zone): install tzdata") }
        return TimeContext(now: now, timeZone: rules)
    }

    static func date(_ iso: String) -> Date {
        guard let date = ISODate.parse(iso) else { fatalError("bad test date \(iso)") }
        return date
    }

    static func quantitySample(_ type: SampleType, _ value: Double, _ unit: String, start: String, end: String? = nil,
                               source: String = "hkctl") -> Sample {
        let quantity = Quantity(value, try! HealthUnit(parsing: unit))
        return Sample(typeIdentifier: type.identifier, start: date(start), end: date(end ?? start), value: .quantity(quantity),
                      source: source, created: date(start))
    }

    /// Runs `body` with a new empty folder, removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let path = NSTemporaryDirectory() + "hkctl-test-" + UUID().uuidString
        // 0700 whatever the umask: a test may use the folder as a store, and hkctl refuses one others can write to.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// A sleep analysis sample of category value `raw` (0 in bed, 2 awake, 3 core, 4 deep, 5 REM).
    static func sleepSample(_ raw: Int, start: String, end: String) -> Sample {
        Sample(typeIdentifier: SampleType.sleep.identifier, start: date(start), end: date(end), value: .category(raw),
               source: "hkctl", created: date(start))
    }
}

extension SampleType {
    static let water = try! SampleTypeCatalogue.standard.type(named: "water")
    static let steps = try! SampleTypeCatalogue.standard.type(named: "steps")
    static let weight = try! SampleTypeCatalogue.standard.type(named: "weight")
    static let sleep = try! SampleTypeCatalogue.standard.type(named: "sleep")
}

/// Dates and zones for the tests of hkctl's entry parsers (the same helpers HealthCoreTests has, for this target).
enum EntryTestKit {
    /// A UTC instant.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        date(year, month, day, hour, minute, second, zone: "UTC")
    }

    /// An instant given by its wall-clock time in `zone`.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
                     zone: String = "UTC") -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    /// A zone from the system's tz database.
    static func zone(_ identifier: String) -> ZoneRules {
        guard let zone = ZoneDatabase.system(environment: [:]).zone(named: identifier) else { fatalError("no zone \(identifier)") }
        return zone
    }

    /// 2024-06-01T12:00:00Z, the tests' now.
    static let referenceNow = Date(timeIntervalSince1970: 1_717_243_200)
}
