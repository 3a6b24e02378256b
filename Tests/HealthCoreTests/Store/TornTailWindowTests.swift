import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Torn-tail repair looks at the last 64 KiB first and further back only when it must.
struct TornTailWindowTests {
    @Test(arguments: [10, 70_000, 300_000])
    func aTornFragmentOfAnyLengthIsMovedAsideAndEarlierLinesKept(fragmentLength: Int) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let first = TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T08:00:00Z")
            try store.save([first])
            let partition = folder + "/store/" + store.partitionPath(for: first)
            let handle = try #require(FileHandle(forWritingAtPath: partition))
            handle.seekToEndOfFile()
            handle.write(Data(("{\"uuid\":\"" + String(repeating: "x", count: fragmentLength)).utf8))
            try handle.close()
            let second = TestSupport.quantitySample(.water, 500, "mL", start: "2024-06-01T09:00:00Z")
            try store.save([second])
            let day = DateInterval(start: TestSupport.date("2024-06-01T00:00:00Z"), duration: 86_400)
            let values = try store.samples(ofType: SampleType.water.identifier, overlapping: day).map { $0.value.quantity?.value }
            expectEqual(values, [250, 500])
            let recovered = try FileManager.default.contentsOfDirectory(atPath: folder + "/store/recovered")
            expectEqual(recovered.count, 1)
            let moved = try Data(contentsOf: URL(fileURLWithPath: folder + "/store/recovered/" + recovered[0]))
            expectEqual(moved.count, fragmentLength + 9)
        }
    }
}
