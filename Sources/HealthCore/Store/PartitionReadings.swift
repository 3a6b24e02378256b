#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// What one partition holds for a streaming read, in line order, read on any thread.
///
/// Plain quantity lines inside the window become readings whose unit and source are indices into this
/// partition's own ``names``; every other line is kept as bytes for the full decoder, which runs later, in order,
/// on the reading thread (``JSONFileStore/forEachQuantityReading(ofType:overlapping:into:)``). So partitions can
/// be read side by side and still be handed over exactly as a one-thread read hands them over.
struct PartitionReadings {
    /// A line the positional reader does not take (another shape, damage, a blank line): its bytes and number,
    /// and how many ``readings`` come before it.
    struct OtherLine {
        var position: Int
        var bytes: [UInt8]
        var number: Int
        /// Whether a non-blank line (of any kind, in the window or not) follows it: a line that does not decode is
        /// then damage, never a torn final write.
        var isFollowed = false
    }

    let file: String
    let names = ReadingNames()
    /// Plain lines inside the window and not hidden by a tombstone, in line order; `line` is nil, and `uuid` is
    /// set when the read keeps uuids.
    private(set) var readings: [QuantityReading] = []
    private(set) var others: [OtherLine] = []
    /// The partition's summary, read instead of its lines (``readings`` and ``others`` are then empty).
    private(set) var summary: PartitionSummary?
    /// The sequence of the summary, when the read needs it (see ``SummaryAccess/needsSequences``).
    private(set) var sequence: PartitionSummary.Sequence?
    /// A new summary of the partition and its sequence, built from this read of its lines.
    private(set) var built: (summary: PartitionSummary, sequence: PartitionSummary.Sequence)?
    /// New stored readings of the partition, built from this read of its lines.
    private(set) var builtReadings: StoredReadings?

    /// A partition answered by its summary.
    init(file: String, summary: PartitionSummary, sequence: PartitionSummary.Sequence? = nil) {
        self.file = file
        self.summary = summary
        self.sequence = sequence
    }

    /// Reads `file` through its summary when `summaries` has a usable one, else its lines; a read of every line of a
    /// partition without a valid summary builds one (when it can be built: ``built``), for the caller to keep once
    /// the whole read succeeded.
    static func read(file: String, limit: Int?, window: DateInterval, deleted: JSONFileStore.Deletions,
                     codec: SampleLineCodec, keepsUUIDs: Bool, summaries: SummaryAccess?, reader: inout PartitionLineReader,
                     storage: [QuantityReading] = []) throws -> PartitionReadings {
        guard let summaries, limit == nil, let partition = summaries.partition(of: file) else {
            return try PartitionReadings(file: file, limit: limit, window: window, deleted: deleted, codec: codec,
                                         keepsUUIDs: keepsUUIDs, reader: &reader, storage: storage)
        }
        if summaries.takesReadings {
            return try readThroughStoredReadings(file: file, partition: partition, window: window, deleted: deleted,
                                                 codec: codec, keepsUUIDs: keepsUUIDs, summaries: summaries,
                                                 reader: &reader, storage: storage)
        }
        var sequenceMissing = false
        if let summary = summaries.storedSummary(of: file) {
            if !summaries.accepts(summary) {
                // Valid, but this read needs the lines (a bucket cuts an hour): nothing to keep.
                return try PartitionReadings(file: file, limit: nil, window: window, deleted: deleted, codec: codec,
                                             keepsUUIDs: keepsUUIDs, reader: &reader, storage: storage)
            }
            if !summaries.needsSequences {
                summaries.noteTaken(file)
                return PartitionReadings(file: file, summary: summary)
            }
            if let sequence = summaries.storedSequence(of: summary) {
                summaries.noteTaken(file)
                return PartitionReadings(file: file, summary: summary, sequence: sequence)
            }
            // The sequence is missing or bad: read the lines, and keep both anew (or, when this read does not read
            // every line, drop the summary, so that the next read that does keeps both).
            sequenceMissing = true
        }
        reader.recordsIdentity = true
        defer { reader.recordsIdentity = false }
        var part = try PartitionReadings(file: file, limit: nil, window: window, deleted: deleted, codec: codec,
                                         keepsUUIDs: keepsUUIDs, reader: &reader, storage: storage, checksDevices: true)
        // Only a read of every line, each plain, of a file nothing changed meanwhile.
        if part.readsEveryLine, part.others.isEmpty, let (opened, finished) = reader.identities, opened == finished,
           opened.size >= PartitionSummary.minimumPartitionBytes,
           let built = PartitionSummary.build(partition: partition, identity: opened, tombstones: summaries.tombstones,
                                              readings: part.readings, names: part.names) {
            part.built = built
        } else if sequenceMissing {
            summaries.discardSummary(of: partition)
        }
        part.readsEveryLine = false
        return part
    }

