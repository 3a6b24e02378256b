/// Imports an Apple Health export (`export.zip`, `export.xml`) or the store's own jsonl export (``ExportFormat/jsonl``) into a store.
///
/// The input is streamed: memory stays bounded whatever its size. Records of types in the catalogue become typed
/// samples; others are kept generically (identifier, value and unit as written). Each sample gets a UUID derived
/// from its identity (``RecordIdentity``), and records whose identity is already stored are skipped, so importing
/// the same export twice, or a newer export that contains an older one, adds nothing twice.
///
/// Samples are saved in batches (``batchSize``), each all or nothing. An import stopped part-way leaves whole
/// batches behind; running it again completes it. Records that cannot be read are left out and reported with
/// their line numbers in the ``ImportReceipt``; they never stop the import.
///
/// An importer may be shared across threads: its settings are fixed when it is made, and ``importFile(atPath:progress:)``
/// holds the importer's own lock for the whole import (a second call waits for the first), so the state of a run is
/// only ever touched by the thread running it. Hence `@unchecked Sendable`.
public final class HealthImporter: @unchecked Sendable {
    /// Where samples go.
    public let store: SampleStore
    /// The types that become typed samples.
    public let catalogue: SampleTypeCatalogue
    /// When true nothing is written; the receipt tells what would have been.
    public let dryRun: Bool
    /// Samples per all-or-nothing save. The default, 20,000, keeps an import of any size under about 150 MB of
    /// memory: the store holds a batch about six times over while it writes it through its journal.
    public let batchSize: Int
    /// How often progress is reported, in records.
    public let progressInterval: Int
    /// Whether the export's characteristics replace the store's where the two differ; when false (the default) the
    /// store's are kept and only those it does not have are added (``CharacteristicsMerge``).
    public let replaceCharacteristics: Bool
    /// The zone in which a Health Auto Export day or week ends (``HAEPeriod``): the phone's, when it is known to
    /// be this one.
    public let timeZone: TimeZone
    /// The same zone from the zone database (``ZoneDatabase``), which decides instead when given: a fully static
    /// build's Foundation knows no zone but GMT, so there `timeZone` is GMT whatever `TZ` says.
    public let zoneRules: ZoneRules?
    /// Whether a folder import reads its files also when an import of the same files into the store as it is now
    /// stored nothing (by default it reads none then: docs/IMPORT.md, "A folder imported again").
    public let rereadsUnchangedFiles: Bool
    /// Held for the whole of an import: one run at a time.
    let importing = Lock()
    /// Whether a Health Auto Export batch is planned against the store read back even when what the run wrote shows
    /// it can meet nothing stored (``HAEImportRun``): the path every batch took before, kept to check that both write
    /// the same store.
    var readsEveryHAEBatch = false
    /// Whether Health Auto Export points whose samples are certain go straight to store lines when their batch is
    /// written unread (``HAEDirectPoints``); false builds every point as a sample, the path that checks it.
    var writesHAEDirectly = true
    /// What the last store of Health Auto Export payloads knew of its own writes (for tests and measurements).
    var lastHAERun: HAEImportRun?
    /// In a dry run, what its Health Auto Export batches would have written and deleted so far, kept from file to
    /// file of this importer as the store keeps a real import's writes.
    lazy var dryRunHAEPlanned = HAEDryRunPlanned()

    private var batch: [Sample] = []
    /// A dry run of the owner's import into a file store: the samples of this import that can cover the store's
    /// Health Auto Export samples, so the receipt counts the HAE samples the import would supersede. Nil otherwise.
    var dryRunHAE: HAEDryRunAdditions?
    /// In a dry run, the direct records counted into the current batch (they are not kept).
    var directInBatch = 0
    /// Samples in the batch being filled when it is not encoded (a dry run, or a store other than ``JSONFileStore``).
    var pendingInBatch: Int { batch.count + directInBatch }
    /// Writes the lines of records the reader took straight from the export's bytes.
    var composer: DirectLineComposer?
    /// The batch as store lines, when the store is a ``JSONFileStore`` (the fast path).
    var encoded: EncodedSampleBatch?
    private var lineWriter: SampleLineWriter?
    /// Saves the encoded batches on a thread of its own, during one import.
    private var writer: ImportBatchWriter?
    /// The identities known of the store and met in this run: a fresh index for each run, since what one run met
    /// is not a second occurrence in the next.
    private(set) var index: IdentityIndex
    private let identityCapacity: Int
    private var identity: RecordIdentity
    var receipt = ImportReceipt(inputKind: .healthXML, dryRun: false)
    var recordsRead = 0
    /// The records with sync identifiers, which follow HealthKit's sync-version rule (``ImportSyncHold``).
    private var syncHold = ImportSyncHold()
    /// The correlations this import wrote since a record a correlation may name carried sync keys: a later save
    /// rewriting one of them replaces nothing that was stored before the import.
    private var correlationsWritten = Set<UUID>()
    /// The records of types a correlation may hold that this import added: an older version of a correlation with
    /// sync keys takes those it holds with it (``ImportedMemberRecords``).
    var addedMembers = ImportedMemberRecords()
    /// The stored samples this import counted as replaced, and the stored correlation each copy it wrote of one
    /// stands for (``CorrelationRepointing``): a sample replaced twice in one import (its copy replaced by a greater
    /// version of the correlation) counts once.
    private var replacedStored = Set<UUID>()
    private var replacedCopies: [UUID: UUID] = [:]
    /// Correlations with sync keys that a greater version of their key met in this import left out, for the next save
    /// (``hold(_:mark:generic:)``).
    private var outranked: [Sample] = []
    /// The records the correlations without sync keys this import wrote name (20 to 40 bytes each, ``UUIDSet``).
    private var namedByWritten = UUIDSet()
    /// Records of stored correlations this import replaced by versions naming them too: they belong to those versions
    /// now, and go with them when a greater version met later replaces them (``SyncReplacement/Plan/inherited``).
    private var takenOver = Set<UUID>()
    /// The records of the types a correlation may hold that imports which stopped before their end wrote
    /// (``ImportMark``): this import decides them as its own additions, so none counts as stored before it.
    private var unfinishedWrites = Set<UUID>()
    /// The correlations with sync keys of their own met so far (a few hundred bytes each: a food log's entries), decided
    /// at the end (``finishSynced()``), once every correlation without keys is met.
    private var keyedCorrelations: [ImportSyncHold.Waiting] = []
    private var finishing = false
    /// Called once every record of the input is read and written, before the import's end (where the correlations
    /// with sync keys are decided): tests stop an import there, as a kill would.
    var interruption: (() throws -> Void)?

