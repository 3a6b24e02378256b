import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The tail check before every append reads the last 4 KiB first, then 64 KiB and 1 MiB when the last line does not
/// fit: a torn or damaged tail of any of those lengths is moved aside whole, and a long good last line is kept.
struct TailRepairWindowTests {
    private typealias Kit = IndependentTestKit
    private static let partition = "samples/HKQuantityTypeIdentifierStepCount/2024-05.jsonl"

    private func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            try body(JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2), path)
        }
    }

    private func recovered(_ path: String) -> [[UInt8]] {
        Kit.contents(of: path + "/recovered").sorted().map { Kit.bytes(path + "/recovered/" + $0) }
    }

    @Test(arguments: [100, 4_000, 4_097, 10_000, 70_000, 200_000])
    func aTornTailOfAnyLengthIsMovedAsideWhole(length: Int) throws {
        try withStore { store, path in
            let first = Kit.steps(1, Kit.utc(2024, 5, 1))
            try store.save([first])
            let file = path + "/" + Self.partition
            let good = Kit.bytes(file)
            // A torn line: the start of a sample line, cut off without its newline.
            let torn = Array(#"{"uuid":"00000000-0000-0000-0000-0000000000aa","source":""#.utf8)
                + [UInt8](repeating: UInt8(ascii: "x"), count: length)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(torn))
            try handle.close()
            let second = Kit.steps(2, Kit.utc(2024, 5, 2))
            try store.save([second])
            let moved = recovered(path)
            expectEqual(moved.map(\.count), [torn.count], "the whole torn tail, \(length) bytes")
            expectEqual(moved.first.map { $0 == torn }, true)
            #expect(Array(Kit.bytes(file).prefix(good.count)) == good ? true : false)
            try expectEqual(store.samples(ofType: SampleType.steps.identifier,
                                          overlapping: DateInterval(start: Kit.utc(2024, 5, 1), end: Kit.utc(2024, 6, 1))).count, 2)
        }
    }

    @Test(arguments: [3_000, 5_000, 80_000])
    func aLongGoodLastLineIsKept(metadataLength: Int) throws {
        try withStore { store, path in
            var first = Kit.steps(1, Kit.utc(2024, 5, 1))
            first.metadata = ["Note": .string(String(repeating: "n", count: metadataLength))]
            try store.save([first])
            let file = path + "/" + Self.partition
            let before = Kit.bytes(file)
            let second = Kit.steps(2, Kit.utc(2024, 5, 2))
            // A new instance: it checks the tail afresh instead of trusting what it wrote.
            try JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2).save([second])
            #expect(Array(Kit.bytes(file).prefix(before.count)) == before ? true : false, "the long line stays")
            expectEqual(recovered(path).count, 0)
        }
    }

    @Test(arguments: [200, 5_000, 70_000])
    func aDamagedLastLineOfAnyLengthIsMovedAside(length: Int) throws {
        try withStore { store, path in
            try store.save([Kit.steps(1, Kit.utc(2024, 5, 1))])
            let file = path + "/" + Self.partition
            let good = Kit.bytes(file)
            // A line ending in a newline that is not JSON: what a crash can leave when a file was extended but not written.
            let damaged = [UInt8](repeating: 0, count: length) + [0x0A]
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(damaged))
            try handle.close()
            try JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2).save([Kit.steps(2, Kit.utc(2024, 5, 2))])
            let moved = recovered(path)
            expectEqual(moved.map(\.count), [damaged.count])
            expectEqual(moved.first.map { $0 == damaged }, true)
            #expect(Array(Kit.bytes(file).prefix(good.count)) == good ? true : false)
        }
    }
}
