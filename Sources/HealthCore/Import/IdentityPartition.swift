/// What an import knows of one type and UTC month of the store: the samples it held when it was read (their uuids,
/// and how many hold each identity), and what the import decided since.
///
/// Records are matched to stored samples one for one. A record whose uuid is stored is that sample. Any other record
/// is present when a stored sample of its identity (``RecordIdentity``) is left that no record of this import was
/// matched with yet, and new when none is. So twins (samples identical in everything) count one by one, whatever uuid
/// each has: the uuid an import gives the n-th occurrence, a copy an undone delete restored under a new uuid, a
/// sample of an older build's rule.
///
/// Order does not matter: when a record that took a stored sample by identity is followed by the record that has that
/// sample's uuid, the first one is added after all (it was kept, ``HeldRecord``). A record is held only where such a
/// record can come: always for the store's jsonl (any stored uuid may follow), and for an export only when a stored sample
/// of the identity has a uuid an import may give (version 5, not the older rule's: a later twin, a copy). Held records
/// weigh on the index's capacity; a partition dropped to keep within it lets go of them (they stay present).
final class IdentityPartition {
    /// How much one held record weighs against the index's capacity (counted in UUIDs, about 21 bytes each in a
    /// ``UUIDSet``): a sample takes about 700 bytes (measured: 41,798 held samples of a jsonl restore, 29 MB).
    static let heldWeight = 32

    private struct Group {
        /// Stored samples of the identity this import was matched with.
        var used: Int
        var held: [HeldRecord] = []
    }

    /// The uuids of the samples stored when the partition was read.
    private var stored = UUIDSet()
    /// Identities held by stored samples under another uuid than the identity's own: once, and how many more.
    private var others = UUIDSet()
    private var othersMore: [UUID: Int] = [:]
    /// Of those, how many an export's record may still name by uuid (a version-5 uuid other than the older rule's:
    /// a later twin's, or a copy's).
    private var nameable: [UUID: Int] = [:]
    /// The uuids of the records this import decided (added or matched), besides those in ``met``: every identity
    /// met is its first occurrence's uuid, decided right after it is met (``IdentityIndex``), so it is kept once, in
    /// ``met``, and a record costs one look into a large set instead of two. Here: later occurrences' uuids and
    /// records that come with a uuid of their own (the store's jsonl, a correlation's members).
    private var seenBesidesMet = UUIDSet()
    /// How many uuids are in both sets (decided with a uuid of their own, then met as an identity).
    private var inBoth = 0
    /// Identities with stored samples this import was matched with: once, or the count (and held records) when more.
    private var usedOnce = UUIDSet()
    private var groups: [UUID: Group] = [:]

    /// The store's type and month this partition was read from (nil: answered from what this import accepted), and
    /// its stored samples with an amount by their identity without it (``RecordIdentity/looseUUID(for:)``): each one's
    /// identity, amount and written unit. Read the first time a record of an export would be new here
    /// (``matchLoosely(_:hold:)``).
    var storeSource: (type: String, month: Int)?
    var loose: [UUID: [(identity: UUID, amount: Double, unit: String)]]?
    /// The least difference two amounts of the type may show and be one print (``RecordIdentity/sameAmount(_:_:floor:)``):
    /// 0.0001 for a type counted in a unit with an offset (a temperature), else 0.
    var looseFloor: Double = 0

    /// The identities (first occurrences) of an export's records this import met, present or not.
    private var met = UUIDSet()
    /// How many times this import met identities met more than once.
    private var repeats: [UUID: Int] = [:]
    var lastUse = 0
    /// Samples accepted into this partition and not saved yet: it must not be dropped while there are any.
    var unsaved = 0
    /// Roughly the UUIDs it holds, for the index's capacity.
    private(set) var weight = 0

    /// How many records this import decided here (added or matched).
    var recordsDecided: Int { met.count + seenBesidesMet.count - inBoth }

    /// Makes room for about `records` records of an export, so that the sets they go to do not grow on the way (a
    /// month of steps holds tens of thousands).
    func expect(records: Int) {
        met.reserve(records)
    }

    /// Adds a stored sample.
    ///
    /// - Parameter nameable: Whether an export's record may name it by uuid (see ``nameable``).
    func addStored(uuid: UUID, identity: UUID, nameable isNameable: Bool) {
        guard stored.insert(uuid) else { return }
        weight += 1
        guard uuid != identity else { return }
        if others.insert(identity) { weight += 1 } else { othersMore[identity, default: 0] += 1 }
        if isNameable { nameable[identity, default: 0] += 1 }
    }

