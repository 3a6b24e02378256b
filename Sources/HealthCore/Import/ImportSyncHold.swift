/// HealthKit's sync-version rule in an import (healthkit-facts §4.5, ``SyncReplacement``): the records that carry
/// `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion` wait here instead of going to the store with the rest.
///
/// Of the records of one key (type, source, identifier) only the greatest version waits; the others are superseded,
/// and of equal versions the first in the input stays (equal versions are the same sample: their identity, and so
/// their uuid, is the same). The importer saves what waits by the store's rule
/// (``SampleStore/saveSyncedRecords(_:dryRun:imported:)``) at the end, or when ``count`` reaches its batch size, so memory
/// stays bounded. The greatest version of every key met is remembered for the whole import (a few dozen bytes a
/// key), so a lower version met after such a save is superseded still, and a greater one replaces the sample saved
/// before: the store then holds the greatest version of each key either way.
struct ImportSyncHold {
    /// A record waiting to be saved.
    struct Waiting {
        var sample: Sample
        var generic: Bool
    }

    /// What became of a record offered.
    enum Offer {
        /// It waits (no record of its key waited).
        case waiting
        /// It waits in place of `earlier`, a lower version of its key, which is left out.
        case supersedes(earlier: Waiting)
        /// It is left out: a record of its key met before has an equal or greater version.
        case superseded
    }

    private var greatest: [SyncReplacement.Key: Double] = [:]
    private var position: [SyncReplacement.Key: Int] = [:]
    private var waiting: [Waiting] = []
    /// The samples this import saved by the rule (whether kept generically), by uuid: a greater version met later
    /// replaces one of them in the store, and that record then counts as superseded, not as added.
    private var saved: [UUID: Bool] = [:]

    /// The key of each record with sync keys a correlation may name (of a type a correlation can hold), by uuid: a
    /// correlation names such a record by its uuid, and the sample that stands for its key may have another.
    private var memberKeys: [UUID: SyncReplacement.Key] = [:]
    /// The sample that stands for each key saved by the rule, while no greater version of it waits.
    private var standing: [SyncReplacement.Key: UUID] = [:]
    /// Correlations naming a record whose key waits: written once it is saved, naming the sample that stands for it.
    private var riders: [Waiting] = []

    /// Whether a record a correlation may name carried sync keys (only then can a save rewrite a correlation).
    var hasMemberKeys: Bool { !memberKeys.isEmpty }

    /// How many records wait.
    var count: Int { waiting.count }

    /// Offers a record whose sync mark is `mark`.
    mutating func offer(_ sample: Sample, mark: SyncReplacement.Mark, generic: Bool) -> Offer {
        if CorrelationType.all.contains(where: { $0.allows(member: sample.typeIdentifier) }) { memberKeys[sample.uuid] = mark.key }
        if let known = greatest[mark.key], mark.version <= known { return .superseded }
        greatest[mark.key] = mark.version
        standing[mark.key] = nil
        let record = Waiting(sample: sample, generic: generic)
        if let index = position[mark.key] {
            let earlier = waiting[index]
            waiting[index] = record
            return .supersedes(earlier: earlier)
        }
        position[mark.key] = waiting.count
        waiting.append(record)
        return .waiting
    }

    /// The records waiting, in the order their keys were first met; none waits afterwards.
    mutating func take() -> [Waiting] {
        defer {
            waiting.removeAll(keepingCapacity: true)
            position.removeAll(keepingCapacity: true)
        }
        return waiting
    }

    /// Names in `correlation` the samples that stand for the keys of the records it holds; false when one of those
    /// keys still waits (the correlation then waits for it, ``ride(_:generic:)``).
    func resolve(_ correlation: inout Sample) -> Bool {
        guard !memberKeys.isEmpty, var detail = correlation.detail?.correlation else { return true }
        var changed = false
        for index in detail.members.indices {
            guard let key = memberKeys[detail.members[index].uuid] else { continue }
            guard let stands = standing[key] else { return false }
            if stands != detail.members[index].uuid {
                detail.members[index].uuid = stands
                changed = true
            }
        }
        if changed { correlation.detail = .correlation(detail) }
        return true
    }

    /// Lets a correlation wait until the keys of its records are saved.
    mutating func ride(_ correlation: Sample, generic: Bool) { riders.append(Waiting(sample: correlation, generic: generic)) }

    /// Notes what a save of the records ``take()`` gave did: `standing`, for each record, the uuid of the sample that
    /// stands for its key now. Returns the correlations that waited, naming those samples.
    mutating func settle(_ records: [Waiting], standing stands: [UUID: UUID]) -> [Waiting] {
        for record in records {
            guard let mark = (try? SyncReplacement.mark(of: record.sample)) ?? nil else { continue }
            standing[mark.key] = stands[record.sample.uuid] ?? record.sample.uuid
        }
        let ready = riders
        riders.removeAll()
        return ready.map { rider in
            var rider = rider
            _ = resolve(&rider.sample)
            return rider
        }
    }

    /// Notes that the import saved `uuid` by the rule.
    mutating func noteSaved(_ uuid: UUID, generic: Bool) { saved[uuid] = generic }

    /// Whether this import saved `uuid` by the rule (and then whether kept generically); nil when it did not.
    func savedByThisImport(_ uuid: UUID) -> Bool? { saved[uuid] }
}