    /// Reads `file` through its stored readings when `summaries` has valid ones, else reads every line and, when
    /// each was plain and accepted and each source names one device, keeps the readings of the whole month
    /// (``builtReadings``, for the caller to save once the whole read succeeded) and hands over those in `window`.
    /// Otherwise the lines are read as without stored readings (so a damaged line outside the window stops the read
    /// no more than it does there), and the month's file says so, for later reads to take its lines at once.
    private static func readThroughStoredReadings(
        file: String, partition: String, window: DateInterval, deleted: JSONFileStore.Deletions, codec: SampleLineCodec,
        keepsUUIDs: Bool, summaries: SummaryAccess, reader: inout PartitionLineReader, storage: [QuantityReading]
    ) throws -> PartitionReadings {
        let keepsUUIDs = keepsUUIDs || !deleted.isEmpty
        guard let identity = FileIdentity.of(file), identity != .absent,
              identity.size >= StoredReadings.minimumPartitionBytes else {
            return try PartitionReadings(file: file, limit: nil, window: window, deleted: deleted, codec: codec,
                                         keepsUUIDs: keepsUUIDs, reader: &reader, storage: storage)
        }
        switch summaries.storedReadings(of: partition, identity: identity, window: window, keepsUUIDs: keepsUUIDs,
                                        into: storage, buffer: &reader.derivedBytes) {
        case .readings(let units, let sources, let readings):
            summaries.noteTaken(file)
            return PartitionReadings(file: file, units: units, sources: sources, readings: readings)
        case .linesOnly:
            summaries.noteTaken(file)
            return try PartitionReadings(file: file, limit: nil, window: window, deleted: deleted, codec: codec,
                                         keepsUUIDs: keepsUUIDs, reader: &reader, storage: storage)
        case .unusable:
            guard summaries.keepsReadings else {
                return try PartitionReadings(file: file, limit: nil, window: window, deleted: deleted, codec: codec,
                                             keepsUUIDs: keepsUUIDs, reader: &reader, storage: storage)
            }
        }
        reader.recordsIdentity = true
        defer { reader.recordsIdentity = false }
        var whole = try PartitionReadings(file: file, limit: nil, window: nil, deleted: deleted, codec: codec,
                                          keepsUUIDs: true, reader: &reader, storage: storage, checksDevices: true)
        guard let (opened, finished) = reader.identities, opened == finished else {
            // Changed while it was read: keep nothing, and read the window's lines as they are now.
            return try PartitionReadings(file: file, limit: nil, window: window, deleted: deleted, codec: codec,
                                         keepsUUIDs: keepsUUIDs, reader: &reader, storage: whole.takeReadings())
        }
        guard whole.readsEveryLine, whole.others.isEmpty,
              let built = StoredReadings(partition: partition, identity: opened, tombstones: summaries.tombstones,
                                         readings: whole.readings, names: whole.names) else {
            var part = try PartitionReadings(file: file, limit: nil, window: window, deleted: deleted, codec: codec,
                                             keepsUUIDs: keepsUUIDs, reader: &reader, storage: whole.takeReadings())
            if let (again, after) = reader.identities, again == opened, after == opened {
                part.builtReadings = .linesOnly(partition: partition, identity: opened, tombstones: summaries.tombstones)
            }
            return part
        }
        var readings = whole.takeReadings()
        for record in built.records {
            let start = Date(timeIntervalSinceReferenceDate: record.start)
            let end = Date(timeIntervalSinceReferenceDate: record.end)
            guard QuantityReading.overlaps(start: start, end: end, window) else { continue }
            readings.append(QuantityReading(start: start, end: end, value: record.value, unit: Int(record.unit),
                                            source: Int(record.source), uuid: keepsUUIDs ? record.uuid : nil, line: nil))
        }
        var part = PartitionReadings(file: file, units: built.units, sources: built.sources, readings: readings)
        part.builtReadings = built
        return part
    }

    /// A partition answered by its stored readings (those of the read's window): `units` and `sources` become this
    /// partition's names, in their order.
    private init(file: String, units: [String], sources: [PartitionSummary.Source], readings: [QuantityReading]) {
        self.file = file
        for unit in units { _ = names.unit(named: unit) }
        for source in sources { _ = names.addSource(source.name, device: source.device) }
        self.readings = readings
    }

