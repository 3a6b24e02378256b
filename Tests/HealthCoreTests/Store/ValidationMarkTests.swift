import Foundation
import Testing
import TestKit
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
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: validationMarkTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

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

    func theNextProcessSkipsAPartitionExactlyAsTheLastWriterLeftIt() throws {
        try Ops.withStore { store, path in
            try store.save((1...5).map { Ops.water(Double($0 * 100), hour: $0) })
            let next = Self.reopen(path)
            try next.save([Ops.water(600, hour: 6)])
            expectEqual(next.validationBytesRead.withLock { $0 }, 0)
            try expectEqual(Ops.visible(next).count, 6)
            // And the one after that, from the marks the second wrote.
            let third = Self.reopen(path)
            try third.save([Ops.water(700, hour: 7)])
            expectEqual(third.validationBytesRead.withLock { $0 }, 0)
            try expectEqual(Ops.visible(third).count, 7)
        }
    }

    func aLineAppendedByAnotherProgramMakesTheWriterCheckTheWholeFile() throws {
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
            expectEqual(next.validationBytesRead.withLock { $0 }, size)
        }
    }

    func aLineDamagedInPlaceIsFoundAlthoughTheSizeIsTheSame() throws {
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
            expectEqual(FileManager.default.contents(atPath: file), before, "nothing appended to a damaged file")
        }
    }

    func aFileReplacedByACopyIsCheckedInFull() throws {
        try Ops.withStore { store, path in
            try store.save([Ops.water(100, hour: 1)])
            let file = Self.waterFile(path)
            let bytes = try #require(FileManager.default.contents(atPath: file))
            try FileManager.default.removeItem(atPath: file)
            #expect(FileManager.default.createFile(atPath: file, contents: bytes, attributes: [.posixPermissions: 0o600]))
            let next = Self.reopen(path)
            try next.save([Ops.water(200, hour: 2)])
            expectEqual(next.validationBytesRead.withLock { $0 }, bytes.count)
        }
    }

    func theLockFileStillGivesTheHighestChangeNumberToReadersOfItsFirstBytes() throws {
        try Ops.withStore { store, path in
            try store.save([Ops.water(100, hour: 1)])
            let lock = try #require(FileManager.default.contents(atPath: path + "/.lock"))
            #expect(lock.count > ValidationMarks.offset)
            // What a reader of the record alone (a version before marks) reads: 32 bytes, trimmed.
            let head = String(decoding: lock.prefix(32), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            expectEqual(UInt64(head), 1)
            let marks = ValidationMarks(bytes: Array(lock.dropFirst(ValidationMarks.offset)))
            expectEqual(marks.mark(for: "samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl")?.lines, 1)
        }
    }

    func theLockFileKeepsOneSizeFromWriteToWrite() throws {
        try Ops.withStore { store, path in
            var sizes: [Int] = []
            for hour in 1...3 {
                try store.save([Ops.water(100, hour: hour), Kit.steps(10, Kit.utc(2024, hour, 1, 8))])
                sizes.append(try #require(FileManager.default.contents(atPath: path + "/.lock")).count)
            }
            expectEqual(sizes, Array(repeating: ValidationMarks.offset + ValidationMarks.maximumBytes, count: 3))
        }
    }

    func marksReadBackAndKeepTheMostRecent() throws {
        var marks = ValidationMarks()
        for index in 0..<(ValidationMarks.limit + 5) {
            marks.record(ValidationMarks.Mark(device: 1, inode: UInt64(index), size: index, seconds: 2, nanoseconds: 3, lines: index,
                                              highestSequence: 9, partition: "samples/Health Auto Export_x/\(index).jsonl"))
        }
        let read = ValidationMarks(bytes: marks.bytes)
        #expect(read == marks && read.marks.count == ValidationMarks.limit)
        expectEqual(read.mark(for: "samples/Health Auto Export_x/\(ValidationMarks.limit + 4).jsonl")?.inode, UInt64(ValidationMarks.limit + 4))
        expectNil(read.mark(for: "samples/Health Auto Export_x/0.jsonl"), "the oldest dropped")
        #expect(ValidationMarks(bytes: Array("garbage\n1 2 3".utf8)).marks.isEmpty)
        #expect(ValidationMarks(bytes: Array("hkctl-marks 1\nnot a mark\n".utf8)).marks.isEmpty)
        // A write torn by a crash (a byte of a mark changed, or the end missing): the checksum rejects all of them.
        var torn = marks.bytes
        let digit = try #require(torn.firstIndex(of: UInt8(ascii: "3")))
        torn[digit] = UInt8(ascii: "4")
        #expect(ValidationMarks(bytes: torn).marks.isEmpty)
        #expect(ValidationMarks(bytes: Array(marks.bytes.prefix(1000))).marks.isEmpty, "cut inside the marks: no checksum line")
    }

    /// A mark is found by its whole partition path, which starts after the line's seven numbers and may hold spaces
    /// (Health Auto Export's types): a path that is the end of another one's is not that one's mark. A line of a
    /// checked block that is not a mark (never written so) is no partition's mark, and the others still count.
    func marksAreFoundByTheirWholePath() throws {
        func mark(_ inode: UInt64, _ partition: String) -> ValidationMarks.Mark {
            ValidationMarks.Mark(device: 1, inode: inode, size: 10, seconds: 2, nanoseconds: 3, lines: 1, highestSequence: 4,
                                 partition: partition)
        }
        var marks = ValidationMarks()
        marks.record(mark(1, "samples/A samples/B/2024-01.jsonl"))
        marks.record(mark(2, "samples/Health Auto Export_x 1 2/2024-01.jsonl"))
        let read = ValidationMarks(bytes: marks.bytes)
        expectEqual(read.mark(for: "samples/A samples/B/2024-01.jsonl")?.inode, 1)
        expectNil(read.mark(for: "samples/B/2024-01.jsonl"), "the end of another partition's path")
        expectNil(read.mark(for: "B/2024-01.jsonl"))
        expectEqual(read.mark(for: "samples/Health Auto Export_x 1 2/2024-01.jsonl")?.inode, 2)
        expectNil(read.mark(for: "2/2024-01.jsonl"), "a path whose start could pass for the line's last numbers")
        expectNil(read.mark(for: "1 2/2024-01.jsonl"))
        var other = read
        other.forget("samples/B/2024-01.jsonl")
        expectEqual(other.marks.count, 2, "forgetting the end of a path forgets nothing")

        var text = Array((ValidationMarks.header + "\n" + mark(5, "samples/C/2024-02.jsonl").line + "\n"
                          + "12 x 3 4 5 6 7 samples/D/2024-02.jsonl\n" + mark(6, "samples/E/2024-02.jsonl").line + "\n").utf8)
        text += Array((ValidationMarks.sumPrefix + ValidationMarks.checksum(text[...]) + "\n\n").utf8)
        let mixed = ValidationMarks(bytes: text)
        expectNil(mixed.mark(for: "samples/D/2024-02.jsonl"))
        expectEqual(mixed.mark(for: "samples/E/2024-02.jsonl")?.inode, 6)
        expectEqual(mixed.marks.map(\.inode), [5, 6])
    }

    /// A long hold of the lock records and forgets marks again and again (an import, after every batch): checked
    /// against a plain list after every step, with paths that hold spaces and are the ends of one another, through
    /// many rewrites of the lines' text; now and then written (as the previous definition spelled it), read back as
    /// another process would, and used on. (A review's model, session 42.)
    func marksMatchAListModelThroughRecordsAndForgets() throws {
        var generator = Kit.SeededGenerator(seed: 99)
        let names = (0..<100).flatMap { index in
            ["p/\(index).jsonl", "x p/\(index).jsonl", "1 2 p/\(index).jsonl", "q 3 4 5 6 7 8 p/\(index).jsonl"]
        }
        var marks = ValidationMarks()
        var model: [ValidationMarks.Mark] = []
        for round in 0..<3_000 {
            let name = names.randomElement(using: &generator)!
            model.removeAll { $0.partition == name }
            if Int.random(in: 0..<5, using: &generator) == 0 {
                marks.forget(name)
            } else {
                let mark = ValidationMarks.Mark(device: UInt64(round), inode: UInt64.random(in: 0...UInt64.max, using: &generator),
                                                size: round, seconds: 1, nanoseconds: 2, lines: round, highestSequence: 5, partition: name)
                marks.record(mark)
                model.insert(mark, at: 0)
                if model.count > ValidationMarks.limit { model.removeLast() }
            }
            expectEqual(marks.marks, model, "round \(round)")
            for probe in names.prefix(40) + [name] {
                expectEqual(marks.mark(for: probe), model.first { $0.partition == probe }, "round \(round) \(probe)")
            }
            if round % 97 == 0 {
                expectEqual(marks.bytes, Self.previousBytes(marks), "round \(round)")
                marks = ValidationMarks(bytes: marks.bytes)
                model = marks.marks
                for probe in names { expectEqual(marks.mark(for: probe), model.first { $0.partition == probe }) }
            }
        }
    }

    /// The marks' text as it was spelled before it was written byte by byte (string interpolation, the limit checked
    /// on the text): the lock file must stay byte for byte what older and newer hkctl read.
    private static func previousBytes(_ marks: ValidationMarks) -> [UInt8] {
        var text = ValidationMarks.header + "\n"
        for mark in marks.marks {
            let line = "\(mark.device) \(mark.inode) \(mark.size) \(mark.seconds) \(mark.nanoseconds) \(mark.lines) "
                + "\(mark.highestSequence) \(mark.partition)\n"
            guard text.utf8.count + line.utf8.count + 22 <= ValidationMarks.maximumBytes else { break }
            text += line
        }
        var bytes = Array(text.utf8)
        bytes += Array((ValidationMarks.sumPrefix + ValidationMarks.checksum(bytes[...]) + "\n\n").utf8)
        bytes.append(contentsOf: repeatElement(0x20, count: ValidationMarks.maximumBytes - bytes.count))
        return bytes
    }

    /// Written digit by digit, the marks are the bytes the previous definition wrote, for numbers from 0 to their
    /// largest, long and non-ASCII partition paths, and a list long enough to meet the size cap; each reads back
    /// as it was, a partition named twice keeping its first mark as before.
    func marksAreWrittenAsThePreviousDefinitionWroteThem() throws {
        var generator = Kit.SeededGenerator(seed: 32)
        let numbers: [UInt64] = [0, 1, 9, 10, 99, 100, 4_294_967_295, UInt64(Int64.max), UInt64.max]
        for round in 0..<40 {
            var marks = ValidationMarks()
            for index in 0..<(round % 3 == 0 ? 70 : 12) {
                func pick() -> UInt64 {
                    Bool.random(using: &generator) ? numbers.randomElement(using: &generator)!
                        : UInt64.random(in: 0...UInt64.max >> UInt64.random(in: 0...63, using: &generator), using: &generator)
                }
                let name = ["samples/HKQuantityTypeIdentifierHeartRate/2024-0\(index % 10).jsonl", "operations.jsonl",
                            "samples/Café ☕️ \(index)/" + String(repeating: "long/", count: index % 40) + "x.jsonl"]
                    .randomElement(using: &generator)!
                marks.record(ValidationMarks.Mark(
                    device: pick(), inode: pick(), size: Int(pick() >> 1), seconds: Int64(pick() >> 1),
                    nanoseconds: Int64(pick() >> 1), lines: Int(pick() >> 1), highestSequence: pick(), partition: name))
            }
            let bytes = marks.bytes
            expectEqual(bytes, Self.previousBytes(marks), "round \(round)")
            let read = ValidationMarks(bytes: bytes)
            #expect(read.marks == Array(marks.marks.prefix(read.marks.count)) && !read.marks.isEmpty)
        }
        // A partition named twice in the file (never written so, but read as before): its first mark counts.
        let first = ValidationMarks.Mark(device: 1, inode: 2, size: 3, seconds: 4, nanoseconds: 5, lines: 6,
                                         highestSequence: 7, partition: "samples/a/2024-01.jsonl")
        var second = first
        second.inode = 9
        var text = Array((ValidationMarks.header + "\n" + first.line + "\n" + second.line + "\n").utf8)
        text += Array((ValidationMarks.sumPrefix + ValidationMarks.checksum(text[...]) + "\n\n").utf8)
        expectEqual(ValidationMarks(bytes: text).marks, [first])
    }
}

/// The checks ``ValidationMarkTests/checks(_:)`` runs.
private let validationMarkTestsChecks: [Check<ValidationMarkTests>] = [
    Check("theNextProcessSkipsAPartitionExactlyAsTheLastWriterLeftIt",
          ValidationMarkTests.theNextProcessSkipsAPartitionExactlyAsTheLastWriterLeftIt),
    Check("aLineAppendedByAnotherProgramMakesTheWriterCheckTheWholeFile",
          ValidationMarkTests.aLineAppendedByAnotherProgramMakesTheWriterCheckTheWholeFile),
    Check("aLineDamagedInPlaceIsFoundAlthoughTheSizeIsTheSame",
          ValidationMarkTests.aLineDamagedInPlaceIsFoundAlthoughTheSizeIsTheSame),
    Check("aFileReplacedByACopyIsCheckedInFull", ValidationMarkTests.aFileReplacedByACopyIsCheckedInFull),
    Check("theLockFileStillGivesTheHighestChangeNumberToReadersOfItsFirstBytes",
          ValidationMarkTests.theLockFileStillGivesTheHighestChangeNumberToReadersOfItsFirstBytes),
    Check("theLockFileKeepsOneSizeFromWriteToWrite", ValidationMarkTests.theLockFileKeepsOneSizeFromWriteToWrite),
    Check("marksReadBackAndKeepTheMostRecent", ValidationMarkTests.marksReadBackAndKeepTheMostRecent),
    Check("marksAreFoundByTheirWholePath", ValidationMarkTests.marksAreFoundByTheirWholePath),
    Check("marksMatchAListModelThroughRecordsAndForgets", ValidationMarkTests.marksMatchAListModelThroughRecordsAndForgets),
    Check("marksAreWrittenAsThePreviousDefinitionWroteThem",
          ValidationMarkTests.marksAreWrittenAsThePreviousDefinitionWroteThem),
]
