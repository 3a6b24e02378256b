/// What one store of Health Auto Export payloads (an import of files, or a push) has written so far, so that a batch
/// that can meet nothing stored is planned without reading the store back.
///
/// ``HAEWritePlan`` decides each candidate against the stored samples of its type around its time. When every one of
/// those was written by this run itself, and none of them shares a candidate's sync identifier or stands for its time in
/// another form, the plan adds every candidate with version 1 whatever they hold (it is the plan against no stored
/// samples): the store need not be read. This is known without reading when, for each type of the batch:
/// - no other writer changed the store since this run's last write (its change counter is where this run left it);
/// - the type had no partition overlapping the batch's reading window before this run first wrote the type;
/// - no sample this run wrote of the type has a candidate's sync identifier, or that identifier with `|min` or `|max`
///   (kept as hashes: a collision only sends the batch the long way);
/// - this run wrote no form (``HAEWritePlan/form(of:)``) of the type other than the candidates' own, no sample of the
///   type without HAE's marks, and the type is not sleep (whose nights are planned across forms and sources);
/// - the run wrote the candidates' form of the type at one phase (``phase(form:start:end:)``), the candidates': an hour of
///   a phone in a half-hour zone (`14:00 +0530`) overlaps the run's hours of another zone without sharing their sync
///   identifiers, and the plan weighs them against each other (a day-level payload across a change of summer time
///   has two phases, and its later batches are read).
/// Otherwise the batch is planned against the samples read from the store, as before. Every write of the run, either
/// way, is noted. Call everything under the store's exclusive lock.
final class HAEImportRun {
    /// The store's change counter after this run's last look or write, as an anchor takes it (not the end of another
    /// boot's block, below which that boot's writers go on numbering: ``JSONFileStore/anchorSequence()``); nil before
    /// its first batch.
    private var counter: UInt64?
    /// False once another writer changed the store during the run: every later batch is read.
    private(set) var trusted = true
    /// Per type: the names in its folder before this run wrote the type.
    private var before: [String: [String]] = [:]
    /// Per type: hashes of the sync identifiers written (and of those without a `|min` or `|max` ending).
    private var keys: [String: HAEHashSet] = [:]
    /// Per type: the forms written.
    private var forms: [String: Set<String>] = [:]
    /// Per type: the phases (``phase(form:start:end:)``) of the periods written.
    private var phases: [String: Set<Int>] = [:]
    /// Types of which a sample without HAE's marks (aggregation and sync identifier) was written.
    private var unmarked: Set<String> = []
    /// How many batches were planned without reading the store, and how many were read (for tests and measurements).
    private(set) var unread = 0, read = 0
    /// How many samples were written straight from their points (``HAEDirectPoints``).
    private(set) var direct = 0
    /// How many batches had their lines made while the batch before was written (``HAEWriteAhead``), and how many
    /// of those were then found to need planning (for tests and measurements).
    var writtenAhead = 0, declinedAhead = 0
    /// The buffers the run's unread batches are encoded and written from (one a batch, whatever partitions it
    /// spans), kept from batch to batch.
    let buffers = ByteBufferPool(limit: 32 << 20)
    let scratch = ByteBuffer(capacity: 1 << 20)

    /// Whether `candidates` (whose samples and members span `spans` per type) can be planned against no stored samples.
    /// `hashes`: each candidate's ``syncHash(_:)``.
    func needsNoReading(_ candidates: [HAECandidate], hashes: [Int], spans: [String: (start: Date, end: Date)],
                        store: JSONFileStore) throws -> Bool {
        // Points of the batch that overlap each other are weighed against each other by the plan.
        // A point that gives way to later ones is weighed by the plan too (``HAEGivingWay``).
        let answer = try HAEOverlapsInBatch(candidates).isEmpty && !candidates.contains(where: { !$0.givesWayTo.isEmpty })
            && decide(candidates, hashes: hashes, spans: spans, store: store)
        if answer { unread += 1 } else { read += 1 }
        return answer
    }

