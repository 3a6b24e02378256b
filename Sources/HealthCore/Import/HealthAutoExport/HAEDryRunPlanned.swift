/// What a dry run of Health Auto Export payloads would have written and deleted so far, so that its later batches
/// (and later files of a folder) are planned against the store as the real import would leave it: a point sent
/// twice, or a day re-sent in the next file, then counts as unchanged or replaced, as the real import counts it,
/// and not as added twice.
///
/// It holds every sample the dry run plans to write, so a dry run's memory grows with what it would add (the real
/// import keeps one batch); docs/IMPORT.md says so.
final class HAEDryRunPlanned {
    /// The samples planned to be written, by type, in the order planned.
    private var written: [String: [Sample]] = [:]
    /// The uuids of stored or planned samples planned to be deleted.
    private var deleted: Set<UUID> = []

    /// Takes in one batch's plan: its deletions first, then its writes.
    func apply(_ plan: HAEWritePlan) {
        guard !plan.deletes.isEmpty || !plan.writes.isEmpty else { return }
        for gone in plan.deletes { deleted.insert(gone.uuid) }
        if !plan.deletes.isEmpty {
            for type in Set(plan.deletes.map(\.type)) { written[type]?.removeAll { deleted.contains($0.uuid) } }
        }
        for sample in plan.writes { written[sample.typeIdentifier, default: []].append(sample) }
    }

    /// Whether a stored sample is one the dry run would have deleted.
    func hides(_ sample: Sample) -> Bool { deleted.contains(sample.uuid) }

    /// The planned samples of `type` that `include` keeps.
    func samples(ofType type: String, where include: (Sample) -> Bool) -> [Sample] {
        written[type]?.filter(include) ?? []
    }

    /// `stored` as the dry run would have left it: its deleted samples out, its planned ones in.
    func applied(to stored: [Sample]) -> [Sample] {
        var result = deleted.isEmpty ? stored : stored.filter { !deleted.contains($0.uuid) }
        for samples in written.values { result += samples }
        return result
    }
}
