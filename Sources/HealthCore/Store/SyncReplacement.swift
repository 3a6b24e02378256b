/// HealthKit's sync identifiers on save (`HKMetadataKeySyncIdentifier` with `HKMetadataKeySyncVersion`): a sample
/// carrying both replaces the stored, not deleted sample of the same type and source with that identifier when its
/// version is strictly greater, and is not saved at all when it is not (equal or lower: the stored one stays). A
/// version without an identifier, an identifier without a version and a version that is not a whole number are
/// refused (an export writes the version as text: `"2"` is the number 2). A workout or a correlation is replaced
/// whole: a correlation's stored members go with it (but those the new version names too), and when it is not saved
/// its members in the same save are not saved either (nor kept, when an import wrote them for it: ``Plan/discarded``).
///
/// Both ``JSONFileStore`` and ``InMemorySampleStore`` plan a save with this under their lock, so the check and the
/// write are one step.
struct SyncReplacement {
    /// Which stored samples a sync identifier can match: the same type and source, and that identifier.
    struct Key: Hashable {
        var type: String
        var source: String
        var identifier: String
    }

    /// A sample's sync identifier and version, if it has them.
    struct Mark {
        var key: Key
        var version: Double
    }

    /// The sync mark of a sample; nil when it has neither key.
    ///
    /// - Throws: ``SampleError/syncVersionWithoutIdentifier``, ``SampleError/syncIdentifierWithoutVersion(_:)``,
    ///   ``SampleError/syncVersionNotWhole(_:)``.
    static func mark(of sample: Sample) throws -> Mark? {
        guard !sample.metadata.isEmpty else { return nil }
        let identifier = sample.metadata[MetadataKeySyncIdentifier]
        let version = sample.metadata[MetadataKeySyncVersion]
        switch (identifier, version) {
        case (nil, nil): return nil
        case (nil, _?): throw SampleError.syncVersionWithoutIdentifier
        case let (identifier?, nil): throw SampleError.syncIdentifierWithoutVersion(identifier.text)
        case let (identifier?, version?):
            guard let number = wholeNumber(version) else { throw SampleError.syncVersionNotWhole(version.text) }
            return Mark(key: Key(type: sample.typeIdentifier, source: sample.source, identifier: identifier.text),
                        version: number)
        }
    }

    /// A version as a whole number: a number, or the text of one as an export writes every metadata value (`2`,
    /// `-1`, `3.0`); nil for anything else (`x`, `2.5`, `1e3`, `0x10`, ` 2`).
    static func wholeNumber(_ value: MetadataValue) -> Double? {
        let number: Double
        switch value {
        case let .number(given): number = given
        case let .string(text):
            var digits = 0, dots = 0
            for (offset, byte) in text.utf8.enumerated() {
                if byte &- 48 < 10 { digits += 1 } else if byte == UInt8(ascii: ".") && digits > 0 { dots += 1 } else if
                    !(byte == UInt8(ascii: "-") && offset == 0) { return nil }
            }
            guard digits > 0, dots <= 1, let parsed = Double(text) else { return nil }
            number = parsed
        }
        return number.isFinite && number == number.rounded() ? number : nil
    }

