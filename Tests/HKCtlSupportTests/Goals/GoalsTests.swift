import Foundation
import Testing
import TestKit
@testable import HealthCore
@testable import HKCtlSupport

struct GoalsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: goalsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func defaultsApplyUntilSetAndAgainAfterUnset() throws {
        var goals = Goals()
        expectEqual(goals.goal(for: .steps), Quantity(10_000, .count()))
        #expect(goals.isDefault(for: .steps))
        let (type, goal) = try goals.set("steps", to: "8000", catalogue: .standard)
        #expect(type == .steps && goal.value == 8000 && !goals.isDefault(for: .steps))
        try goals.unset("steps", catalogue: .standard)
        expectEqual(goals.goal(for: .steps)?.value, 10_000)
    }

    func goalsRoundTripThroughJSON() throws {
        var goals = Goals()
        try goals.set("water", to: "2.5L", catalogue: .standard)
        try goals.set("active-energy", to: "500kcal", catalogue: .standard)
        let decoded = try JSONDecoder().decode(Goals.self, from: JSONEncoder().encode(goals))
        expectEqual(decoded, goals)
        expectEqual(decoded.entries(catalogue: .standard).map(\.type.name), ["active-energy", "sleep", "steps", "water"])
        try expectEqual(JSONDecoder().decode(Goals.self, from: Data("{}".utf8)), Goals())
    }

    func badGoalsAreRefused() {
        var goals = Goals()
        #expect(throws: GoalError.notApplicable(type: "weight")) { try goals.set("weight", to: "70kg", catalogue: .standard) }
        #expect(throws: GoalError.notPositive("0L")) { try goals.set("water", to: "0L", catalogue: .standard) }
        #expect(throws: UnitError.self) { try goals.set("water", to: "5kg", catalogue: .standard) }
        #expect(throws: UnitError.self) { try goals.set("sleep", to: "8", catalogue: .standard) }
        // Counted steps are whole, as `add` has them.
        #expect(throws: SampleError.notWhole("8000.5", type: "steps")) { try goals.set("steps", to: "8000.5", catalogue: .standard) }
        expectEqual(goals, Goals())
    }

    func aGoalStoredOutOfRangeIsIgnoredAndOneTypedIsRefused() throws {
        var goals = Goals()
        goals.amounts["sleep"] = Goals.Amount(value: 1e300, unit: "hr")
        expectEqual(goals.goal(for: SampleType.sleep), Goals.defaults["sleep"])
        #expect(throws: GoalError.self) { try goals.set("sleep", to: "1e300h", catalogue: .standard) }
        #expect(throws: GoalError.self) { try goals.set("water", to: "21L", catalogue: .standard) }
        #expect(throws: Never.self) { try goals.set("water", to: "20L", catalogue: .standard) }
    }

    /// `StoreDoctor` checks `goals.json` with a private type of its own (goals are not HealthCore's): it must refuse
    /// exactly the documents `Goals` cannot read, so that the doctor reports every copy that breaks the goal commands.
    func theDoctorRefusesExactlyTheGoalsDocumentsGoalsCannotRead() throws {
        let documents = [
            #"{}"#, #"{"amounts": null}"#, #"{"amounts": {}}"#, #"{"amounts": {"water": {"value": 2.5, "unit": "L"}}}"#,
            #"{"amounts": {"water": {"value": 2.5, "unit": "L", "note": "x"}}, "other": 1}"#,
            #"{"amounts": 5}"#, #"{"amounts": {"water": {"value": "2", "unit": "L"}}}"#, #"{"amounts": {"water": {"value": 2}}}"#,
            #"{"amounts": {"water": {"unit": "L"}}}"#, #"{"amounts": {"water": 2}}"#, #"{"amounts": [1]}"#,
        ]
        func goalsRead(_ text: String) -> Bool { (try? JSONDecoder().decode(Goals.self, from: Data(text.utf8))) != nil }
        expectEqual(documents.filter(goalsRead).count, 5)
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            try store.updateDocument("goals.json", initial: Goals()) { _ in }
            for text in documents {
                try text.write(toFile: folder + "/store/goals.json", atomically: false, encoding: .utf8)
                let report = try StoreDoctor(store: store).check(now: TestSupport.referenceNow)
                expectEqual(goalsRead(text), !report.findings.contains { $0.file == "goals.json" }, "\(text): \(report.findings)")
            }
        }
    }
}

/// The checks ``GoalsTests/checks(_:)`` runs.
private let goalsTestsChecks: [Check<GoalsTests>] = [
    Check("defaultsApplyUntilSetAndAgainAfterUnset", GoalsTests.defaultsApplyUntilSetAndAgainAfterUnset),
    Check("goalsRoundTripThroughJSON", GoalsTests.goalsRoundTripThroughJSON),
    Check("badGoalsAreRefused", GoalsTests.badGoalsAreRefused),
    Check("aGoalStoredOutOfRangeIsIgnoredAndOneTypedIsRefused",
          GoalsTests.aGoalStoredOutOfRangeIsIgnoredAndOneTypedIsRefused),
    Check("theDoctorRefusesExactlyTheGoalsDocumentsGoalsCannotRead",
          GoalsTests.theDoctorRefusesExactlyTheGoalsDocumentsGoalsCannotRead),
]
