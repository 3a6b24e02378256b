import Foundation
import Testing
import TestKit

/// Issue 33, "Every identifier HealthKit has": types new to the catalogue work through `add`, `list` and `stats`, with
/// their units converted.
struct AllTypesCLITests {
    private func json(_ result: CLIResult) throws -> [String: Any] {
        expectEqual(result.status, 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func walkingSpeedNutrientsAndCategoriesOfTheWholeCatalogue() throws {
        try CLIRunner.withTemporaryStore { cli in
            // Walking speed: canonical m/s, shown in km/hr; 5 km/hr and 1.5 m/s (5.4 km/hr) average 5.2 km/hr.
            try expectEqual(cli.run(["add", "walking-speed", "5km/hr", "--from", "08:00", "--to", "08:10"]).status, 0)
            try expectEqual(cli.run(["add", "walkingSpeed", "1.5m/s", "--from", "09:00", "--to", "09:10"]).status, 0)
            let speed = try json(try cli.run(["stats", "walking-speed", "--format", "json"]))
            expectEqual(speed["unit"] as? String, "km/hr")
            #expect(abs((speed["average"] as? Double ?? 0) - 5.2) < 1e-9, "\(speed)")
            let inMetres = try json(try cli.run(["stats", "HKQuantityTypeIdentifierWalkingSpeed", "--unit", "m/s", "--format", "json"]))
            // Derived figures in JSON keep two more decimals than a table shows (m/s: 0.01 in tables, 0.0001 here).
            expectEqual(inMetres["average"] as? Double, 1.4444, "\(inMetres)")
            // A nutrient: canonical g, shown in mg, summed (cumulative).
            try expectEqual(cli.run(["add", "vitamin-c", "90mg", "--at", "10:00"]).status, 0)
            try expectEqual(cli.run(["add", "vitamin-c", "0.06g", "--at", "11:00"]).status, 0)
            let vitamin = try json(try cli.run(["stats", "vitamin-c", "--format", "json"]))
            #expect(vitamin["unit"] as? String == "mg" && vitamin["sum"] as? Double == 150, "\(vitamin)")
            // A category type with its HealthKit values, and a value it does not take.
            try expectEqual(cli.run(["add", "contraceptive", "oral", "--at", "07:00"]).status, 0)
            let listed = try cli.run(["list", "contraceptive", "--format", "json"])
            #expect(listed.stdout.contains("\"value\":\"oral\"") && listed.stdout.contains("HKCategoryTypeIdentifierContraceptive"), "\(listed.stdout)")
            let wrong = try cli.run(["add", "contraceptive", "sometimes", "--at", "07:00"])
            #expect(wrong.status == 65 || wrong.status == 64, "\(wrong.stderr)")
            // `types` lists them all.
            let types = try cli.run(["types", "--format", "csv"])
            expectEqual(types.stdout.split(separator: "\n").count, 1 + 120 + 71, "one header line and every type")
        }
    }
}
