/// What samples from elsewhere (an Apple Health export's) leave of stored Health Auto Export points of one type: the
/// rule ``HAECoverage`` states for one point, applied to a type's points finest form first (``HAEFinerPoints``), so
/// that a point reduced by finer HAE points is weighed as its total less what those keep. A pure function, used when
/// an export is imported after HAE points (``JSONFileStore/supersedeHealthAutoExport(types:adding:)``) and when an
/// undo restores HAE points that an export imported since now holds.
enum HAESuperseding {
    /// A point the samples from elsewhere hold in whole or in part.
    struct Outcome {
        /// The point as stored (or as it is being restored).
        var point: Sample
        /// What is left of it (its uuid unchanged, its sync version one above the point's); nil: covered, nothing is.
        var kept: Sample?
    }

    /// The points of `ours` (all HAE points of one type, so that finer ones are weighed first) that `others` (the type's
    /// samples from elsewhere, sorted by start; `longest` the longest duration among them) cover in whole or in part.
    /// `only`: weigh only these points (the others are taken as already weighed, keeping their amounts); nil: all.
    static func weigh(_ ours: [Sample], only: Set<UUID>? = nil, by others: [Sample], longest: TimeInterval,
                      cumulative: Bool) -> [Outcome] {
        var outcomes: [Outcome] = []
        var finer = HAEFinerPoints(ours)
        for sample in finer.finestFirst where only?.contains(sample.uuid) ?? true {
            let whole = finer.beforeSuperseding(sample)
            let coverage = HAECoverage.of(whole.point, by: others, longest: longest,
                                          cumulative: cumulative && sample.detail?.correlation == nil)
            finer.note(sample, coverage)
            switch coverage {
            case .none:
                continue
            case .covered:
                outcomes.append(Outcome(point: sample, kept: nil))
            case var .remainder(kept):
                // No earlier than it lay before: after the finer points that begin its period.
                if sample.start > kept.start {
                    kept = HAEWritePlan.starting(kept, at: sample.start, periodStart: HAEWritePlan.periodStart(of: sample))
                }
                let version = SyncReplacement.storedMark(of: sample)?.version ?? 0
                kept.metadata[MetadataKeySyncVersion] = .number(version + 1)
                if let held = whole.heldByFiner, case let .quantity(left) = kept.value {
                    kept.metadata[HAEWritePlan.totalKey] = .number(left.value + held)
                }
                outcomes.append(Outcome(point: sample, kept: kept))
            }
        }
        return outcomes
    }
}
