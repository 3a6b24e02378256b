import Foundation
import Testing
import TestKit
@testable import HKCtlCommands

/// hkctl takes in only the environment variables ``EnvironmentNames`` lists: every name the sources look up must be
/// there, and every listed one must reach the command as it is set.
struct EnvironmentNamesTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: environmentNamesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every `environment["NAME"]` and every quoted name in a list looked up in `environment` (WeekStart's locale
    /// variables), in the Swift sources.
    private func namesLookedUp() throws -> Set<String> {
        var names = Set<String>()
        let files = FileManager.default.enumerator(atPath: Self.sources.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /environment\["([A-Z_][A-Z0-9_]*)"\]/) { names.insert(String(match.output.1)) }
            for line in text.split(separator: "\n") where line.contains("environment[$0]") {
                for match in line.matches(of: /"([A-Z_][A-Z0-9_]*)"/) { names.insert(String(match.output.1)) }
            }
        }
        return names
    }

    func everyNameTheSourcesLookUpIsTakenIn() throws {
        let looked = try namesLookedUp()
        #expect(looked.count >= 15, "the scan found the lookups: \(looked.sorted())")
        #expect(looked.isSubset(of: Set(EnvironmentNames.all)), "not taken in: \(looked.subtracting(EnvironmentNames.all).sorted())")
        expectEqual(Set(EnvironmentNames.all).count, EnvironmentNames.all.count)
    }

    func theVariablesStillReachTheCommands() throws {
        try CLIRunner.withTemporaryStore { cli in
            let other = (cli.storePath as NSString).deletingLastPathComponent + "/other"
            // $HKCTL_STORE and $HKCTL_SOURCE as the environment gives them, among unrelated variables.
            var noise: [String: String] = [:]
            for index in 0..<50 { noise["UNRELATED_\(index)"] = String(repeating: "x", count: index) }
            let added = try cli.run(["add", "water", "200mL", "--at", "08:00", "--format", "csv"],
                                    environment: noise.merging(["HKCTL_STORE": other]) { $1 })
            expectEqual(added.status, 0, "\(added.stderr)")
            #expect(FileManager.default.fileExists(atPath: other + "/hkctl-store.json"))
            // A source the owner has not granted water is refused by the name the environment gave.
            let refused = try cli.run(["add", "water", "200mL", "--at", "09:00"],
                                      environment: noise.merging(["HKCTL_STORE": other, "HKCTL_SOURCE": "cron-job"]) { $1 })
            #expect(refused.status == 77 && refused.stderr.contains("cron-job"), "\(refused.status) \(refused.stderr)")
            // $HKCTL_TZ: the same sample shown in another zone.
            let listed = try cli.run(["list", "water", "--format", "csv"],
                                     environment: ["HKCTL_STORE": other, "HKCTL_TZ": "Asia/Tokyo"])
            #expect(listed.stdout.contains("+09:00"), "\(listed.stdout)")
        }
    }
}

/// The checks ``EnvironmentNamesTests/checks(_:)`` runs.
private let environmentNamesTestsChecks: [Check<EnvironmentNamesTests>] = [
    Check("everyNameTheSourcesLookUpIsTakenIn", EnvironmentNamesTests.everyNameTheSourcesLookUpIsTakenIn),
    Check("theVariablesStillReachTheCommands", EnvironmentNamesTests.theVariablesStillReachTheCommands),
]