    /// Creates an importer.
    ///
    /// - Parameters:
    ///   - store: Where samples go; characteristics too when it is a ``JSONFileStore``.
    ///   - catalogue: The types that become typed samples.
    ///   - dryRun: Write nothing, only count.
    ///   - batchSize: Samples per all-or-nothing save.
    ///   - identityCapacity: How many identities are kept in memory for duplicate detection before the least
    ///     recently used months are dropped (and read again from the store when needed).
    ///   - replaceCharacteristics: Whether the export's characteristics replace the store's where they differ.
    ///   - progressInterval: How often progress is reported, in records.
    ///   - timeZone: Where a Health Auto Export day or week ends, when its written offset is this zone's.
    ///   - zoneRules: The same from the zone database (what `hkctl` resolves from `--tz` and `TZ`); it decides when
    ///     given.
    ///   - rereadsUnchangedFiles: Whether a folder is read even when an import of the same files into the store as it
    ///     is stored nothing (``rereadsUnchangedFiles``).
    public init(store: SampleStore, catalogue: SampleTypeCatalogue = .standard, dryRun: Bool = false,
                batchSize: Int = 20_000, identityCapacity: Int = 1_000_000, replaceCharacteristics: Bool = false,
                progressInterval: Int = 20_000, timeZone: TimeZone = .current, zoneRules: ZoneRules? = nil,
                rereadsUnchangedFiles: Bool = false) {
        self.rereadsUnchangedFiles = rereadsUnchangedFiles
        self.timeZone = timeZone
        self.zoneRules = zoneRules
        precondition(batchSize > 0, "batchSize must be positive")
        precondition(progressInterval > 0, "progressInterval must be positive")
        self.store = store
        self.replaceCharacteristics = replaceCharacteristics
        self.progressInterval = progressInterval
        self.catalogue = catalogue
        self.dryRun = dryRun
        self.batchSize = batchSize
        self.identityCapacity = identityCapacity
        index = IdentityIndex(store: store, catalogue: catalogue, capacity: identityCapacity)
        identity = RecordIdentity(catalogue: catalogue)
        if let fileStore = store as? JSONFileStore, !dryRun {
            encoded = EncodedSampleBatch()
            lineWriter = SampleLineWriter(catalogue: fileStore.catalogue, timeZone: fileStore.codec.timeZone)
        }
    }

