/// Samples already encoded as store lines, grouped by partition, waiting for ``JSONFileStore/save(_:)-(EncodedSampleBatch)``.
///
/// Saving it writes exactly what ``JSONFileStore/save(_:)`` writes for the same samples in the same order: the same
/// partitions, lines and change numbers (the `n`-th sample gets the store's next number plus `n`). The lines are kept
/// without their `,"seq":N}` ending, which is added when the store hands out the numbers.
///
/// Every line's body lies in one buffer, ``bytes``, in the order added, whatever its partition: a batch fills one
/// buffer, taken from the pool on its first line (an import's writer hands each saved batch's buffer back, so the
/// batch after next fills it again), and a long import writes its lines into memory it has used already instead of
/// into fresh pages, with no buffer copied as it grows per partition.
struct EncodedSampleBatch {
    /// The lines of one partition, in sample order.
    struct Partition {
        /// The partition, relative to the store (`samples/<type>/2024-05.jsonl`).
        var path: String
        /// The type identifier of its samples.
        var type: String
        /// Where each body starts in the batch's ``EncodedSampleBatch/bytes``.
        var starts: [Int] = []
        /// Where each body ends in the batch's ``EncodedSampleBatch/bytes``.
        var ends: [Int] = []
        /// Each line's position in the batch (0 for the first sample added).
        var ordinals: [Int] = []
        /// Each line's sample uuid and the uuid of its identity (the same for a record of an export).
        var keys: [(uuid: UUID, identity: UUID)] = []
    }

    private(set) var partitions: [Partition] = []
    /// The bodies of every line, in the order added; empty until the first line.
    private(set) var bytes: ByteBuffer?
    /// How many samples were added.
    private(set) var count = 0
    private var positions: [String: Int] = [:]
    private var namer = JSONFileStore.PartitionNamer()
    /// The partitions used last: type, whether `long.jsonl`, else the UTC month's bounds (seconds since 1970), and
    /// index. Exports that interleave a few types find theirs here without hashing a path.
    private var recent: [(type: String, typeKey: Int, long: Bool, from: Double, to: Double, index: Int)] = []
    /// Where the batch's buffer comes from, so a long import reuses its memory.
    private let pool: ByteBufferPool?

    /// Creates an empty batch whose buffer comes from `pool`, when given.
    init(pool: ByteBufferPool? = nil) {
        self.pool = pool
    }

    /// Adds `sample` as the next line of the batch.
    ///
    /// - Parameter identity: The uuid of the sample's identity, when it differs from its own uuid.
    /// - Parameter adding: A metadata entry the line holds as if it were in the sample's
    ///   (``SampleLineWriter/appendBody(of:adding:to:)``).
    mutating func append(_ sample: Sample, identity: UUID? = nil, adding: (key: String, value: MetadataValue)? = nil,
                         writer: inout SampleLineWriter) {
        append(type: sample.typeIdentifier, start: sample.start, long: sample.duration > JSONFileStore.longSampleThreshold,
               uuid: sample.uuid, identity: identity ?? sample.uuid) {
            writer.appendBody(of: sample, adding: adding, to: $0)
        }
    }

    /// Adds the next line, a sample of type `type` starting at `start` (`long` when it lasts over two days), whose
    /// body `write` appends. `typeKey`, when not 0, stands for `type` in every call that passes it (it saves
    /// comparing strings). `uuid` is the sample's and `identity` the uuid of its identity (see ``Partition/keys``).
    mutating func append(type: String, typeKey: Int = 0, start: Date, long: Bool, uuid: UUID, identity: UUID,
                         write: (ByteBuffer) -> Void) {
        let seconds = start.timeIntervalSince1970
        let index: Int
        if let hit = recent.firstIndex(where: { $0.typeKey == typeKey && $0.long == long && (long || (seconds >= $0.from && seconds < $0.to))
            && (typeKey != 0 || $0.type == type) }) {
            index = recent[hit].index
        } else {
            let month = long ? -1 : IdentityIndex.month(of: start)
            let path = namer.path(type: type, start: start, long: long)
            if let known = positions[path] { index = known } else {
                index = partitions.count
                positions[path] = index
                partitions.append(Partition(path: path, type: type))
            }
            if recent.count == 16 { recent.removeLast() }
            recent.insert((type, typeKey, long, IdentityIndex.startOfMonth(month).timeIntervalSince1970,
                           IdentityIndex.startOfMonth(month + 1).timeIntervalSince1970, index), at: 0)
        }
        let bytes = self.bytes ?? takeBuffer()
        partitions[index].starts.append(bytes.count)
        write(bytes)
        partitions[index].ends.append(bytes.count)
        partitions[index].ordinals.append(count)
        partitions[index].keys.append((uuid, identity))
        count += 1
    }

