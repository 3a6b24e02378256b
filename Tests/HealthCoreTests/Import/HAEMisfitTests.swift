import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 30, bug 5 of the second HAE round: a point whose fields have the wrong JSON type, whose time is impossible
/// or lies after now, or a night whose end is before its start, is refused with its reason, never stored silently
/// with a guess (a heart-rate `Min` written as text used to become `Avg`, a second of 60 the next minute).
struct HAEMisfitTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAEMisfitTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = ExportDateParser.parse("2024-06-01 12:00:00 +0000")!

    /// The receipt of importing one payload of `metric` (units `units`) holding a good point and `bad`.
    private static func receipt(_ metric: String, units: String, good: String, bad: String) throws -> ImportReceipt {
        try ImportTestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, clock: { now })
            let text = "{\"data\":{\"metrics\":[{\"name\":\"\(metric)\",\"units\":\"\(units)\",\"data\":[\(good),\(bad)]}]}}"
            let payload = try HealthAutoExportPayload(bytes: Array(text.utf8), name: "test.json")
            return try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
        }
    }

    private static let goodSteps = "{\"date\":\"2024-05-10 00:00:00 +0000\",\"qty\":100,\"source\":\"S\"}"
    private static let goodHeart = "{\"date\":\"2024-05-10 08:00:00 +0000\",\"Min\":50,\"Avg\":60,\"Max\":70,\"source\":\"W\"}"

    static let badSteps: [(point: String, reason: String)] = [
        ("{\"date\":\"2024-05-11 00:00:60 +0000\",\"qty\":5,\"source\":\"S\"}", "not a date"),
        ("{\"date\":\"2024-05-11 00:00:00 +0000\",\"qty\":5,\"source\":42}", "'source' is 42, not a text"),
        ("{\"date\":\"2024-05-11 00:00:00 +0000\",\"qty\":5,\"source\":[\"S\"]}", "not a text"),
        ("{\"date\":\"2024-05-11 00:00:00 +0000\",\"qty\":\"5\",\"source\":\"S\"}", "not a number"),
        ("{\"date\":\"2099-01-01 00:00:00 +0000\",\"qty\":5,\"source\":\"S\"}", "after now"),
        ("{\"date\":\"2024-06-01 14:00:00 +0000\",\"qty\":5,\"source\":\"S\"}", "after now"),
    ]

    @Test(arguments: badSteps)
    func aMisfitStepPointIsRefusedAndTheGoodOneKept(_ bad: (point: String, reason: String)) throws {
        let receipt = try Self.receipt("step_count", units: "count", good: Self.goodSteps, bad: bad.point)
        let counts = receipt.counts["HKQuantityTypeIdentifierStepCount"]
        #expect(counts?.added == 1 && counts?.rejected == 1, "\(bad.point)")
        expectEqual(receipt.problems.first?.reason.contains(bad.reason), true, "\(receipt.problems)")
    }

    func aPointWithinTheClockToleranceIsKept() throws {
        // 12:30 is after now (12:00) by less than an hour: phones' and computers' clocks differ a little.
        let receipt = try Self.receipt("step_count", units: "count", good: Self.goodSteps,
                                       bad: "{\"date\":\"2024-06-01 12:30:00 +0000\",\"qty\":5,\"source\":\"S\"}")
        expectEqual(receipt.counts["HKQuantityTypeIdentifierStepCount"]?.added, 2)
    }

    @Test(arguments: ["\"Min\":\"50\",\"Avg\":60,\"Max\":70", "\"Min\":50,\"Avg\":60,\"Max\":true", "\"Avg\":\"60\""])
    func aHeartRateFigureThatIsNotANumberIsRefused(_ figures: String) throws {
        let receipt = try Self.receipt("heart_rate", units: "count/min", good: Self.goodHeart,
                                       bad: "{\"date\":\"2024-05-10 09:00:00 +0000\",\(figures),\"source\":\"W\"}")
        expectEqual(receipt.counts["HKQuantityTypeIdentifierHeartRate"]?.rejected, 1)
        expectEqual(receipt.problems.first?.reason.contains("not a number"), true, "\(receipt.problems)")
    }

    @Test(arguments: [("sleepStart", "sleepEnd"), ("inBedStart", "inBedEnd")])
    func aNightEndingBeforeItStartsIsRefused(_ keys: (start: String, end: String)) throws {
        let good = "{\"date\":\"2024-05-09 08:00:00 +0000\",\"asleep\":7,\"inBed\":8,\"sleepStart\":\"2024-05-08 23:00:00 +0000\","
            + "\"sleepEnd\":\"2024-05-09 06:00:00 +0000\",\"inBedStart\":\"2024-05-08 22:00:00 +0000\",\"inBedEnd\":\"2024-05-09 06:00:00 +0000\"}"
        var bad = "{\"date\":\"2024-05-10 08:00:00 +0000\",\"asleep\":7,\"inBed\":8,\"sleepStart\":\"2024-05-09 23:00:00 +0000\","
            + "\"sleepEnd\":\"2024-05-10 06:00:00 +0000\",\"inBedStart\":\"2024-05-09 22:00:00 +0000\",\"inBedEnd\":\"2024-05-10 06:00:00 +0000\"}"
        bad = bad.replacingOccurrences(of: "\"\(keys.end)\":\"2024-05-10 06:00:00 +0000\"", with: "\"\(keys.end)\":\"2024-05-09 20:00:00 +0000\"")
        let receipt = try Self.receipt("sleep_analysis", units: "hr", good: good, bad: bad)
        let counts = receipt.counts["HKCategoryTypeIdentifierSleepAnalysis"]
        #expect(counts?.rejected == 1 && (counts?.added ?? 0) >= 2, "\(receipt.counts)")
        expectEqual(receipt.problems.first?.reason.contains("'\(keys.end)' is before '\(keys.start)'"), true, "\(receipt.problems)")
    }

    @Test(arguments: ["\"1800\"", "true", "{\"qty\":1800}"])
    func aWorkoutWhoseDurationIsNotANumberIsRefused(_ duration: String) throws {
        let text = "{\"data\":{\"workouts\":[{\"id\":\"w1\",\"name\":\"Walking\",\"start\":\"2024-05-10 08:00:00 +0000\","
            + "\"end\":\"2024-05-10 09:00:00 +0000\",\"duration\":\(duration)}]}}"
        let payload = try HealthAutoExportPayload(bytes: Array(text.utf8), name: "test.json")
        let receipt = try HealthImporter(store: InMemorySampleStore(), timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
        expectEqual(receipt.counts[Workout.typeIdentifier]?.rejected, 1, "\(receipt.counts)")
        expectEqual(receipt.problems.first?.reason.contains("'duration'"), true, "\(receipt.problems)")
    }

    /// A point whose source or other fields hold a character ``TextRules`` refuses is refused with the rule's reason,
    /// whatever the points before it held: the builder looks at a text it found fine once (a source, the program a
    /// push came through), so a refused one after a fine one, or again after a fine one, must still be looked at.
    func aPointWhoseTextsHoldARefusedCharacterIsRefusedWithTheRulesReasonWhateverCameBefore() throws {
        let (space, flip) = ("\u{200B}", "\u{202E}")
        let fields: [(json: String, reason: String?)] = [
            ("\"source\":\"A\"", nil),
            ("\"source\":\"B\(space)\"", TextRules.sourceNameProblem("B\(space)")),
            ("\"source\":\"A\"", nil),
            ("\"source\":\"B\(space)\"", TextRules.sourceNameProblem("B\(space)")),
            ("\"source\":\"A\",\"note\":\"x\(flip)y\"", TextRules.metadataProblem(key: "HAE:note", value: .string("x\(flip)y"))),
            ("\"source\":\"A\",\"note\":\"fine\"", nil),
            ("\"source\":\"A\",\"no\(space)te\":5", TextRules.metadataProblem(key: "HAE:no\(space)te", value: .number(5))),
            ("\"source\":\"C\(flip)\",\"note\":\"x\(flip)\"", TextRules.sourceNameProblem("C\(flip)")),
            ("\"source\":\"A\",\"note\":\"fine\"", nil),
        ]
        let points = fields.enumerated().map { index, field in
            "{\"date\":\"2024-05-10 00:0\(index):00 +0000\",\"qty\":\(index + 1),\(field.json)}"
        }
        let text = "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[\n" + points.joined(separator: ",\n") + "]}]}}"
        let payload = try HealthAutoExportPayload(bytes: Array(text.utf8), name: "test.json")
        let expected = fields.enumerated().compactMap { index, field in field.reason.map { (index + 2, $0) } }
        #expect(expected.count == 5 && expected.allSatisfy { !$0.1.isEmpty })
        for receivedThrough in [nil, "pusher"] {
            let receipt = try HealthImporter(store: InMemorySampleStore(), timeZone: .gmt)
                .importHealthAutoExport(payload, receivedThrough: receivedThrough)
            expectEqual(receipt.counts["HKQuantityTypeIdentifierStepCount"]?.added, 4)
            expectEqual(receipt.problems.map { "\($0.line) \($0.reason)" }, expected.map { "\($0.0) \($0.1)" })
        }
        // A program name the rule refuses is refused on every point (after one that was fine).
        let store = InMemorySampleStore()
        _ = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: "pusher")
        let refused = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: "push\(space)er")
        expectEqual(refused.counts["HKQuantityTypeIdentifierStepCount"]?.rejected, fields.count)
        let flagged = TextRules.metadataProblem(key: HAESampleBuilder.receivedThroughKey, value: .string("push\(space)er"))
        let fineLines = fields.indices.filter { fields[$0].reason == nil }.map { $0 + 2 }
        #expect(fineLines.count == 4 && fineLines.allSatisfy { line in refused.problems.contains { $0.line == line && $0.reason == flagged } })
    }
}

/// The checks ``HAEMisfitTests/checks(_:)`` runs.
private let hAEMisfitTestsChecks: [Check<HAEMisfitTests>] = [
    Check("aPointWithinTheClockToleranceIsKept", HAEMisfitTests.aPointWithinTheClockToleranceIsKept),
    Check("aPointWhoseTextsHoldARefusedCharacterIsRefusedWithTheRulesReasonWhateverCameBefore",
          HAEMisfitTests.aPointWhoseTextsHoldARefusedCharacterIsRefusedWithTheRulesReasonWhateverCameBefore),
]