    /// ``needsNoReading(_:hashes:spans:store:)`` for a batch of candidates and directly written samples
    /// (``HAEDirectPoints``), whose spans `spans` include the rows'. Counted only when true: otherwise the batch goes
    /// to ``JSONFileStore/storeHealthAutoExport(_:dryRun:run:hashes:)``, which asks again.
    func needsNoReading(_ candidates: [HAECandidate], hashes: [Int], direct: HAEDirectPoints,
                        spans: [String: (start: Date, end: Date)], store: JSONFileStore) throws -> Bool {
        guard try !candidates.contains(where: { !$0.givesWayTo.isEmpty }) && decide(candidates, hashes: hashes, spans: spans, store: store)
        else { return false }
        // The rows come a metric at a time: its notes are looked up once, and its forms checked once a period.
        let rows = direct.rows
        // Points of the batch that overlap each other are weighed against each other by the plan.
        var overlaps = HAEOverlapsInBatch(candidates)
        for row in rows {
            overlaps.add(type: direct.metrics[Int(row.metric)].type.identifier, form: row.period.name, start: row.start, end: row.end,
                         isPart: row.pointHash != nil)
        }
        guard overlaps.isEmpty else { return false }
        var start = 0
        while start < rows.count {
            let end = HAEImportRun.endOfMetric(rows, from: start)
            let type = direct.metrics[Int(rows[start].metric)].type.identifier
            if let writtenForms = forms[type] {
                var period: HAEPeriod?
                for index in start..<end where rows[index].period != period {
                    period = rows[index].period
                    let form = rows[index].period.name
                    if writtenForms.contains(where: { $0 != form }) { return false }
                }
                // The periods' phases, looked up when they change (a run of a metric has one, or two across a change
                // of summer time).
                var last: Int?
                for index in start..<end where writtenForms.contains(rows[index].period.name) {
                    guard let phase = HAEImportRun.phase(form: rows[index].period.name, start: rows[index].start, end: rows[index].end),
                          phase != last else { continue }
                    if phases[type].map({ HAEImportRun.otherPhase(than: phase, in: $0) }) ?? true { return false }
                    last = phase
                }
            }
            if let written = keys[type] {
                for piece in HAEImportRun.pieces(of: start..<end) {
                    var fetched = 0
                    for index in piece { fetched &+= written.slotWord(rows[index].hash) }
                    warmth &+= fetched
                    for index in piece where written.contains(rows[index].hash) { return false }
                }
            }
            start = end
        }
        unread += 1
        return true
    }

    /// Where the run of rows of `rows[start]`'s metric ends (the rows of a batch come a metric at a time).
    private static func endOfMetric(_ rows: [HAEDirectPoints.Row], from start: Int) -> Int {
        var end = start + 1
        while end < rows.count && rows[end].metric == rows[start].metric { end += 1 }
        return end
    }

    /// `range` in pieces of 128 indices: a piece's slots are read ahead, then used while they (and the pages they lie
    /// on) are still in the caches.
    private static func pieces(of range: Range<Int>) -> LazyMapSequence<StrideTo<Int>, Range<Int>> {
        stride(from: range.lowerBound, to: range.upperBound, by: 128).lazy.map { $0..<min($0 + 128, range.upperBound) }
    }

    /// The slots read ahead of lookups and insertions, folded together (``HAEHashSet/slotWord(_:)``): kept only so
    /// that the reads are made.
    private var warmth = 0

    private func decide(_ candidates: [HAECandidate], hashes: [Int], spans: [String: (start: Date, end: Date)],
                        store: JSONFileStore) throws -> Bool {
        settle()
        guard trusted else { return false }
        let now = try store.anchorSequence()
        if let counter, counter != now {
            trusted = false
            return false
        }
        counter = now
        // Every type's folder as it is before this run writes the type (even when the batch is read after all).
        for type in spans.keys where before[type] == nil {
            before[type] = try store.folderEntries(JSONFileStore.typeFolder(type))
        }
        for (type, span) in spans {
            if type == HAESleep.type || unmarked.contains(type) { return false }
            let window = JSONFileStore.HAEWindow(span)
            if JSONFileStore.anyPartition(before[type] ?? [], overlaps: window) { return false }
        }
        // A batch holds a few types, one after the other: each type's notes are looked up once a run of it.
        var type: String?
        var written: HAEHashSet?, writtenForms: Set<String>?, writtenPhases: Set<Int>?
        // By index: a candidate is not copied to be looked at.
        for index in candidates.indices {
            if type != candidates[index].sample.typeIdentifier {
                type = candidates[index].sample.typeIdentifier
                written = keys[candidates[index].sample.typeIdentifier]
                writtenForms = forms[candidates[index].sample.typeIdentifier]
                writtenPhases = phases[candidates[index].sample.typeIdentifier]
            }
            if let written, written.contains(hashes[index]) { return false }
            if let writtenForms, let form = HAEWritePlan.form(of: candidates[index].sample) {
                if writtenForms.contains(where: { $0 != form }) { return false }
                if writtenForms.contains(form),
                   let phase = HAEImportRun.phase(form: form, start: candidates[index].sample.start, end: candidates[index].sample.end),
                   writtenPhases.map({ HAEImportRun.otherPhase(than: phase, in: $0) }) ?? true {
                    return false
                }
            }
        }
        return true
    }

