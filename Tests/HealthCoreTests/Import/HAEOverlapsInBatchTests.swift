import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Points of one type, form and source whose periods overlap in one input (days written at two offsets, hours of a
/// half-hour zone beside whole hours): the later meets the earlier as a stored point, whatever the batch size, and an
/// import of the same files again changes nothing (``HAEOverlapsInBatch``, ``HAEWritePlan``).
struct HAEOverlapsInBatchTests {
    @Test(arguments: hAEOverlapsInBatchTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let steps = "HKQuantityTypeIdentifierStepCount"
    private static let day: TimeInterval = 86_400

    /// The types found among periods noted as (type, form, start, end) in seconds, none of them a part.
    private static func found(_ periods: [(String, String, TimeInterval, TimeInterval)]) -> Set<String> {
        var check = HAEOverlapsInBatch()
        for (type, form, start, end) in periods {
            check.add(type: type, form: form, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end), isPart: false)
        }
        expectEqual(check.isEmpty, check.types.isEmpty, "isEmpty and types disagree")
        return check.types
    }

    func theCheckFindsOverlapsOfOneForm() {
        let d = Self.day
        // Days one after the other, a 23-hour day of a change of summer time among them, the same day twice.
        expectEqual(Self.found([(Self.steps, "day", 0, d), (Self.steps, "day", d, 2 * d - 3_600), (Self.steps, "day", 2 * d - 3_600, 3 * d),
                                (Self.steps, "day", 2 * d - 3_600, 3 * d)]), [])
        // Two days six hours apart.
        expectEqual(Self.found([(Self.steps, "day", 0, d), (Self.steps, "day", d - 21_600, 2 * d - 21_600)]), [Self.steps])
        // The same, the later day first.
        expectEqual(Self.found([(Self.steps, "day", d - 21_600, 2 * d - 21_600), (Self.steps, "day", 0, d)]), [Self.steps])
        // Out of time order without overlapping: a day of the year 1 after 2024's days.
        expectEqual(Self.found([(Self.steps, "day", 1_700_000_000, 1_700_000_000 + d), (Self.steps, "day", 1_700_000_000 + d, 1_700_000_000 + 2 * d),
                                (Self.steps, "day", -62_000_000_000, -62_000_000_000 + d)]), [])
        // An overlap with an earlier day that is not the latest one (found only by the full check).
        expectEqual(Self.found([(Self.steps, "day", 10 * d, 11 * d), (Self.steps, "day", 0, d), (Self.steps, "day", 5 * d, 6 * d),
                                (Self.steps, "day", 0.5 * d, 1.5 * d)]), [Self.steps])
        // Hours at :30 beside whole hours, of another type.
        let energy = "HKQuantityTypeIdentifierActiveEnergyBurned"
        expectEqual(Self.found([(Self.steps, "day", 0, d), (energy, "hour", 0, 3_600), (energy, "hour", 3_600, 7_200),
                                (Self.steps, "day", d, 2 * d), (energy, "hour", 5_400, 9_000)]), [energy])
        // Another form of the same time (a payload's readings beside its minutes, a day beside its hours) never counts,
        // nor do readings, sleep, instants and a heart-rate point's extra samples.
        expectEqual(Self.found([(Self.steps, "hour", 0, 3_600), (Self.steps, "day", 0, d), (Self.steps, "minute", 30, 90),
                                (Self.steps, "none", 0, 60), (Self.steps, "none", 30, 90),
                                (HAESleep.type, "stage", 0, 3_600), (HAESleep.type, "stage", 1_800, 5_400),
                                (Self.steps, "hour", 7_200, 7_200), (Self.steps, "hour", 7_200, 7_200)]), [])
        var parts = HAEOverlapsInBatch()
        parts.add(type: HAEWritePlan.partedType, form: "hour", start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 3_600), isPart: false)
        parts.add(type: HAEWritePlan.partedType, form: "hour", start: Date(timeIntervalSince1970: 3_599.998),
                  end: Date(timeIntervalSince1970: 3_599.999), isPart: true)
        parts.add(type: HAEWritePlan.partedType, form: "hour", start: Date(timeIntervalSince1970: 3_600), end: Date(timeIntervalSince1970: 7_200), isPart: false)
        #expect(parts.isEmpty, "a heart-rate point's extra sample overlapping the hour before counted")
    }

    private static func total(_ lines: [String]) -> Double {
        lines.reduce(0) { sum, line in
            let fields = line.split(separator: " ")
            return sum + (Double(fields[2].dropFirst("quantity(".count)) ?? .nan)
        }
    }

    private static func point(_ date: String, _ quantity: Double, _ source: String) -> String {
        "{\"date\":\"\(date)\",\"qty\":\(quantity),\"source\":\"\(source)\"}"
    }

    private static func payload(_ points: [String]) -> String {
        "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + points.joined(separator: ",") + "]}]}}"
    }

    private static func imported(_ texts: [String], zone: ZoneRules, batchSize: Int = 20_000,
                                 everyBatchRead: Bool = false) throws -> (first: [String], second: [String]) {
        try ImportTestSupport.stepsImportedTwice(texts, zone: zone, batchSize: batchSize, everyBatchRead: everyBatchRead)
    }

    /// The minimal case a review's fuzz found: two days of one source six hours apart in one file. The later day cuts
    /// the earlier to what is left beyond their overlap (4,730 less a quarter of 3,097), as importing them one at a
    /// time does; an import of the file again changes nothing.
    func daysAtTwoOffsetsInOneFileAreCountedOnce() throws {
        let text = Self.payload([Self.point("2024-05-09 00:00:00 -0500", 4730, "Garmin"),
                                 Self.point("2024-05-10 00:00:00 +0100", 3097, "Garmin")])
        let zone = ZoneRules(secondsFromGMT: -4 * 3600)
        let (first, second) = try Self.imported([text], zone: zone)
        expectEqual(first, second, "a second import of the same file changed the store")
        expectEqual(Self.total(first), 4730 - 3097.0 / 4 + 3097, "the six hours the days share counted twice or lost")
        for batchSize in [1, 2] {
            expectEqual(try Self.imported([text], zone: zone, batchSize: batchSize).first, first, "batch size \(batchSize)")
        }
        expectEqual(try Self.imported([text], zone: zone, everyBatchRead: true).first, first, "every batch read")
    }

    /// Random folders of one or two files of days of related sources at offsets from -05:00 to +05:30, and of hours
    /// at whole and half hours, a time now and then sent again at another offset: the same steps are stored whether
    /// batches are written unread or read, and an import of the same files again changes nothing (with
    /// ``HAEGivingWay`` for the points a later file takes away).
    func randomOverlapsSettleInOneImport() throws {
        var random = IndependentTestKit.SeededGenerator(seed: 36)
        let offsets = ["-0500", "+0000", "+0100", "+0200", "+0530"]
        let sources = ["Watch", "Watch|iPhone", "Garmin"]
        for round in 0..<40 {
            let hourly = round % 3 == 2
            var files: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                var points: [String] = []
                for _ in 0..<Int.random(in: 2...7, using: &random) {
                    let slot = hourly ? Int.random(in: 0...11, using: &random) : Int.random(in: 8...11, using: &random)
                    let offset = offsets.randomElement(using: &random)!
                    let date = hourly
                        ? String(format: "2024-05-09 %02d:%@:00 %@", slot / 2, slot % 2 == 0 ? "00" : "30", offset)
                        : String(format: "2024-05-%02d 00:00:00 %@", slot, offset)
                    points.append(Self.point(date, Double(Int.random(in: 1...9_000, using: &random)), sources.randomElement(using: &random)!))
                }
                files.append(Self.payload(points))
            }
            let zone = ZoneRules(secondsFromGMT: 2 * 3600)
            let plain = try Self.imported(files, zone: zone)
            expectEqual(plain.second, plain.first, "round \(round): the second import changed the store: \(files)")
            expectEqual(try Self.imported(files, zone: zone, everyBatchRead: true).first, plain.first, "round \(round), every batch read: \(files)")
        }
    }
}

/// The checks ``HAEOverlapsInBatchTests/checks(_:)`` runs.
private let hAEOverlapsInBatchTestsChecks: [Check<HAEOverlapsInBatchTests>] = [
    Check("theCheckFindsOverlapsOfOneForm", HAEOverlapsInBatchTests.theCheckFindsOverlapsOfOneForm),
    Check("daysAtTwoOffsetsInOneFileAreCountedOnce", HAEOverlapsInBatchTests.daysAtTwoOffsetsInOneFileAreCountedOnce),
    Check("randomOverlapsSettleInOneImport", HAEOverlapsInBatchTests.randomOverlapsSettleInOneImport),
]
