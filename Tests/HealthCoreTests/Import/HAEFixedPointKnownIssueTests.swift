import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Known faults a second review's fuzz found in the folder rules of session 33 (``HAEGivingWay``), not fixed yet: a
/// second import of the same folder changes the store, where the build before those rules did not. Each check records
/// the fault it shows; when it is fixed, `withKnownIssue` reports the check as passing unexpectedly, and it becomes a
/// plain test (in ``HAEGivingWayTests``).
struct HAEFixedPointKnownIssueTests {
    @Test(arguments: hAEFixedPointKnownIssueTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static func point(_ date: String, _ quantity: Double, _ source: String) -> String {
        "{\"date\":\"\(date)\",\"qty\":\(quantity),\"source\":\"\(source)\"}"
    }

    private static func steps(_ points: [String]) -> String {
        "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + points.joined(separator: ",") + "]}]}}"
    }

    /// A day held by a week, the week sent again from another offset that no longer holds the day: the day does not
    /// give way (its holder's last sending does not hold it) and, written again, cuts the next week by 313 steps.
    func aDayWhoseWeekIsReSentAtAnotherOffset() throws {
        let berlin = try #require(ZoneDatabase.system(environment: [:]).zone(named: "Europe/Berlin"))
        let texts = [Self.steps([Self.point("2024-05-05 00:00:00 -0700", 3630, "Watch|iPhone")]),
                     Self.steps([Self.point("2024-04-29 00:00:00 -0700", 26323, "Watch|iPhone"),
                                 Self.point("2024-05-06 00:00:00 -0700", 19304, "Watch|iPhone")]),
                     Self.steps([Self.point("2024-04-29 00:00:00 -0500", 25802, "Watch"), Self.point("2024-05-06 00:00:00 -0500", 22242, "Watch")])]
        let (first, second) = try ImportTestSupport.stepsImportedTwice(texts, zone: berlin)
        withKnownIssue("a point whose holder is re-sent at another offset comes back") {
            expectEqual(first, second, "a second import of the same files changes the store")
        }
    }

    /// A day that a day of another offset cuts to nothing, an hour inside the first in between: the cutters form one
    /// alternative with the hour, which the later day takes away, so the first day never gives way (the store moves
    /// at every import).
    func aDayCutToNothingWithAnHourInBetween() throws {
        let texts = [Self.steps([Self.point("2024-05-08 00:00:00 -0700", 1254, "Watch|iPhone")]),
                     Self.steps([Self.point("2024-05-08 18:00:00 -0700", 820, "Watch|iPhone")]),
                     Self.steps([Self.point("2024-05-09 00:00:00 +0530", 3784, "Watch|iPhone")])]
        let (first, second) = try ImportTestSupport.stepsImportedTwice(texts, zone: ZoneRules(secondsFromGMT: 9 * 3600))
        withKnownIssue("a day cut to nothing beside a finer point the later day takes away comes back") {
            expectEqual(first, second, "a second import of the same files changes the store")
        }
    }
}

/// The checks ``HAEFixedPointKnownIssueTests/checks(_:)`` runs.
private let hAEFixedPointKnownIssueTestsChecks: [Check<HAEFixedPointKnownIssueTests>] = [
    Check("aDayWhoseWeekIsReSentAtAnotherOffset", HAEFixedPointKnownIssueTests.aDayWhoseWeekIsReSentAtAnotherOffset),
    Check("aDayCutToNothingWithAnHourInBetween", HAEFixedPointKnownIssueTests.aDayCutToNothingWithAnHourInBetween),
]
