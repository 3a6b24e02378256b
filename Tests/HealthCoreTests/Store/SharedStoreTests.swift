import Dispatch
import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// One `JSONFileStore` (and one `HealthImporter`) shared by several threads at once, as `Sendable` allows: every save
/// lands once, every read sees whole samples, and nothing is lost or doubled.
struct SharedStoreTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sharedStoreTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let now = Kit.utc(2025, 3, 31, 12)
    private static let everything = DateInterval(start: Kit.utc(2024, 12, 1), end: Kit.utc(2025, 4, 1))

    /// Sample `index` (1...): `index` steps, at an hour of its own, spread over three months so reads cross partitions.
    private static func sample(_ index: Int) -> Sample {
        Kit.steps(Double(index), Kit.utc(2025, 1, 1).addingTimeInterval(Double(index) * 20 * 3_600))
    }

    /// Runs `work(0)` ... `work(count - 1)` on threads of their own (not the cooperative pool), all at once.
    private static func concurrently(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for worker in 0..<count {
            DispatchQueue.global().async(group: group) { work(worker) }
        }
        group.wait()
    }

    func writersAndReadersShareOneInstance() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder, clock: { Self.now })
            let perWriter = 40
            let failures = Locked<[String]>([])
            let finishedWriters = Locked(0)
            Self.concurrently(4) { worker in
                do {
                    if worker < 2 {
                        for index in stride(from: worker + 1, through: 2 * perWriter, by: 2) {
                            try store.save([Self.sample(index)])
                        }
                        finishedWriters.withLock { $0 += 1 }
                        return
                    }
                    // Readers: every read is a consistent set of whole samples, each exactly as saved.
                    var reads = 0
                    while finishedWriters.current < 2 || reads < 5 {
                        reads += 1
                        let found = worker == 2
                            ? try store.samples(ofType: SampleType.steps.identifier, overlapping: Self.everything)
                            : try store.latestSamples(ofType: SampleType.steps.identifier, overlapping: Self.everything,
                                                      limit: 1_000)
                        if Set(found.map(\.uuid)).count != found.count { failures.withLock { $0.append("a read doubled a sample") } }
                        for sample in found {
                            let index = Int(sample.quantity?.value ?? 0)
                            if index < 1 || index > 2 * perWriter || sample.start != Self.sample(index).start {
                                failures.withLock { $0.append("read a sample not saved: \(sample)") }
                            }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("worker \(worker): \(error)") }
                }
            }
            #expect(failures.current.isEmpty, "\(failures.current.prefix(3))")
            let stored = try store.samples(ofType: SampleType.steps.identifier, overlapping: Self.everything)
            expectEqual(stored.count, 2 * perWriter)
            expectEqual(Set(stored.compactMap(\.quantity?.value)), Set((1...2 * perWriter).map(Double.init)))
            // The store is whole: the doctor finds nothing wrong with it.
            #expect(try StoreDoctor(store: store).check(now: Self.now).errors.isEmpty)
        }
    }

    func concurrentRecordedWritesAreEachRecordedOnce() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder, clock: { Self.now },
                                      recording: OperationRecording(kind: .add, source: AuthorizationState.ownerSource, date: Self.now))
            Self.concurrently(2) { worker in
                for index in stride(from: worker + 1, through: 20, by: 2) { try? store.save([Self.sample(index)]) }
            }
            try expectEqual(store.samples(ofType: SampleType.steps.identifier, overlapping: Self.everything).count, 20)
            // One operation, twenty writes, each recorded by exactly one line.
            let lines = try String(contentsOfFile: folder + "/" + JSONFileStore.operationsFile, encoding: .utf8)
                .split(separator: "\n")
            expectEqual(lines.count, 20)
            let plan = try #require(try store.undoPlan(source: AuthorizationState.ownerSource))
            expectEqual(plan.recorded, 20)
            expectEqual(plan.total, 20)
        }
    }

    func oneImporterSharedByTwoThreadsImportsEachRecordOnce() throws {
        try ImportTestSupport.withTemporaryDirectory { folder in
            let records = (0..<200).map { index in
                ImportTestSupport.record(value: "\(index + 1)", start: "2024-05-01 08:\(String(format: "%02d", index % 60)):00 -0700",
                                         end: "2024-05-0\(1 + index / 60) 09:00:00 -0700")
            }
            let path = try ImportTestSupport.write(ImportTestSupport.export(records.joined(separator: "\n")), in: folder)
            let store = JSONFileStore(path: folder + "/store")
            let importer = HealthImporter(store: store, batchSize: 30)
            let receipts = Locked<[ImportReceipt]>([])
            Self.concurrently(2) { _ in
                if let receipt = try? importer.importFile(atPath: path) { receipts.withLock { $0.append(receipt) } }
            }
            let both = receipts.current
            expectEqual(both.count, 2)
            let type = "HKQuantityTypeIdentifierStepCount"
            // One run added everything; the other, running after it, found everything present.
            expectEqual(both.map { $0.counts[type]?.added ?? 0 }.sorted(), [0, 200])
            expectEqual(both.map { $0.counts[type]?.alreadyPresent ?? 0 }.sorted(), [0, 200])
            let all = DateInterval(start: Kit.utc(2024, 4, 1), end: Kit.utc(2024, 6, 1))
            try expectEqual(store.samples(ofType: type, overlapping: all).count, 200)
        }
    }
}

/// The checks ``SharedStoreTests/checks(_:)`` runs.
private let sharedStoreTestsChecks: [Check<SharedStoreTests>] = [
    Check("writersAndReadersShareOneInstance", SharedStoreTests.writersAndReadersShareOneInstance),
    Check("concurrentRecordedWritesAreEachRecordedOnce", SharedStoreTests.concurrentRecordedWritesAreEachRecordedOnce),
    Check("oneImporterSharedByTwoThreadsImportsEachRecordOnce",
          SharedStoreTests.oneImporterSharedByTwoThreadsImportsEachRecordOnce),
]
