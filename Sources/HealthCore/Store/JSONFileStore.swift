#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// The on-disk store: JSON Lines files, one folder per type and one file per month. See docs/STORE.md.
///
/// Layout under ``path``:
/// - `hkctl-store.json`: the marker with the format version.
/// - `samples/<type identifier>/<YYYY-MM>.jsonl`: samples by the UTC month of their start, one JSON object a line;
///   samples longer than two days go to `samples/<type identifier>/long.jsonl`, which every query reads.
/// - `.lock`: `flock`ed shared by readers and exclusively by writers.
/// - `journal.jsonl`: present only while a batch is being applied (or after a crash interrupted one).
///
/// Appends never rewrite existing data. A single sample is one `write` and one `fsync` (and a second one for the
/// change counter when its reserved block is used up: ``ChangeCounter``); a batch goes through the
/// journal first so that it becomes visible all at once. A torn line left by a crash is moved aside before the
/// next write and ignored by readers.
public final class JSONFileStore: SampleStore, @unchecked Sendable {
    /// The store format version this build reads and writes.
    public static let formatVersion = 1
    /// The format name the store marker must carry (`"format":"hkctl-store"`); any other is refused.
    public static let formatName = "hkctl-store"
    /// Samples longer than this live in `long.jsonl` instead of a month file.
    static let longSampleThreshold: TimeInterval = 2 * 86_400

    /// The store's folder.
    public let path: String
    let catalogue: SampleTypeCatalogue
    /// How long an operation waits for another process's lock before failing with ``StoreError/busy(_:waitedSeconds:holders:)``.
    let lockTimeout: TimeInterval
    /// What time it is: when a sample made in code was created, when a deletion happened.
    let clock: @Sendable () -> Date
    /// How lines are written and read. Reading changes a codec (its cache of units, the last line's sequence), so
    /// each read works on a copy of its own.
    let codec: SampleLineCodec
    /// What this instance has already checked of each file it appends to (see ``validateSampleFile(_:)``).
    let validated = Locked<[String: ValidatedExtent]>([:])
    /// How many bytes of its files this instance has read back to check them before appending (for tests).
    let validationBytesRead = Locked<Int>(0)
    /// The partitions whose every byte this instance wrote, and whether any of them marks a Health Auto Export sample
    /// (``OwnedExtent``): the look for HAE samples after an import skips the files it started itself.
    let ownedFiles = Locked<[String: OwnedExtent]>([:])
    /// The partitions the current write appended to, with their `fstat` after the append: marked when it commits.
    let appendedPartitions = Locked<[(partition: String, info: stat)]>([])
    /// Folders of the store (relative paths) found to be real folders, not symbolic links (see ``storeFile(_:)``).
    /// Locked: an import's writer thread and its reading thread both open files.
    let trustedFolders = Locked<Set<String>>([])
    /// The exclusive lock while this instance writes; it also records the highest change number handed out.
    var writeLock: StoreLock? {
        get { heldWriteLock.current }
        set { heldWriteLock.withLock { $0 = newValue } }
    }
    private let heldWriteLock = Locked<StoreLock?>(nil)
    /// When set, every save and delete of this instance is recorded in `operations.jsonl` as part of one operation,
    /// in the same write as its lines (see docs/STORE.md, "Operations and undo"); nil records nothing. Fixed when the
    /// instance is made, so that threads sharing it never see one write half recorded.
    public let recording: OperationRecording?
    /// Tests only: called after each partition of a journalled batch is written (with how many are written and not
    /// yet synced); throwing makes the batch fail there.
    var afterPartitionWrite: ((Int) throws -> Void)? {
        get { partitionWriteHook.current }
        set { partitionWriteHook.withLock { $0 = newValue } }
    }
    private let partitionWriteHook = Locked<((Int) throws -> Void)?>(nil)
    /// Tests only: how much this instance's reads decoded and held (see ``ReadCounts``), so tests can check that reads
    /// stay linear in the store and bounded in memory without timing them.
    let readCounts = Locked(ReadCounts())
    /// Tests only: the identity (boot and mount) this instance takes itself to write under, instead of
    /// ``BootIdentity/current(forStoreIn:)`` (nil: the real one), to act out a restart or a remount (``ChangeCounter``).
    let bootForTests = Locked<String?>(nil)
    /// Tests only: how many times this instance synced the change counter.
    let counterSyncs = Locked<Int>(0)
    /// Tests only: the mount tables (`/etc/fstab`, `/proc/self/mountinfo`) to read instead of this system's (nil: the
    /// system's), to act out a missing disk (``MountTable``).
    let mountTablesForTests = Locked<MountTable.Tables?>(nil)
    /// The deletions of the types this instance read last, by tombstone file (see ``RememberedDeletions``).
    let rememberedDeletions = Locked<[String: RememberedDeletions]>([:])
    /// The marker file as ``isExistingStore()`` last found it good (``FileIdentity``; the store only ever replaces it
    /// whole), so a command that looks several times (its settings, then its query) reads it once.
    let checkedMarker = Locked<FileIdentity?>(nil)

