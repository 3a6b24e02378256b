/// The summary file: a private binary format (little-endian), checked by a checksum of everything before it.
///
/// `hkctl-summary 1\n`, the partition's path, both identities, the unit, the sources, the slots, the spans, then a
/// 64-bit checksum. Anything that does not read back exactly (another version, a torn or damaged file, a count
/// that does not fit) gives nil, and the caller reads the partition's lines instead.
extension PartitionSummary {
    /// The file's bytes.
    func encoded() -> [UInt8] {
        var out = SummaryWriter(capacity: 512 + slots.count * 32 + spans.count * 28)
        out.bytes(Self.magic)
        out.text(partition)
        out.identity(identity)
        out.identity(tombstones)
        out.text(unit)
        out.u32(UInt32(sources.count))
        for source in sources { out.source(source) }
        out.u32(UInt32(slots.count))
        for slot in slots {
            out.u32(UInt32(bitPattern: slot.hour))
            out.u32(slot.count)
            out.u64(slot.sum.bitPattern)
            out.u64(slot.sources)
            out.u64(slot.endingSources)
        }
        out.u32(UInt32(spans.count))
        for span in spans {
            out.u64(span.start.bitPattern)
            out.u64(span.end.bitPattern)
            out.u64(span.value.bitPattern)
            out.u32(UInt32(span.source))
        }
        return out.finish()
    }

    /// The summary in `bytes`, or nil when they are not a whole, undamaged summary of this format.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count >= Self.magic.count + 8, bytes.starts(with: Self.magic) else { return nil }
        let body = bytes[..<(bytes.count - 8)]
        var stored: UInt64 = 0
        for index in (0..<8).reversed() { stored = stored << 8 | UInt64(bytes[bytes.count - 8 + index]) }
        guard stored == Self.checksum(body) else { return nil }
        guard let decoded = body.withUnsafeBytes({ raw in
            var input = SummaryReader(base: raw.baseAddress!, count: raw.count, position: Self.magic.count)
            return Self.decode(&input)
        }) else { return nil }
        self = decoded
    }

    private static func decode(_ input: inout SummaryReader) -> PartitionSummary? {
        guard let partition = input.text(), let identity = input.identity(), let tombstones = input.identity(),
              let unit = input.text(), let sourceCount = input.u32(), sourceCount <= maximumSources
        else { return nil }
        var sources: [Source] = []
        for _ in 0..<sourceCount {
            guard let source = input.source() else { return nil }
            sources.append(source)
        }
        let allSources: UInt64 = sourceCount == 64 ? ~0 : (1 << UInt64(sourceCount)) - 1
        guard let slotCount = input.u32(), Int(slotCount) <= input.remaining / 32 else { return nil }
        // Read straight from the bytes (their count was checked above): this loop is most of a summary's reading.
        var previous = Int64(Int32.min) - 1
        var valid = true
        let base = input.base + input.position
        let slots = [Slot](unsafeUninitializedCapacity: Int(slotCount)) { buffer, initialized in
            for index in 0..<Int(slotCount) {
                let offset = index * 32
                let slot = Slot(hour: Int32(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))),
                                count: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)),
                                sum: Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))),
                                sources: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)),
                                endingSources: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)))
                // Increasing hours, a whole sum in range, sources that exist and gave the samples that end there.
                valid = valid && slot.count > 0 && Int64(slot.hour) > previous && slot.sum >= 0 && slot.sum < exactLimit
                    && slot.sum == slot.sum.rounded(.towardZero) && slot.sources != 0 && slot.sources & ~allSources == 0
                    && slot.endingSources & ~slot.sources == 0
                previous = Int64(slot.hour)
                (buffer.baseAddress! + index).initialize(to: slot)
            }
            initialized = Int(slotCount)
        }
        guard valid else { return nil }
        input.position += Int(slotCount) * 32
        guard let spanCount = input.u32(), Int(spanCount) <= input.remaining / 28 else { return nil }
        var spans: [Span] = []
        spans.reserveCapacity(Int(spanCount))
        for _ in 0..<spanCount {
            guard let start = input.u64(), let end = input.u64(), let value = input.u64(), let source = input.u32(),
                  source < sourceCount else { return nil }
            let span = Span(start: Double(bitPattern: start), end: Double(bitPattern: end),
                            value: Double(bitPattern: value), source: Int(source))
            guard span.start.isFinite, span.end.isFinite, span.value >= 0, span.value < exactLimit,
                  span.value == span.value.rounded(.towardZero) else { return nil }
            spans.append(span)
        }
        guard input.remaining == 0 else { return nil }
        return PartitionSummary(partition: partition, identity: identity, tombstones: tombstones, unit: unit,
                                sources: sources, slots: slots, spans: spans)
    }

    /// A 64-bit checksum of `bytes`, eight at a time (FNV-1a's multiplier over words): it finds damage and torn
    /// writes, not forgery (only the store's owner can write the file).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                    &* 0x0000_0100_0000_01B3
                hash ^= hash >> 32
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* 0x0000_0100_0000_01B3
                offset += 1
            }
        }
        return hash ^ UInt64(bytes.count)
    }
}

