import Foundation
import HealthCore

/// The dates, zones and samples the HKCtlSupport tests build, as HealthCoreTests' kit of the same name builds them
/// (Foundation's calendar, not the code under test), for this target.
enum IndependentTestKit {
    /// Whether `a` and `b` agree to `relative` (or to `absolute` near zero).
    static func isClose(_ a: Double, _ b: Double, relative: Double = 1e-12, absolute: Double = 1e-12) -> Bool {
        a == b || abs(a - b) <= max(absolute, relative * max(abs(a), abs(b)))
    }

    /// A wall-clock time in `zone`, computed by Foundation.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
                     zone: String = "UTC") -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute,
                                                  second: second))!
    }

    /// A UTC instant.
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        date(year, month, day, hour, minute, second, zone: "UTC")
    }

    /// A zone from the system's tz database (the tests need the tzdata package, as hkctl does).
    static func zone(_ identifier: String) -> ZoneRules {
        guard let zone = ZoneDatabase.system(environment: [:]).zone(named: identifier) else {
            fatalError("no zone \(identifier) in /usr/share/zoneinfo: install the tzdata package")
        }
        return zone
    }

    /// A step count sample.
    static func steps(_ value: Double, _ start: Date, _ end: Date? = nil, source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: SampleType.steps.identifier, start: start, end: end ?? start,
               value: .quantity(Quantity(value, .count())), source: source, created: start)
    }

    /// A quantity sample of `type` in the unit written `unit`.
    static func quantity(_ type: SampleType, _ value: Double, _ unit: String, _ start: Date, _ end: Date? = nil) -> Sample {
        Sample(typeIdentifier: type.identifier, start: start, end: end ?? start,
               value: .quantity(Quantity(value, try! HealthUnit(parsing: unit))), source: "hkctl", created: start)
    }

    /// A sleep analysis sample of category value `raw`.
    static func sleep(_ raw: Int, _ start: Date, _ end: Date, source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: SampleType.sleep.identifier, start: start, end: end, value: .category(raw),
               source: source, created: start)
    }
}

enum TestSupport {
    /// 2024-06-01T12:00:00Z, a Saturday.
    static let referenceNow = Date(timeIntervalSince1970: 1_717_243_200)

    /// A fresh temporary folder (0700, so it may hold a store), removed after `body`.
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let path = NSTemporaryDirectory() + "hkctl-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }
}

extension SampleType {
    static let water = try! SampleTypeCatalogue.standard.type(named: "water")
    static let steps = try! SampleTypeCatalogue.standard.type(named: "steps")
    static let weight = try! SampleTypeCatalogue.standard.type(named: "weight")
    static let sleep = try! SampleTypeCatalogue.standard.type(named: "sleep")
}