    /// Whether every line was read (none was outside the window) and each source's lines name one device: set only
    /// when the read checked devices.
    private var readsEveryLine = false

    /// Reads `file` (up to `limit` bytes): the lines in `window`, or every line without one.
    ///
    /// - Parameters:
    ///   - codec: Decodes the first plain line of each source in full, for its device.
    ///   - deleted: Tombstones; plain lines they hide are left out.
    ///   - keepsUUIDs: Whether readings keep their uuid.
    ///   - storage: An empty array whose capacity the readings reuse (see ``takeReadings()``).
    init(file: String, limit: Int?, window: DateInterval?, deleted: JSONFileStore.Deletions, codec: SampleLineCodec,
         keepsUUIDs: Bool, reader: inout PartitionLineReader, storage: [QuantityReading] = [],
         checksDevices: Bool = false) throws {
        self.file = file
        var everyLine = checksDevices
        /// Each source's device bytes (by index in `names`), from its first line; nil: no device.
        var devices: [[UInt8]?] = []
        var parser = QuantityLineParser()
        var codec = codec
        let names = self.names
        var readings = storage
        if readings.capacity == 0 {
            // A first partition: room for a line per ~200 bytes at once, rather than doubling through a month of a
            // busy type (each doubling copies into fresh, page-faulting memory). Untouched room costs nothing.
            var info = stat()
            if stat(file, &info) == 0 { readings.reserveCapacity(min(Int(info.st_size), limit ?? Int.max) / 200) }
        }
        var others: [OtherLine] = []
        var lastNonBlank = 0
        /// Per source (by index in `names`): whether its device was read from a line the tombstones hide, so that
        /// the source's first visible line must name it (as the first sample a full read keeps does).
        var deviceFromHiddenLine: [Bool] = []
        try reader.forEachLine(in: file, limit: limit) { line, number in
            switch parser.parse(line, names: names, window: window) {
            case .outsideWindow:
                lastNonBlank = number
                everyLine = false
            case .unreadable:
                others.append(OtherLine(position: readings.count, bytes: Array(line), number: number))
                if !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { lastNonBlank = number }
            case .fields(let fields):
                lastNonBlank = number
                let source: Int
                if let known = fields.sourceIndex { source = known } else {
                    // The first line of a source: decode it whole once, for the source's device.
                    let sample = try? codec.decode(line)
                    source = names.addSource(String(decoding: UnsafeBufferPointer(rebasing: line[fields.source]), as: UTF8.self),
                                             device: sample?.device)
                }
                if everyLine {
                    let device = fields.device.map { UnsafeBufferPointer(rebasing: line[$0]) }
                    if source == devices.count {
                        devices.append(device.map(Array.init))
                        // The device the full decoder read must be the bytes themselves (no escapes in a plain line).
                        if names.devices[source] != device.map({ String(decoding: $0, as: UTF8.self) }) { everyLine = false }
                    } else if source > devices.count || !Self.same(devices[source], device) {
                        everyLine = false
                    }
                }
                var reading = QuantityReading(start: fields.start, end: fields.end, value: fields.value,
                                              unit: fields.unit, source: source, uuid: nil, line: nil,
                                              isPeriodTotal: fields.isPeriodTotal)
                if keepsUUIDs || !deleted.isEmpty {
                    // The parser checked the uuid's text.
                    reading.uuid = UUIDKey(checkedText: line.baseAddress! + QuantityLineParser.uuidOffset)
                }
                if !deleted.isEmpty, deleted.hides(reading.uuid!, source: names.sources[source], sequence: fields.sequence) {
                    if fields.sourceIndex == nil {
                        while deviceFromHiddenLine.count <= source { deviceFromHiddenLine.append(false) }
                        deviceFromHiddenLine[source] = true
                    }
                    return
                }
                if source < deviceFromHiddenLine.count && deviceFromHiddenLine[source] {
                    deviceFromHiddenLine[source] = false
                    names.replaceDevice(of: source, with: (try? codec.decode(line))?.device)
                }
                readings.append(reading)
            }
        }
        for index in others.indices { others[index].isFollowed = others[index].number < lastNonBlank }
        self.readings = readings
        self.others = others
        readsEveryLine = everyLine
    }

