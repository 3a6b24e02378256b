/// Reads the rules of one zone from a TZif file, the binary format of the system's tz database
/// (`/usr/share/zoneinfo/Europe/Paris`; RFC 8536).
///
/// Version 2 and later files are read from their 64-bit block and footer rule; version 1 files from their 32-bit
/// block. Files with leap-second records (the `right/` zones) are refused: the library's clock has no leap seconds.
/// Every command that shows a time reads its zone, so the file's blocks are read in place, each field once.
enum TZifParser {
    /// The zone in `bytes`, named `identifier`; nil when the bytes are not a TZif file the library can use.
    static func rules(identifier: String, bytes: [UInt8]) -> ZoneRules? {
        bytes.withUnsafeBufferPointer { rules(identifier: identifier, file: $0) }
    }

    private static func rules(identifier: String, file bytes: UnsafeBufferPointer<UInt8>) -> ZoneRules? {
        guard let first = Header(bytes, at: 0) else { return nil }
        var header = first
        var timeSize = 4
        if first.version >= 2 {
            guard let second = Header(bytes, at: first.end(timeSize: 4)) else { return nil }
            header = second
            timeSize = 8
        }
        let timeCount = header.timeCount, typeCount = header.typeCount
        guard header.leapCount == 0, typeCount > 0 else { return nil }
        // The transition times, then one type index per transition, then six bytes per type (offset, daylight flag,
        // abbreviation index).
        let timesStart = header.dataStart
        let indicesStart = timesStart + timeCount * timeSize
        let typesStart = indicesStart + timeCount
        guard typesStart + typeCount * 6 <= bytes.count, let base = bytes.baseAddress else { return nil }
        var offsets: [Int32] = [], daylight: [Bool] = []
        offsets.reserveCapacity(typeCount)
        daylight.reserveCapacity(typeCount)
        for type in 0..<typeCount {
            let start = typesStart + type * 6
            let offset = Int32(bitPattern: bigEndian(base, start, as: UInt32.self))
            let isDaylight = bytes[start + 4]
            guard isDaylight <= 1, abs(Int(offset)) <= 26 * 3600 else { return nil }
            offsets.append(offset)
            daylight.append(isDaylight == 1)
        }
        // Transitions that change only the abbreviation are left out: they change nothing hkctl shows.
        var kept: [Int64] = [], keptOffsets: [Int32] = []
        var previous = (offsets[0], daylight[0])
        var last = Int64.min
        for index in 0..<timeCount {
            let time = timeSize == 8 ? Int64(bitPattern: bigEndian(base, timesStart + 8 * index, as: UInt64.self))
                : Int64(Int32(bitPattern: bigEndian(base, timesStart + 4 * index, as: UInt32.self)))
            let type = Int(bytes[indicesStart + index])
            guard type < typeCount, index == 0 || time > last else { return nil }
            last = time
            if (offsets[type], daylight[type]) != previous {
                kept.append(time)
                keptOffsets.append(offsets[type])
                previous = (offsets[type], daylight[type])
            }
        }
        var rule: PosixZoneRule?
        if header.version >= 2 {
            let footerStart = header.end(timeSize: 8)
            guard footerStart < bytes.count, bytes[footerStart] == 0x0A,
                  let close = bytes[(footerStart + 1)...].firstIndex(of: 0x0A) else { return nil }
            if close > footerStart + 1 {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(footerStart + 1)..<close]), as: UTF8.self)
                guard let parsed = PosixZoneRule(text) else { return nil }
                rule = parsed
            }
        }
        return ZoneRules(identifier: identifier, transitions: kept, offsetsAfter: keptOffsets,
                         initialOffset: Int(offsets[0]), rule: rule)
    }

    /// The big-endian integer at `offset` (the caller has checked that its bytes are there).
    @inline(__always)
    private static func bigEndian<Value: FixedWidthInteger>(_ base: UnsafePointer<UInt8>, _ offset: Int, as: Value.Type) -> Value {
        Value(bigEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: Value.self))
    }

    /// A TZif header and the sizes of the data block that follows it.
    private struct Header {
        let start: Int
        let version: Int
        let utLocalCount, standardWallCount, leapCount, timeCount, typeCount, characterCount: Int

        init?(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) {
            guard start >= 0, start + 44 <= bytes.count, let base = bytes.baseAddress,
                  bytes[start] == 0x54, bytes[start + 1] == 0x5A, bytes[start + 2] == 0x69, bytes[start + 3] == 0x66  // "TZif"
            else { return nil }
            self.start = start
            let versionByte = bytes[start + 4]
            version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
            guard version >= 1 && version <= 9 else { return nil }
            func count(_ index: Int) -> Int? {
                let value = Int32(bitPattern: TZifParser.bigEndian(base, start + 20 + 4 * index, as: UInt32.self))
                return value >= 0 ? Int(value) : nil
            }
            guard let utLocal = count(0), let standardWall = count(1), let leaps = count(2), let times = count(3),
                  let types = count(4), let characters = count(5) else { return nil }
            (utLocalCount, standardWallCount, leapCount, timeCount, typeCount, characterCount)
                = (utLocal, standardWall, leaps, times, types, characters)
        }

        var dataStart: Int { start + 44 }

        func end(timeSize: Int) -> Int {
            dataStart + timeCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + standardWallCount + utLocalCount
        }
    }
}