    /// Opens (without creating) the store at `path`; it is created on the first write.
    ///
    /// - Parameters:
    ///   - path: The store folder.
    ///   - catalogue: The types, for category value names.
    ///   - timeZone: The zone whose offsets written dates show.
    ///   - lockTimeout: Seconds to wait for another process's lock.
    ///   - clock: What time it is: the creation time of samples made in code, the time of deletions.
    ///   - recording: The operation this instance's saves and deletes are recorded as, for undo; nil records nothing.
    public init(path: String, catalogue: SampleTypeCatalogue = .standard, timeZone: ZoneRules = .gmt,
                lockTimeout: TimeInterval = 10, clock: @escaping @Sendable () -> Date = { Date() },
                recording: OperationRecording? = nil) {
        self.path = path
        self.recording = recording
        self.catalogue = catalogue
        self.lockTimeout = lockTimeout
        self.clock = clock
        codec = SampleLineCodec(catalogue: catalogue, timeZone: timeZone)
    }

    var markerPath: String { path + "/hkctl-store.json" }
    var lockPath: String { path + "/.lock" }
    var journalPath: String { path + "/journal.jsonl" }

    // MARK: - Writing

    /// Saves samples, all or nothing, after checking every one (``SaveCheck``): a known type, a value of the
    /// right kind in a unit of the type's dimension, finite and plausible, `end >= start` (a sample may end after
    /// ``clock``, as in HealthKit: a planned meal), a category value the type has, a workout's totals in range, a correlation's members saved with it or stored, and
    /// a uuid used once: not twice in the call, not already in the month file (or long-sample file) of its type where it
    /// would go (a sample saved again would count twice), not of a deleted sample of its type while the deletion is
    /// kept (until compaction drops it). Nothing this accepts can make a later read fail. The write is recorded in `operations.jsonl` when
    /// ``recording`` is set.
    ///
    /// - Throws: ``SampleError``, ``UnitError``, ``WorkoutError`` or ``TextError`` for the first sample that breaks a
    ///   rule (nothing is written), ``StoreError``.
    public func save(_ samples: [Sample]) throws { try saveReporting(samples) }

    /// ``save(_:)``, with HealthKit's sync identifiers (`HKMetadataKeySyncIdentifier` with
    /// `HKMetadataKeySyncVersion`, healthkit-facts §4.5): a sample carrying both replaces the stored, not deleted
    /// sample of the same type and source with that identifier when its version is strictly greater, in one write
    /// (tombstones, then the new lines; recorded as one ``OperationRecord/Kind/replace`` operation that an undo takes
    /// back), and is not written when its version is equal or lower (reported ``SaveOutcome/unchanged``). The check
    /// and the write are made under the store's exclusive lock. Finding the stored sample reads the partitions of the
    /// types concerned that contain the identifier key at all (a byte search per file before decoding): a save without
    /// sync identifiers costs nothing more. A greater version of a sample from an export also weighs the Health Auto
    /// Export day totals of its type again (``weighHealthAutoExportAgain(after:)``), as the owner's import does.
    ///
    /// - Returns: What was saved, replaced and left unchanged.
    /// - Throws: as ``save(_:)``; ``SampleError/syncVersionWithoutIdentifier``,
    ///   ``SampleError/syncIdentifierWithoutVersion(_:)``, ``SampleError/syncVersionNotWhole(_:)``.
    @discardableResult
    public func saveReporting(_ samples: [Sample]) throws -> SaveOutcome {
        try saveReporting(samples, mayDelete: { _ in true }, asOwner: true)
    }

