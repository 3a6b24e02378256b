import Foundation
import Testing
import TestKit
@testable import HealthCore

/// One reader reads file after file through its 128 KiB buffer: whatever the sizes of the files read one after the
/// other, and however a file grows while it is read, every complete line comes through once, whole, in order.
struct PartitionLineReaderTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: partitionLineReaderTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Lines of varying length (some longer than a page), numbered so that a lost, doubled or cut line shows.
    private static func lines(_ count: Int, tag: String) -> [String] {
        (0..<count).map { "\(tag)-\($0)-" + String(repeating: "x", count: ($0 * 7919) % 5000) }
    }

    private static func read(_ reader: inout PartitionLineReader, _ path: String) throws -> [String] {
        var seen: [String] = []
        try reader.forEachLine(in: path) { line, number in
            expectEqual(number, seen.count + 1)
            seen.append(String(decoding: line, as: UTF8.self))
        }
        return seen
    }

    func filesOfEverySizeReadOneAfterTheOtherGiveEachLineOnce() throws {
        try TestSupport.withTemporaryDirectory { folder in
            // Small, larger than the largest read (lines cross its pieces), empty, a torn last line, small again.
            let contents: [(name: String, lines: [String], torn: String)] = [
                ("small", Self.lines(3, tag: "a"), ""),
                ("large", Self.lines(200, tag: "b"), ""),
                ("empty", [], ""),
                ("torn", Self.lines(40, tag: "c"), "{\"cut"),
                ("again", Self.lines(2, tag: "d"), ""),
            ]
            var reader = PartitionLineReader()
            for (name, lines, torn) in contents {
                let path = folder + "/" + name + ".jsonl"
                let text = lines.map { $0 + "\n" }.joined() + torn
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                if name == "large" { #expect(text.utf8.count > 3 << 17) }  // three times the largest read
                expectEqual(try Self.read(&reader, path), lines, "\(name)")
            }
        }
    }

    func aFileThatGrowsAfterItIsOpenedIsReadToItsNewEnd() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/growing.jsonl"
            let first = Self.lines(2, tag: "before")
            try Data(first.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
            // Two short lines when it is opened; 300 KB more arrive before the first read, more than one read takes.
            let more = Self.lines(120, tag: "after")
            var reader = PartitionLineReader()
            reader.afterOpening = {
                let handle = FileHandle(forWritingAtPath: path)!
                handle.seekToEndOfFile()
                handle.write(Data(more.map { $0 + "\n" }.joined().utf8))
                handle.closeFile()
            }
            expectEqual(try Self.read(&reader, path), first + more)
        }
    }
}

/// The checks ``PartitionLineReaderTests/checks(_:)`` runs.
private let partitionLineReaderTestsChecks: [Check<PartitionLineReaderTests>] = [
    Check("filesOfEverySizeReadOneAfterTheOtherGiveEachLineOnce",
          PartitionLineReaderTests.filesOfEverySizeReadOneAfterTheOtherGiveEachLineOnce),
    Check("aFileThatGrowsAfterItIsOpenedIsReadToItsNewEnd",
          PartitionLineReaderTests.aFileThatGrowsAfterItIsOpenedIsReadToItsNewEnd),
]