    /// Imports the file at `path`, or standard input when `path` is `-`.
    ///
    /// A Health Auto Export JSON file, or a folder of them (every `*.json` in it, in name order: all are read and
    /// checked before anything is stored), is stored by ``importHealthAutoExport(_:receivedThrough:)``.
    ///
    /// - Parameters:
    ///   - path: An `export.zip`, an `export.xml`, a jsonl export (``ExportFormat/jsonl``), a Health Auto Export JSON file or a folder
    ///     of them, or `-`.
    ///   - progress: Called every ``progressInterval`` records and at the end.
    /// - Returns: What was added, already present, kept generically and rejected, per type.
    /// - Throws: ``ImportError`` when the input cannot be opened or is not an export; ``StoreError`` when the
    ///   store cannot be written (batches saved before stay saved).
    public func importFile(atPath path: String, progress: ((ImportProgress) -> Void)? = nil) throws -> ImportReceipt {
        importing.lock()
        defer { importing.unlock() }
        if path != "-", let files = try HealthAutoExportFolder.files(atPath: path) {
            return try importFolder(path, files: files, progress: progress)
        }
        let input = try ImportInput.open(path)
        if input.kind == .healthAutoExport {
            // A file's bytes are read a window at a time as they are parsed: the import holds the payload's points,
            // not the file as well. Standard input is read whole (even from a file: it need not start at the file's
            // start, and a whole read again would).
            let payload = path == "-"
                ? try HealthAutoExportPayload(bytes: HealthAutoExportFolder.readAll(input.reader), name: input.file.displayName)
                : try HealthAutoExportFolder.payload(input.reader, file: input.file, name: input.file.displayName)
            let byteCount = input.meter.totalBytes ?? input.file.bytesRead
            let records = payload.pointCount
            let receipt = try storeHealthAutoExport([consume payload], receivedThrough: nil)
            progress?(ImportProgress(bytesRead: byteCount, totalBytes: input.meter.totalBytes, records: records, finished: true))
            return receipt
        }
        // Nothing of an earlier run carries over: not what it met, nor a batch an error left unsaved.
        index = IdentityIndex(store: store, catalogue: catalogue, capacity: identityCapacity, ownUUIDs: input.kind == .jsonl)
        batch.removeAll()
        directInBatch = 0
        syncHold = ImportSyncHold()
        addedMembers = ImportedMemberRecords()
        correlationsWritten.removeAll()
        replacedStored.removeAll()
        replacedCopies.removeAll()
        outranked.removeAll()
        namedByWritten = UUIDSet()
        takenOver.removeAll()
        unfinishedWrites.removeAll()
        keyedCorrelations.removeAll()
        finishing = false
        receipt = ImportReceipt(inputKind: input.kind, dryRun: dryRun)
        running.removeAll()
        characteristics = Characteristics()
        characteristicsSeen = false
        receipt.archiveMember = input.member
        recordsRead = 0
        dryRunHAE = nil
        if dryRun, let fileStore = supersedingStore() {
            dryRunHAE = HAEDryRunAdditions { type in try fileStore.healthAutoExportSamples(readingOfType: type) }
        }
        if let fileStore = store as? JSONFileStore, encoded != nil {
            let writer = try ImportBatchWriter(store: fileStore, catalogue: catalogue)
            self.writer = writer
            encoded = EncodedSampleBatch(pool: writer.pool)
            // The index reads the store only once every batch handed over is saved: it sees what a synchronous
            // import would see.
            index.beforeLoad = { try writer.waitUntilIdle() }
            index.imported = ImportedSamples(store: fileStore)
        }
        // An export's import leaves a mark while it runs (``ImportMark``), and takes over those of imports that
        // stopped before their end. (A library store in memory writes none; nor does an input without correlations
        // decided at the end, so a push from the phone between a stopped import and its next run takes nothing over.)
        var mark: ImportMark?
        let markedStore = input.kind == .healthXML || input.kind == .zip
            ? (store as? JSONFileStore) ?? (store as? HealthStore)?.storage : nil
        if let markedStore {
            // Locked while this import runs (held by its mark; a dry run, which leaves none, lets them go once read).
            let stopped = try markedStore.unfinishedImports()
            if let since = stopped.since { unfinishedWrites = try markedStore.memberRecords(writtenAfter: since) }
            // (A store not made yet holds nothing an import could count as stored before it.)
            if !dryRun, try markedStore.isExistingStore() {
                mark = try ImportMark(in: markedStore, takingOver: stopped)
            }
        }
        defer {
            // Nothing is left half-saved when the import stops with an error.
            try? writer?.waitUntilIdle()
            writer?.stop()
            writer = nil
            index.beforeLoad = nil
            index.imported = nil
            // Withdrawn when this import wrote nothing: no recorded write gave its operation an id (a store that does
            // not record: the store's counter has not moved, whoever would have moved it).
            if let mark, let markedStore {
                let wroteNothing = markedStore.recording.map { $0.identity.value == nil }
                    ?? ((try? markedStore.currentSequence()) == mark.number)
                mark.withdraw(ifWroteNothing: wroteNothing)
            }
        }
        let total = input.meter.totalBytes
        let report = { (finished: Bool, bytesRead: Int) -> Void in
            // Never past the total; all of it once a complete input is read (an export may end in bytes the scanner
            // does not need).
            let done = total.map { finished && self.receipt.complete ? $0 : min(bytesRead, $0) } ?? bytesRead
            progress?(ImportProgress(bytesRead: done, totalBytes: total, records: self.recordsRead, finished: finished))
        }
        let tick = { [progressInterval] in
            if self.recordsRead % progressInterval == 0 { report(false, input.meter.bytesRead) }
        }
        switch input.kind {
        case .healthXML, .zip:
            let reader = HealthExportReader(reader: input.reader, displayName: input.member ?? input.file.displayName,
                                            catalogue: catalogue, routeFiles: input.routeFiles)
            if let fileStore = store as? JSONFileStore {
                reader.direct = DirectRecordEncoder(catalogue: catalogue, storeCatalogue: fileStore.catalogue)
                composer = DirectLineComposer(timeZone: fileStore.codec.timeZone)
            }
            try readExport(reader, bytesRead: { input.meter.bytesRead }, report: report)
        case .healthAutoExport:
            break
        case .jsonl:
            let reader = JSONLinesSampleReader(reader: input.reader, catalogue: catalogue, displayName: input.file.displayName)
            do {
                try reader.read { record in
                    try accept(record, computeIdentity: true)
                    tick()
                }
            } catch let error as ImportError {
                try inputFailed(error, line: reader.lineNumber + 1)
            }
        }
        if let interruption {
            try flush()
            try writer?.waitUntilIdle()
            try interruption()
        }
        try finishSynced()
        settleCounts()
        try flush()
        try writer?.waitUntilIdle()
        if let dropped = writer?.guardian.dropped {
            // Records another writer stored first were present after all.
            for (type, count) in dropped {
                var counts = receipt.counts[type] ?? ImportReceipt.Counts()
                let fromAdded = min(count, counts.added)
                counts.added -= fromAdded
                counts.keptGenerically -= count - fromAdded
                counts.alreadyPresent += count
                receipt.counts[type] = counts
            }
        }
        try saveCharacteristics()
        try supersedeHealthAutoExport()
        mark?.finish()
        report(true, input.meter.bytesRead)
        return receipt
    }