    /// Notes what a write of the run stored (a batch planned against the store read back), and the counter after it.
    func wrote(_ samples: [Sample], store: JSONFileStore) throws {
        for sample in samples { note(sample, hash: nil) }
        counter = try store.anchorSequence()
    }

    /// Notes a batch written as the plan against nothing stored writes it: each candidate's sample (its sync
    /// identifier's hash given) and members.
    func wrote(_ candidates: [HAECandidate], hashes: [Int], store: JSONFileStore) throws {
        for index in candidates.indices {
            for member in candidates[index].members { note(member, hash: nil) }
            note(candidates[index].sample, hash: hashes[index])
        }
        counter = try store.anchorSequence()
    }

    /// Notes a batch written as the plan against nothing stored writes it, with samples written directly: the
    /// candidates as ``wrote(_:hashes:store:)`` notes them, then the rows.
    func wrote(_ candidates: [HAECandidate], hashes: [Int], direct: HAEDirectPoints, store: JSONFileStore) throws {
        for index in candidates.indices {
            for member in candidates[index].members { note(member, hash: nil) }
            note(candidates[index].sample, hash: hashes[index])
        }
        self.direct += direct.count
        noteRows(direct)
        counter = try store.anchorSequence()
    }

    /// Notes the rows as ``note(type:hash:pointHash:form:)`` would one by one, a metric's run of them at a time: the
    /// type's set grown once for the run, its slots read ahead of the insertions a piece at a time (a year's set
    /// outgrows the caches), and the form noted when the period changes.
    private func noteRows(_ direct: HAEDirectPoints) {
        let rows = direct.rows
        var start = 0
        while start < rows.count {
            let end = HAEImportRun.endOfMetric(rows, from: start)
            let type = direct.metrics[Int(rows[start].metric)].type.identifier
            makeCurrent(type)
            // Taken out while it grows, so that it is not copied.
            var set = current!.keys
            current!.keys = HAEHashSet()
            set.reserve(adding: end - start)
            var period: HAEPeriod?
            for piece in HAEImportRun.pieces(of: start..<end) {
                var fetched = 0
                for index in piece { fetched &+= set.slotWord(rows[index].hash) }
                warmth &+= fetched
                for index in piece {
                    set.insert(rows[index].hash)
                    if let pointHash = rows[index].pointHash { set.insert(pointHash) }
                    notePhase(form: rows[index].period.name, start: rows[index].start, end: rows[index].end)
                    guard rows[index].period != period else { continue }
                    period = rows[index].period
                    noteForm(rows[index].period.name)
                }
            }
            current!.keys = set
            start = end
        }
    }

    /// The type whose notes ``note(_:hash:)`` works on, taken out of the tables while it does (no copy as they grow),
    /// and the last form noted of it (a run of a type is of one form: its set is not asked again each sample).
    private var current: (type: String, keys: HAEHashSet, forms: Set<String>, lastForm: String?, phases: Set<Int>, lastPhase: Int?)?

    private func note(_ sample: Sample, hash: Int?) {
        let type = sample.typeIdentifier
        // The aggregation (the form, ``HAEWritePlan/form(of:)``) and the sync identifier, found in one pass over the
        // few entries (keys compared, not hashed).
        var aggregation: MetadataValue?, identifier: String?
        for (key, value) in sample.metadata {
            if key == HAESampleBuilder.aggregationKey {
                aggregation = value
            } else if key == MetadataKeySyncIdentifier, case let .string(text) = value {
                identifier = text
            }
        }
        guard let aggregation, let identifier else {
            unmarked.insert(type)
            return
        }
        let pointHash = HAEImportRun.endsInPart(identifier) ? HAEImportRun.syncHash(String(identifier.dropLast(4))) : nil
        var form: String?
        if case let .string(name) = aggregation { form = type == HAESleep.type ? (name == "night" ? "night" : "stage") : name }
        note(type: type, hash: hash ?? HAEImportRun.syncHash(identifier), pointHash: pointHash, form: form)
        // A written remainder starts after its period does: the period's start says where the point lies.
        if let form, type != HAESleep.type {
            notePhase(form: form, start: HAEWritePlan.periodStart(of: sample), end: HAEWritePlan.periodEnd(of: sample))
        }
    }

    /// Notes a marked sample of `type`: its sync identifier's hash, the hash without its `|min` or `|max` ending
    /// (`pointHash`) and its form.
    private func note(type: String, hash: Int, pointHash: Int?, form: String?) {
        makeCurrent(type)
        current!.keys.insert(hash)
        if let pointHash { current!.keys.insert(pointHash) }
        if let form { noteForm(form) }
    }

