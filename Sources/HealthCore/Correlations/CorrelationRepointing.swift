/// A stored correlation that holds a sample being replaced (a greater sync version of a food entry's energy, a
/// corrected systolic reading), and the copy of it that names the sample replacing it instead: the copy gets a new uuid
/// and replaces the correlation in the same write, so the correlation never names a member that is gone and the old
/// member is not left standing beside the new one. A workout associated with such a sample (HealthKit's `add(_:to:)`)
/// is rewritten the same way, in place: its copy keeps its uuid, as an association rewrites it.
struct CorrelationRepointing {
    /// The correlation replaced.
    var old: (uuid: UUID, type: String, source: String)
    /// Its copy, naming the successors of its replaced members.
    var copy: Sample

    /// The repointings of those of `correlations` (and workouts) that hold a key of `successors` (replaced sample →
    /// the sample replacing it) of their own source (`sources`: each replaced sample's): a change never rewrites what
    /// another source wrote, whose correlation goes on naming the replaced sample. A member named twice after the
    /// change is kept once.
    static func repointings(of correlations: [Sample], successors: [UUID: UUID],
                            sources: [UUID: String]) -> [CorrelationRepointing] {
        guard !successors.isEmpty else { return [] }
        var found: [CorrelationRepointing] = []
        for correlation in correlations {
            func successor(_ uuid: UUID) -> UUID? { sources[uuid] == correlation.source ? successors[uuid] : nil }
            if var workout = correlation.detail?.workout {
                guard workout.associatedUUIDs.contains(where: { successor($0) != nil }) else { continue }
                var seen = Set<UUID>()
                workout.associatedUUIDs = workout.associatedUUIDs.compactMap { uuid in
                    let named = successor(uuid) ?? uuid
                    return seen.insert(named).inserted ? named : nil
                }
                var copy = correlation
                copy.detail = .workout(workout)
                found.append(CorrelationRepointing(old: (correlation.uuid, correlation.typeIdentifier, correlation.source), copy: copy))
                continue
            }
            guard var detail = correlation.detail?.correlation,
                  detail.members.contains(where: { successor($0.uuid) != nil }) else { continue }
            var seen = Set<UUID>()
            detail.members = detail.members.compactMap { member in
                var member = member
                member.uuid = successor(member.uuid) ?? member.uuid
                return seen.insert(member.uuid).inserted ? member : nil
            }
            var copy = correlation
            copy.uuid = uuid(of: correlation.uuid, members: detail.members)
            copy.detail = .correlation(detail)
            found.append(CorrelationRepointing(old: (correlation.uuid, correlation.typeIdentifier, correlation.source), copy: copy))
        }
        return found
    }

    /// `repointings` with the workouts among `workouts` that name a correlation one of them rewrites as a copy (a new
    /// uuid) following it, in place: a workout already among them names the copy as well, another is added (a workout
    /// associated with a food entry whose energy is replaced). Only a workout of the correlation's own source follows.
    static func following(_ repointings: [CorrelationRepointing], workouts: [Sample]) -> [CorrelationRepointing] {
        let moved = repointings.filter { $0.copy.uuid != $0.old.uuid }
        guard !moved.isEmpty else { return repointings }
        let followers = Dictionary(moved.map { ($0.old.uuid, $0.copy.uuid) }, uniquingKeysWith: { first, _ in first })
        let owners = Dictionary(moved.map { ($0.old.uuid, $0.old.source) }, uniquingKeysWith: { first, _ in first })
        var result = repointings
        for workout in workouts where workout.detail?.workout != nil {
            if let index = result.firstIndex(where: { $0.old.uuid == workout.uuid }) {
                if let again = CorrelationRepointing.repointings(of: [result[index].copy], successors: followers, sources: owners).first {
                    result[index].copy = again.copy
                }
            } else {
                result += CorrelationRepointing.repointings(of: [workout], successors: followers, sources: owners)
            }
        }
        return result
    }

    /// The uuid of the copy of correlation `uuid` that names `members`: derived, so that the same change made in two
    /// stores gives the same copy.
    static func uuid(of uuid: UUID, members: [CorrelationDetail.Member]) -> UUID {
        var key = Array("hkctl correlation following its members".utf8)
        withUnsafeBytes(of: uuid.uuid) { key.append(contentsOf: $0) }
        for member in members { withUnsafeBytes(of: member.uuid.uuid) { key.append(contentsOf: $0) } }
        return key.withUnsafeBytes { RecordIdentity.uuid(ofKey: $0) }
    }
}