    /// After an export's samples are stored: the Health Auto Export samples of the same types whose time they cover
    /// are deleted (``JSONFileStore/supersedeHealthAutoExport(types:)``), so nothing counts twice whichever came
    /// first. Only the owner's import does it (another source may not delete what it did not write).
    /// A dry run counts what it would supersede from the samples it would have added (``dryRunHAE``).
    private func supersedeHealthAutoExport() throws {
        guard let fileStore = supersedingStore() else { return }
        // A stored sample replaced by a greater sync version counts: a remainder may have been weighed against it.
        let touched = receipt.counts.filter { $0.value.added > 0 || $0.value.keptGenerically > 0 || $0.value.replaced > 0 }.map(\.key)
        if dryRun {
            guard let dryRunHAE, dryRunHAE.meetsAnyPoint else { return }
            receipt.supersededHealthAutoExport = try fileStore.supersedeHealthAutoExport(types: touched, adding: dryRunHAE.samples)
        } else {
            receipt.supersededHealthAutoExport = try fileStore.supersedeHealthAutoExport(types: touched)
        }
    }

    /// Imports a folder's Health Auto Export files as one input; none when an import of the same files with the same
    /// options into the store as it is now stored nothing (``FolderImportRecord``), unless ``rereadsUnchangedFiles``.
    private func importFolder(_ path: String, files: [(path: String, name: String)],
                              progress: ((ImportProgress) -> Void)?) throws -> ImportReceipt {
        // Only the owner's imports keep records (another source's depend on its permissions, which can change), and
        // only with the zone's rules known.
        let recorded: (store: JSONFileStore, folder: String, options: String)?
        if let fileStore = supersedingStore(), let zoneRules, !dryRun, let folder = FolderImportRecord.realPath(of: path) {
            recorded = (fileStore, folder, FolderImportRecord.options(zone: zoneRules))
        } else {
            recorded = nil
        }
        // What the files and the store are before anything is read: a file written again while it is read, or a write
        // to the store meanwhile, is read again next time.
        let found = recorded == nil ? [] : files.map { FolderImportRecord.File(name: $0.name, path: $0.path) }
        let before = try recorded.map { try $0.store.sampleFilesFingerprint() }
        if let recorded, let before, !rereadsUnchangedFiles, let record = recorded.store.folderImportRecord(folder: recorded.folder),
           record.options == recorded.options, record.store == before, record.holdsUnchanged(found) {
            var receipt = ImportReceipt(inputKind: .healthAutoExport, dryRun: false)
            receipt.unreadFiles = files.count
            progress?(ImportProgress(bytesRead: 0, totalBytes: nil, records: 0, finished: true))
            return receipt
        }
        let payloads = try files.map { try HealthAutoExportFolder.payload(atPath: $0.path, name: $0.name) }
        let total = payloads.reduce(0) { $0 + $1.pointCount }
        let receipt = try storeHealthAutoExport(consume payloads, receivedThrough: nil)
        // Kept only when the import stored nothing (a fixed point) and every file could be read.
        if let recorded, let before, !receipt.hasProblems, found.allSatisfy({ $0 != nil }),
           try recorded.store.sampleFilesFingerprint() == before {
            recorded.store.keepFolderImportRecord(FolderImportRecord(
                folder: recorded.folder, options: recorded.options, store: before, files: found.compactMap { $0 }))
        }
        progress?(ImportProgress(bytesRead: 0, totalBytes: nil, records: total, finished: true))
        return receipt
    }

    /// The file store whose Health Auto Export samples this import supersedes: only the owner's.
    private func supersedingStore() -> JSONFileStore? {
        (store as? JSONFileStore) ?? (store as? HealthStore).flatMap { $0.isOwner ? $0.storage : nil }
    }

