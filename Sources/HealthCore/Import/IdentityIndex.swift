/// Remembers which samples are stored, one ``IdentityPartition`` per type and UTC month (the store's partitions), so
/// an import can tell new records from ones already there without holding the whole store in memory.
///
/// A partition is read from the store the first time a record of that type and month comes along: each stored
/// sample's UUID, and the UUID of its identity (``RecordIdentity``). A record is the stored sample with its UUID
/// (an earlier import of the same export, or of the store's own jsonl), else one stored sample of its identity that no
/// other record of this import took (a copy an undone delete restored, a sample of an older build's rule, the same
/// reading saved by hand), else new. Twins (records identical in everything) are so matched one for one.
/// When the partitions together exceed `capacity` UUIDs, the least recently used are dropped, but never one holding
/// samples accepted and not saved yet, so a dropped partition reads back complete.
///
/// Records of an export that are identical in everything are told apart by their occurrence number
/// (``insertRecord(type:typeKey:start:end:identity:hold:)``): each partition also remembers the identities this
/// import met, so the second copy in a file gets the second occurrence's UUID and is a sample of its own, and a
/// re-import finds both. A partition dropped and read again forgets what it met: a copy more than `capacity` records
/// away from its twin, in a month met again after it was dropped, counts as present (exports are sorted by type and
/// date, so twins lie next to each other).
final class IdentityIndex {
    private struct PartitionKey: Hashable {
        var type: String
        var month: Int
    }

    private typealias Partition = IdentityPartition

    private let store: SampleStore
    private let capacity: Int
    /// Whether the input's records carry UUIDs of their own (the store's jsonl), any of which may name a stored sample;
    /// an export's records can name only samples stored under the UUIDs an import gives.
    private let ownUUIDs: Bool
    private var identity: RecordIdentity
    private var partitions: [PartitionKey: Partition] = [:]
    private var clock = 0
    private var total = 0
    /// The partitions used last and the UTC months they cover, to skip lookups for runs of a few types and months.
    private var recent: [(key: PartitionKey, typeKey: Int, partition: Partition, start: Double, end: Double)] = []
    /// The partition of each type met last (not kept alive for it): the next month of the type expects about as
    /// many records.
    private var lastOfType: [String: LastPartition] = [:]
    private struct LastPartition {
        weak var partition: Partition?
    }
    /// Records counted as present that turned out new (see ``IdentityPartition``): the importer adds them.
    private(set) var released: [HeldRecord] = []
    /// Called before the store is read (the importer waits there for batches still being saved).
    var beforeLoad: (() throws -> Void)?
    /// What this import accepted, to answer loads without reading the store where that gives the same.
    var imported: ImportedSamples?

    /// Creates an index of `store`.
    ///
    /// - Parameter ownUUIDs: Whether the input is the store's jsonl, whose records keep their own UUIDs.
    init(store: SampleStore, catalogue: SampleTypeCatalogue, capacity: Int = 1_000_000, ownUUIDs: Bool = false) {
        self.store = store
        self.capacity = capacity
        self.ownUUIDs = ownUUIDs
        identity = RecordIdentity(catalogue: catalogue)
    }

    /// The records released since the last call (see ``released``).
    func takeReleased() -> [HeldRecord] {
        defer { released.removeAll() }
        return released
    }

    /// Adds `sample`, which has a UUID of its own (the store's export, or a record inside a correlation, which has its
    /// identity's), unless it is known: its UUID is stored, or a stored sample of its identity is left for it.
    ///
    /// - Parameters:
    ///   - identity: The UUID of the sample's identity.
    ///   - generic: Whether it is kept untyped (for the count, when it is added later after all).
    ///   - loose: For a record of an export (one a correlation holds): as in
    ///     ``insertRecord(type:typeKey:start:end:identity:loose:hold:)``.
    /// - Returns: true when the sample is new.
    /// - Throws: Store errors from reading a partition.
    func insert(_ sample: Sample, identity: UUID, generic: Bool, loose: () -> RecordIdentity.LooseKey? = { nil }) throws -> Bool {
        try insert(type: sample.typeIdentifier, start: sample.start, end: sample.end, uuid: sample.uuid, identity: identity, loose: loose) {
            .sample(sample, generic: generic)
        }
    }

