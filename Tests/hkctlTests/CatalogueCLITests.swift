import Foundation
import Testing
import TestKit

/// Every type in the catalogue can be added, listed and summarised through the CLI, by every kind of name.
struct CatalogueCLITests {
    struct Entry: CustomStringConvertible, Sendable {
        let name: String, identifier: String, kind: String, aggregation: String, example: String
        var description: String { name }
    }

    /// The catalogue as `hkctl types --format json` reports it (read once, from the binary itself).
    static let entries: [Entry] = {
        let result = try? CLIRunner(storePath: TestSupport.scratchRoot + "hkctl-types-unused").run(["types", "--format", "json"])
        let objects = (try? JSONSerialization.jsonObject(with: Data((result?.stdout ?? "[]").utf8))) as? [[String: Any]] ?? []
        return objects.map {
            Entry(name: $0["name"] as! String, identifier: $0["identifier"] as! String, kind: $0["kind"] as! String,
                  aggregation: $0["aggregation"] as! String, example: ($0["examples"] as! [String]).first ?? "")
        }
    }()

    @Test func theCatalogueHasTheTypesTheIssueAsksFor() {
        let quantities = CatalogueCLITests.entries.filter { $0.kind == "quantity" }
        let categories = CatalogueCLITests.entries.filter { $0.kind == "category" }
        #expect(quantities.count >= 30)
        #expect(categories.count >= 4)
        for name in ["water", "steps", "weight", "height", "bmi", "body-fat", "lean-mass", "heart-rate",
                     "resting-heart-rate", "hrv", "spo2", "respiratory-rate", "body-temp", "glucose", "systolic",
                     "diastolic", "active-energy", "basal-energy", "dietary-energy", "caffeine", "protein", "carbs",
                     "fat", "distance", "cycling", "swimming", "flights", "exercise-time", "stand-time", "mindful",
                     "sleep", "headache", "menstrual-flow"] {
            #expect(CatalogueCLITests.entries.contains { $0.name == name }, "missing \(name)")
        }
        expectEqual(Set(quantities.map(\.aggregation)), ["cumulative", "discreteArithmetic", "discreteTemporallyWeighted",
                                                         "discreteEquivalentContinuousLevel"])
    }

    @Test(arguments: CatalogueCLITests.entries)
    func everyTypeCanBeAddedListedAndSummarised(_ entry: Entry) throws {
        try CLIRunner.withTemporaryStore { cli in
            var add = ["add", entry.name, entry.example, "--format", "json"]
            if !entry.example.contains(":") { add += ["--at", "09:30"] }
            let added = try cli.run(add)
            expectEqual(added.status, 0, "\(entry.name) \(entry.example): \(added.stderr)")
            // The HealthKit identifier and the identifier without its prefix name the same type.
            let prefixless = entry.identifier.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")
                .replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
            for name in [entry.name, entry.identifier, prefixless.prefix(1).lowercased() + prefixless.dropFirst()] {
                let listed = try cli.run(["list", name, "--format", "json"])
                expectEqual(listed.status, 0, "\(listed.stderr)")
                let samples = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
                expectEqual(samples?.count, 1, "list \(name)")
                expectEqual(samples?.first?["type"] as? String, entry.identifier)
            }
            let stats = try cli.run(["stats", entry.name, "--format", "json"])
            expectEqual(stats.status, 0, "\(stats.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any]
            expectEqual(object?["type"] as? String, entry.identifier)
            let expectedKey = entry.kind == "category" ? (entry.name == "sleep" ? "asleep" : "duration")
                : entry.aggregation == "cumulative" ? "sum" : "average"
            #expect(object?[expectedKey] != nil && !(object?[expectedKey] is NSNull), "stats \(entry.name): \(stats.stdout)")
            expectEqual(object?["count"] as? Int, 1)
            let units = try cli.run(["units", entry.name])
            expectEqual(units.status, (entry.kind == "category" ? 64 : 0))
        }
    }
}
