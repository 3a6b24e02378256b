import Foundation
import HealthCore
import Testing
import TestKit

/// ``GregorianCalendar/date(from:text:)``: the instant of written date-time parts in the calendar's zone.
struct GregorianCalendarComponentsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: gregorianCalendarComponentsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private let paris = GregorianCalendar(timeZone: IndependentTestKit.zone("Europe/Paris"))

    private func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> ISODate.Components {
        ISODate.Components(year: year, month: month, day: day, hour: hour, minute: minute, hasTime: true)
    }

    func anOffsetWinsOverTheZoneAndAWallClockTimeIsTheZones() throws {
        try expectEqual(paris.date(from: ISODate.components("2024-06-01T08:30:00-05:00"), text: ""), Kit.utc(2024, 6, 1, 13, 30))
        try expectEqual(paris.date(from: local(2024, 6, 1, 8, 30), text: ""), Kit.utc(2024, 6, 1, 6, 30))
        // A date alone is the day's first instant.
        try expectEqual(paris.date(from: ISODate.Components(year: 2024, month: 6, day: 1), text: ""), Kit.utc(2024, 5, 31, 22))
    }

    func aTimeSkippedWhenClocksGoForwardIsRefusedAndARepeatedOneIsTheEarlier() throws {
        // Clocks in Paris went from 02:00 to 03:00 on 2024-03-31.
        let error = #expect(throws: TimeInputError.self) { try paris.date(from: local(2024, 3, 31, 2, 30), text: "02:30") }
        guard case let .impossible(text, reason) = error else {
            Issue.record("expected impossible, got \(String(describing: error))")
            return
        }
        #expect(text == "02:30" && reason.contains("2024-03-31T01:59") && reason.contains("2024-03-31T03:00"), "\(reason)")
        // 02:30 on 2024-10-27 showed twice (UTC+2, then UTC+1): the first.
        try expectEqual(paris.date(from: local(2024, 10, 27, 2, 30), text: ""), Kit.utc(2024, 10, 27, 0, 30))
    }
}

/// The checks ``GregorianCalendarComponentsTests/checks(_:)`` runs.
private let gregorianCalendarComponentsTestsChecks: [Check<GregorianCalendarComponentsTests>] = [
    Check("anOffsetWinsOverTheZoneAndAWallClockTimeIsTheZones",
          GregorianCalendarComponentsTests.anOffsetWinsOverTheZoneAndAWallClockTimeIsTheZones),
    Check("aTimeSkippedWhenClocksGoForwardIsRefusedAndARepeatedOneIsTheEarlier",
          GregorianCalendarComponentsTests.aTimeSkippedWhenClocksGoForwardIsRefusedAndARepeatedOneIsTheEarlier),
]