    /// Adds a record given by its type, dates and uuid; see ``insert(_:identity:generic:)``.
    ///
    /// - Parameters:
    ///   - typeKey: A number that stands for `type` in every call that passes it (0: none), so runs of a few
    ///     interleaved types find their partitions without comparing strings.
    ///   - hold: What to keep of the record in case it has to be added later (``HeldRecord``).
    func insert(type: String, typeKey: Int = 0, start: Date, end: Date, uuid: UUID, identity: UUID,
                loose: () -> RecordIdentity.LooseKey? = { nil }, hold: () -> HeldRecord.Content) throws -> Bool {
        let partition = try self.partition(type: type, typeKey: typeKey, start: start)
        return try decide(partition, type: type, typeKey: typeKey, start: start, end: end, uuid: uuid, identity: identity,
                          loose: loose) { hold() }
    }

    /// Adds a record of an export given by the UUID of its identity (``RecordIdentity``, its first occurrence),
    /// unless it is known. The second record of this import with the same identity is its second occurrence
    /// (``RecordIdentity/occurrence(_:of:)``), and so on.
    ///
    /// - Parameters:
    ///   - typeKey: See ``insert(type:typeKey:start:end:uuid:identity:hold:)``.
    ///   - loose: The record's identity without its amount, the amount and its unit (``RecordIdentity/looseUUID(for:)``),
    ///     asked for only when the record would be new in a month that holds stored samples: a stored sample exported
    ///     before in another unit is that record (``IdentityPartition/matchLoosely(_:hold:)``).
    ///   - hold: What to keep of the record, given the UUID it would be stored under (``HeldRecord``).
    /// - Returns: The UUID the record is stored under, or nil when it is already stored.
    /// - Throws: Store errors from reading a partition.
    func insertRecord(type: String, typeKey: Int = 0, start: Date, end: Date, identity base: UUID,
                      loose: () -> RecordIdentity.LooseKey? = { nil },
                      hold: (UUID) -> HeldRecord.Content) throws -> UUID? {
        let partition = try self.partition(type: type, typeKey: typeKey, start: start)
        let before = partition.weight
        let number = partition.occurrence(of: base)
        total += partition.weight - before
        let uuid = number == 1 ? base : RecordIdentity.occurrence(number, of: base)
        return try decide(partition, type: type, typeKey: typeKey, start: start, end: end, uuid: uuid, identity: base,
                          firstOccurrence: number == 1, loose: loose) { hold(uuid) } ? uuid : nil
    }

    private func decide(_ partition: Partition, type: String, typeKey: Int, start: Date, end: Date, uuid: UUID, identity: UUID,
                        firstOccurrence: Bool = false, loose: () -> RecordIdentity.LooseKey? = { nil },
                        hold: () -> HeldRecord.Content) throws -> Bool {
        clock += 1
        partition.lastUse = clock
        let before = partition.weight, releasedBefore = released.count
        let held = { HeldRecord(type: type, typeKey: typeKey, start: start, end: end, uuid: uuid, identity: identity, content: hold()) }
        var isNew = partition.match(uuid: uuid, identity: identity, firstOccurrence: firstOccurrence, anyUUID: ownUUIDs,
                                    hold: held, released: &released)
        if isNew, !ownUUIDs, let source = partition.storeSource, let key = loose() {
            if partition.loose == nil {
                partition.loose = try looseEntries(type: source.type, month: source.month)
                partition.looseFloor = self.identity.catalogue.type(identifier: source.type)?.canonicalUnit.map { $0.offset != 0 ? 1e-4 : 0 } ?? 0
            }
            if partition.matchLoosely(key, hold: held) { isNew = false }
        }
        total += partition.weight - before
        if isNew { accepted(partition, type: type, start: start, end: end, uuid: uuid, identity: identity) }
        if released.count > releasedBefore {
            for record in released[releasedBefore...] {
                accepted(partition, type: record.type, start: record.start, end: record.end, uuid: record.uuid, identity: record.identity)
            }
        }
        return isNew
    }

    private func accepted(_ partition: Partition, type: String, start: Date, end: Date, uuid: UUID, identity: UUID) {
        partition.unsaved += 1
        imported?.accepted(type: type, start: start, end: end, uuid: uuid, identity: identity)
    }