    /// ``saveReporting(_:)`` for a source that may delete only some sources' samples (`mayDelete`: another source than
    /// the owner, its own): a replaced correlation's members of other sources stay. `asOwner`: a greater sync version of
    /// an export's sample weighs the Health Auto Export day totals it reduced again
    /// (``weighHealthAutoExportAgain(after:)``), as the owner's import does; another source changes no other source's
    /// samples.
    func saveReporting(_ samples: [Sample], mayDelete: (String) -> Bool, asOwner: Bool) throws -> SaveOutcome {
        guard !samples.isEmpty else { return SaveOutcome(saved: []) }
        let keys = try SyncReplacement.keys(of: samples)
        let check = SaveCheck(catalogue: catalogue, timeZone: codec.timeZone)
        try check.check(samples) { member, correlation in
            var found = false
            // A member lies within the correlation's dates; a millisecond each side takes in instants at its ends.
            let around = DateInterval(start: correlation.start.addingTimeInterval(-0.001),
                                      end: correlation.end.addingTimeInterval(0.001))
            try forEachSample(ofType: member.typeIdentifier, overlapping: around) {
                if $0.uuid == member.uuid { found = true }
            }
            return found
        }
        if keys.isEmpty {
            try saveChecked(samples, record: recordMaker, refusingStoredUUIDs: true)
            return SaveOutcome(saved: samples.map(\.uuid))
        }
        for sample in samples { try TextRules.check(sample) }
        var changed: [OwnerChange] = []
        let outcome = try withWriteAccess {
            var plan = try SyncReplacement.plan(samples, stored: try storedSamples(withSyncKeys: keys))
            guard !plan.writes.isEmpty else { return plan.outcome }
            try refuseStoredUUIDs(plan.writes)
            try writePlan(&plan, record: recordMaker, mayDelete: mayDelete)
            if !plan.replaced.isEmpty {
                changed = plan.replaced.map { OwnerChange(type: $0.type, source: $0.source, isHealthAutoExport: false) }
                    + plan.writes.map(OwnerChange.init)
            }
            return plan.outcome
        }
        if asOwner { try weighHealthAutoExportAgain(after: changed) }
        return outcome
    }

    /// ``save(_:)`` for samples an import has already checked by its own rules (which keep what devices wrote).
    func saveChecked(_ samples: [Sample]) throws {
        try saveChecked(samples, record: recordMaker)
    }

    /// ``saveChecked(_:)`` with the write's record made by `record` (nil: not recorded); `refusingStoredUUIDs`: refuse
    /// a uuid the store already has where the sample would go (see ``refuseStoredUUIDs(_:)``).
    func saveChecked(_ samples: [Sample], record: RecordMaker?, refusingStoredUUIDs: Bool = false) throws {
        guard !samples.isEmpty else { return }
        for sample in samples { try TextRules.check(sample) }
        try withWriteAccess {
            if refusingStoredUUIDs { try refuseStoredUUIDs(samples) }
            try writeSamples(samples, record: record)
        }
    }

    /// Appends samples with new change numbers, all or nothing, with the write's record made by `record` (nil: not
    /// recorded). Call with the exclusive lock held, after ``TextRules`` checked the samples.
    func writeSamples(_ samples: [Sample], record: RecordMaker?) throws {
        _ = try writeChanges(deleting: [], adding: samples, now: clock(), record: record)
    }

    /// Runs `body` with the store created, the exclusive lock held and any interrupted batch finished.
    ///
    /// The folder is created before the lock is taken; the marker is written under the lock, so several processes
    /// creating the same new store at once all succeed.
    ///
    /// - Parameter interrupted: When a batch a crash interrupted is left (its journal), called under the lock before
    ///   it is finished, with the lengths readers stop at meanwhile (as ``withReadAccess(_:)`` passes them): what the
    ///   store held before that batch.
    func withWriteAccess<T>(interrupted: (([String: Int]) throws -> Void)? = nil, _ body: () throws -> T) throws -> T {
        if try !isExistingStore() {
            try refuseStoreOnMissingDisk()
            do {
                try POSIXFile.makeDirectories(path)
            } catch let StoreError.cannotCreate(folder, reason) where folder != path {
                throw StoreError.cannotCreate(path, reason: "'\(folder)' \(reason)")
            }
        }
        let lock = try StoreLock.acquire(path: lockPath, exclusive: true, timeout: lockTimeout, storePath: path)
        writeLock = lock
        defer {
            writeLock = nil
            withExtendedLifetime(lock) {}
        }
        if !POSIXFile.exists(markerPath) {
            guard try isExistingStore() == false else { throw StoreError.badMarker(markerPath) }
            let marker = "{\"format\":\"\(JSONFileStore.formatName)\",\"version\":\(JSONFileStore.formatVersion)}\n"
            try POSIXFile.writeAtomically(Array(marker.utf8), to: markerPath)
        }
        if let interrupted, let journal = try readJournal() {
            var limits: [String: Int] = [:]
            for entry in journal.entries { limits[entry.path] = entry.length }
            try interrupted(limits)
        }
        try recoverJournal()
        return try body()
    }

    /// For a store that does not exist yet: throws ``StoreError/notMounted(_:mountPoint:)`` when it would be made on the
    /// bare folder of a disk that is not mounted now (see ``MountTable``). A folder made by hand on purpose is used,
    /// unless it is the mount point itself.
    func refuseStoreOnMissingDisk() throws {
        guard let mountPoint = MountTable.unmountedMountPoint(forNewStoreAt: path, tables: mountTablesForTests.current),
              !POSIXFile.exists(path) || MountTable.resolvedPath(path) == mountPoint else { return }
        throw StoreError.notMounted(path, mountPoint: mountPoint)
    }