    /// Notes that this import met an export's record with `identity`, and returns its occurrence number: 1 the first
    /// time, 2 the second, and so on.
    func occurrence(of identity: UUID) -> Int {
        if met.insert(identity) {
            weight += 1
            return 1
        }
        let number = (repeats[identity] ?? 1) + 1
        repeats[identity] = number
        return number
    }

    /// Decides whether the record with uuid `uuid` and identity `identity` is new.
    ///
    /// - Parameters:
    ///   - firstOccurrence: Whether ``occurrence(of:)`` has just met `identity` for the first time and `uuid` is
    ///     `identity`.
    ///   - anyUUID: Whether a later record may name any stored sample by uuid (the store's jsonl), not only those an
    ///     import names (an export).
    ///   - hold: Makes the record to keep when it is matched by identity and may have to be added later.
    ///   - released: Gets the held records that a stored sample's own record took back: they are new after all.
    /// - Returns: true when it is new.
    func match(uuid: UUID, identity: UUID, firstOccurrence: Bool = false, anyUUID: Bool, hold: () -> HeldRecord,
               released: inout [HeldRecord]) -> Bool {
        guard firstDecision(of: uuid, firstOccurrence: firstOccurrence) else { return false }
        if stored.contains(uuid) {
            use(identity)
            // Another record took this sample by identity before: it takes the next one left, or is new after all.
            if var group = groups[identity], group.used > holders(of: identity), let taken = group.held.popLast() {
                group.used -= 1
                groups[identity] = group
                weight -= IdentityPartition.heldWeight
                released.append(taken)
            }
            return false
        }
        guard holders(of: identity, besides: uuid) > used(identity) else { return true }
        use(identity)
        if anyUUID || nameable[identity] != nil {
            if groups[identity] == nil { groups[identity] = Group(used: 1) }
            groups[identity]!.held.append(hold())
            weight += IdentityPartition.heldWeight
        }
        return false
    }

    /// Notes `uuid` as decided; false when a record with that uuid was decided before. An identity met for the first
    /// time is in ``met`` already, so it was decided before only as a record with a uuid of its own.
    private func firstDecision(of uuid: UUID, firstOccurrence: Bool) -> Bool {
        if firstOccurrence {
            guard seenBesidesMet.count > 0, seenBesidesMet.contains(uuid) else { return true }
            inBoth += 1
            return false
        }
        if (met.count > 0 && met.contains(uuid)) || !seenBesidesMet.insert(uuid) { return false }
        weight += 1
        return true
    }

    /// Whether a record that would be new is a stored sample after all, exported before in another unit: a stored
    /// sample of its identity without the amount (`key`), whose amount was written in another unit than the record's
    /// (in the same unit, the same amount prints alike and the identities would have matched) and is the record's as
    /// six significant digits print it in either unit (``RecordIdentity/sameAmount(_:_:floor:)``), and that no record of
    /// this import took yet. Takes that sample when there is one, holding the record (`hold`): when the stored sample's
    /// own record comes later, the held one is new after all (``match(uuid:identity:anyUUID:hold:released:)``
    /// releases it). Call with ``loose`` read.
    func matchLoosely(_ key: RecordIdentity.LooseKey, hold: () -> HeldRecord) -> Bool {
        for entry in loose?[key.uuid] ?? [] where entry.unit != key.unit
            && RecordIdentity.sameAmount(entry.amount, key.amount, floor: looseFloor)
            && holders(of: entry.identity) > used(entry.identity) {
            use(entry.identity)
            if groups[entry.identity] == nil { groups[entry.identity] = Group(used: 1) }
            groups[entry.identity]!.held.append(hold())
            weight += IdentityPartition.heldWeight
            return true
        }
        return false
    }

    /// How many stored samples hold `identity`; `uuid` (not stored) is the record's own, which saves a lookup when it
    /// is the identity's.
    private func holders(of identity: UUID, besides uuid: UUID? = nil) -> Int {
        let own = uuid != identity && stored.contains(identity) ? 1 : 0
        return own + (others.contains(identity) ? 1 + (othersMore[identity] ?? 0) : 0)
    }

    private func used(_ identity: UUID) -> Int {
        groups[identity]?.used ?? (usedOnce.contains(identity) ? 1 : 0)
    }

    private func use(_ identity: UUID) {
        if groups[identity] != nil {
            groups[identity]!.used += 1
        } else if usedOnce.insert(identity) {
            weight += 1
        } else {
            groups[identity] = Group(used: 2)
        }
    }
}