    /// The buffer the lines go to: the pool's, when it has one.
    private mutating func takeBuffer() -> ByteBuffer {
        let buffer = pool?.take() ?? ByteBuffer(capacity: pool?.firstCapacity ?? 1 << 16)
        bytes = buffer
        return buffer
    }

    /// Removes the lines for which `isDropped` (given the partition's type and the line's keys) says true, and
    /// numbers the rest afresh in their order.
    ///
    /// - Returns: How many lines of each type were removed.
    @discardableResult
    mutating func removeLines(where isDropped: (String, (uuid: UUID, identity: UUID)) -> Bool) -> [String: Int] {
        var removed: [String: Int] = [:]
        var kept: [(partition: Int, line: Int, ordinal: Int)] = []
        var keptByPartition: [[Int]] = []
        for (index, partition) in partitions.enumerated() {
            var lines: [Int] = []
            for line in partition.keys.indices {
                if isDropped(partition.type, partition.keys[line]) {
                    removed[partition.type, default: 0] += 1
                } else {
                    lines.append(line)
                    kept.append((index, line, partition.ordinals[line]))
                }
            }
            keptByPartition.append(lines)
        }
        guard !removed.isEmpty else { return [:] }
        // New ordinals: the kept lines' rank in the old order.
        kept.sort { $0.ordinal < $1.ordinal }
        var newOrdinal: [Int: Int] = [:]
        for (rank, line) in kept.enumerated() { newOrdinal[line.ordinal] = rank }
        var rebuilt: [Partition] = []
        let old = bytes!
        let copied = ByteBuffer(capacity: old.count)
        for (index, partition) in partitions.enumerated() where !keptByPartition[index].isEmpty {
            var copy = Partition(path: partition.path, type: partition.type)
            for line in keptByPartition[index] {
                copy.starts.append(copied.count)
                copied.append(UnsafeBufferPointer(rebasing: old.bytes[partition.starts[line]..<partition.ends[line]]))
                copy.ends.append(copied.count)
                copy.ordinals.append(newOrdinal[partition.ordinals[line]]!)
                copy.keys.append(partition.keys[line])
            }
            rebuilt.append(copy)
        }
        // The old buffer stays with the batch this one was copied from, which hands it back to the pool.
        bytes = copied
        partitions = rebuilt
        count = kept.count
        positions = [:]
        for (index, partition) in partitions.enumerated() { positions[partition.path] = index }
        recent.removeAll()
        return removed
    }

    /// Appends the finished lines of partition `index` to `out`, newline-terminated, the `n`-th sample of the batch
    /// numbered `firstSequence + n`.
    func render(partition index: Int, firstSequence: UInt64, into out: ByteBuffer) {
        let partition = partitions[index]
        guard let bytes = bytes?.bytes, !partition.ends.isEmpty else { return }
        var size = 0
        for line in partition.ends.indices { size += partition.ends[line] - partition.starts[line] + 24 }
        out.reserve(size)
        for line in partition.ends.indices {
            out.append(UnsafeBufferPointer(rebasing: bytes[partition.starts[line]..<partition.ends[line]]))
            SampleLineWriter.appendSequenceEnding(firstSequence + UInt64(partition.ordinals[line]), to: out)
            out.append(0x0A)
        }
    }

    /// Hands the batch's buffer back to `pool` once the batch is saved.
    func recycle(into pool: ByteBufferPool) {
        if let bytes { pool.put(bytes) }
    }
}
