import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// The hand-overs between the import's threads: order, bounds and failures.
    struct ImportPipelineTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: importPipelineTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private struct Stop: Error {}

        func chunksArriveInOrderThroughASmallPipeline() {
            let pipeline = ImportPipeline<Int>(capacity: 2)
            let received = UncheckedBox(NSMutableArray())
            let done = DispatchSemaphore(value: 0)
            Thread {
                while let chunk = pipeline.receive() {
                    for value in chunk.items { received.value.add(value * 1000 + chunk.mark) }
                }
                done.signal()
            }.start()
            for index in 0..<300 { #expect(pipeline.send([2 * index, 2 * index + 1], mark: index % 7)) }
            pipeline.finish()
            done.wait()
            let values = received.value.compactMap { $0 as? Int }
            expectEqual(values, (0..<600).map { $0 * 1000 + ($0 / 2) % 7 })
        }

        func aFailingConsumerStopsTheProducer() {
            let pipeline = ImportPipeline<Int>(capacity: 1)
            let done = DispatchSemaphore(value: 0)
            Thread {
                var seen = 0
                while pipeline.receive() != nil {
                    seen += 1
                    if seen == 3 { pipeline.fail(Stop()); break }
                }
                done.signal()
            }.start()
            var accepted = 0
            while pipeline.send([accepted]) { accepted += 1 }
            pipeline.finish()
            done.wait()
            #expect(accepted >= 3 && accepted <= 5)
            #expect(pipeline.failure is Stop)
        }

        func aStoreThatCannotBeWrittenFailsTheImport() throws {
            try ImportTestSupport.withTemporaryDirectory { folder in
                // A file where the store's folder should be: every save fails, on the writing thread.
                let blocked = folder + "/store"
                _ = FileManager.default.createFile(atPath: blocked, contents: Data("not a store".utf8))
                let records = (0..<40).map { minute in
                    ImportTestSupport.record(start: "2024-05-01 08:\(String(format: "%02d", minute)):00 -0700",
                                             end: "2024-05-01 08:\(String(format: "%02d", minute)):30 -0700")
                }
                let path = try ImportTestSupport.write(ImportTestSupport.export(records.joined(separator: "\n")), in: folder)
                #expect(throws: StoreError.self) {
                    _ = try HealthImporter(store: JSONFileStore(path: blocked), batchSize: 10).importFile(atPath: path)
                }
                try expectEqual(String(contentsOfFile: blocked, encoding: .utf8), "not a store")
            }
        }
    }
}

/// The checks ``ImportTests.ImportPipelineTests/checks(_:)`` runs.
private let importPipelineTestsChecks: [Check<ImportTests.ImportPipelineTests>] = [
    Check("chunksArriveInOrderThroughASmallPipeline",
          ImportTests.ImportPipelineTests.chunksArriveInOrderThroughASmallPipeline),
    Check("aFailingConsumerStopsTheProducer", ImportTests.ImportPipelineTests.aFailingConsumerStopsTheProducer),
    Check("aStoreThatCannotBeWrittenFailsTheImport",
          ImportTests.ImportPipelineTests.aStoreThatCannotBeWrittenFailsTheImport),
]