    private func partition(type: String, typeKey: Int, start: Date) throws -> Partition {
        let seconds = start.timeIntervalSince1970
        for entry in recent where entry.typeKey == typeKey && seconds >= entry.start && seconds < entry.end
            && (typeKey != 0 || entry.key.type == type) {
            return entry.partition
        }
        let month = IdentityIndex.month(of: start)
        let key = PartitionKey(type: type, month: month)
        let partition: Partition
        if let known = partitions[key] { partition = known } else {
            if total > capacity { trim() }
            partition = try load(key)
            total += partition.weight
            partitions[key] = partition
            if let previous = lastOfType[type]?.partition { partition.expect(records: previous.recordsDecided) }
            lastOfType[type] = LastPartition(partition: partition)
        }
        if recent.count == 16 { recent.removeLast() }
        recent.insert((key, typeKey, partition, IdentityIndex.startOfMonth(month).timeIntervalSince1970,
                       IdentityIndex.startOfMonth(month + 1).timeIntervalSince1970), at: 0)
        return partition
    }

    /// Records that every accepted sample has been saved, then drops partitions if over capacity.
    func saved() {
        imported?.batchHandedOver()
        for partition in partitions.values { partition.unsaved = 0 }
        trim()
    }

    /// Drops the least recently used partitions without unsaved samples (and not the one used last) until at most
    /// half of `capacity` UUIDs remain, once over `capacity`. What a dropped partition held counts as present.
    private func trim() {
        guard total > capacity else { return }
        // The partition in use is kept too: the twin of its last record may come next.
        for (key, partition) in partitions.sorted(by: { $0.value.lastUse < $1.value.lastUse })
        where partition.unsaved == 0 && partition.lastUse != clock {
            guard total > capacity / 2 else { break }
            total -= partition.weight
            partitions[key] = nil
        }
        recent.removeAll()
    }

    private func load(_ key: PartitionKey) throws -> Partition {
        let partition = Partition()
        if let known = try imported?.samples(type: key.type, month: key.month) {
            for sample in known {
                partition.addStored(uuid: sample.uuid, identity: sample.identity, nameable: sample.uuid != sample.identity)
            }
            return partition
        }
        try beforeLoad?()
        var storedAny = false
        let interval = DateInterval(start: IdentityIndex.startOfMonth(key.month), end: IdentityIndex.startOfMonth(key.month + 1))
        try store.forEachSample(ofType: key.type, overlapping: interval) { sample in
            storedAny = true
            let uuid = identity.uuid(for: sample)
            // A sample under another uuid than its identity's: a later twin, a copy, a sample made by hand or by an
            // older build. An export's record can name only the first two by uuid.
            var nameable = false
            if sample.uuid != uuid && sample.uuid.uuid.6 >> 4 == 5 { nameable = identity.legacyUUID(for: sample) != sample.uuid }
            partition.addStored(uuid: sample.uuid, identity: uuid, nameable: nameable)
            // A correction (`hkctl edit`) stands for the sample it corrects: that sample's record is not new.
            // It stands as a stored sample of its own (under a uuid made from the correction's, which no record names:
            // the sample it corrects may share its uuid with a twin still stored, which must not hide it).
            if let corrected = sample.corrected {
                partition.addStored(uuid: RecordIdentity.occurrence(0, of: sample.uuid), identity: corrected.identity ?? corrected.uuid,
                                    nameable: false)
            }
        }
        // A month with stored samples may hold one an export in other units names (``looseEntries(type:month:)``).
        if storedAny { partition.storeSource = (key.type, key.month) }
        return partition
    }

    /// The stored samples of a type and month with an amount, by their identity without it
    /// (``IdentityPartition/loose``): read again from the store, and only for a month where a record of an export would
    /// be new (a re-import of the same export reads none).
    private func looseEntries(type: String, month: Int) throws -> [UUID: [(identity: UUID, amount: Double, unit: String)]] {
        try beforeLoad?()
        var entries: [UUID: [(identity: UUID, amount: Double, unit: String)]] = [:]
        let interval = DateInterval(start: IdentityIndex.startOfMonth(month), end: IdentityIndex.startOfMonth(month + 1))
        try store.forEachSample(ofType: type, overlapping: interval) { sample in
            guard let loose = identity.looseUUID(for: sample) else { return }
            entries[loose.uuid, default: []].append((identity.uuid(for: sample), loose.amount, loose.unit))
        }
        return entries
    }

    /// Months since year 0 (`year * 12 + month - 1`) of the UTC month containing `date`.
    static func month(of date: Date) -> Int {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let (year, month, _) = ISODate.civil(fromDays: days)
        return year * 12 + month - 1
    }

    /// The first instant of a month counted as in ``month(of:)``.
    static func startOfMonth(_ month: Int) -> Date {
        let days = ISODate.daysFromCivil(month / 12, month % 12 + 1, 1)
        return Date(timeIntervalSince1970: Double(days) * 86_400)
    }
}
