import Foundation
import Testing
import TestKit
@testable import HealthCore

/// ``TZifParser`` reads a file's blocks in place; these checks hold it to a plain reading of RFC 8536, field after
/// field with every read bounds-checked (``ReferenceTZif``, kept here only as the reference), over every file of the
/// system's tz database and over damaged copies of some.
struct TZifReadingTests {
    /// Every regular file under /usr/share/zoneinfo (zones, links resolved, and the tables that are not TZif) reads
    /// the same both ways: the same rules, or nil both.
    @Test func everyFileOfTheDatabaseReadsAsTheReferenceReadsIt() throws {
        let root = "/usr/share/zoneinfo"
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            Issue.record("no \(root): install the tzdata package")
            return
        }
        var compared = 0, zones = 0
        for case let relative as String in walker {
            let path = root + "/" + relative
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                  let data = FileManager.default.contents(atPath: path) else { continue }
            let bytes = [UInt8](data)
            let ours = TZifParser.rules(identifier: relative, bytes: bytes)
            expectEqual(ours, ReferenceTZif.rules(identifier: relative, bytes: bytes), "\(relative)")
            compared += 1
            if ours != nil { zones += 1 }
        }
        #expect(zones > 300, "only \(zones) zones of \(compared) files were read")
    }

    /// Copies of a few zones with random bytes changed, cut short or grown: the same result both ways (mostly nil,
    /// sometimes other rules), never a crash or a read past the end.
    @Test func damagedCopiesReadAsTheReferenceReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        for name in ["America/Los_Angeles", "Europe/Paris", "Asia/Kolkata", "Australia/Lord_Howe", "UTC"] {
            guard let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name) else {
                Issue.record("no \(name) in /usr/share/zoneinfo: install the tzdata package")
                continue
            }
            let good = [UInt8](data)
            for _ in 0..<400 {
                var bytes = good
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    for _ in 0..<Int.random(in: 1...4, using: &generator) {
                        bytes[Int.random(in: 0..<bytes.count, using: &generator)] = .random(in: 0...255, using: &generator)
                    }
                case 1:
                    // A count in one of the two headers (bytes 20 to 43 of each) set to a small or huge value.
                    let header = Bool.random(using: &generator) ? 0 : ReferenceTZif.secondHeaderStart(good)
                    let field = header + 20 + 4 * Int.random(in: 0..<6, using: &generator)
                    let value = UInt32.random(in: 0...300, using: &generator) | (Bool.random(using: &generator) ? 0x7000_0000 : 0)
                    for index in 0..<4 { bytes[field + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
                default:
                    bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
                        + (0..<Int.random(in: 0...3, using: &generator)).map { _ in .random(in: 0...255, using: &generator) }
                }
                let ours = TZifParser.rules(identifier: name, bytes: bytes)
                let reference = ReferenceTZif.rules(identifier: name, bytes: bytes)
                guard ours == reference else {
                    Issue.record("\(name) damaged: \(String(describing: ours)) against \(String(describing: reference))")
                    return
                }
            }
        }
    }
}

/// A plain reading of a TZif file: what ``TZifParser`` did before it read in place.
private enum ReferenceTZif {
    static func rules(identifier: String, bytes: [UInt8]) -> ZoneRules? {
        guard let first = Header(bytes, at: 0) else { return nil }
        var header = first
        var timeSize = 4
        if first.version >= 2 {
            guard let second = Header(bytes, at: first.end(timeSize: 4)) else { return nil }
            header = second
            timeSize = 8
        }
        guard header.leapCount == 0, header.typeCount > 0 else { return nil }
        var reader = Reader(bytes: bytes, index: header.dataStart)
        var transitions: [Int64] = []
        for _ in 0..<header.timeCount {
            guard let time = timeSize == 8 ? reader.integer(Int64.self) : reader.integer(Int32.self).map(Int64.init)
            else { return nil }
            transitions.append(time)
        }
        var typeIndices: [Int] = []
        for _ in 0..<header.timeCount {
            guard let index = reader.byte(), Int(index) < header.typeCount else { return nil }
            typeIndices.append(Int(index))
        }
        var offsets: [Int32] = [], daylight: [Bool] = []
        for _ in 0..<header.typeCount {
            guard let offset = reader.integer(Int32.self), let isDaylight = reader.byte(), isDaylight <= 1, reader.byte() != nil,
                  abs(Int(offset)) <= 26 * 3600 else { return nil }
            offsets.append(offset)
            daylight.append(isDaylight == 1)
        }
        guard zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        var rule: PosixZoneRule?
        if header.version >= 2 {
            let footerStart = header.end(timeSize: 8)
            guard footerStart < bytes.count, bytes[footerStart] == 0x0A,
                  let close = bytes[(footerStart + 1)...].firstIndex(of: 0x0A) else { return nil }
            let text = String(decoding: bytes[(footerStart + 1)..<close], as: UTF8.self)
            if !text.isEmpty {
                guard let parsed = PosixZoneRule(text) else { return nil }
                rule = parsed
            }
        }
        var kept: [Int64] = [], keptOffsets: [Int32] = []
        var previous = (offsets[0], daylight[0])
        for (time, type) in zip(transitions, typeIndices) where (offsets[type], daylight[type]) != previous {
            kept.append(time)
            keptOffsets.append(offsets[type])
            previous = (offsets[type], daylight[type])
        }
        return ZoneRules(identifier: identifier, transitions: kept, offsetsAfter: keptOffsets,
                         initialOffset: Int(offsets[0]), rule: rule)
    }

    /// Where a version 2 file's second header starts (0 for a version 1 file or unreadable bytes).
    static func secondHeaderStart(_ bytes: [UInt8]) -> Int {
        guard let first = Header(bytes, at: 0), first.version >= 2 else { return 0 }
        return first.end(timeSize: 4)
    }

    private struct Header {
        let start: Int
        let version: Int
        let utLocalCount, standardWallCount, leapCount, timeCount, typeCount, characterCount: Int

        init?(_ bytes: [UInt8], at start: Int) {
            guard start + 44 <= bytes.count, bytes[start..<(start + 4)].elementsEqual("TZif".utf8) else { return nil }
            self.start = start
            let versionByte = bytes[start + 4]
            version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
            guard version >= 1 && version <= 9 else { return nil }
            var reader = Reader(bytes: bytes, index: start + 20)
            var counts: [Int] = []
            for _ in 0..<6 {
                guard let value = reader.integer(Int32.self), value >= 0 else { return nil }
                counts.append(Int(value))
            }
            (utLocalCount, standardWallCount, leapCount, timeCount, typeCount, characterCount)
                = (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])
        }

        var dataStart: Int { start + 44 }

        func end(timeSize: Int) -> Int {
            dataStart + timeCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + standardWallCount + utLocalCount
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index: Int

        mutating func byte() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func integer<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
            let size = Value.bitWidth / 8
            guard index + size <= bytes.count else { return nil }
            var value = Value.zero
            for offset in 0..<size { value = value << 8 | Value(truncatingIfNeeded: bytes[index + offset]) }
            index += size
            return value
        }
    }
}
