import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The chunked search for a stored uuid finds exactly the whole lines that start with `{"uuid":"<uuid>"`, as a search
/// of the whole file does (``JSONFileStore/hasLine(startingWith:in:)``), wherever the lines fall across the chunks.
struct UUIDLineScannerTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: uUIDLineScannerTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let uuid = UUID(uuidString: "6A1E1B2C-3D4E-4F50-8A6B-7C8D9E0F1A2B")!
    private static let other = UUID(uuidString: "0B1C2D3E-4F50-4A6B-8C7D-8E9F0A1B2C3D")!

    private static func line(_ uuid: UUID, padding: Int = 40) -> [UInt8] {
        Array("{\"uuid\":\"\(uuid.lowercasedText)\",\"note\":\"\(String(repeating: "p", count: padding))\"}\n".utf8)
    }

    /// The scanner over `bytes`, handed out `step` bytes at a time at most, through a buffer of `chunk` bytes.
    private func scan(_ bytes: [UInt8], uuids: [UUID], chunk: Int, step: Int = .max) -> Int? {
        var offset = 0
        return UUIDLineScanner(uuids, chunkSize: chunk).firstMatch { buffer in
            let count = min(buffer.count, bytes.count - offset, step)
            bytes.withUnsafeBytes { source in
                if count > 0 { buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count) }
            }
            offset += count
            return count
        }
    }

    @Test(arguments: [47, 50, 64, 100, 4096, 65536])
    func wholeLinesAreFoundWhereverTheChunksEnd(chunk: Int) {
        let target = Self.line(Self.uuid)
        expectEqual(scan(target, uuids: [Self.uuid], chunk: chunk), 0)
        expectEqual(scan(Self.line(Self.other) + target, uuids: [Self.uuid], chunk: chunk), 0)
        expectEqual(scan(Self.line(Self.other) + target, uuids: [Self.other, Self.uuid], chunk: chunk), 0, "the first line's")
        expectEqual(scan(Self.line(Self.other) + target, uuids: [Self.uuid, Self.other], chunk: chunk), 1, "the first line's")
        expectNil(scan(Array(target.dropLast()), uuids: [Self.uuid], chunk: chunk), "a torn last line")
        expectNil(scan(Array(" ".utf8) + target, uuids: [Self.uuid], chunk: chunk), "not at the line's start")
        expectNil(scan(Array("{\"x\":1,".utf8) + Array(target.dropFirst()), uuids: [Self.uuid], chunk: chunk))
        expectNil(scan([], uuids: [Self.uuid], chunk: chunk))
        // Lines longer than the buffer: judged by their start, counted once their newline is read.
        let long = Self.line(Self.uuid, padding: 3 * chunk)
        expectEqual(scan(long, uuids: [Self.uuid], chunk: chunk), 0)
        expectNil(scan(Array(long.dropLast()), uuids: [Self.uuid], chunk: chunk))
        expectEqual(scan(Self.line(Self.other, padding: 3 * chunk) + target, uuids: [Self.uuid], chunk: chunk), 0)
        expectNil(scan(Self.line(Self.other, padding: 3 * chunk) + Array(target.dropLast()), uuids: [Self.uuid], chunk: chunk))
    }

    func randomFilesAgreeWithTheWholeFileSearch() {
        var random = Kit.SeededGenerator(seed: 20_261_129)
        for round in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                switch Int.random(in: 0..<6, using: &random) {
                case 0: bytes += Self.line(Self.uuid, padding: Int.random(in: 0...300, using: &random))
                case 1: bytes += Array("x".utf8) + Self.line(Self.uuid, padding: 3)
                default:
                    bytes += Self.line(Self.other, padding: Int.random(in: 0...300, using: &random))
                }
            }
            if Bool.random(using: &random) { bytes += Self.line(Self.uuid, padding: 10).dropLast(Int.random(in: 1...40, using: &random)) }
            let expected = JSONFileStore.hasLine(startingWith: Self.uuid, in: bytes)
            let chunk = Int.random(in: 47...400, using: &random)
            let step = Int.random(in: 1...500, using: &random)
            expectEqual((scan(bytes, uuids: [Self.uuid], chunk: chunk, step: step) != nil), expected,
                        "round \(round): chunk \(chunk), step \(step), \(bytes.count) bytes")
        }
    }

    func aStoredSampleDeepInABigPartitionIsRefused() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
            // About 600 KB in one month: the search reads it in ten chunks.
            let samples = (0..<2_000).map { Kit.steps(Double($0 + 1), Kit.utc(2025, 3, 1).addingTimeInterval(Double($0) * 600)) }
            try store.save(samples)
            for index in [0, 777, 1_999] {
                #expect(throws: SampleError.uuidInStore(samples[index].uuid.lowercasedText)) {
                    try store.save([Kit.steps(1, Kit.utc(2025, 3, 30)), samples[index]])
                }
            }
            try store.save([Kit.steps(1, Kit.utc(2025, 3, 30))])
            try expectEqual(store.samples(ofType: SampleType.steps.identifier,
                                          overlapping: DateInterval(start: Kit.utc(2025, 3, 1), end: Kit.utc(2025, 4, 1))).count, 2_001)
        }
    }
}

/// The checks ``UUIDLineScannerTests/checks(_:)`` runs.
private let uUIDLineScannerTestsChecks: [Check<UUIDLineScannerTests>] = [
    Check("randomFilesAgreeWithTheWholeFileSearch", UUIDLineScannerTests.randomFilesAgreeWithTheWholeFileSearch),
    Check("aStoredSampleDeepInABigPartitionIsRefused", UUIDLineScannerTests.aStoredSampleDeepInABigPartitionIsRefused),
]