    /// In a dry run: notes `sample`, which the import would add, for the stored HAE samples it can cover.
    func noteDryRunAddition(_ sample: @autoclosure () -> Sample?, type: String, start: Date, end: Date) throws {
        try dryRunHAE?.note(sample, type: type, start: start, end: end)
    }

    /// A read error part-way: what was read so far is kept (and saved), the rest is reported as missing.
    func inputFailed(_ error: ImportError, line: Int) throws {
        switch error {
        case .readFailed, .corruptArchive:
            receipt.complete = false
            receipt.record(ImportReceipt.Problem(line: line, type: nil, reason: "the input stops here: \(error.description)"))
        default:
            throw error
        }
    }

    func accept(_ record: consuming MappedRecord, computeIdentity: Bool) throws {
        recordsRead += 1
        switch consume record {
        case .sample(var sample, let generic, let member):
            // A day's activity summary without sync keys (from hkctl's own export by a build before they had them) is
            // that day's summary in its lowest version (``ActivitySummaryVersion``).
            if !sample.metadata.isEmpty, sample.typeIdentifier == ActivitySummaryVersion.typeIdentifier {
                ActivitySummaryVersion.markUnmarked(&sample)
            }
            // A record with a sync identifier follows HealthKit's rule instead of identities, inside a correlation
            // too (its greater version replaces the stored one, and the stored correlations holding that one name it
            // instead); so does a correlation with sync keys of its own, once it names the samples standing for its
            // records' keys (it replaces a lower version whole, and an older version is not kept).
            if !sample.metadata.isEmpty, let mark = (try? SyncReplacement.mark(of: sample)) ?? nil {
                if sample.uuid == RecordIdentity.placeholder { sample.uuid = identity.uuid(for: sample) }
                // A correlation is decided at the end, with every other correlation of the input met (what one without
                // sync keys names stays, whichever comes first and whatever the batch size).
                if sample.detail?.correlation != nil && !finishing {
                    keyedCorrelations.append(ImportSyncHold.Waiting(sample: sample, generic: generic))
                    return
                }
                if sample.detail?.correlation == nil || ready(&sample, generic: generic) { hold(sample, mark: mark, generic: generic) }
                if syncHold.count >= batchSize && !dryRun { try saveSynced() }
                return
            }
            let isNew: Bool
            if computeIdentity {
                // A sample of hkctl's own export keeps its UUID, and is the stored sample with that UUID. Any other is
                // matched by its identity, one for one: a stored sample of the same identity that no other record of
                // this import took (identical twins count one by one; a copy an undone delete restored stands for the
                // sample it replaces; the same reading imported from an export is not doubled).
                isNew = try index.insert(sample, identity: identity.uuid(for: sample), generic: generic)
            } else if member {
                // A correlation's record is also written at top level: whichever comes first is stored, once. Its uuid
                // is its identity's n-th occurrence among the records read inside correlations (the mapper numbers
                // them as the index numbers top-level twins), matched one for one like a top-level record.
                isNew = try index.insert(sample, identity: identity.uuid(for: sample), generic: generic,
                                         loose: { identity.looseUUID(for: sample) })
            } else {
                // A record read straight from the export gets its identity here, on the thread that stores it, and
                // the UUID of its occurrence when an identical record came before it.
                if sample.uuid == RecordIdentity.placeholder { sample.uuid = identity.uuid(for: sample) }
                let found = sample
                if let uuid = try index.insertRecord(type: sample.typeIdentifier, start: sample.start, end: sample.end,
                                                     identity: sample.uuid, loose: { identity.looseUUID(for: found) }, hold: { uuid in
                    var held = found
                    held.uuid = uuid
                    return .sample(held, generic: generic)
                }) {
                    sample.uuid = uuid
                    isNew = true
                } else {
                    isNew = false
                }
            }
            if isNew {
                try add(sample, generic: generic)
            } else {
                count(sample.typeIdentifier) { $0.alreadyPresent += 1 }
            }
            if !index.released.isEmpty { try addReleased() }
        case let .rejected(type, line, reason):
            count(type) { $0.rejected += 1 }
            receipt.record(ImportReceipt.Problem(line: line, type: type, reason: reason))
        }
    }

    /// Lets a record with a sync mark wait for ``saveSynced()``, or counts it present when a record of its key has an
    /// equal or greater version. (A dry run keeps them all, saved at the end: what it did not write cannot be replaced
    /// by a greater version met later.)
    private func hold(_ sample: Sample, mark: SyncReplacement.Mark, generic: Bool) {
        var left: Sample?
        switch syncHold.offer(sample, mark: mark, generic: generic) {
        case .waiting: break
        case let .supersedes(earlier):
            count(earlier.sample.typeIdentifier) { $0.alreadyPresent += 1 }
            left = earlier.sample
        case .superseded:
            count(sample.typeIdentifier) { $0.alreadyPresent += 1 }
            left = sample
        }
        // A correlation left out goes to the next save all the same (counted already), so that the records this
        // import added for it go with it.
        if let left, left.detail?.correlation != nil { outranked.append(left) }
    }

