/// Remembers which sample identities are stored, one set per type and UTC month (the store's partitions), so an
/// import can tell new records from ones already there without holding the whole store in memory.
///
/// A partition's set is read from the store the first time a record of that type and month comes along: it holds
/// each stored sample's UUID and the UUID of its identity (``RecordIdentity``), so a record matches whether it was
/// stored by an earlier import of an export (identity UUID), or by importing hkctl's own jsonl (original UUID).
/// New samples are added to the set as they are accepted. When the sets together exceed `capacity` UUIDs, the
/// least recently used are dropped, but never one holding samples accepted and not saved yet, so a dropped
/// partition reads back complete.
///
/// Records of an export that are identical in everything are told apart by their occurrence number
/// (``insertRecord(type:typeKey:start:end:identity:)``): each partition also remembers the identities this import
/// met, so the second copy in a file gets the second occurrence's UUID and is a sample of its own, and a re-import
/// finds both. A partition dropped and read again forgets what it met: a copy more than `capacity` records away
/// from its twin, in a month met again after it was dropped, counts as present (exports are sorted by type and date,
/// so twins lie next to each other).
final class IdentityIndex {
    private struct PartitionKey: Hashable {
        var type: String
        var month: Int
    }

    private final class Partition {
        var identities: UUIDSet
        var lastUse = 0
        /// Samples accepted into this partition and not saved yet: it must not be dropped while there are any.
        var unsaved = 0
        /// The identities (first occurrences) of the export's records this import met, present or not.
        var met = UUIDSet()
        /// How many times this import met identities met more than once.
        var repeats: [UUID: Int] = [:]
        /// The UUIDs of samples with UUIDs of their own (hkctl's export) this import accepted.
        var accepted = UUIDSet()
        init(_ identities: UUIDSet) { self.identities = identities }
    }

    private let store: SampleStore
    private let capacity: Int
    private var identity: RecordIdentity
    private var partitions: [PartitionKey: Partition] = [:]
    private var clock = 0
    private var total = 0
    /// The partitions used last and the UTC months they cover, to skip lookups for runs of a few types and months.
    private var recent: [(key: PartitionKey, typeKey: Int, partition: Partition, start: Double, end: Double)] = []
    /// Called before the store is read (the importer waits there for batches still being saved).
    var beforeLoad: (() throws -> Void)?
    /// What this import accepted, to answer loads without reading the store where that gives the same.
    var imported: ImportedSamples?

    init(store: SampleStore, catalogue: SampleTypeCatalogue, capacity: Int = 1_000_000) {
        self.store = store
        self.capacity = capacity
        identity = RecordIdentity(catalogue: catalogue)
    }

    /// Adds `sample`, which has a UUID of its own (hkctl's export), unless it is known: its UUID is, or its
    /// `identityUUID` is known from the store (the same reading stored under another UUID).
    ///
    /// An identity that is only the UUID of a sample this import accepted, as an identical twin's is, does not make a
    /// sample known: an export of a store holds each of its samples, twins included, and all of them are kept.
    ///
    /// - Returns: true when the sample is new.
    /// - Throws: Store errors from reading a partition.
    func insert(_ sample: Sample, identityUUID: UUID) throws -> Bool {
        try insert(type: sample.typeIdentifier, start: sample.start, end: sample.end, uuid: sample.uuid, identityUUID: identityUUID)
    }

    /// Adds a sample given by its type, dates and uuid; see ``insert(_:identityUUID:)``.
    ///
    /// - Parameter typeKey: A number that stands for `type` in every call that passes it (0: none), so runs of a
    ///   few interleaved types find their partitions without comparing strings.
    func insert(type: String, typeKey: Int = 0, start: Date, end: Date, uuid: UUID, identityUUID: UUID) throws -> Bool {
        let partition = try self.partition(type: type, typeKey: typeKey, start: start)
        clock += 1
        partition.lastUse = clock
        if partition.identities.contains(uuid) { return false }
        if identityUUID != uuid, partition.identities.contains(identityUUID), !partition.accepted.contains(identityUUID) {
            return false
        }
        partition.identities.insert(uuid)
        partition.accepted.insert(uuid)
        partition.unsaved += 1
        total += 2
        imported?.accepted(type: type, start: start, end: end, uuid: uuid, identity: identityUUID)
        return true
    }

    /// Adds a record of an export given by the UUID of its identity (``RecordIdentity``, its first occurrence),
    /// unless it is known. The second record of this import with the same identity is its second occurrence
    /// (``RecordIdentity/occurrence(_:of:)``), and so on.
    ///
    /// - Parameter typeKey: See ``insert(type:typeKey:start:end:uuid:identityUUID:)``.
    /// - Returns: The UUID the record is stored under, or nil when it is already stored.
    /// - Throws: Store errors from reading a partition.
    func insertRecord(type: String, typeKey: Int = 0, start: Date, end: Date, identity base: UUID) throws -> UUID? {
        let partition = try self.partition(type: type, typeKey: typeKey, start: start)
        clock += 1
        partition.lastUse = clock
        var uuid = base
        if partition.met.insert(base) {
            total += 1
        } else {
            let number = (partition.repeats[base] ?? 1) + 1
            partition.repeats[base] = number
            uuid = RecordIdentity.occurrence(number, of: base)
        }
        guard partition.identities.insert(uuid) else { return nil }
        partition.unsaved += 1
        total += 1
        imported?.accepted(type: type, start: start, end: end, uuid: uuid, identity: base)
        return uuid
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
            partition = Partition(try load(key))
            partitions[key] = partition
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
    /// half of `capacity` UUIDs remain, once over `capacity`.
    private func trim() {
        guard total > capacity else { return }
        // The partition in use is kept too: the twin of its last record may come next.
        for (key, partition) in partitions.sorted(by: { $0.value.lastUse < $1.value.lastUse })
        where partition.unsaved == 0 && partition.lastUse != clock {
            guard total > capacity / 2 else { break }
            total -= partition.identities.count + partition.met.count + partition.accepted.count
            partitions[key] = nil
        }
        recent.removeAll()
    }

    private func load(_ key: PartitionKey) throws -> UUIDSet {
        if let known = try imported?.identities(type: key.type, month: key.month) {
            total += known.count
            return known
        }
        try beforeLoad?()
        var set = UUIDSet()
        let interval = DateInterval(start: IdentityIndex.startOfMonth(key.month), end: IdentityIndex.startOfMonth(key.month + 1))
        try store.forEachSample(ofType: key.type, overlapping: interval) { sample in
            set.insert(sample.uuid)
            set.insert(identity.uuid(for: sample))
        }
        total += set.count
        return set
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
