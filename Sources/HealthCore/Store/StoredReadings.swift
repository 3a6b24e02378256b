/// A month partition's readings as a read of every one of its lines hands them over, kept in a derived file
/// (`derived/readings/<type>/<month>.readings`) so that a discrete statistic (heart rate by day) need not parse the
/// month's JSON lines again: a cache (docs/STORE.md, "Derived files").
///
/// It is only ever built from a read of every line of the partition in which each line was in the writer's plain
/// shape and accepted (so a read that takes it instead of the lines checks what the lines' read would have checked),
/// and where each source names one device. It holds each reading exactly as that read made it (start, end and value
/// as their bits, unit and source as indices into its own lists, uuid), in line order, after the deletions of the
/// type's tombstone file whose identity it names; a read through it keeps the readings that overlap its window, so it
/// hands over the very readings, in the very order, that a read of the lines does, and every figure is the lines'.
///
/// It names the partition and the identities of both files; one whose names or identities differ from the files'
/// now is ignored, as is one that is damaged or of another format (the read then takes the lines, and keeps a new
/// one). A month whose lines cannot all be kept (damage, a source naming two devices) gets a file that says only that
/// (``linesOnly``), so that later reads take its lines straight away instead of trying to keep it again.
struct StoredReadings: Equatable, Sendable {
    /// One reading: what ``QuantityReading`` holds, with its uuid always.
    struct Record: Equatable, Sendable {
        var start: Double
        var end: Double
        var value: Double
        var unit: UInt16
        var source: UInt16
        var uuid: UUIDKey
    }

    /// The partition's path relative to the store.
    var partition: String
    var identity: FileIdentity
    var tombstones: FileIdentity
    /// Whether the month as it is now cannot be kept, and reads take its lines (no units, sources or records then).
    var linesOnly = false
    /// The units the records name, in the order the read met them.
    var units: [String]
    /// The sources the records name, in the order the read met them, each with the device its lines name.
    var sources: [PartitionSummary.Source]
    var records: [Record]

    /// Partitions smaller than this get none (reading their lines costs about as much), as for summaries.
    static let minimumPartitionBytes = PartitionSummary.minimumPartitionBytes
    /// The first bytes of every readings file, with its format version.
    static let magic = Array("hkctl-readings 1\n".utf8)
    /// Bytes per record in the file.
    static let recordBytes = 44

    /// The readings of a read of every line of `partition` (with `identity`, after the deletions of `tombstones`):
    /// `readings` in line order, with uuids, their units and sources in `names`; nil when they cannot all be kept.
    init?(partition: String, identity: FileIdentity, tombstones: FileIdentity, readings: [QuantityReading],
          names: ReadingNames) {
        guard names.units.count <= Int(UInt16.max), names.sources.count <= Int(UInt16.max) else { return nil }
        var records: [Record] = []
        records.reserveCapacity(readings.count)
        for reading in readings {
            guard let uuid = reading.uuid else { return nil }
            records.append(Record(start: reading.start.timeIntervalSinceReferenceDate,
                                  end: reading.end.timeIntervalSinceReferenceDate, value: reading.value,
                                  unit: UInt16(reading.unit), source: UInt16(reading.source), uuid: uuid))
        }
        self.init(partition: partition, identity: identity, tombstones: tombstones, units: names.units,
                  sources: zip(names.sources, names.devices).map { PartitionSummary.Source(name: $0, device: $1) },
                  records: records)
    }

    init(partition: String, identity: FileIdentity, tombstones: FileIdentity, units: [String],
         sources: [PartitionSummary.Source], records: [Record]) {
        self.partition = partition
        self.identity = identity
        self.tombstones = tombstones
        self.units = units
        self.sources = sources
        self.records = records
    }

    /// The file of a month whose lines cannot be kept as readings: reads take its lines while it is as it is now.
    static func linesOnly(partition: String, identity: FileIdentity, tombstones: FileIdentity) -> StoredReadings {
        var readings = StoredReadings(partition: partition, identity: identity, tombstones: tombstones, units: [],
                                      sources: [], records: [])
        readings.linesOnly = true
        return readings
    }

