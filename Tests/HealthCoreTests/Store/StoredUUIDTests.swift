import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// A library client cannot double a reading by saving it again: `save` refuses a uuid the store already has where the
/// sample would go, or one that belonged to a deleted sample, with the store byte-for-byte unchanged.
struct StoredUUIDTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: storedUUIDTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let now = Kit.utc(2025, 3, 10, 12)

    private static func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stored-uuid-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(JSONFileStore(path: folder, clock: { now }), folder)
    }

    private static let week = DateInterval(start: Kit.utc(2025, 3, 1), end: Kit.utc(2025, 3, 10))

    func savingAStoredSampleAgainIsRefusedAndCountsOnce() throws {
        try Self.withStore { store, folder in
            let morning = Kit.steps(1_200, Kit.utc(2025, 3, 9, 8))
            let evening = Kit.steps(800, Kit.utc(2025, 3, 9, 18))
            try store.save([morning, evening])
            let before = TestSupport.walkFiles(folder)
            // The second one is stored: nothing of this save is written, not even the new sample.
            let fresh = Kit.steps(50, Kit.utc(2025, 3, 9, 20))
            #expect(throws: SampleError.uuidInStore(evening.uuid.lowercasedText)) { try store.save([fresh, evening]) }
            expectEqual(TestSupport.walkFiles(folder), before)
            let total = try store.samples(ofType: SampleType.steps.identifier, overlapping: Self.week)
                .compactMap(\.quantity?.value).reduce(0, +)
            expectEqual(total, 2_000)
        }
    }

    func aSampleReadBackAndSavedAgainIsRefused() throws {
        try Self.withStore { store, _ in
            try store.save([Kit.steps(1_200, Kit.utc(2025, 3, 9, 8))])
            let fetched = try store.samples(ofType: SampleType.steps.identifier, overlapping: Self.week)
            expectEqual(fetched.count, 1)
            #expect(throws: SampleError.uuidInStore(fetched[0].uuid.lowercasedText)) { try store.save(fetched) }
        }
    }

    func theFirstLineOfAFileAndALongSampleAreFoundToo() throws {
        try Self.withStore { store, _ in
            // A long sample (over two days) lives in the type's long file; it is the first line there.
            let fast = Kit.quantity(.water, 0.5, "L", Kit.utc(2025, 3, 1), Kit.utc(2025, 3, 5))
            try store.save([fast])
            #expect(throws: SampleError.uuidInStore(fast.uuid.lowercasedText)) { try store.save([fast]) }
        }
    }

    func aDeletedSamplesUUIDIsNotRevived() throws {
        try Self.withStore { store, folder in
            let reading = Kit.quantity(.weight, 71.5, "kg", Kit.utc(2025, 3, 9, 7))
            try store.save([reading])
            try store.delete(uuids: [reading.uuid], now: Self.now)
            let before = TestSupport.walkFiles(folder)
            #expect(throws: SampleError.uuidInStore(reading.uuid.lowercasedText)) { try store.save([reading]) }
            expectEqual(TestSupport.walkFiles(folder), before)
        }
    }

    func textThatMerelyContainsAStoredUUIDIsNoMatch() throws {
        try Self.withStore { store, _ in
            let later = Kit.steps(10, Kit.utc(2025, 3, 9, 9))
            // A metadata value spelling out the start of a line with the later sample's uuid: stored escaped, in
            // the middle of another line, so it is not that sample.
            var carrier = Kit.steps(20, Kit.utc(2025, 3, 9, 8))
            carrier.metadata["note"] = .string("{\"uuid\":\"\(later.uuid.lowercasedText)\"")
            try store.save([carrier])
            try store.save([later])
            try expectEqual(store.samples(ofType: SampleType.steps.identifier, overlapping: Self.week).count, 2)
        }
    }

    func theSameUUIDInAnotherStoreOrAfterANewSampleIsFine() throws {
        try Self.withStore { store, _ in
            let reading = Kit.steps(1_200, Kit.utc(2025, 3, 9, 8))
            try store.save([reading])
            // A new Sample gets a new uuid, so the same reading typed twice is two readings, as in HealthKit.
            try store.save([Kit.steps(1_200, Kit.utc(2025, 3, 9, 8))])
            try expectEqual(store.samples(ofType: SampleType.steps.identifier, overlapping: Self.week).count, 2)
        }
        try Self.withStore { other, _ in
            try other.save([Kit.steps(1_200, Kit.utc(2025, 3, 9, 8))])
        }
    }

    func healthStoreSaveRefusesItToo() throws {
        try Self.withStore { store, folder in
            let health = try HealthStore(directory: folder, clock: { Self.now })
            let reading = Kit.steps(1_200, Kit.utc(2025, 3, 9, 8))
            try health.save([reading])
            #expect(throws: SampleError.uuidInStore(reading.uuid.lowercasedText)) { try health.save([reading]) }
            _ = store
        }
    }

    func lineSearchFindsOnlyLineStarts() {
        let uuid = UUID()
        let line = Array("{\"uuid\":\"\(uuid.lowercasedText)\",\"type\":\"x\"}\n".utf8)
        #expect(JSONFileStore.hasLine(startingWith: uuid, in: line))
        #expect(JSONFileStore.hasLine(startingWith: uuid, in: Array("{\"uuid\":\"other\"}\n".utf8) + line))
        #expect(!JSONFileStore.hasLine(startingWith: uuid, in: Array(" ".utf8) + line))
        #expect(!JSONFileStore.hasLine(startingWith: uuid, in: Array(line.prefix(20))))
        // A last line without its newline is a torn write that no reader sees: it does not block a retried save.
        #expect(!JSONFileStore.hasLine(startingWith: uuid, in: Array(line.dropLast())))
        #expect(!JSONFileStore.hasLine(startingWith: uuid, in: []))
    }
}

/// The checks ``StoredUUIDTests/checks(_:)`` runs.
private let storedUUIDTestsChecks: [Check<StoredUUIDTests>] = [
    Check("savingAStoredSampleAgainIsRefusedAndCountsOnce",
          StoredUUIDTests.savingAStoredSampleAgainIsRefusedAndCountsOnce),
    Check("aSampleReadBackAndSavedAgainIsRefused", StoredUUIDTests.aSampleReadBackAndSavedAgainIsRefused),
    Check("theFirstLineOfAFileAndALongSampleAreFoundToo", StoredUUIDTests.theFirstLineOfAFileAndALongSampleAreFoundToo),
    Check("aDeletedSamplesUUIDIsNotRevived", StoredUUIDTests.aDeletedSamplesUUIDIsNotRevived),
    Check("textThatMerelyContainsAStoredUUIDIsNoMatch", StoredUUIDTests.textThatMerelyContainsAStoredUUIDIsNoMatch),
    Check("theSameUUIDInAnotherStoreOrAfterANewSampleIsFine",
          StoredUUIDTests.theSameUUIDInAnotherStoreOrAfterANewSampleIsFine),
    Check("healthStoreSaveRefusesItToo", StoredUUIDTests.healthStoreSaveRefusesItToo),
    Check("lineSearchFindsOnlyLineStarts", StoredUUIDTests.lineSearchFindsOnlyLineStarts),
]
