import Foundation
import HealthCore

/// Builders for the tests of hkctl's renderers, which draw samples held in an ``InMemorySampleStore``.
enum TestSupport {
    static func context(_ zone: String = "UTC", now: Date) -> TimeContext {
        guard let rules = ZoneDatabase.system(environment: [:]).zone(named: zone) else { fatalError("no zone \(zone): install tzdata") }
        return TimeContext(now: now, timeZone: rules)
    }

    static func date(_ iso: String) -> Date {
        guard let date = ISODate.parse(iso) else { fatalError("bad test date \(iso)") }
        return date
    }

    static func quantitySample(_ type: SampleType, _ value: Double, _ unit: String, start: String, end: String? = nil) -> Sample {
        let quantity = Quantity(value, try! HealthUnit(parsing: unit))
        return Sample(typeIdentifier: type.identifier, start: date(start), end: date(end ?? start), value: .quantity(quantity),
                      source: "hkctl", created: date(start))
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