    /// Saves the records waiting in ``syncHold`` by HealthKit's rule, after every batch before them, and counts them:
    /// written (added or kept generically), left out (present), and the stored samples they replaced (copies of one
    /// stored object count once). Correlations with sync keys that waited for these records' keys wait in their turn,
    /// and are saved by the next round, until none waits.
    func saveSynced() throws {
        while syncHold.count > 0 || !outranked.isEmpty { try saveSyncedOnce() }
    }

    /// At the end of an import: saves the records still waiting, then decides the correlations with sync keys of
    /// their own, all together (``keyedCorrelations``).
    private func finishSynced() throws {
        try saveSynced()
        finishing = true
        for var waiting in keyedCorrelations {
            guard let mark = (try? SyncReplacement.mark(of: waiting.sample)) ?? nil else { continue }
            if ready(&waiting.sample, generic: waiting.generic) { hold(waiting.sample, mark: mark, generic: waiting.generic) }
            // In saves of a batch's size, as the records' (a dry run keeps them all, as there).
            if syncHold.count >= batchSize && !dryRun { try saveSynced() }
        }
        keyedCorrelations.removeAll()
        try saveSynced()
    }

    /// The source whose samples alone this import may delete: nil for the owner (any), else the importing source's.
    private var deletingSource: String? {
        guard let health = store as? HealthStore, !health.isOwner else { return nil }
        return health.source
    }

    private func saveSyncedOnce() throws {
        try flush()
        try writer?.waitUntilIdle()
        let waiting = syncHold.take()
        // Correlations a greater version of their key outranked in the hold (one with the uuid of one waiting is that
        // one, not another version): not saved, but the plan takes out what this import added for them.
        let uuids = Set(waiting.map(\.sample.uuid))
        let left = outranked.filter { !uuids.contains($0.uuid) }
        outranked.removeAll()
        let samples = waiting.map(\.sample) + left
        // What this import wrote before: the records it added for a correlation version left out go with it.
        // (Read through the importer: a copy of its tables would be copied again when they next change.)
        let imported = SyncReplacement.ImportWrites(added: { [self] in addedMembers.holds($0) || takenOver.contains($0) || unfinishedWrites.contains($0) }, savedCorrelation: { [self] in
            syncHold.savedByThisImport(replacedCopies[$0] ?? $0) != nil
        }, named: { [self] in namedByWritten.contains($0) }, mayDelete: { [actor = deletingSource] source in actor.map { $0 == source } ?? true })
        let plan = try store.saveSyncedRecords(samples, dryRun: dryRun, imported: imported)
        // Correlations that waited for these records' keys go out now, naming the samples that stand for them.
        for rider in syncHold.settle(waiting, standing: plan.standing) {
            if let mark = (try? SyncReplacement.mark(of: rider.sample)) ?? nil {
                hold(rider.sample, mark: mark, generic: rider.generic)
            } else {
                try append(rider.sample)
            }
        }
        var records: [UUID: ImportSyncHold.Waiting] = [:]
        for record in waiting { records[record.sample.uuid] = records[record.sample.uuid] ?? record }
        for sample in plan.writes {
            try noteDryRunAddition(sample, type: sample.typeIdentifier, start: sample.start, end: sample.end)
            let generic = records[sample.uuid]?.generic ?? false
            syncHold.noteSaved(sample.uuid, generic: generic)
            addedMembers.note(sample.uuid, type: sample.typeIdentifier, generic: generic)
            count(sample.typeIdentifier) { generic ? ($0.keptGenerically += 1) : ($0.added += 1) }
        }
        for uuid in plan.unchanged {
            if let record = records[uuid] { count(record.sample.typeIdentifier) { $0.alreadyPresent += 1 } }
        }
        // A stored correlation that held a replaced sample is replaced by a copy naming its successor: a stored
        // sample replaced (its record, read again, counted present).
        // (Not one this import wrote itself, naming a version it met before: a dry run, which saves at the end, never
        // writes that one.)
        for repointing in plan.repointings {
            let root = replacedCopies[repointing.old.uuid] ?? repointing.old.uuid
            replacedCopies[repointing.copy.uuid] = root
            // (A workout rewritten in place under its own uuid is no record of the input replaced.)
            guard repointing.copy.uuid != repointing.old.uuid, !correlationsWritten.contains(root),
                  syncHold.savedByThisImport(root) == nil, replacedStored.insert(root).inserted else { continue }
            count(repointing.old.type) { $0.replaced += 1 }
        }
        takenOver.formUnion(plan.inherited)
        // A record this import added for an older version of a stored correlation: present after all.
        for gone in plan.discarded {
            if let generic = addedMembers.forget(gone.uuid) { countPresentAfterAll(gone.type, generic: generic) }
        }
        for replaced in plan.replaced where !plan.copies.contains(replaced.uuid) {
            let root = replacedCopies[replaced.uuid] ?? replaced.uuid
            // A sample this import saved before, replaced by a greater version met since (or a record it added for a
            // correlation's version replaced since): its record is superseded.
            if plan.members[replaced.uuid] != nil && syncHold.savedByThisImport(root) == nil {
                // A member of a correlation version replaced: no record of the input stands for it. Only one this import
                // added, and now takes out, changes the counts (present after all).
                if let generic = addedMembers.forget(replaced.uuid) { countPresentAfterAll(replaced.type, generic: generic) }
            } else if let generic = syncHold.savedByThisImport(root) ?? addedMembers.forget(replaced.uuid) {
                countPresentAfterAll(replaced.type, generic: generic)
            } else if !replacedStored.insert(root).inserted {
                // Counted replaced before (this import replaced it by a copy naming another member, or, in a dry run,
                // which writes nothing, by an earlier round): a correlation written in its place is that replacement,
                // and a member of it is gone already.
                if CorrelationType.identified(replaced.type) != nil {
                    count(replaced.type) { counts in if counts.added > 0 { counts.added -= 1 } else { counts.keptGenerically -= 1 } }
                }
            } else {
                // The record that replaced it (of the same type, counted as written above) counts as replaced.
                count(replaced.type) { counts in
                    if counts.added > 0 { counts.added -= 1 } else { counts.keptGenerically -= 1 }
                    counts.replaced += 1
                }
            }
        }
    }

