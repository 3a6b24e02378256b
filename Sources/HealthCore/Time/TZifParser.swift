/// Reads the rules of one zone from a TZif file, the binary format of the system's tz database
/// (`/usr/share/zoneinfo/Europe/Paris`; RFC 8536).
///
/// Version 2 and later files are read from their 64-bit block and footer rule; version 1 files from their 32-bit
/// block. Files with leap-second records (the `right/` zones) are refused: the library's clock has no leap seconds.
enum TZifParser {
    /// The zone in `bytes`, named `identifier`; nil when the bytes are not a TZif file the library can use.
    static func rules(identifier: String, bytes: [UInt8]) -> ZoneRules? {
        guard let first = Header(bytes, at: 0) else { return nil }
        var header = first
        var timeSize = 4
        if first.version >= 2 {
            let second = first.end(timeSize: 4)
            guard let header2 = Header(bytes, at: second) else { return nil }
            header = header2
            timeSize = 8
        }
        guard header.leapCount == 0, header.typeCount > 0 else { return nil }
        var reader = BigEndianReader(bytes: bytes, index: header.dataStart)
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timeCount)
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
        var offsets: [Int32] = []
        var daylight: [Bool] = []
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
        // Transitions that change only the abbreviation are left out: they change nothing hkctl shows.
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

    /// A TZif header and the sizes of the data block that follows it.
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
            var reader = BigEndianReader(bytes: bytes, index: start + 20)
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
}

/// Big-endian integers from a byte array, nil past its end.
private struct BigEndianReader {
    let bytes: [UInt8]
    var index: Int

    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// The next `Value.bitWidth / 8` bytes as a big-endian two's-complement integer.
    mutating func integer<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
        let size = Value.bitWidth / 8
        guard index + size <= bytes.count else { return nil }
        var value = Value.zero
        for offset in 0..<size { value = value << 8 | Value(truncatingIfNeeded: bytes[index + offset]) }
        index += size
        return value
    }
}