    /// Whether `known` and `bytes` are both absent or hold the same bytes.
    private static func same(_ known: [UInt8]?, _ bytes: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let known, let bytes else { return known == nil && bytes == nil }
        return known.count == bytes.count && (bytes.isEmpty
            || known.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
    }

    /// The readings' array, emptied with its capacity kept, for the next partition; the readings are gone after.
    mutating func takeReadings() -> [QuantityReading] {
        var taken: [QuantityReading] = []
        swap(&taken, &readings)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// Reads `partitions` on `threads` worker threads (on this thread when `threads` is 1), at most `2 × threads`
    /// partitions ahead of the one `body` is handed, and hands each one's readings to `body` on this thread, in
    /// the order of `partitions`. The first error, in that order, stops the read and is thrown.
    static func read(_ partitions: [(file: String, limit: Int?)], threads: Int, window: DateInterval,
                     deleted: JSONFileStore.Deletions, codec: SampleLineCodec, keepsUUIDs: Bool,
                     summaries: SummaryAccess? = nil, _ body: (PartitionReadings) throws -> Void) throws {
        // Readings arrays are reused from partition to partition: a month of a busy type holds a few hundred KB,
        // and a fresh allocation of that size costs page faults every time.
        if threads <= 1 || partitions.count < 2 {
            var reader = PartitionLineReader()
            var storage: [QuantityReading] = []
            for partition in partitions {
                var part = try PartitionReadings.read(file: partition.file, limit: partition.limit, window: window,
                                                      deleted: deleted, codec: codec, keepsUUIDs: keepsUUIDs,
                                                      summaries: summaries, reader: &reader, storage: storage)
                try body(part)
                storage = part.takeReadings()
            }
            return
        }
        // Workers read ahead of the consumer by at most `2 × threads` partitions, which keeps memory small; this
        // thread hands the partitions over in order as they are done.
        let pipeline = PartitionPipeline(count: partitions.count, window: 2 * threads)
        let workers = DispatchGroup()
        for _ in 0..<threads {
            DispatchQueue.global().async(group: workers) {
                var reader = PartitionLineReader()
                while let (index, storage) = pipeline.claim() {
                    let partition = partitions[index]
                    pipeline.finish(index, Result {
                        try PartitionReadings.read(file: partition.file, limit: partition.limit, window: window,
                                                   deleted: deleted, codec: codec, keepsUUIDs: keepsUUIDs,
                                                   summaries: summaries, reader: &reader, storage: storage)
                    })
                }
            }
        }
        defer {
            pipeline.stop()
            workers.wait()
        }
        for index in partitions.indices {
            var part = try pipeline.take(index).get()
            try body(part)
            pipeline.consumed(index, returning: part.takeReadings())
        }
    }

    /// How many threads a read of `partitions` partitions uses: one for a few, else one per processor (at most 4).
    static func threads(forPartitions partitions: Int) -> Int {
        guard partitions >= 4 else { return 1 }
        return processorThreads
    }

    /// One thread per processor, at most 4: what a read that splits its work by partition or type runs on.
    static var processorThreads: Int { max(1, min(4, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
}

/// Partitions numbered 0..<count that worker threads claim in order, at most `window` ahead of the one being
/// handed over, and their readings by number.
private final class PartitionPipeline: @unchecked Sendable {
    private let condition = Condition()
    private let count: Int
    private let window: Int
    private var next = 0
    private var consumedCount = 0
    private var stopped = false
    /// Guarded by `condition`.
    private var results: [Int: Result<PartitionReadings, Error>] = [:]
    /// Emptied readings arrays to reuse, guarded by `condition`.
    private var spare: [[QuantityReading]] = []

    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    /// The next partition to read and an array to read it into; nil when none is left or the read stopped.
    func claim() -> (Int, [QuantityReading])? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && next < count && next >= consumedCount + window { condition.wait() }
        guard !stopped, next < count else { return nil }
        next += 1
        return (next - 1, spare.popLast() ?? [])
    }

    func finish(_ index: Int, _ result: Result<PartitionReadings, Error>) {
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
    }

    /// Partition `index`'s readings, once read.
    func take(_ index: Int) -> Result<PartitionReadings, Error> {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        return results.removeValue(forKey: index)!
    }

    /// Partition `index` was handed over; its emptied array can be reused.
    func consumed(_ index: Int, returning storage: [QuantityReading]) {
        condition.lock()
        consumedCount = index + 1
        spare.append(storage)
        condition.broadcast()
        condition.unlock()
    }

    /// No more partitions are claimed (the read finished or failed).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