extension PartitionSummary.Sequence {
    /// The sequence file's bytes: `hkctl-sequence 1\n`, the partition's path, both identities, the entries (a flag
    /// byte, the hour or span index, the value), then a checksum as in the summary file.
    func encoded() -> [UInt8] {
        var out = SummaryWriter(capacity: 256 + entries.count * 13)
        out.bytes(Self.magic)
        out.text(partition)
        out.identity(identity)
        out.identity(tombstones)
        out.u32(UInt32(entries.count))
        for entry in entries {
            out.byte(entry.isSpan ? 1 : 0)
            out.u32(UInt32(bitPattern: entry.index))
            out.u64(entry.value.bitPattern)
        }
        return out.finish()
    }

    /// The sequence in `bytes`, or nil when they are not a whole, undamaged sequence file of this format that fits
    /// `summary` (its partition, identities, hours and spans).
    init?(decoding bytes: [UInt8], of summary: PartitionSummary) {
        guard bytes.count >= Self.magic.count + 8, bytes.starts(with: Self.magic) else { return nil }
        let body = bytes[..<(bytes.count - 8)]
        var stored: UInt64 = 0
        for index in (0..<8).reversed() { stored = stored << 8 | UInt64(bytes[bytes.count - 8 + index]) }
        guard stored == PartitionSummary.checksum(body) else { return nil }
        guard let decoded = body.withUnsafeBytes({ raw -> Self? in
            var input = SummaryReader(base: raw.baseAddress!, count: raw.count, position: Self.magic.count)
            guard let partition = input.text(), partition == summary.partition, let identity = input.identity(),
                  identity == summary.identity, let tombstones = input.identity(), tombstones == summary.tombstones,
                  let count = input.u32(), Int(count) == input.remaining / 13, input.remaining % 13 == 0 else { return nil }
            var entries: [Entry] = []
            entries.reserveCapacity(Int(count))
            // Every slot's samples and every span, once each.
            var left = summary.slots.map { Int($0.count) }
            var spanSeen = [Bool](repeating: false, count: summary.spans.count)
            let base = input.base + input.position
            var slot = 0
            for index in 0..<Int(count) {
                let offset = index * 13
                let flag = base.load(fromByteOffset: offset, as: UInt8.self)
                let entry = Entry(isSpan: flag == 1,
                                  index: Int32(bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self))),
                                  value: Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 5, as: UInt64.self))))
                guard flag <= 1 else { return nil }
                if entry.isSpan {
                    guard entry.index >= 0, Int(entry.index) < spanSeen.count, !spanSeen[Int(entry.index)] else { return nil }
                    spanSeen[Int(entry.index)] = true
                } else {
                    // Lines come nearly in time order: the slot is most often the one before or the next.
                    if !(slot < summary.slots.count && summary.slots[slot].hour == entry.index) {
                        if slot + 1 < summary.slots.count && summary.slots[slot + 1].hour == entry.index {
                            slot += 1
                        } else {
                            guard let found = summary.slot(ofHour: entry.index) else { return nil }
                            slot = found
                        }
                    }
                    guard left[slot] > 0, entry.value >= 0, entry.value < PartitionSummary.exactLimit,
                          entry.value == entry.value.rounded(.towardZero) else { return nil }
                    left[slot] -= 1
                }
                entries.append(entry)
            }
            input.position += Int(count) * 13
            guard left.allSatisfy({ $0 == 0 }), spanSeen.allSatisfy({ $0 }) else { return nil }
            return Self(partition: partition, identity: identity, tombstones: tombstones, entries: entries)
        }) else { return nil }
        self = decoded
    }
}

