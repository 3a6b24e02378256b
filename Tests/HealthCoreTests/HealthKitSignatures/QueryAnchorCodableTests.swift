import Foundation
import Testing
import TestKit
import HealthCore

/// `QueryAnchor` is `Codable`, so an app keeps it between runs as HealthKit code keeps its `HKQueryAnchor`.
struct QueryAnchorCodableTests {
    private struct Saved: Codable, Equatable {
        var anchor: QueryAnchor?
    }

    @Test func anAnchorRoundTripsAsItsText() throws {
        let anchor = QueryAnchor(fromValue: 1_234)
        let data = try JSONEncoder().encode(Saved(anchor: anchor))
        expectEqual(String(decoding: data, as: UTF8.self), "{\"anchor\":\"\(anchor.description)\"}")
        try expectEqual(JSONDecoder().decode(Saved.self, from: data), Saved(anchor: anchor))
        try expectEqual(JSONDecoder().decode(Saved.self, from: Data("{}".utf8)), Saved(anchor: nil))
    }

    @Test func anAnchorOfAStoreRoundTripsAndStillAnswers() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { TestSupport.date("2024-06-10T12:00:00Z") })
            try store.save([TestSupport.quantitySample(.steps, 100, "count", start: "2024-06-03T09:00:00Z")])
            let first = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount))],
                                                                anchor: nil).result(for: store)
            let kept = try JSONDecoder().decode(QueryAnchor.self, from: try JSONEncoder().encode(first.newAnchor))
            expectEqual(kept, first.newAnchor)
            try store.save([TestSupport.quantitySample(.steps, 200, "count", start: "2024-06-03T10:00:00Z")])
            let next = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount))],
                                                               anchor: kept).result(for: store)
            expectEqual(next.addedSamples.map { $0.quantity.doubleValue(for: .count()) }, [200])
            // A deletion's metadata has HealthKit's shape, and is nil (the store keeps none).
            try await store.delete(next.addedSamples)
            let deleted = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount))],
                                                                  anchor: next.newAnchor).result(for: store)
            expectEqual(deleted.deletedObjects.count, 1)
            expectNil(deleted.deletedObjects.first?.metadata?[MetadataKeySyncIdentifier] as? String)
        }
    }

    @Test func textThatIsNotAnAnchorIsADecodingError() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(QueryAnchor.self, from: Data("\"yesterday\"".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(QueryAnchor.self, from: Data("42".utf8)) }
    }
}