    /// Counts a record of `type` that this import counted as written (kept generically or added) present after all: a
    /// greater version replaced what it saved, or it took the sample out again with an older correlation version.
    private func countPresentAfterAll(_ type: String, generic: Bool) {
        count(type) { counts in
            if generic { counts.keptGenerically -= 1 } else { counts.added -= 1 }
            counts.alreadyPresent += 1
        }
    }

    /// Adds a sample the index found new to the batch, and counts it.
    private func add(_ sample: Sample, generic: Bool) throws {
        count(sample.typeIdentifier) { generic ? ($0.keptGenerically += 1) : ($0.added += 1) }
        addedMembers.note(sample.uuid, type: sample.typeIdentifier, generic: generic)
        try append(sample, generic: generic)
    }

    /// Puts a sample counted already in the batch; a correlation naming a record whose sync key waits waits with it
    /// (``ImportSyncHold/resolve(_:)``).
    private func append(_ sample: Sample, generic: Bool = false) throws {
        var sample = sample
        guard ready(&sample, generic: generic) else { return }
        let pending: Int
        if encoded != nil {
            encoded!.append(sample, writer: &lineWriter!)
            pending = encoded!.count
        } else {
            batch.append(sample)
            pending = pendingInBatch
            try noteDryRunAddition(sample, type: sample.typeIdentifier, start: sample.start, end: sample.end)
        }
        if pending >= batchSize { try flush() }
    }

    /// Whether `sample` goes to the batch now: a correlation names the samples that stand for its records' sync keys,
    /// or waits with the hold when one of those keys waits (false; ``ImportSyncHold/resolve(_:)``).
    private func ready(_ sample: inout Sample, generic: Bool) -> Bool {
        guard sample.detail?.correlation != nil else { return true }
        guard syncHold.resolve(&sample) else {
            syncHold.ride(sample, generic: generic)
            return false
        }
        if (try? SyncReplacement.mark(of: sample)) ?? nil == nil {
            if syncHold.hasMemberKeys { correlationsWritten.insert(sample.uuid) }
            // What it names stays when a version of a correlation with sync keys holding it goes (a dry run, which
            // stores neither, sees it as the import does).
            for member in sample.detail?.correlation?.members ?? [] { namedByWritten.insert(member.uuid) }
        }
        return true
    }

    /// Adds the records the index released: counted as present when they took a stored sample by identity, whose own
    /// record came later, they are new after all (see ``IdentityPartition``).
    func addReleased() throws {
        for record in index.takeReleased() {
            var generic = false
            switch record.content {
            case .sample(var sample, let isGeneric):
                generic = isGeneric
                if ready(&sample, generic: generic) {
                    if encoded != nil { encoded!.append(sample, writer: &lineWriter!) } else { batch.append(sample) }
                    try noteDryRunAddition(sample, type: sample.typeIdentifier, start: sample.start, end: sample.end)
                }
            case let .line(bytes, long):
                encoded!.append(type: record.type, typeKey: record.typeKey, start: record.start, long: long, uuid: record.uuid,
                                identity: record.uuid) { $0.append(bytes) }
            case let .counted(sample):
                directInBatch += 1
                if let sample { try noteDryRunAddition(sample, type: record.type, start: record.start, end: record.end) }
            }
            count(record.type, typeKey: record.typeKey) { counts in
                counts.alreadyPresent -= 1
                if generic { counts.keptGenerically += 1 } else { counts.added += 1 }
            }
            addedMembers.note(record.uuid, type: record.type, typeKey: record.typeKey, generic: generic)
        }
        if (encoded?.count ?? pendingInBatch) >= batchSize { try flush() }
    }

    /// Counts of the types met last, added to the receipt at the end (or when more than 16 types interleave): saves
    /// hashing the type for every record.
    private var running: [(type: String, typeKey: Int, counts: ImportReceipt.Counts)] = []