    /// Makes `type`'s notes the current ones (the last type's put back).
    private func makeCurrent(_ type: String) {
        guard current?.type != type else { return }
        settle()
        current = (type, keys.removeValue(forKey: type) ?? HAEHashSet(), forms.removeValue(forKey: type) ?? [], nil,
                   phases.removeValue(forKey: type) ?? [], nil)
    }

    /// Notes `form` of the current type (a run of a type is of one form: its set is not asked again each sample).
    private func noteForm(_ form: String) {
        guard current!.lastForm != form else { return }
        current!.forms.insert(form)
        current!.lastForm = form
    }

    /// Whether a sync identifier ends in `|min` or `|max`, read from its last four bytes (true too for the rare
    /// text whose `|` joins the character before it: one more hash kept only sends a batch the long way).
    private static func endsInPart(_ identifier: String) -> Bool {
        if let answer = identifier.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            guard bytes.count >= 4 else { return false }
            let end = bytes.count
            return bytes[end - 4] == UInt8(ascii: "|") && bytes[end - 3] == UInt8(ascii: "m")
                && (bytes[end - 2] == UInt8(ascii: "i") && bytes[end - 1] == UInt8(ascii: "n")
                    || bytes[end - 2] == UInt8(ascii: "a") && bytes[end - 1] == UInt8(ascii: "x"))
        }) {
            return answer
        }
        return identifier.hasSuffix("|min") || identifier.hasSuffix("|max")
    }

    /// Notes the phase of a period of the current type (noted again only when it changes).
    private func notePhase(form: String, start: Date, end: Date) {
        guard let phase = HAEImportRun.phase(form: form, start: start, end: end), current!.lastPhase != phase else { return }
        current!.phases.insert(phase)
        current!.lastPhase = phase
    }

    /// Where a period of `form` (minute, hour, day, week) from `start` to `end` lies in the periods of its length
    /// counted from 1970 (its start in seconds modulo the length), with the form: periods of one form, of its usual
    /// length, and of one phase never overlap unless they are the same. A day or week of another length (23 or 25
    /// hours across a change of summer time) has a phase of its own, its length: it can overlap the next day of the
    /// usual phase. A heart-rate point's minimum and maximum (a millisecond each) take their point's. Nil for other
    /// forms (readings, sleep).
    static func phase(form: String, start: Date, end: Date) -> Int? {
        let length: Int, level: Int
        switch form {
        case "minute": (length, level) = (60, 1)
        case "hour": (length, level) = (3_600, 2)
        case "day": (length, level) = (86_400, 3)
        case "week": (length, level) = (604_800, 4)
        default: return nil
        }
        let duration = Int(end.timeIntervalSince(start).rounded())
        if level >= 3, duration > 1, duration != length { return level << 32 | 1 << 31 | duration }
        let seconds = Int(start.timeIntervalSince1970.rounded(.down))
        return level << 32 | ((seconds % length) + length) % length
    }

    /// Whether `phases` holds a phase of `phase`'s form other than it: then a period of that phase can overlap one the
    /// run wrote (a run that wrote hours of two zones may have written one that a new hour of either overlaps).
    static func otherPhase(than phase: Int, in phases: Set<Int>) -> Bool {
        phases.contains { $0 >> 32 == phase >> 32 && $0 != phase }
    }

    /// Puts the current type's notes back in the tables.
    private func settle() {
        if let current {
            keys[current.type] = current.keys
            forms[current.type] = current.forms
            phases[current.type] = current.phases
        }
        current = nil
    }

    /// The hash of a sync identifier that the notes keep: ``syncHash(bytes:)`` of its UTF-8 in NFC, the form the
    /// standard library compares Strings in, so equal identifiers (`==`) have equal hashes whatever their bytes. An
    /// ASCII identifier, the usual one, is its own NFC; ``HAEDirectPoints`` hashes such identifiers from their bytes.
    static func syncHash(_ identifier: String) -> Int {
        if let hash = identifier.utf8.withContiguousStorageIfAvailable({ bytes -> Int? in
            for byte in bytes where byte >= 0x80 { return nil }
            return syncHash(bytes: UnsafeRawBufferPointer(bytes))
        }), let hash {
            return hash
        }
        let canonical = Array(identifier._nfcCodeUnits)
        return canonical.withUnsafeBytes { syncHash(bytes: $0) }
    }

    /// A hash of `bytes`, eight at a time (a collision only sends a batch the long way).
    static func syncHash(bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        @inline(__always) func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
        }
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        if offset < bytes.count {
            var last: UInt64 = 0
            withUnsafeMutableBytes(of: &last) { word in
                for index in offset..<bytes.count { word[index - offset] = bytes[index] }
            }
            mix(last)
        }
        hash ^= hash >> 29
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        return Int(bitPattern: UInt(hash))
    }
}