    /// The file's bytes: the magic line, the partition's path, both identities, a byte that says whether the month
    /// is read from its lines (1) or kept here (0), the units, the sources, the records (start, end and value as
    /// 64-bit patterns, the uuid's two halves, then unit and source as 16 bits each), then a checksum
    /// (``checksum(_:)``) of everything before it. Little-endian.
    func encoded() -> [UInt8] {
        var out = SummaryWriter(capacity: 512 + records.count * Self.recordBytes)
        out.bytes(Self.magic)
        out.text(partition)
        out.identity(identity)
        out.identity(tombstones)
        out.byte(linesOnly ? 1 : 0)
        out.u32(UInt32(units.count))
        for unit in units { out.text(unit) }
        out.u32(UInt32(sources.count))
        for source in sources { out.source(source) }
        out.u32(UInt32(records.count))
        for record in records {
            out.u64(record.start.bitPattern)
            out.u64(record.end.bitPattern)
            out.u64(record.value.bitPattern)
            out.u64(record.uuid.hi)
            out.u64(record.uuid.lo)
            out.u32(UInt32(record.unit) | UInt32(record.source) << 16)
        }
        return out.finish { bytes in bytes.withUnsafeBytes { Self.checksum($0) } }
    }

    /// Everything before the records, read and checked: the records start at ``offset`` and are ``count`` long.
    private struct Header {
        var partition: String
        var identity: FileIdentity
        var tombstones: FileIdentity
        var linesOnly: Bool
        var units: [String]
        var sources: [PartitionSummary.Source]
        var count: Int
        var offset: Int
    }