    /// Changes the counts of `type`; `typeKey`, when not 0, stands for `type` in every call that passes it.
    func count(_ type: String, typeKey: Int = 0, _ change: (inout ImportReceipt.Counts) -> Void) {
        if let index = running.firstIndex(where: { $0.typeKey == typeKey && (typeKey != 0 || $0.type == type) }) {
            change(&running[index].counts)
            return
        }
        if running.count == 16 {
            let oldest = running.removeFirst()
            receipt.counts[oldest.type] = oldest.counts
        }
        // The same type may also be counted under the other kind of key: take over what that entry counted.
        var counts = receipt.counts[type] ?? ImportReceipt.Counts()
        if let other = running.firstIndex(where: { $0.type == type }) {
            counts = running[other].counts
            running.remove(at: other)
        }
        running.append((type, typeKey, counts))
        change(&running[running.count - 1].counts)
    }

    private func settleCounts() {
        for entry in running { receipt.counts[entry.type] = entry.counts }
        running.removeAll()
    }

    func flush() throws {
        if !batch.isEmpty && !dryRun { try store.saveImported(batch) }
        batch.removeAll(keepingCapacity: true)
        directInBatch = 0
        if let encoded, encoded.count > 0, let writer {
            try writer.submit(encoded)
            self.encoded = EncodedSampleBatch(pool: writer.pool)
        }
        // In a dry run nothing was saved, so a dropped month cannot be read back: a duplicate of a record far
        // earlier in the file may then be counted as new. Real exports are sorted by type and date, so this is rare
        // but for a correlation's records, written after every top-level record (docs/IMPORT.md, a known fault).
        index.saved()
    }

    // MARK: - Characteristics

    private var characteristics = Characteristics()
    private var characteristicsSeen = false

    func readCharacteristics(_ attributes: [(key: String, value: String)], line: Int) {
        for (key, written) in attributes where !written.isEmpty {
            let value = LocalizedDigits.ascii(written)
            var understood = true
            switch key {
            case "HKCharacteristicTypeIdentifierDateOfBirth":
                if let date = HealthImporter.dateOfBirth(value) {
                    characteristics.dateOfBirth = date
                } else {
                    let reason = "the date of birth '\(written)' is not a date like 1988-04-02"
                    receipt.record(ImportReceipt.Problem(line: line, type: key, reason: reason))
                }
            case "HKCharacteristicTypeIdentifierBiologicalSex":
                if let sex = BiologicalSex.settable.first(where: { $0.exportName == value }) { characteristics.biologicalSex = sex } else {
                    understood = value == "HKBiologicalSexNotSet"
                }
            case "HKCharacteristicTypeIdentifierBloodType":
                if let type = BloodType.settable.first(where: { $0.exportName == value }) { characteristics.bloodType = type } else {
                    understood = value == "HKBloodTypeNotSet"
                }
            case "HKCharacteristicTypeIdentifierFitzpatrickSkinType":
                if let skin = FitzpatrickSkinType.settable.first(where: { $0.exportName == value }) { characteristics.skinType = skin } else {
                    understood = value == "HKFitzpatrickSkinTypeNotSet"
                }
            default:
                understood = false
            }
            // A kind (or value) this version does not know is kept as written: `hkctl me` lists it and the Health
            // XML export writes it back.
            if !understood {
                characteristics.generic = characteristics.generic ?? [:]
                characteristics.generic![key] = value
                receipt.unknownCharacteristics[key] = value
            }
        }
        characteristicsSeen = true
        receipt.characteristics = Dictionary(uniqueKeysWithValues: characteristics.entries.compactMap { entry in
            entry.value.map { (entry.key, $0) }
        })
    }

    /// A date of birth as `yyyy-MM-dd`: written so, or compactly (`19800101`, iOS 8).
    static func dateOfBirth(_ text: String) -> String? {
        if let parts = try? ISODate.components(text), !parts.hasTime { return text }
        let digits = Array(text.utf8)
        guard digits.count == 8, digits.allSatisfy({ $0 &- 48 < 10 }) else { return nil }
        let spelled = String(text.prefix(4)) + "-" + String(text.dropFirst(4).prefix(2)) + "-" + String(text.suffix(2))
        guard let parts = try? ISODate.components(spelled), !parts.hasTime else { return nil }
        return spelled
    }

    /// Adds the export's characteristics the store does not have, and replaces differing ones only when
    /// ``replaceCharacteristics`` is set; the receipt says what happened to each. A dry run only compares.
    private func saveCharacteristics() throws {
        guard characteristicsSeen, !receipt.characteristics.isEmpty, let fileStore = store as? JSONFileStore else { return }
        let imported = characteristics, replace = replaceCharacteristics
        var merge = CharacteristicsMerge(stored: try fileStore.document("characteristics.json", default: Characteristics()),
                                         imported: imported, replace: replace)
        if !dryRun && merge.changesStore {
            // Decided again under the store's lock, against what it holds then.
            try fileStore.updateDocument("characteristics.json", initial: Characteristics()) { current in
                merge = CharacteristicsMerge(stored: current, imported: imported, replace: replace)
                current = merge.result
            }
        }
        receipt.characteristicResults = merge.entries
    }
}
