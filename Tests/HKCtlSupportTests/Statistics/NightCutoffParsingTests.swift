import Foundation
import HealthCore
@testable import HKCtlSupport
import Testing
import TestKit

/// ``HealthCore/NightCutoff`` as typed: `HH:MM` or `HH`.
struct NightCutoffParsingTests {
    @Test func cutoffParsing() throws {
        try expectEqual(NightCutoff(parsing: "18:00"), NightCutoff(hour: 18))
        try expectEqual(NightCutoff(parsing: "6").description, "06:00")
        for bad in ["24:00", "12:60", "noon", "", "1:2:3", "+1:00"] {
            #expect(throws: StatisticsError.invalidNightCutoff(bad)) { try NightCutoff(parsing: bad) }
        }
    }
}