    /// Why a sample's sync keys are refused (a version without an identifier, an identifier without a version, a
    /// version that is not a whole number), as a sentence; nil when they are fine or absent.
    static func problem(in sample: Sample) -> String? {
        guard !sample.metadata.isEmpty else { return nil }
        do {
            _ = try mark(of: sample)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The mark of a stored sample, nil when it has none or a damaged one (such a sample is never replaced); a day's
    /// activity summary stored without sync keys stands under its day's (``ActivitySummaryVersion/legacyMark(of:)``).
    static func storedMark(of sample: Sample) -> Mark? {
        do { return try mark(of: sample) ?? ActivitySummaryVersion.legacyMark(of: sample) } catch { return nil }
    }

    /// What an import knows of its own writes, so that a save of its records by the rule takes out only what belongs
    /// to a correlation version it leaves out or replaces (nothing for a library save).
    struct ImportWrites {
        /// Whether the import added this record (of a type a correlation may hold): an export writes a correlation's
        /// records at top level too, before it.
        var added: (UUID) -> Bool = { _ in false }
        /// Whether the import saved this correlation itself by the rule (or a copy of one it saved).
        var savedCorrelation: (UUID) -> Bool = { _ in false }
        /// Whether a correlation without sync keys the import wrote names this record (it stays).
        var named: (UUID) -> Bool = { _ in false }
        /// Whether the import may delete a sample of this source (another source than the owner deletes only its own).
        var mayDelete: (String) -> Bool = { _ in true }

        /// A library save's: it wrote nothing before.
        static var none: ImportWrites { ImportWrites() }
    }

    /// What a save does: the samples it writes, the stored samples it deletes first, and the samples it leaves out.
    struct Plan {
        /// The samples to write, in the order given.
        var writes: [Sample] = []
        /// The stored samples the save replaces (with a replaced correlation's members).
        var replaced: [(uuid: UUID, type: String, source: String)] = []
        /// Those of ``replaced`` that were a second or later stored sample of a key (copies a store held of one
        /// object, such as a day's activity summary stored twice by an older build): each write replaces one object.
        var copies: Set<UUID> = []
        /// The samples of the save not written: an equal or lower version than the stored one (or than another sample
        /// of the same save), and their members.
        var unchanged: [UUID] = []
        /// The sample of the save that replaces each of ``replaced`` that is not a correlation (nor a replaced
        /// correlation's member): what a stored correlation holding it names instead (``repoint(holders:)``).
        var successors: [UUID: UUID] = [:]
        /// The stored correlations that hold a replaced sample, each replaced by a copy naming its successor.
        var repointings: [CorrelationRepointing] = []
        /// For each sample of the save with sync keys, the uuid of the sample that stands for its key afterwards: its
        /// own when written, else the save's written sample of that key or the stored one of the greatest version
        /// (what a correlation saved with it names instead).
        var standing: [UUID: UUID] = [:]

        /// Stored members of the save's correlations that are not saved (an older version of a stored correlation),
        /// which the import saving them wrote itself: they were that older version's, and go with it.
        var discarded: [(uuid: UUID, type: String, source: String)] = []
        /// The members among ``replaced`` and ``discarded``, each with its type and its correlation's dates (where it
        /// lies): the store checks each is stored, of which source, and named by no other correlation
        /// (``settleMembers(stored:namedElsewhere:keepUnstored:)``).
        var members: [UUID: (type: String, around: DateInterval)] = [:]
        /// Members of stored correlations the save replaces that the new version names too: the import's own from now
        /// on (a later version it saves takes them out as it would have taken them out with the stored one).
        var inherited: [UUID] = []

        /// The stored samples the save deletes: ``replaced``, ``discarded``, then the correlations ``repointings``
        /// replace.
        var deletions: [(uuid: UUID, type: String, source: String)] { replaced + discarded + repointings.map(\.old) }
        /// The samples the save writes: ``writes``, then the copies of the correlations ``repointings`` replace.
        var additions: [Sample] { writes + repointings.map(\.copy) }

        /// What the save reports.
        var outcome: SaveOutcome {
            SaveOutcome(saved: writes.map(\.uuid), replaced: replaced.map(\.uuid), unchanged: unchanged,
                        repointed: repointings.map(\.copy.uuid))
        }

        /// Settles the member deletions (``members``) by what the store holds: `stored` gives a member's source when it is
        /// stored and visible; one another stored correlation names (`namedElsewhere`) stays, and so does one of a source
        /// the save may not delete (`mayDelete`); one not stored is left out, unless `keepUnstored` says a dry run would
        /// have stored it (it still counts).
        mutating func settleMembers(stored: [UUID: String], namedElsewhere: Set<UUID>, keepUnstored: (UUID) -> Bool,
                                    mayDelete: (String) -> Bool = { _ in true }) {
            guard !members.isEmpty else { return }
            let members = self.members
            func settled(_ entry: (uuid: UUID, type: String, source: String)) -> (uuid: UUID, type: String, source: String)? {
                guard members[entry.uuid] != nil else { return entry }
                if namedElsewhere.contains(entry.uuid) { return nil }
                if let source = stored[entry.uuid] { return mayDelete(source) ? (entry.uuid, entry.type, source) : nil }
                return keepUnstored(entry.uuid) ? entry : nil
            }
            replaced = replaced.compactMap(settled)
            discarded = discarded.compactMap(settled)
        }

        /// Adds the ``repointings`` of `holders`, the stored, not deleted correlations that may hold one of
        /// ``replaced`` (any others are passed over): a correlation keeps its members whole when a greater version
        /// replaces one of them. Only a correlation of the replaced sample's own source is changed (a save changes
        /// nothing another source wrote; such a correlation goes on naming the replaced sample).
        /// `followers`: the stored samples that name one of the given samples (uuid and type), for the workouts that
        /// name a correlation rewritten as a copy (``CorrelationRepointing/following(_:workouts:)``).
        mutating func repoint(holders: [Sample], followers: ([(uuid: UUID, type: String)]) throws -> [Sample]) rethrows {
            let gone = Set(replaced.map(\.uuid))
            var sources: [UUID: String] = [:]
            for old in replaced where successors[old.uuid] != nil { sources[old.uuid] = old.source }
            let found = CorrelationRepointing.repointings(of: holders.filter { !gone.contains($0.uuid) },
                                                          successors: successors, sources: sources)
            let moved = found.filter { $0.copy.uuid != $0.old.uuid }.map { (uuid: $0.old.uuid, type: $0.old.type) }
            repointings += moved.isEmpty ? found
                : CorrelationRepointing.following(found, workouts: try followers(moved).filter { !gone.contains($0.uuid) })
        }
    }

    /// The keys a save's samples carry (checked: throws for a bad mark), by type; empty when none has one.
    static func keys(of samples: [Sample]) throws -> [String: Set<Key>] {
        var keys: [String: Set<Key>] = [:]
        for sample in samples {
            if let mark = try mark(of: sample) { keys[mark.key.type, default: []].insert(mark.key) }
        }
        return keys
    }

    /// Plans a save of `samples` against `stored`: the visible stored samples that carry one of the save's keys.
    ///
    /// - Parameter importing: An import's save: a record the store holds under its own uuid is that sample whatever
    ///   version it says (a backup of a summary stored before it had keys), and a day's activity summary that says
    ///   what the one stored copy says is that summary (``ActivitySummaryVersion/sameFigures(_:_:)``). A library save
    ///   keeps HealthKit's rule alone (a stored uuid is then refused by the save).
    /// - Parameter imported: What the import saving these wrote before: the records it added for a correlation not
    ///   saved for its version go with it (``Plan/discarded``), and of a correlation it saved itself and now replaces
    ///   only those go (so that what a save does is the same whether the import met the two versions in one batch or
    ///   two).
    static func plan(_ samples: [Sample], stored: [Key: [Sample]], importing: Bool = false,
                     imported: ImportWrites = .none) throws -> Plan {
        var marks: [Mark?] = []
        var best: [Key: (index: Int, version: Double)] = [:]
        for (index, sample) in samples.enumerated() {
            let mark = try mark(of: sample)
            marks.append(mark)
            // Within one save, the highest version of a key wins (the first of equal ones).
            if let mark, best[mark.key].map({ mark.version > $0.version }) ?? true { best[mark.key] = (index, mark.version) }
        }
        var plan = Plan()
        var dropped = Set<UUID>()
        // Those dropped for their own version, and members dropped only with their correlation.
        var droppedOwn = Set<UUID>(), droppedWith = Set<UUID>()
        var replacedUUIDs = Set<UUID>()
        var inheritable: [UUID] = []
        for (index, sample) in samples.enumerated() {
            guard let mark = marks[index] else { continue }
            let matches = stored[mark.key] ?? []
            let storedVersion = matches.compactMap { storedMark(of: $0)?.version }.max()
            let sameSample = importing && (matches.contains { $0.uuid == sample.uuid }
                || matches.count == 1 && ActivitySummaryVersion.legacyMark(of: sample) != nil
                    && ActivitySummaryVersion.sameFigures(matches[0], sample))
            if best[mark.key]?.index != index || storedVersion.map({ mark.version <= $0 }) ?? false || sameSample {
                dropped.insert(sample.uuid)
                droppedOwn.insert(sample.uuid)
                for member in sample.detail?.correlation?.members ?? [] {
                    dropped.insert(member.uuid)
                    droppedWith.insert(member.uuid)
                    // A version's member an import added for it (its top-level copy came first) goes with it, unless
                    // what stays names it.
                    if imported.added(member.uuid) {
                        plan.discarded.append((member.uuid, member.typeIdentifier, sample.source))
                        plan.members[member.uuid] = (member.typeIdentifier, DateInterval(start: sample.start, end: max(sample.start, sample.end)))
                    }
                }
                continue
            }
            for (position, old) in matches.enumerated() where replacedUUIDs.insert(old.uuid).inserted {
                plan.replaced.append((old.uuid, old.typeIdentifier, old.source))
                if position > 0 { plan.copies.insert(old.uuid) }
                // What holds it names its successor (a correlation holding a record, a workout associated with either).
                plan.successors[old.uuid] = sample.uuid
                let ownVersion = imported.savedCorrelation(old.uuid)
                if !ownVersion { inheritable += old.detail?.correlation?.members.map(\.uuid) ?? [] }
                for member in old.detail?.correlation?.members ?? []
                where (!ownVersion || imported.added(member.uuid)) && replacedUUIDs.insert(member.uuid).inserted {
                    plan.replaced.append((member.uuid, member.typeIdentifier, old.source))
                    plan.members[member.uuid] = (member.typeIdentifier, DateInterval(start: old.start, end: max(old.start, old.end)))
                }
            }
        }
        // A member a correlation of the save that is written names too is written (a lower version sharing it with the
        // greater one in the same save).
        for sample in samples where !dropped.contains(sample.uuid) {
            for member in sample.detail?.correlation?.members ?? [] where droppedWith.contains(member.uuid) && !droppedOwn.contains(member.uuid) {
                dropped.remove(member.uuid)
            }
        }
        // What stands for each key afterwards: its written sample, else the stored one of the greatest version.
        var standingOfKey: [Key: UUID] = [:]
        for (index, sample) in samples.enumerated() where !dropped.contains(sample.uuid) {
            if let mark = marks[index] { standingOfKey[mark.key] = sample.uuid }
        }
        for (index, sample) in samples.enumerated() {
            guard let mark = marks[index] else { continue }
            let kept = (stored[mark.key] ?? []).reduce(nil as (uuid: UUID, version: Double)?) { best, old in
                let version = storedMark(of: old)?.version ?? -.infinity
                return best.map { version > $0.version } ?? true ? (old.uuid, version) : best
            }
            if let standing = standingOfKey[mark.key] ?? kept?.uuid { plan.standing[sample.uuid] = standing }
        }
        for sample in samples {
            if dropped.contains(sample.uuid) { plan.unchanged.append(sample.uuid); continue }
            // A correlation saved with a member left out names the sample that stands for the member's key.
            if var detail = sample.detail?.correlation,
               detail.members.contains(where: { member in plan.standing[member.uuid].map { $0 != member.uuid } ?? false }) {
                var named = sample
                for index in detail.members.indices {
                    detail.members[index].uuid = plan.standing[detail.members[index].uuid] ?? detail.members[index].uuid
                }
                named.detail = .correlation(detail)
                plan.writes.append(named)
            } else {
                plan.writes.append(sample)
            }
        }
        // A member the saved version of a correlation names stays, whatever version held it before, and so does one a
        // stored version that stays names.
        let staying = stored.values.joined().filter { !replacedUUIDs.contains($0.uuid) }
        let named = Set((plan.writes + staying).flatMap { $0.detail?.correlation?.members.map(\.uuid) ?? [] })
        plan.replaced.removeAll { named.contains($0.uuid) || plan.members[$0.uuid] != nil && imported.named($0.uuid) }
        let written = Set(plan.writes.flatMap { $0.detail?.correlation?.members.map(\.uuid) ?? [] })
        plan.inherited = inheritable.filter(written.contains)
        plan.discarded.removeAll { named.contains($0.uuid) || imported.named($0.uuid) }
        var seen = Set<UUID>(plan.replaced.map(\.uuid))
        plan.discarded.removeAll { !seen.insert($0.uuid).inserted }
        return plan
    }
}

/// What a save did with sync identifiers (``JSONFileStore/saveReporting(_:)``, ``SampleStore/saveReporting(_:)``).
public struct SaveOutcome: Equatable, Sendable {
    /// The uuids of the samples written.
    public var saved: [UUID]
    /// The uuids of the stored samples deleted because a saved sample has their sync identifier and a greater version
    /// (with a replaced correlation's members).
    public var replaced: [UUID]
    /// The uuids of the samples given but not written: their sync version is not greater than the stored sample's
    /// (nothing changed), with their correlation members.
    public var unchanged: [UUID]
    /// The uuids of the copies written of stored correlations that held a replaced sample: each copy names the sample
    /// that replaced it, and the correlation it copies is deleted in the same write (a food entry or blood pressure
    /// reading keeps its members whole). A workout associated with a replaced sample is rewritten in place: its uuid
    /// is listed, and stays stored.
    public var repointed: [UUID]

    /// Creates an outcome.
    public init(saved: [UUID], replaced: [UUID] = [], unchanged: [UUID] = [], repointed: [UUID] = []) {
        self.saved = saved
        self.replaced = replaced
        self.unchanged = unchanged
        self.repointed = repointed
    }
}
