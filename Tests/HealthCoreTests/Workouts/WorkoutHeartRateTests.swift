import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A workout's average heart rate, read through the statistics' reader (no Sample built) and found by binary search:
/// the same averages, to the last bit, as summing every reading that starts within each workout in store order.
struct WorkoutHeartRateTests {
    @Test(arguments: workoutHeartRateTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let heartRate = "HKQuantityTypeIdentifierHeartRate"

    /// What the averages were before the reader: every visible reading tested against every workout, in store order.
    private static func reference(_ workouts: [Workout], _ samples: [Sample]) throws -> [UUID: Double] {
        let perMinute = try HealthUnit(parsing: "count/min")
        var averages: [UUID: Double] = [:]
        for workout in workouts {
            var weighted = 0.0, weights = 0.0
            for sample in samples where sample.start >= workout.start && sample.start <= workout.end {
                guard let value = try sample.value.quantity?.value(in: perMinute) else { continue }
                let weight = sample.duration > 0 ? sample.duration : 1
                weighted += value * weight
                weights += weight
            }
            if weights > 0 { averages[workout.uuid] = weighted / weights }
        }
        return averages
    }

    /// Random readings over two months (instants and readings with a length, fractional times, a few in count/s,
    /// many starting at the same instant, some exactly at a workout's start or end, in shuffled order, some deleted),
    /// and random workouts, overlapping, nested, of no readings, some of no length.
    func averagesAreThoseOfEveryReadingInsideEachWorkout() throws {
        for seed: UInt64 in [1, 2, 3, 4] {
            try TestSupport.withTemporaryDirectory { folder in
                var random = Kit.SeededGenerator(seed: seed)
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
                let origin = Kit.utc(2024, 2, 20).timeIntervalSince1970
                let workouts = (0..<30).map { index -> Workout in
                    let start = origin + Double(Int.random(in: 0..<(60 * 24 * 4), using: &random)) * 900
                    let length = index % 7 == 0 ? 0 : Double(Int.random(in: 1...12, using: &random)) * 900
                    return Workout(activity: .running, start: Date(timeIntervalSince1970: start),
                                   end: Date(timeIntervalSince1970: start + length), detail: WorkoutDetail(duration: length),
                                   source: "Watch", created: Date(timeIntervalSince1970: start + length))
                }
                var samples: [Sample] = []
                for index in 0..<3_000 {
                    var start = origin + Double(Int.random(in: 0..<(60 * 24 * 4), using: &random)) * 900
                    if index % 5 == 0 { start += Double(Int.random(in: 1..<900_000, using: &random)) / 1_000 }
                    if index % 11 == 0 { start = workouts[index % workouts.count].start.timeIntervalSince1970 }
                    if index % 13 == 0 { start = workouts[index % workouts.count].end.timeIntervalSince1970 }
                    let length: Double = index % 3 == 0 ? Double(Int.random(in: 1...600, using: &random)) : 0
                    let quantity = index % 29 == 0 ? Quantity(Double(Int.random(in: 10...30, using: &random)) / 10, try HealthUnit(parsing: "count/s"))
                        : Quantity(Double(Int.random(in: 450...1_900, using: &random)) / 10, try HealthUnit(parsing: "count/min"))
                    samples.append(Sample(typeIdentifier: Self.heartRate, start: Date(timeIntervalSince1970: start),
                                          end: Date(timeIntervalSince1970: start + length), value: .quantity(quantity),
                                          source: ["Watch", "Strap"][index % 2], created: Date(timeIntervalSince1970: start + length)))
                }
                let shuffled = samples.shuffled(using: &random)
                try store.save(Array(shuffled.prefix(1_500)))
                try store.save(Array(shuffled.dropFirst(1_500)))
                _ = try store.delete(uuids: [shuffled[3].uuid, shuffled[300].uuid, shuffled[2_999].uuid], now: Kit.utc(2024, 6, 1))
                var visible: [Sample] = []
                try store.forEachSample(ofType: Self.heartRate, overlapping: DateInterval(start: DateRange.distantStart,
                                                                                          end: DateRange.distantEnd)) { visible.append($0) }
                let expected = try Self.reference(workouts, visible)
                #expect(expected.count >= 15, "seed \(seed): most workouts have readings (\(expected.count))")
                expectEqual(try WorkoutQuery.averageHeartRates(for: workouts, in: store), expected, "seed \(seed), the reader")
                expectEqual(try WorkoutQuery.averageHeartRates(for: workouts, in: InMemorySampleStore(visible)), expected,
                            "seed \(seed), samples in full")
            }
        }
    }

    /// A damaged line in a month at the span's ends whose dates lie outside the span: the reading of every sample
    /// passes over it, so the averages are what they were (the statistics' reader, which refuses it, gives way);
    /// inside the span the damage is reported, as before.
    func aDamagedLineOutsideTheSpanLeavesTheAverages() throws {
        for inside in [false, true] {
            try TestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
                let workout = Workout(activity: .running, start: Kit.utc(2024, 3, 10, 10), end: Kit.utc(2024, 3, 10, 11),
                                      detail: WorkoutDetail(duration: 3_600), source: "Watch", created: Kit.utc(2024, 3, 10, 11))
                let readings = [10, 30, 50].map { minute in
                    Sample(typeIdentifier: Self.heartRate, start: Kit.utc(2024, 3, 10, 10, minute), end: Kit.utc(2024, 3, 10, 10, minute),
                           value: .quantity(Quantity(Double(90 + minute), try! HealthUnit(parsing: "count/min"))), source: "Watch",
                           created: Kit.utc(2024, 3, 10, 10, minute))
                }
                try store.save(readings)
                let file = store.path + "/" + (try #require(try store.partitions(ofType: Self.heartRate, overlapping:
                    DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)).first))
                let hour = inside ? "10:20" : "08:00"
                let damaged = #"{"uuid":"zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz","type":"\#(Self.heartRate)","start":"2024-03-10T\#(hour):00+00:00","end":"2024-03-10T\#(hour):00+00:00","value":70,"unit":"count/min","source":"Watch","created":"2024-03-10T\#(hour):00+00:00"}"#
                let lines = try String(contentsOfFile: file, encoding: .utf8)
                try (damaged + "\n" + lines).write(toFile: file, atomically: true, encoding: .utf8)
                let reopened = JSONFileStore(path: store.path, timeZone: .gmt)
                if inside {
                    #expect(throws: StoreError.self, "damage inside the span is reported") {
                        _ = try WorkoutQuery.averageHeartRates(for: [workout], in: reopened)
                    }
                } else {
                    let expected = try Self.reference([workout], readings)
                    expectEqual(try WorkoutQuery.averageHeartRates(for: [workout], in: reopened), expected)
                    expectEqual(expected[workout.uuid], (100.0 + 120 + 140) / 3)
                }
            }
        }
    }
}

/// The checks ``WorkoutHeartRateTests/checks(_:)`` runs.
private let workoutHeartRateTestsChecks: [Check<WorkoutHeartRateTests>] = [
    Check("averagesAreThoseOfEveryReadingInsideEachWorkout", WorkoutHeartRateTests.averagesAreThoseOfEveryReadingInsideEachWorkout),
    Check("aDamagedLineOutsideTheSpanLeavesTheAverages", WorkoutHeartRateTests.aDamagedLineOutsideTheSpanLeavesTheAverages),
]
