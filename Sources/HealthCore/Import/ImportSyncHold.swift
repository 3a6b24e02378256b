/// HealthKit's sync-version rule in an import (healthkit-facts §4.5, ``SyncReplacement``): the records that carry
/// `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion` wait here instead of going to the store with the rest.
///
/// Of the records of one key (type, source, identifier) only the greatest version waits; the others are superseded,
/// and of equal versions the first in the input stays (equal versions are the same sample: their identity, and so
/// their uuid, is the same). The importer saves what waits by the store's rule
/// (``SampleStore/saveSyncedRecords(_:dryRun:)``) at the end, or when ``count`` reaches its batch size, so memory
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

    /// How many records wait.
    var count: Int { waiting.count }

    /// Offers a record whose sync mark is `mark`.
    mutating func offer(_ sample: Sample, mark: SyncReplacement.Mark, generic: Bool) -> Offer {
        if let known = greatest[mark.key], mark.version <= known { return .superseded }
        greatest[mark.key] = mark.version
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

    /// Notes that the import saved `uuid` by the rule.
    mutating func noteSaved(_ uuid: UUID, generic: Bool) { saved[uuid] = generic }

    /// Whether this import saved `uuid` by the rule (and then whether kept generically); nil when it did not.
    func savedByThisImport(_ uuid: UUID) -> Bool? { saved[uuid] }
}