    /// The header of the file in `raw` (its checksum stripped), when the file is whole and of this format.
    private static func header(_ raw: UnsafeRawBufferPointer) -> Header? {
        guard raw.count >= magic.count + 8, magic.indices.allSatisfy({ raw[$0] == magic[$0] }) else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])
        guard raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self).littleEndian == checksum(body) else {
            return nil
        }
        var input = SummaryReader(base: body.baseAddress!, count: body.count, position: magic.count)
        guard let partition = input.text(), let identity = input.identity(), let tombstones = input.identity(),
              let flag = input.byte(), flag <= 1, let unitCount = input.u32(), unitCount <= UInt16.max else { return nil }
        var units: [String] = []
        for _ in 0..<unitCount {
            guard let unit = input.text(), !units.contains(unit) else { return nil }
            units.append(unit)
        }
        guard let sourceCount = input.u32(), sourceCount <= UInt16.max else { return nil }
        var sources: [PartitionSummary.Source] = []
        for _ in 0..<sourceCount {
            guard let source = input.source(), !sources.contains(where: { $0.name == source.name }) else { return nil }
            sources.append(source)
        }
        guard let count = input.u32(), input.remaining == Int(count) * recordBytes,
              flag == 0 || (units.isEmpty && sources.isEmpty && count == 0) else { return nil }
        return Header(partition: partition, identity: identity, tombstones: tombstones, linesOnly: flag == 1,
                      units: units, sources: sources, count: Int(count), offset: input.position)
    }

    /// Record `index` of the records at `base`, when it is one a read of plain lines can make (finite times with the
    /// end not before the start, a finite value, a unit and a source among the `units` and `sources` there are).
    @inline(__always)
    private static func record(_ base: UnsafeRawPointer, _ index: Int, units: Int, sources: Int) -> Record? {
        let offset = index * recordBytes
        @inline(__always) func u64(_ at: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + at, as: UInt64.self))
        }
        let names = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + 40, as: UInt32.self))
        let record = Record(start: Double(bitPattern: u64(0)), end: Double(bitPattern: u64(8)),
                            value: Double(bitPattern: u64(16)), unit: UInt16(truncatingIfNeeded: names),
                            source: UInt16(truncatingIfNeeded: names >> 16), uuid: UUIDKey(hi: u64(24), lo: u64(32)))
        guard record.start.isFinite, record.end.isFinite, record.end >= record.start, record.value.isFinite,
              Int(record.unit) < units, Int(record.source) < sources else { return nil }
        return record
    }

    /// The readings in `bytes`, or nil when they are not a whole, undamaged readings file of this format whose every
    /// record is one a read of plain lines can make.
    init?(decoding bytes: [UInt8]) {
        guard let decoded = bytes.withUnsafeBytes({ raw -> StoredReadings? in
            guard let header = Self.header(raw) else { return nil }
            var records: [Record] = []
            records.reserveCapacity(header.count)
            for index in 0..<header.count {
                guard let record = Self.record(raw.baseAddress! + header.offset, index, units: header.units.count,
                                               sources: header.sources.count) else { return nil }
                records.append(record)
            }
            var readings = StoredReadings(partition: header.partition, identity: header.identity,
                                          tombstones: header.tombstones, units: header.units, sources: header.sources,
                                          records: records)
            readings.linesOnly = header.linesOnly
            return readings
        }) else { return nil }
        self = decoded
    }

    /// What a read takes from a readings file.
    enum Taken {
        /// The month's readings that overlap the read's window, in line order, with the units and sources they name.
        case readings(units: [String], sources: [PartitionSummary.Source], readings: [QuantityReading])
        /// The month is read from its lines.
        case linesOnly
        /// The file is not valid for the partition as it is now: the read takes the lines and keeps a new one.
        case unusable
    }

    /// The readings of the file in `bytes` that overlap `window` (``QuantityReading/overlaps(_:)``, as the lines'
    /// read keeps them), appended to `storage` (emptied), with their uuids when `keepsUUIDs`: when the file is whole
    /// and undamaged, names `partition`, `identity` and `tombstones`, and every record in it is valid.
    static func take(_ raw: UnsafeRawBufferPointer, partition: String, identity: FileIdentity, tombstones: FileIdentity,
                     window: DateInterval, keepsUUIDs: Bool, into storage: [QuantityReading]) -> Taken {
        guard let header = header(raw), header.partition == partition, header.identity == identity,
              header.tombstones == tombstones else { return .unusable }
        if header.linesOnly { return .linesOnly }
        var readings = storage
        readings.removeAll(keepingCapacity: true)
        readings.reserveCapacity(header.count)
        let base = raw.baseAddress! + header.offset
        let units = header.units.count, sources = header.sources.count
        for index in 0..<header.count {
            guard let record = record(base, index, units: units, sources: sources) else { return .unusable }
            let start = Date(timeIntervalSinceReferenceDate: record.start)
            let end = Date(timeIntervalSinceReferenceDate: record.end)
            guard QuantityReading.overlaps(start: start, end: end, window) else { continue }
            readings.append(QuantityReading(start: start, end: end, value: record.value, unit: Int(record.unit),
                                            source: Int(record.source), uuid: keepsUUIDs ? record.uuid : nil,
                                            line: nil))
        }
        return .readings(units: header.units, sources: header.sources, readings: readings)
    }

    /// A 64-bit checksum of `bytes` in four lanes of eight bytes (each FNV-1a's multiplier over words, as the summary
    /// file's, so that damage to any word changes its lane), joined at the end: it finds damage and torn writes, not
    /// forgery (only the store's owner can write the file), at about a third of the time of one lane.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var lanes: (UInt64, UInt64, UInt64, UInt64) =
            (0xCBF2_9CE4_8422_2325, 0x8422_2325_CBF2_9CE4, 0x9CE4_8422_2325_CBF2, 0x2325_CBF2_9CE4_8422)
        var offset = 0
        @inline(__always) func word(_ at: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        }
        @inline(__always) func mix(_ lane: inout UInt64, _ value: UInt64) {
            lane = (lane ^ value) &* prime
            lane ^= lane >> 32
        }
        while offset + 32 <= bytes.count {
            mix(&lanes.0, word(offset))
            mix(&lanes.1, word(offset + 8))
            mix(&lanes.2, word(offset + 16))
            mix(&lanes.3, word(offset + 24))
            offset += 32
        }
        var hash = lanes.0
        mix(&hash, lanes.1)
        mix(&hash, lanes.2)
        mix(&hash, lanes.3)
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* prime
            offset += 1
        }
        return hash ^ UInt64(bytes.count)
    }
}