    /// Runs `body` holding the exclusive lock, without finishing an interrupted batch first (for the doctor's repair).
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try StoreLock.acquire(path: lockPath, exclusive: true, timeout: lockTimeout, storePath: path)
        writeLock = lock
        defer { writeLock = nil }
        return try withExtendedLifetime(lock) { try body() }
    }

    func append(_ lines: [String], to partition: String) throws {
        let (buffer, _) = JSONFileStore.joined([(partition, lines)])
        try withExtendedLifetime(buffer) { try appendBytes(UnsafeRawBufferPointer(buffer.bytes), to: partition, lines: lines.count) }
    }

    /// Writes the groups' lines as one batch through the journal (``applyThroughJournal(_:in:recovery:)``).
    func applyThroughJournal(_ groups: [LineGroup]) throws {
        let (buffer, spans) = JSONFileStore.joined(groups)
        try applyThroughJournal(spans, in: buffer)
    }

    /// Finishes a batch that a crash interrupted: cuts each partition back to its length before the batch
    /// and appends the batch again, then removes the journal. Call with the exclusive lock held.
    func recoverJournal() throws {
        if POSIXFile.exists(journalPath) { try replayJournal() }
    }

    private func replayJournal() throws {
        guard let journal = try readJournal() else { return }
        switch journal.recovery {
        case .redo:
            try apply(journal)
        case .undo:
            for entry in journal.entries {
                try StoreSafety.makeFolders(PathText.parent(of: entry.path), inStore: path)
            }
            guard cutBack(journal.entries.map(\.path), to: journal.entries.map(\.length)) else {
                throw StoreError.writeFailed(journalPath, reason: "a partition it lists could not be cut back to its "
                    + "length before the interrupted import batch")
            }
            try removeJournal()
        }
    }

    /// Cuts each partition back to its recorded length, appends the batch (a redo journal), then removes the
    /// journal.
    private func apply(_ journal: Journal) throws {
        let (buffer, spans) = JSONFileStore.joined(journal.entries.map { ($0.path, $0.lines) })
        try apply(spans, lengths: journal.entries.map(\.length), in: buffer, knownGood: false)
    }

    /// A batch's journal: each partition's length before the batch, and (to finish the batch) its lines.
    struct Journal {
        /// What the next writer does with a batch a crash interrupted.
        enum Recovery {
            /// Finish it: the journal holds every line, appended again after the partitions are cut back.
            case redo
            /// Drop it: the partitions are cut back to their recorded lengths (an import, which can be run
            /// again, writes only the header).
            case undo
        }
        struct Entry { var path: String; var length: Int; var lines: [String] }
        var entries: [Entry]
        var recovery: Recovery = .redo
    }

    func readJournal() throws -> Journal? {
        guard let bytes = try POSIXFile.readFile(journalPath) else { return nil }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map { Array($0) }
        guard !lines.isEmpty else { return nil }
        let headerLine = lines.removeFirst()
        var entries: [Journal.Entry] = []
        var counts: [Int] = []
        var recovery = Journal.Recovery.redo
        var version = 0.0
        do {
            try headerLine.withUnsafeBufferPointer { buffer in
                var scanner = JSONLineScanner(buffer)
                try scanner.readObject { scanner, key in
                    if key == "journal" {
                        version = try scanner.readNumber()
                        return
                    }
                    if key == "undo" {
                        if scanner.readLiteral("true") { recovery = .undo } else { try scanner.skipValue() }
                        return
                    }
                    guard key == "partitions" else { try scanner.skipValue(); return }
                    try scanner.expect(UInt8(ascii: "["))
                    while scanner.peek() == UInt8(ascii: "{") {
                        var entry = Journal.Entry(path: "", length: -1, lines: [])
                        var count = 0
                        try scanner.readObject { scanner, key in
                            switch key {
                            case "path": entry.path = try scanner.readString()
                            case "length": entry.length = Int(exactly: try scanner.readNumber()) ?? -1
                            case "lines": count = Int(exactly: try scanner.readNumber()) ?? -1
                            default: try scanner.skipValue()
                            }
                        }
                        entries.append(entry)
                        counts.append(count)
                        if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1 }
                    }
                    try scanner.expect(UInt8(ascii: "]"))
                }
            }
        } catch {
            throw StoreError.corrupt(journalPath, line: 1, reason: "\(error)")
        }
        guard version == 1 || version == 2 else {
            let found = version == 0 ? "no version" : "version \(Int(exactly: version).map(String.init) ?? "\(version)")"
            throw StoreError.corrupt(journalPath, line: 1, reason: "the journal has \(found), and this version of "
                + "HealthCore knows versions 1 and 2 (a newer version may have written it: finish it with that version)")
        }
        // Version 2 is always an undo journal; version 1 is a redo journal, or an undo journal from the first
        // builds that wrote them.
        guard counts.allSatisfy({ $0 >= 0 }), entries.allSatisfy({ $0.length >= 0 && !$0.path.isEmpty }),
              version == 1 || recovery == .undo,
              recovery == .undo ? lines.isEmpty : counts.reduce(0, +) == lines.count,
              entries.allSatisfy({ !$0.path.contains("..") && !$0.path.hasPrefix("/") }) else {
            throw StoreError.corrupt(journalPath, line: 1, reason: "the journal does not match its header")
        }
        guard recovery == .redo else { return Journal(entries: entries, recovery: .undo) }
        var offset = 0
        for index in entries.indices {
            entries[index].lines = lines[offset..<offset + counts[index]].map { String(decoding: $0, as: UTF8.self) }
            offset += counts[index]
        }
        return Journal(entries: entries)
    }

    /// Moves a torn or unreadable last line of a partition (left by a crash) to `recovered/`, so appends
    /// start on a clean line. Call with the exclusive lock held.
    func repairTail(of partition: String, isValid: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil) throws {
        let file = try storeFile(partition)
        guard let size = POSIXFile.size(file), size > 0 else { return }
        // Usually the last line is short: look at the last 4 KiB, then 64 KiB and 1 MiB only if that does not settle it.
        func analyse(_ window: Int) throws -> (tail: [UInt8], keep: Int, conclusive: Bool) {
            guard let (fd, _) = try POSIXFile.openRegular(file, flags: O_RDONLY) else {
                throw POSIXFile.openFailure(file, writing: false, code: ENOENT)
            }
            var tail = [UInt8](repeating: 0, count: window)
            let count = tail.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, window, off_t(size - window)) }
            close(fd)
            guard count == window else { throw StoreError.readFailed(file, reason: POSIXFile.errorText()) }
            var keep = size
            var conclusive = true
            if tail.last != 0x0A {
                let lastNewline = tail.lastIndex(of: 0x0A)
                keep = lastNewline.map { size - window + $0 + 1 } ?? (window == size ? 0 : size)
                if lastNewline == nil && window < size { conclusive = false }
            }
            // The last complete line must decode too: a crash can leave a terminated line of garbage.
            let completeEnd = keep - (size - window)
            if completeEnd > 0 {
                let body = tail[0..<completeEnd - 1]
                let lineStart = body.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                if lineStart > 0 || window == size {
                    let line = Array(tail[lineStart..<completeEnd - 1])
                    // Only a torn line that does not decode is cut; a whole line (every write's case) is not torn, so
                    // it is not decoded (the dearer check, about 40,000 instructions a line).
                    let torn = line.withUnsafeBufferPointer { StoreLineReader.isTornWrite($0) }
                    if torn && !line.allSatisfy({ $0 == 0x20 }) {
                        var codec = self.codec
                        let decodes = line.withUnsafeBufferPointer { buffer in
                            isValid.map { $0(buffer) } ?? ((try? codec.decode(buffer)) != nil)
                        }
                        if !decodes { keep = size - window + lineStart }
                    }
                } else {
                    conclusive = false
                }
            }
            return (tail, keep, conclusive)
        }
        // 4 KiB holds the last line of nearly every file (a sample line is about 300 bytes): reading and clearing
        // 64 KiB twice (the partition and the operation log) cost an add about 0.1 M instructions.
        var window = min(size, 1 << 12)
        var (tail, keep, conclusive) = try analyse(window)
        for larger in [1 << 16, 1 << 20] where !conclusive && window < min(size, larger) {
            window = min(size, larger)
            (tail, keep, conclusive) = try analyse(window)
        }
        guard keep < size else { return }
        let recoveredFolder = path + "/recovered"
        try StoreSafety.makeFolders("recovered", inStore: path)
        var name = partition.replacingEvery("/", with: "_") + ".\(Int(Date().timeIntervalSince1970)).torn"
        var attempt = 1
        while POSIXFile.exists(recoveredFolder + "/" + name) {
            attempt += 1
            name = partition.replacingEvery("/", with: "_") + ".\(Int(Date().timeIntervalSince1970))-\(attempt).torn"
        }
        try POSIXFile.writeAtomically(Array(tail[(keep - (size - window))...]), to: recoveredFolder + "/" + name)
        try POSIXFile.truncate(file, to: keep)
    }

    // MARK: - Reading

    /// Whether a store exists at ``path``; an empty or missing folder is no store yet.
    ///
    /// - Throws: ``StoreError/notAStore(_:)`` for a folder with other content, ``StoreError/newerVersion(found:supported:)``.
    public func isExistingStore() throws -> Bool {
        try StoreSafety.checkStoreFolder(path)
        if let stamp = checkedMarker.current {
            // The marker this instance read and found good, unchanged since (a marker is only ever replaced whole).
            if FileIdentity.of(markerPath) == stamp { return true }
            checkedMarker.withLock { $0 = nil }
        }
        guard POSIXFile.exists(path) else { return false }
        guard let (fd, info) = try POSIXFile.openRegular(markerPath, flags: O_RDONLY) else {
            // A store being created by another process holds only its lock and the marker's temporary file.
            let contents = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
                $0 != ".lock" && !$0.hasPrefix("hkctl-store.json.tmp-")
            }
            if contents.isEmpty { return false }
            // Another process may have finished creating the store since the marker was read: its marker is
            // always written before any other file, so look once more.
            if POSIXFile.exists(markerPath) { return try isExistingStore() }
            throw StoreError.notAStore(path)
        }
        let marker: [UInt8]
        do {
            defer { close(fd) }
            marker = try POSIXFile.readAll(fd, path: markerPath, sizeHint: Int(info.st_size))
        }
        try JSONFileStore.checkMarker(marker, at: markerPath)
        checkedMarker.withLock { $0 = FileIdentity(info) }
        return true
    }

    /// Checks the marker's text: this format, at a version this build reads.
    static func checkMarker(_ marker: [UInt8], at markerPath: String) throws {
        var number: Double?
        var format: String?
        do {
            try marker.withUnsafeBufferPointer { buffer in
                var scanner = JSONLineScanner(buffer)
                try scanner.readObject { scanner, key in
                    switch key {
                    case "version": number = try scanner.readNumber()
                    case "format": format = try scanner.readString()
                    default: try scanner.skipValue()
                    }
                }
            }
        } catch {
            throw StoreError.badMarker(markerPath)
        }
        guard let number else { throw StoreError.badMarker(markerPath) }
        guard format == JSONFileStore.formatName else {
            throw StoreError.unknownFormat(markerPath, found: format)
        }
        guard number >= 1, number == number.rounded(), number < 1e9 else {
            throw StoreError.unknownVersion(markerPath, found: NumberFormatting.json(number))
        }
        let version = Int(number)
        if version > JSONFileStore.formatVersion {
            throw StoreError.newerVersion(found: version, supported: JSONFileStore.formatVersion)
        }
    }

    public func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                              _ body: (Sample) throws -> Void) throws {
        try withReadAccess { limits in
            let deleted = try deletedUUIDs(ofType: identifier, limits: limits)
            var reader = PartitionLineReader()
            // The month files at the range's ends (the first is the month of two days before its start, whose
            // samples may reach into it) and `long.jsonl` hold samples outside it: their lines that plainly lie outside
            // are passed over undecoded. A month the range holds whole has none (a misplaced one is decoded and left
            // out as before).
            let decoding = { (line: UnsafeBufferPointer<UInt8>) in !LineDates.liesOutside(line, interval) }
            for partition in try partitions(ofType: identifier, overlapping: interval) {
                let whole = JSONFileStore.monthNumber(ofFileName: PathText.lastComponent(of: partition)).map {
                    IdentityIndex.startOfMonth($0) >= interval.start && IdentityIndex.startOfMonth($0 + 1) <= interval.end
                } ?? false
                try readPartitionWithSequence(partition, limit: limits[partition], reader: &reader,
                                              decoding: whole ? nil : decoding) { sample, sequence in
                    if sample.overlaps(interval) && !deleted.hides(sample, sequence: sequence) { try body(sample) }
                }
            }
        }
    }

    /// Calls `body` with the visible samples of one partition of a type that overlap `interval`, read under the shared
    /// lock: `name` is a month file (`YYYY-MM.jsonl`) or `long.jsonl`; a missing one holds none.
    func forEachSample(ofType identifier: String, inPartition name: String, overlapping interval: DateInterval,
                       _ body: (Sample) throws -> Void) throws {
        try withReadAccess { limits in
            let deleted = try deletedUUIDs(ofType: identifier, limits: limits)
            let partition = JSONFileStore.typeFolder(identifier) + "/" + name
            try readPartitionWithSequence(partition, limit: limits[partition]) { sample, sequence in
                if sample.overlaps(interval) && !deleted.hides(sample, sequence: sequence) { try body(sample) }
            }
        }
    }

    /// Runs `body` under the shared lock, with the lengths each partition had before an interrupted batch.
    func withReadAccess(_ body: ([String: Int]) throws -> Void) throws {
        guard try isExistingStore() else { return }
        let lock = POSIXFile.exists(lockPath)
            ? try StoreLock.acquire(path: lockPath, exclusive: false, timeout: lockTimeout, storePath: path) : nil
        defer { withExtendedLifetime(lock) {} }
        var limits: [String: Int] = [:]
        if let journal = try readJournal() {
            for entry in journal.entries { limits[entry.path] = entry.length }
        }
        try body(limits)
    }

    /// The folder of a type's partitions, relative to the store.
    static func typeFolder(_ identifier: String) -> String {
        // Every identifier HealthKit has is all letters: its folder is its name (building the name byte by byte cost
        // every write about 16,000 instructions).
        if identifier.utf8.allSatisfy(isFolderNameByte) { return "samples/" + identifier }
        var name = ""
        for byte in identifier.utf8 {
            if isFolderNameByte(byte) {
                name.append(Character(Unicode.Scalar(byte)))
            } else {
                name += "%" + NumberFormatting.zeroPadded(byte, width: 2, radix: 16, uppercase: true)
            }
        }
        return "samples/" + name
    }

    /// Whether `byte` stands for itself in a type's folder name (others are written `%XX`).
    private static func isFolderNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    /// The partition a sample belongs to, relative to the store.
    func partitionPath(for sample: Sample) -> String {
        let folder = JSONFileStore.typeFolder(sample.typeIdentifier)
        if sample.duration > JSONFileStore.longSampleThreshold { return folder + "/long.jsonl" }
        return folder + "/" + JSONFileStore.monthKey(sample.start) + ".jsonl"
    }

    /// ``partitionPath(for:)`` with the folder and month names remembered across a batch.
    struct PartitionNamer {
        private var folders: [String: String] = [:]
        private var months: [Int: String] = [:]

        mutating func path(for sample: Sample) -> String {
            path(type: sample.typeIdentifier, start: sample.start, long: sample.duration > JSONFileStore.longSampleThreshold)
        }

        /// The partition of a sample of type `type` starting at `start`, `long` when it lasts over two days.
        mutating func path(type: String, start: Date, long: Bool) -> String {
            let folder: String
            if let known = folders[type] { folder = known } else {
                folder = JSONFileStore.typeFolder(type)
                folders[type] = folder
            }
            return folder + "/" + fileName(start: start, long: long)
        }

        /// The file name, within its type's folder, of the partition of a sample starting at `start`, `long` when it
        /// lasts over two days: `long.jsonl` or `YYYY-MM.jsonl`.
        mutating func fileName(start: Date, long: Bool) -> String {
            if long { return "long.jsonl" }
            let days = Int((start.timeIntervalSince1970 / 86_400).rounded(.down))
            let (year, month, _) = ISODate.civil(fromDays: days)
            let key = year * 100 + month
            if let known = months[key] { return known }
            let name = JSONFileStore.monthKey(start) + ".jsonl"
            months[key] = name
            return name
        }
    }

    /// `YYYY-MM` of the UTC month containing `date`.
    static func monthKey(_ date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let (year, month, _) = ISODate.civil(fromDays: days)
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + (month < 10 ? "-0" : "-") + String(month)
    }

    /// The existing partitions of a type that can hold samples overlapping `interval`.
    func partitions(ofType identifier: String, overlapping interval: DateInterval) throws -> [String] {
        let folder = JSONFileStore.typeFolder(identifier)
        let names = try folderEntries(folder)
        let first = JSONFileStore.monthKey(interval.start.addingTimeInterval(-JSONFileStore.longSampleThreshold))
        let last = JSONFileStore.monthKey(interval.end)
        // Month files are `YYYY-MM.jsonl`, listed in month order, with `long.jsonl` last (the order of their names).
        let from = JSONFileStore.monthNumber(ofFileName: first + ".jsonl") ?? .min
        let to = JSONFileStore.monthNumber(ofFileName: last + ".jsonl") ?? .max
        var keys: [Int] = []  // month × names.count + index: sorting the keys sorts the months
        var hasLong = false
        for (index, name) in names.enumerated() {
            if let month = JSONFileStore.monthNumber(ofFileName: name) {
                if month >= from && month <= to { keys.append(month * names.count + index) }
            } else if name == "long.jsonl" {
                hasLong = true
            }
        }
        // Insertion sort: a folder holds a few hundred months at most, often listed nearly in order.
        for i in keys.indices.dropFirst() {
            let key = keys[i]
            var j = i
            while j > 0 && keys[j - 1] > key {
                keys[j] = keys[j - 1]
                j -= 1
            }
            keys[j] = key
        }
        let prefix = folder + "/"
        var result = keys.map { prefix + names[$0 % names.count] }
        if hasLong { result.append(prefix + "long.jsonl") }
        return result
    }

    /// `year × 12 + month − 1` of a month partition's file name (`2024-06.jsonl`), or nil for any other name.
    static func monthNumber(ofFileName name: String) -> Int? {
        func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard bytes.count == 13, bytes[4] == 0x2D, bytes[7] == 0x2E, bytes[8] == 0x6A, bytes[9] == 0x73, bytes[10] == 0x6F,
                  bytes[11] == 0x6E, bytes[12] == 0x6C else { return nil }  // "-" at 4, ".jsonl" from 7
            var bad: UInt8 = 0
            func digit(_ offset: Int) -> Int {
                let value = bytes[offset] &- 0x30
                bad |= value > 9 ? 1 : 0
                return Int(value)
            }
            let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3), month = digit(5) * 10 + digit(6)
            return bad == 0 && (1...12).contains(month) ? year * 12 + month - 1 : nil
        }
        var name = name
        return name.withUTF8 { parse($0) }
    }

    /// Streams the samples of one partition, 128 KiB at a time.
    ///
    /// A final line without a newline, or a final line that does not decode, is a write torn by a crash and is
    /// skipped; an undecodable line followed by others is corruption.
    func readPartition(_ partition: String, limit: Int? = nil, _ body: (Sample) throws -> Void) throws {
        try readPartitionWithSequence(partition, limit: limit) { sample, _ in try body(sample) }
    }

    /// Like ``readPartition(_:limit:_:)``, also handing over each line's change sequence number.
    func readPartitionWithSequence(_ partition: String, limit: Int? = nil, _ body: (Sample, UInt64) throws -> Void) throws {
        var reader = PartitionLineReader()
        try readPartitionWithSequence(partition, limit: limit, reader: &reader, body)
    }

    /// Like ``readPartitionWithSequence(_:limit:_:)``, reading through `reader`'s buffer; with `decoding`, only the
    /// lines it lets through are decoded (judged from their bytes: ``UUIDLineFilter``, ``LineChangeNumber``).
    func readPartitionWithSequence(_ partition: String, limit: Int?, reader: inout PartitionLineReader,
                                   decoding: ((UnsafeBufferPointer<UInt8>) -> Bool)? = nil,
                                   _ body: (Sample, UInt64) throws -> Void) throws {
        let file = try storeFile(partition)
        var damage: LineDamage?
        var codec = self.codec
        try reader.forEachLine(in: file, limit: limit) { line, lineNumber in
            if let decoding, !decoding(line) {
                // Damage followed by another line is corruption, whether that line is decoded or passed over.
                if let damage, !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) {
                    throw StoreError.corrupt(file, line: damage.line, reason: damage.reason)
                }
                return
            }
            guard let sample = try decodeLine(line, number: lineNumber, in: file, damage: &damage, codec: &codec) else {
                return
            }
            try body(sample, codec.lastSequence)
        }
        // Whatever is left without a newline is a torn write, never acknowledged, and was skipped. A final line
        // that is a whole JSON object but not a valid sample is damage, not a tear.
        try damage?.throwUnlessTorn(file)
    }

    /// A line that did not decode: the reason, and whether it looks like the tail of a torn write.
    struct LineDamage {
        var line: Int
        var reason: String
        var torn: Bool

        /// Throws for damage that is not a torn final write (which was never acknowledged and is skipped).
        func throwUnlessTorn(_ file: String) throws {
            if !torn { throw StoreError.corrupt(file, line: line, reason: reason) }
        }
    }

    /// Decodes one line of a partition for a reader: nil for a blank line or one that does not decode, which is
    /// remembered in `damage` and reported as soon as another line follows it (or at the end, unless torn).
    func decodeLine(_ line: UnsafeBufferPointer<UInt8>, number: Int, in file: String,
                    damage: inout LineDamage?, codec: inout SampleLineCodec) throws -> Sample? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { return nil }
        if let damage { throw StoreError.corrupt(file, line: damage.line, reason: damage.reason) }
        // Garbage bytes inside a string would otherwise decode as replacement characters.
        if let failure = StoreLineReader.utf8Failure(line) {
            damage = LineDamage(line: number, reason: failure, torn: false)
            return nil
        }
        do {
            return try codec.decode(line)
        } catch let error as LineError {
            damage = LineDamage(line: number, reason: error.description, torn: StoreLineReader.isTornWrite(line))
        } catch let error as JSONLineScanner.Failure {
            damage = LineDamage(line: number, reason: error.description, torn: StoreLineReader.isTornWrite(line))
        }
        return nil
    }
}
