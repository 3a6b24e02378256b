import Foundation
import Testing
@testable import HealthCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 32 / issue 30's push: a writer checks every line of a partition before it appends to it, and the lock file
/// keeps marks of what the last writer checked and wrote, so the next process skips a file that is exactly as that
/// writer left it, and checks in full any file changed since in any other way.
struct ValidationMarkTests {
    private typealias Ops = OperationTestKit
    private typealias Kit = IndependentTestKit

    /// A new store instance (another process) on `path`.
    private static func reopen(_ path: String) -> JSONFileStore { JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2) }

    private static func waterFile(_ path: String) -> String { path + "/samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl" }

    /// Sets a file's modification time to `seconds` (a change another program makes shows in it).
    private static func touch(_ file: String, seconds: Int) {
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        _ = utimensat(AT_FDCWD, file, &times, 0)
    }

    @Test func theNextProcessSkipsAPartitionExactlyAsTheLastWriterLeftIt() throws {
        try Ops.withStore { store, path in
            try store.save((1...5).map { Ops.water(Double($0 * 100), hour: $0) })
            let next = Self.reopen(path)
            try next.save([Ops.water(600, hour: 6)])
            #expect(next.validationBytesRead.withLock { $0 } == 0)
            #expect(try Ops.visible(next).count == 6)
            // And the one after that, from the marks the second wrote.
            let third = Self.reopen(path)
            try third.save([Ops.water(700, hour: 7)])
            #expect(third.validationBytesRead.withLock { $0 } == 0)
            #expect(try Ops.visible(third).count == 7)
        }
    }

    @Test func aLineAppendedByAnotherProgramMakesTheWriterCheckTheWholeFile() throws {
        try Ops.withStore { store, path in
            try store.save([Ops.water(100, hour: 1)])
            let file = Self.waterFile(path)
            let line = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")[0]
            let copy = line.replacingOccurrences(of: String(line.dropFirst(9).prefix(8)), with: "0000aaaa")
            let handle = try #require(FileHandle(forWritingAtPath: file))
            handle.seekToEndOfFile()
            handle.write(Data((copy + "\n").utf8))
            handle.closeFile()
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            let next = Self.reopen(path)
            try next.save([Ops.water(200, hour: 2)])
            #expect(next.validationBytesRead.withLock { $0 } == size)
        }
    }

    @Test func aLineDamagedInPlaceIsFoundAlthoughTheSizeIsTheSame() throws {
        try Ops.withStore { store, path in
            try store.save((1...3).map { Ops.water(Double($0 * 100), hour: $0) })
            let file = Self.waterFile(path)
            var bytes = try #require(FileManager.default.contents(atPath: file))
            let firstBreak = try #require(bytes.firstIndex(of: 0x0A))
            bytes[firstBreak - 3] = UInt8(ascii: "#")  // the first of three lines, damaged: the same size
            try bytes.write(to: URL(fileURLWithPath: file))
            Self.touch(file, seconds: 1_700_000_000)
            let before = try #require(FileManager.default.contents(atPath: file))
            #expect(throws: StoreError.self) { try Self.reopen(path).save([Ops.water(400, hour: 4)]) }
            #expect(FileManager.default.contents(atPath: file) == before, "nothing appended to a damaged file")
        }
    }

    @Test func aFileReplacedByACopyIsCheckedInFull() throws {
        try Ops.withStore { store, path in
            try store.save([Ops.water(100, hour: 1)])
            let file = Self.waterFile(path)
            let bytes = try #require(FileManager.default.contents(atPath: file))
            try FileManager.default.removeItem(atPath: file)
            #expect(FileManager.default.createFile(atPath: file, contents: bytes, attributes: [.posixPermissions: 0o600]))
            let next = Self.reopen(path)
            try next.save([Ops.water(200, hour: 2)])
            #expect(next.validationBytesRead.withLock { $0 } == bytes.count)
        }
    }

    @Test func theLockFileStillGivesTheHighestChangeNumberToReadersOfItsFirstBytes() throws {
        try Ops.withStore { store, path in
            try store.save([Ops.water(100, hour: 1)])
            let lock = try #require(FileManager.default.contents(atPath: path + "/.lock"))
            #expect(lock.count > ValidationMarks.offset)
            // What a reader of the record alone (a version before marks) reads: 32 bytes, trimmed.
            let head = String(decoding: lock.prefix(32), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(UInt64(head) == 1)
            let marks = ValidationMarks(bytes: Array(lock.dropFirst(ValidationMarks.offset)))
            #expect(marks.mark(for: "samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl")?.lines == 1)
        }
    }

    @Test func theLockFileKeepsOneSizeFromWriteToWrite() throws {
        try Ops.withStore { store, path in
            var sizes: [Int] = []
            for hour in 1...3 {
                try store.save([Ops.water(100, hour: hour), Kit.steps(10, Kit.utc(2024, hour, 1, 8))])
                sizes.append(try #require(FileManager.default.contents(atPath: path + "/.lock")).count)
            }
            #expect(sizes == Array(repeating: ValidationMarks.offset + ValidationMarks.maximumBytes, count: 3))
        }
    }

    @Test func marksReadBackAndKeepTheMostRecent() throws {
        var marks = ValidationMarks()
        for index in 0..<(ValidationMarks.limit + 5) {
            marks.record(ValidationMarks.Mark(device: 1, inode: UInt64(index), size: index, seconds: 2, nanoseconds: 3, lines: index,
                                              highestSequence: 9, partition: "samples/Health Auto Export_x/\(index).jsonl"))
        }
        let read = ValidationMarks(bytes: marks.bytes)
        #expect(read == marks && read.marks.count == ValidationMarks.limit)
        #expect(read.mark(for: "samples/Health Auto Export_x/\(ValidationMarks.limit + 4).jsonl")?.inode == UInt64(ValidationMarks.limit + 4))
        #expect(read.mark(for: "samples/Health Auto Export_x/0.jsonl") == nil, "the oldest dropped")
        #expect(ValidationMarks(bytes: Array("garbage\n1 2 3".utf8)).marks.isEmpty)
        #expect(ValidationMarks(bytes: Array("hkctl-marks 1\nnot a mark\n".utf8)).marks.isEmpty)
        // A write torn by a crash (a byte of a mark changed, or the end missing): the checksum rejects all of them.
        var torn = marks.bytes
        let digit = try #require(torn.firstIndex(of: UInt8(ascii: "3")))
        torn[digit] = UInt8(ascii: "4")
        #expect(ValidationMarks(bytes: torn).marks.isEmpty)
        #expect(ValidationMarks(bytes: Array(marks.bytes.prefix(1000))).marks.isEmpty, "cut inside the marks: no checksum line")
    }
}