extension PartitionSummary {
    /// The index in ``slots`` of the slot of `hour`, if there is one.
    func slot(ofHour hour: Int32) -> Int? {
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if slots[middle].hour < hour { low = middle + 1 } else { high = middle }
        }
        return low < slots.count && slots[low].hour == hour ? low : nil
    }
}

/// Writes little-endian numbers and length-prefixed texts into a buffer of its own (storing into raw memory: appending
/// to an array number by number cost most of a summary's writing).
struct SummaryWriter {
    private var storage: UnsafeMutableRawBufferPointer
    private var count = 0

    init(capacity: Int) { storage = .allocate(byteCount: max(capacity, 64), alignment: 8) }

    private mutating func reserve(_ more: Int) {
        guard count + more > storage.count else { return }
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(2 * storage.count, count + more), alignment: 8)
        bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<count]))
        storage.deallocate()
        storage = bigger
    }

    mutating func byte(_ value: UInt8) {
        reserve(1)
        storage[count] = value
        count += 1
    }

    mutating func bytes(_ values: [UInt8]) {
        reserve(values.count)
        values.withUnsafeBytes { storage.baseAddress!.advanced(by: count).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        count += values.count
    }

    mutating func u32(_ value: UInt32) {
        reserve(4)
        storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt32.self)
        count += 4
    }

    mutating func u64(_ value: UInt64) {
        reserve(8)
        storage.storeBytes(of: value.littleEndian, toByteOffset: count, as: UInt64.self)
        count += 8
    }

    mutating func text(_ text: String) {
        let utf8 = Array(text.utf8)
        u32(UInt32(utf8.count))
        if !utf8.isEmpty { bytes(utf8) }
    }

    /// A source: its name, then 1 and its device, or 0 when it names none.
    mutating func source(_ source: PartitionSummary.Source) {
        text(source.name)
        if let device = source.device {
            byte(1)
            text(device)
        } else {
            byte(0)
        }
    }

    mutating func identity(_ identity: FileIdentity) {
        u64(identity.device)
        u64(identity.inode)
        u64(UInt64(bitPattern: identity.size))
        u64(UInt64(bitPattern: identity.seconds))
        u64(UInt64(bitPattern: identity.nanoseconds))
    }

    /// The bytes written, followed by their checksum; the writer is spent.
    mutating func finish() -> [UInt8] {
        finish { PartitionSummary.checksum($0[...]) }
    }

    /// The bytes written, followed by their `checksum`; the writer is spent.
    mutating func finish(checksum: ([UInt8]) -> UInt64) -> [UInt8] {
        var result = Array(UnsafeRawBufferPointer(rebasing: storage[..<count]))
        storage.deallocate()
        storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        let checksum = checksum(result)
        withUnsafeBytes(of: checksum.littleEndian) { result.append(contentsOf: $0) }
        return result
    }
}

/// Reads what ``SummaryWriter`` wrote; nil past the end.
struct SummaryReader {
    let base: UnsafeRawPointer
    let count: Int
    var position: Int

    var remaining: Int { count - position }

    mutating func byte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { position += 1 }
        return base.load(fromByteOffset: position, as: UInt8.self)
    }

    mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { position += 4 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    mutating func u64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        defer { position += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    mutating func text() -> String? {
        guard let length = u32(), Int(length) <= remaining else { return nil }
        defer { position += Int(length) }
        let bytes = UnsafeRawBufferPointer(start: base + position, count: Int(length))
        return String(validating: bytes.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    /// A source as ``SummaryWriter/source(_:)`` writes it; nil when it is not one.
    mutating func source() -> PartitionSummary.Source? {
        guard let name = text(), let flag = byte(), flag <= 1 else { return nil }
        guard flag == 1 else { return PartitionSummary.Source(name: name, device: nil) }
        guard let device = text() else { return nil }
        return PartitionSummary.Source(name: name, device: device)
    }

    mutating func identity() -> FileIdentity? {
        guard let device = u64(), let inode = u64(), let size = u64(), let seconds = u64(), let nanoseconds = u64()
        else { return nil }
        return FileIdentity(device: device, inode: inode, size: Int64(bitPattern: size), seconds: Int64(bitPattern: seconds),
                            nanoseconds: Int64(bitPattern: nanoseconds))
    }
}
