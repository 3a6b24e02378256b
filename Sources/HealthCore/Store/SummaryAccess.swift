#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Where one read finds and keeps the summaries of a type's month partitions (`derived/summaries/<type>/<month>.summary`
/// in the store), and which ones it can use.
///
/// A summary is used only when it names the partition, the partition's identity now and the identity of the type's
/// tombstone file the read's deletions came from, and when the read's consumer accepts it; anything else (missing,
/// stale, damaged, foreign) is ignored, and the read takes the lines. Keeping a summary never fails a read: a store
/// that cannot be written to (read-only, full) simply keeps none.
struct SummaryAccess: Sendable {
    /// The store's folder.
    let store: String
    /// The identity of the type's tombstone file, whose deletions the read applies.
    let tombstones: FileIdentity
    /// Whether the consumer can take `summary` in place of the partition's lines.
    let accepts: @Sendable (PartitionSummary) -> Bool
    /// Whether the consumer takes a summary only with its sequence (to add its samples in line order).
    var needsSequences = false
    /// Whether the read takes partitions' stored readings (``StoredReadings``) instead of their lines, and no
    /// summaries.
    var takesReadings = false
    /// Whether a read that takes stored readings keeps new ones where there are none (``ReadPlan/keepsReadings``).
    var keepsReadings = true

    /// The folder, relative to the store, that holds the derived files.
    static let folder = "derived"

    /// How many times reads took each partition's (by path) summary instead of its lines: for tests and diagnostics.
    static let taken = Locked<[String: Int]>([:])

    /// Notes that a read took the summary of the partition at `file` instead of its lines.
    func noteTaken(_ file: String) { Self.taken.withLock { $0[file, default: 0] += 1 } }

    /// The partition's path relative to the store, when `file` is a month partition of the store.
    func partition(of file: String) -> String? {
        guard file.utf8.count > store.utf8.count + 1, file.hasPrefix(store + "/"),
              JSONFileStore.monthNumber(ofFileName: PathText.lastComponent(of: file)) != nil else { return nil }
        let relative = String(file.dropFirst(store.count + 1))
        return relative.hasPrefix("samples/") ? relative : nil
    }

    /// The summary file of `partition` (relative to the store): `derived/summaries/<type folder>/<month>.summary`.
    static func summaryFile(of partition: String) -> String {
        folder + "/summaries/" + monthFileStem(of: partition) + ".summary"
    }

    /// `<type folder>/<month>` of `partition` (`samples/<type folder>/<month>.jsonl`). Made a String before it is
    /// joined: appending a Substring to a String goes through the standard library's generic append, whose first use
    /// costs a command about 0.18 M instructions of type metadata and protocol conformance look-ups.
    private static func monthFileStem(of partition: String) -> String {
        String(partition.dropFirst("samples/".count).dropLast(".jsonl".count))
    }

    /// The sequence file beside the summary file of `partition`: `<month>.sequence`.
    static func sequenceFile(of partition: String) -> String {
        folder + "/summaries/" + monthFileStem(of: partition) + ".sequence"
    }

    /// The readings file of `partition` (relative to the store): `derived/readings/<type folder>/<month>.readings`.
    static func readingsFile(of partition: String) -> String {
        folder + "/readings/" + monthFileStem(of: partition) + ".readings"
    }

    /// The readings of `partition` (relative to the store) kept in the store that overlap `window`, when the file is
    /// valid for the partition as it is now (`identity`) and for the type's tombstone file this read applies
    /// (``StoredReadings/take(_:partition:identity:tombstones:window:keepsUUIDs:into:)``).
    /// The file is read into `buffer`, whose room is reused.
    func storedReadings(of partition: String, identity: FileIdentity, window: DateInterval, keepsUUIDs: Bool,
                        into storage: [QuantityReading], buffer: inout [UInt8]) -> StoredReadings.Taken {
        guard let count = readSummaryFile(store + "/" + Self.readingsFile(of: partition), into: &buffer) else {
            return .unusable
        }
        return buffer.withUnsafeBytes { raw in
            StoredReadings.take(UnsafeRawBufferPointer(rebasing: raw[..<count]), partition: partition, identity: identity,
                                tombstones: tombstones, window: window, keepsUUIDs: keepsUUIDs, into: storage)
        }
    }

