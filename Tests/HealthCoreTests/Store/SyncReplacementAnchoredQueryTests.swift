import Foundation
import HealthCore
import Testing
import TestKit

/// Issue 30 §1: a save that replaces a sample by its sync identifier is a deletion plus an addition, and an anchored
/// object query (as HealthKit's `HKAnchoredObjectQuery`) sees both; one that changes nothing gives it nothing new.
struct SyncReplacementAnchoredQueryTests {
    private static func steps(_ value: Double, version: Double) -> Sample {
        var sample = TestSupport.quantitySample(.steps, value, "count", start: "2024-06-03T09:00:00Z")
        sample.metadata[MetadataKeySyncIdentifier] = .string("cron-2024-06-03")
        sample.metadata[MetadataKeySyncVersion] = .number(version)
        return sample
    }

    private static var predicate: [SampleTypePredicate<QuantitySample>] { [.quantitySample(type: QuantityType(.stepCount))] }

    @Test func anAnchoredQuerySeesAReplacementAsADeletionAndAnAddition() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { TestSupport.date("2024-06-10T12:00:00Z") })
            let first = Self.steps(500, version: 1)
            try store.save([first])
            let start = try await AnchoredObjectQueryDescriptor(predicates: Self.predicate, anchor: nil).result(for: store)
            expectEqual(start.addedSamples.map(\.uuid), [first.uuid])
            // The same identifier at the same version: nothing new for the query.
            try store.save([Self.steps(600, version: 1)])
            let unchanged = try await AnchoredObjectQueryDescriptor(predicates: Self.predicate, anchor: start.newAnchor).result(for: store)
            #expect(unchanged.addedSamples.isEmpty && unchanged.deletedObjects.isEmpty)
            // A greater version: the old sample deleted, the new one added.
            let newer = Self.steps(700, version: 2)
            try store.save([newer])
            let replaced = try await AnchoredObjectQueryDescriptor(predicates: Self.predicate, anchor: unchanged.newAnchor).result(for: store)
            expectEqual(replaced.deletedObjects.map(\.uuid), [first.uuid])
            expectEqual(replaced.addedSamples.map(\.uuid), [newer.uuid])
            expectEqual(replaced.addedSamples.map { $0.quantity.doubleValue(for: .count()) }, [700])
        }
    }
}
