import Foundation
import Testing
import TestKit
@testable import HealthCore

/// State of mind as HealthKit's `HKStateOfMind`: its enums with HealthKit's raw values, the valence bands, saving and
/// reading back typed, the store's checks, HealthKit's predicates, and a jsonl backup that restores it.
struct StateOfMindTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: stateOfMindTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")
    private static let all = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)

    private static func withStore(_ body: (HealthStore, String) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            try await body(try HealthStore(directory: folder + "/store", clock: { now }), folder)
        }
    }

    private static func found(_ store: HealthStore, _ predicate: SamplePredicate? = nil) async throws -> [StateOfMind] {
        try await SampleQueryDescriptor(predicates: [.sample(type: .stateOfMindType(), predicate: predicate)]).result(for: store)
            .compactMap { $0 as? StateOfMind }
    }

    func theEnumsHaveHealthKitsRawValues() {
        // HKStateOfMind.h (iOS 18.2 SDK): every enum counts from 1, in the header's order.
        #expect(StateOfMind.Kind.momentaryEmotion.rawValue == 1 && StateOfMind.Kind.dailyMood.rawValue == 2)
        expectEqual(StateOfMind.ValenceClassification.allCases.map(\.rawValue), Array(1...7))
        #expect(StateOfMind.ValenceClassification.veryUnpleasant.rawValue == 1 && StateOfMind.ValenceClassification.veryPleasant.rawValue == 7)
        expectEqual(StateOfMind.Label.allCases.count, 38)
        #expect(StateOfMind.Label.amazed.rawValue == 1 && StateOfMind.Label.calm.rawValue == 7 && StateOfMind.Label.grateful.rawValue == 15)
        #expect(StateOfMind.Label.worried.rawValue == 31 && StateOfMind.Label.annoyed.rawValue == 32 && StateOfMind.Label.satisfied.rawValue == 38)
        expectEqual(StateOfMind.Association.allCases.count, 18)
        #expect(StateOfMind.Association.community.rawValue == 1 && StateOfMind.Association.selfCare.rawValue == 13)
        #expect(StateOfMind.Association.work.rawValue == 17 && StateOfMind.Association.weather.rawValue == 18)
        // Names as people and files write them.
        #expect(StateOfMind.Association(name: "self-care") == .selfCare && StateOfMind.Association(name: "Current Events") == .currentEvents)
        #expect(StateOfMind.Label(name: "GRATEFUL") == .grateful && StateOfMind.Label(name: "15") == .grateful)
        #expect(StateOfMind.Label(name: "glad") == nil && StateOfMind.Kind(name: "daily_mood") == .dailyMood)
    }

    func valenceFallsIntoSevenEqualBands() {
        typealias Band = StateOfMind.ValenceClassification
        #expect(Band(valence: -1) == .veryUnpleasant && Band(valence: 0) == .neutral && Band(valence: 1) == .veryPleasant)
        #expect(Band(valence: 0.14) == .neutral && Band(valence: 0.15) == .slightlyPleasant)
        #expect(Band(valence: -0.15) == .slightlyUnpleasant && Band(valence: 0.72) == .veryPleasant && Band(valence: 0.7) == .pleasant)
        #expect(Band(valence: 1.01) == nil && Band(valence: -1.5) == nil && Band(valence: .nan) == nil)
        for band in Band.allCases { expectEqual(Band(valence: band.representativeValence), band) }
        #expect(Band.neutral.representativeValence == 0 && abs(Band.pleasant.representativeValence - 4.0 / 7) < 1e-12)
    }

    func aStateOfMindIsSavedAndReadBackTyped() async throws {
        try await Self.withStore { store, _ in
            let date = TestSupport.date("2024-06-03T20:00:00Z")
            let evening = StateOfMind(date: date, kind: .dailyMood, valence: 0.6, labels: [.calm, .grateful],
                                      associations: [.work, .family], metadata: ["note": .string("long day")])
            #expect(!evening.isSaved)
            try await store.save(evening)
            let read = try #require(try await Self.found(store).first)
            #expect(read.uuid == evening.uuid && read.isSaved && read.sourceName == AuthorizationState.ownerSource)
            #expect(read.kind == .dailyMood && read.valence == 0.6 && read.valenceClassification == .pleasant)
            #expect(read.labels == [.calm, .grateful] && read.associations == [.work, .family])
            #expect(read.startDate == date && read.endDate == date && read.metadataValues?["note"] == .string("long day"))
            #expect(read.sampleType == .stateOfMindType() && read.sampleType.identifier == "HKDataTypeStateOfMind")
            // The store line keeps HealthKit's names.
            let line = SampleLineCodec(catalogue: .standard, timeZone: .gmt).encode(read.sample)
            #expect(line.contains("\"stateOfMind\":{\"valence\":0.6,\"labels\":[\"calm\",\"grateful\"],\"associations\":[\"work\",\"family\"]}"))
        }
    }

    func aValenceOutsideMinusOneToOneIsRefusedAndNothingIsWritten() async throws {
        try await Self.withStore { store, folder in
            try await store.save(StateOfMind(date: TestSupport.date("2024-06-03T20:00:00Z"), kind: .momentaryEmotion, valence: 0,
                                             labels: [], associations: []))
            let before = TestSupport.walkFiles(folder + "/store")
            for bad in [StateOfMind(date: TestSupport.date("2024-06-03T21:00:00Z"), kind: .momentaryEmotion, valence: 1.5,
                                    labels: [.happy], associations: []),
                        StateOfMind(date: TestSupport.date("2024-06-03T21:00:00Z"), kind: .momentaryEmotion, valence: .nan,
                                    labels: [], associations: [])] {
                do {
                    try await store.save(bad)
                    Issue.record("saved \(bad.valence)")
                } catch let error as HealthError {
                    expectEqual(error.code, .errorInvalidArgument)
                }
            }
            expectEqual(TestSupport.walkFiles(folder + "/store"), before)
            // A state of mind dated after the store's clock is stored, as HealthKit stores one; a program that takes
            // dates from people refuses it with validated(now:).
            let planned = StateOfMind(date: TestSupport.date("2024-06-11T21:00:00Z"), kind: .momentaryEmotion, valence: 0.2,
                                      labels: [], associations: [])
            #expect(throws: SampleError.self) { try planned.validated(now: TestSupport.date("2024-06-10T12:00:00Z")) }
            try await store.save(planned)
            // A quantity sample carrying a state of mind detail is refused too.
            var odd = QuantitySample(type: QuantityType(.dietaryWater), quantity: Quantity(unit: .liter(), doubleValue: 0.5),
                                     start: TestSupport.date("2024-06-03T08:00:00Z"), end: TestSupport.date("2024-06-03T08:00:00Z")).sample
            odd.detail = .stateOfMind(StateOfMindDetail(valence: 0))
            #expect(throws: SampleError.self) { try store.save([odd]) }
        }
    }

    func healthKitsPredicatesSelectStatesOfMind() async throws {
        try await Self.withStore { store, _ in
            let day = TestSupport.date("2024-06-03T00:00:00Z")
            let states = [
                StateOfMind(date: day.addingTimeInterval(3600), kind: .momentaryEmotion, valence: -0.8, labels: [.stressed, .anxious], associations: [.work]),
                StateOfMind(date: day.addingTimeInterval(7200), kind: .momentaryEmotion, valence: 0.5, labels: [.calm], associations: [.fitness]),
                StateOfMind(date: day.addingTimeInterval(10_800), kind: .dailyMood, valence: 0.9, labels: [.grateful, .calm], associations: [.family, .work]),
            ]
            try await store.save(states.map { $0 as HealthSample })
            // A water sample in the same time: no state of mind condition selects it.
            try await store.save(QuantitySample(type: QuantityType(.dietaryWater), quantity: Quantity(unit: .liter(), doubleValue: 0.5),
                                                start: day.addingTimeInterval(3600), end: day.addingTimeInterval(3600)))
            func valences(_ predicate: SamplePredicate) async throws -> [Double] { try await Self.found(store, predicate).map(\.valence) }
            try await expectEqual(valences(Query.predicateForStatesOfMind(with: .dailyMood)), [0.9])
            try await expectEqual(valences(Query.predicateForStatesOfMind(with: StateOfMind.Label.calm)), [0.5, 0.9])
            try await expectEqual(valences(Query.predicateForStatesOfMind(with: StateOfMind.Association.work)), [-0.8, 0.9])
            try await expectEqual(valences(Query.predicateForStatesOfMind(with: .veryUnpleasant)), [-0.8])
            try await expectEqual(valences(Query.predicateForStatesOfMind(withValence: 0.5, operatorType: .greaterThanOrEqualTo)), [0.5, 0.9])
            try await expectEqual(valences(Query.predicateForStatesOfMind(withValence: 0.5, operatorType: .lessThan)), [-0.8])
            try await expectEqual(valences(Query.predicateForStatesOfMind(withValence: 0.5, operatorType: .notEqualTo)), [-0.8, 0.9])
            let both = SamplePredicate.and([Query.predicateForStatesOfMind(with: StateOfMind.Label.calm),
                                            Query.predicateForStatesOfMind(with: .momentaryEmotion)])
            try await expectEqual(valences(both), [0.5])
            let water = try await SampleQueryDescriptor(predicates: [
                .quantitySample(type: QuantityType(.dietaryWater), predicate: Query.predicateForStatesOfMind(with: .dailyMood))])
                .result(for: store)
            #expect(water.isEmpty)
        }
    }

    func aJSONLinesBackupRestoresStatesOfMindWhole() async throws {
        try await Self.withStore { store, folder in
            let state = StateOfMind(date: TestSupport.date("2024-06-03T20:00:00Z"), kind: .dailyMood, valence: -0.3,
                                    labels: [.drained, .worried], associations: [.health])
            try await store.save(state)
            let path = folder + "/backup.jsonl"
            _ = try SampleExporter(store: store.storage).export(types: nil, interval: Self.all, format: .jsonl, exportDate: Self.now,
                                                                to: FileDestination(path: path))
            let restoredStore = JSONFileStore(path: folder + "/restored", timeZone: .gmt)
            let receipt = try HealthImporter(store: restoredStore).importFile(atPath: path)
            expectEqual(receipt.counts[StateOfMind.typeIdentifier]?.added, 1)
            let restored = try #require(try await Self.found(try HealthStore(storage: restoredStore, source: AuthorizationState.ownerSource)).first)
            #expect(restored.sample == (try #require(try await Self.found(store).first)).sample)
            // A line whose valence is out of range is refused, not restored.
            let bad = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\"valence\":-0.3", with: "\"valence\":-3")
            try bad.write(toFile: folder + "/bad.jsonl", atomically: true, encoding: .utf8)
            let refused = try HealthImporter(store: JSONFileStore(path: folder + "/other", timeZone: .gmt)).importFile(atPath: folder + "/bad.jsonl")
            #expect(refused.counts[StateOfMind.typeIdentifier]?.added ?? 0 == 0)
            expectEqual(refused.counts[StateOfMind.typeIdentifier]?.rejected, 1)
        }
    }
}

/// The checks ``StateOfMindTests/checks(_:)`` runs.
private let stateOfMindTestsChecks: [Check<StateOfMindTests>] = [
    Check("theEnumsHaveHealthKitsRawValues", StateOfMindTests.theEnumsHaveHealthKitsRawValues),
    Check("valenceFallsIntoSevenEqualBands", StateOfMindTests.valenceFallsIntoSevenEqualBands),
    Check("aStateOfMindIsSavedAndReadBackTyped", StateOfMindTests.aStateOfMindIsSavedAndReadBackTyped),
    Check("aValenceOutsideMinusOneToOneIsRefusedAndNothingIsWritten",
          StateOfMindTests.aValenceOutsideMinusOneToOneIsRefusedAndNothingIsWritten),
    Check("healthKitsPredicatesSelectStatesOfMind", StateOfMindTests.healthKitsPredicatesSelectStatesOfMind),
    Check("aJSONLinesBackupRestoresStatesOfMindWhole", StateOfMindTests.aJSONLinesBackupRestoresStatesOfMindWhole),
]
