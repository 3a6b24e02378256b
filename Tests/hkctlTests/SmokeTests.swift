import Foundation
import Testing
import TestKit

struct SmokeTests {
    @Test func addsAndListsWater() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try cli.run(["add", "water", "0.5L", "--at", "08:00"])
            expectEqual(added.status, 0, "\(added.stderr)")
            let listed = try cli.run(["list", "water", "--format", "json"])
            expectEqual(listed.status, 0)
            let samples = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
            expectEqual(samples?.count, 1)
            expectEqual(samples?.first?["value"] as? Double, 500)
            expectEqual(samples?.first?["unit"] as? String, "mL")
            expectEqual(samples?.first?["start"] as? String, "2024-06-01T08:00:00+00:00")
        }
    }
}
