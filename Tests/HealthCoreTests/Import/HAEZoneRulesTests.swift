import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// A Health Auto Export day or week ends at the next local midnight of the importer's zone when the payload's
    /// offset is that zone's. `hkctl` gives the zone from the zone database (``ZoneRules``; a fully static build's
    /// Foundation knows no zone but GMT, so `TZ` and `--tz` were ignored): the ends must be Foundation's, where
    /// Foundation knows the zone.
    struct HAEZoneRulesTests {
        @Test(arguments: hAEZoneRulesTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        /// Every local midnight of 2024 in zones with and without summer time (Berlin, New York, Santiago whose
        /// summer time begins at midnight, Lord Howe's half hour, Kolkata), as a day and as a week: the end from
        /// the zone database's rules is Foundation's.
        func dayAndWeekEndsFromTheZoneDatabaseAreFoundations() throws {
            let database = ZoneDatabase.system(environment: [:])
            var compared = 0
            for name in ["Europe/Berlin", "America/New_York", "America/Santiago", "Australia/Lord_Howe", "Asia/Kolkata"] {
                let rules = try #require(database.zone(named: name), "\(name) in the zone database")
                let zone = try #require(TimeZone(identifier: name))
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                var day = calendar.startOfDay(for: ExportDateParser.parse("2024-01-01 12:00:00 +0000")!)
                for _ in 0..<366 {
                    let offset = zone.secondsFromGMT(for: day)
                    expectEqual(rules.secondsFromGMT(for: day), offset, "\(name) \(day)")
                    for period in [HAEPeriod.day, .week] {
                        expectEqual(period.end(of: day, offset: offset, zone: .gmt, rules: rules), period.end(of: day, offset: offset, zone: zone),
                                    "\(name) \(period) from \(day)")
                        compared += 1
                    }
                    day = calendar.startOfDay(for: calendar.date(byAdding: .hour, value: 26, to: day)!)
                }
            }
            expectEqual(compared, 5 * 366 * 2)
        }
    }
}

/// The checks ``ImportTests.HAEZoneRulesTests/checks(_:)`` runs.
private let hAEZoneRulesTestsChecks: [Check<ImportTests.HAEZoneRulesTests>] = [
    Check("dayAndWeekEndsFromTheZoneDatabaseAreFoundations", ImportTests.HAEZoneRulesTests.dayAndWeekEndsFromTheZoneDatabaseAreFoundations),
]