    /// Keeps `readings` in the store, as ``save(_:sequence:)`` keeps a summary (or keeps nothing).
    func save(_ readings: StoredReadings) {
        save(readings.encoded(), as: Self.readingsFile(of: readings.partition))
    }

    /// The sequence kept beside `summary` (which was found valid for the partition now), when it fits it.
    func storedSequence(of summary: PartitionSummary) -> PartitionSummary.Sequence? {
        guard let bytes = readSummaryFile(store + "/" + Self.sequenceFile(of: summary.partition)) else { return nil }
        return PartitionSummary.Sequence(decoding: bytes, of: summary)
    }

    /// The summary of `file` kept in the store, when it is valid for the partition as it is now.
    func storedSummary(of file: String) -> PartitionSummary? {
        guard let partition = partition(of: file), let identity = FileIdentity.of(file), identity != .absent,
              let bytes = readSummaryFile(store + "/" + Self.summaryFile(of: partition)),
              let summary = PartitionSummary(decoding: bytes), summary.partition == partition,
              summary.identity == identity, summary.tombstones == tombstones else { return nil }
        return summary
    }

    /// Reads the derived file at `path` (a regular file of this user, never through a symbolic link) into `buffer`
    /// (grown when too small, never shrunk, so a read of many partitions allocates once): how many bytes it holds, or
    /// nil.
    private func readSummaryFile(_ path: String, into buffer: inout [UInt8]) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
              info.st_size < 1 << 28 else { return nil }
        let size = Int(info.st_size)
        if buffer.count < size + 1 {
            buffer = [UInt8](unsafeUninitializedCapacity: size + 1 + size / 4) { _, initialized in
                initialized = size + 1 + size / 4
            }
        }
        var count = 0
        buffer.withUnsafeMutableBytes { raw in
            while count <= size {
                let got = read(fd, raw.baseAddress! + count, size + 1 - count)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                count += got
            }
        }
        return count == size ? count : nil
    }

    /// The bytes of a summary file: a regular file of this user, never through a symbolic link; nil otherwise.
    private func readSummaryFile(_ path: String) -> [UInt8]? {
        var buffer: [UInt8] = []
        guard let count = readSummaryFile(path, into: &buffer) else { return nil }
        buffer.removeSubrange(count...)
        return buffer
    }

    /// Keeps `summary` in the store, replacing its file atomically (a private temporary file renamed into place), or
    /// keeps nothing when that fails. Not synced: a file a crash cut short fails its checksum and is built again.
    func save(_ summary: PartitionSummary, sequence: PartitionSummary.Sequence) {
        // The sequence first: a summary is only ever found with its sequence written (or being replaced).
        save(sequence.encoded(), as: Self.sequenceFile(of: summary.partition))
        save(summary.encoded(), as: Self.summaryFile(of: summary.partition))
    }

    /// Removes the summary of `partition` (relative to the store), if it can.
    func discardSummary(of partition: String) {
        unlink(store + "/" + Self.summaryFile(of: partition))
    }

    /// Writes `bytes` as the derived file `relative`, atomically, or nothing.
    private func save(_ bytes: [UInt8], as relative: String) { Self.saveDerived(bytes, as: relative, in: store) }

    /// Writes `bytes` as the file `relative` (under `derived/`) of the store at `store`, atomically, or nothing: a
    /// derived file is a cache, and one that cannot be written is not kept.
    static func saveDerived(_ bytes: [UInt8], as relative: String, in store: String) {
        var folder = store
        for component in PathText.components(of: PathText.parent(of: relative)) where !component.isEmpty {
            folder += "/" + component
            guard Self.privateFolder(folder) else { return }
        }
        let path = store + "/" + relative
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        fchmod(fd, 0o600)
        var written = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let count = write(fd, raw.baseAddress! + written, raw.count - written)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                written += count
            }
        }
        close(fd)
        if written != bytes.count || rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// Whether `path` is (or now is, made with mode 0700) a real folder of this user that only this user can write to.
    private static func privateFolder(_ path: String) -> Bool {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT, mkdir(path, 0o700) == 0 || errno == EEXIST, lstat(path, &info) == 0 else { return false }
        }
        return (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == geteuid() && info.st_mode & 0o022 == 0
    }
}
