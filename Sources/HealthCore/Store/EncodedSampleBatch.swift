/// Samples already encoded as store lines, grouped by partition, waiting for ``JSONFileStore/save(_:)-(EncodedSampleBatch)``.
///
/// Saving it writes exactly what ``JSONFileStore/save(_:)`` writes for the same samples in the same order: the same
/// partitions, lines and change numbers (the `n`-th sample gets the store's next number plus `n`). The lines are kept
/// without their `,"seq":N}` ending, which is added when the store hands out the numbers.
struct EncodedSampleBatch {
    /// The lines of one partition, in sample order.
    struct Partition {
        /// The partition, relative to the store (`samples/<type>/2024-05.jsonl`).
        var path: String
        /// The lines' bodies, one after the other.
        var bytes: ByteBuffer
        /// Where each body ends in ``bytes``.
        var ends: [Int] = []
        /// Each line's position in the batch (0 for the first sample added).
        var ordinals: [Int] = []
    }

    private(set) var partitions: [Partition] = []
    /// How many samples were added.
    private(set) var count = 0
    private var positions: [String: Int] = [:]
    private var namer = JSONFileStore.PartitionNamer()
    /// The partitions used last: type, whether `long.jsonl`, else the UTC month's bounds (seconds since 1970), and
    /// index. Exports that interleave a few types find theirs here without hashing a path.
    private var recent: [(type: String, typeKey: Int, long: Bool, from: Double, to: Double, index: Int)] = []
    /// Bytes in the bodies; the batch holds about this much memory.
    private(set) var byteCount = 0
    /// Where the partitions' buffers come from, so a long import reuses their memory.
    private let pool: ByteBufferPool?

    /// Creates an empty batch whose buffers come from `pool`, when given.
    init(pool: ByteBufferPool? = nil) {
        self.pool = pool
    }

    /// Adds `sample` as the next line of the batch.
    mutating func append(_ sample: Sample, writer: inout SampleLineWriter) {
        append(type: sample.typeIdentifier, start: sample.start, long: sample.duration > JSONFileStore.longSampleThreshold) {
            writer.appendBody(of: sample, to: $0)
        }
    }

    /// Adds the next line, a sample of type `type` starting at `start` (`long` when it lasts over two days), whose
    /// body `write` appends. `typeKey`, when not 0, stands for `type` in every call that passes it (it saves
    /// comparing strings).
    mutating func append(type: String, typeKey: Int = 0, start: Date, long: Bool, write: (ByteBuffer) -> Void) {
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
                partitions.append(Partition(path: path, bytes: pool?.take() ?? ByteBuffer(capacity: 1 << 16)))
            }
            if recent.count == 16 { recent.removeLast() }
            recent.insert((type, typeKey, long, IdentityIndex.startOfMonth(month).timeIntervalSince1970,
                           IdentityIndex.startOfMonth(month + 1).timeIntervalSince1970, index), at: 0)
        }
        let bytes = partitions[index].bytes
        let before = bytes.count
        write(bytes)
        byteCount += bytes.count - before
        partitions[index].ends.append(bytes.count)
        partitions[index].ordinals.append(count)
        count += 1
    }

    /// Appends the finished lines of partition `index` to `out`, newline-terminated, the `n`-th sample of the batch
    /// numbered `firstSequence + n`.
    func render(partition index: Int, firstSequence: UInt64, into out: ByteBuffer) {
        let partition = partitions[index]
        let bytes = partition.bytes.bytes
        out.reserve(bytes.count + partition.ends.count * 24)
        var start = 0
        for (end, ordinal) in zip(partition.ends, partition.ordinals) {
            out.append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            SampleLineWriter.appendSequenceEnding(firstSequence + UInt64(ordinal), to: out)
            out.append(0x0A)
            start = end
        }
    }

    /// Hands the partitions' buffers back to `pool` once the batch is saved.
    func recycle(into pool: ByteBufferPool) {
        for partition in partitions { pool.put(partition.bytes) }
    }
}
