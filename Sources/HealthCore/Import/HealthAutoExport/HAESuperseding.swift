/// What samples from elsewhere (an Apple Health export's) leave of stored Health Auto Export points of one type: the
/// rule ``HAECoverage`` states for one point, applied to a type's points finest form first (``HAEFinerPoints``), so
/// that a point reduced by finer HAE points is weighed as its total less what those keep. A pure function, used when
/// an export is imported after HAE points (``JSONFileStore/supersedeHealthAutoExport(types:adding:)``) and when an
/// undo restores HAE points that an export imported since now holds.
enum HAESuperseding {
    /// A point the samples from elsewhere hold in whole or in part.
    struct Outcome {
        /// The point as stored (or as it is being restored): one sample standing for its pieces (``HAEPieces``).
        var point: Sample
        /// The samples it is stored as: its pieces, or itself.
        var parts: [Sample]
        /// What is left of it, as pieces over the gaps between the finer points inside its period (the first with the
        /// point's uuid, its sync version one above the point's); empty: covered, nothing is.
        var kept: [Sample]
    }

    /// The points of `ours` (all HAE samples of one type, so that finer ones are weighed first; a rest's pieces are
    /// weighed as the one point they are) that `others` (the type's samples from elsewhere, sorted by start; `longest`
    /// the longest duration among them) cover in whole or in part.
    /// `only`: weigh only the points stored as these samples (the others are taken as already weighed, keeping their
    /// amounts); nil: all.
    static func weigh(_ ours: [Sample], only: Set<UUID>? = nil, by others: [Sample], longest: TimeInterval,
                      cumulative: Bool) -> [Outcome] {
        var outcomes: [Outcome] = []
        let (rest, extras) = separatingExtras(ours)
        let (points, pieces) = HAEPieces.group(rest)
        var finer = HAEFinerPoints(points)
        for sample in finer.finestFirst {
            let parts = pieces[sample.uuid] ?? [sample]
            let extra = extraKey(of: sample).flatMap { extras[$0] } ?? []
            if let only, !(parts + extra).contains(where: { only.contains($0.uuid) }) { continue }
            let whole = finer.beforeSuperseding(sample)
            let coverage = HAECoverage.of(whole.point, by: others, longest: longest,
                                          cumulative: cumulative && sample.detail?.correlation == nil)
            finer.note(sample, coverage)
            switch coverage {
            case .none:
                continue
            case .covered:
                // A heart-rate point's `|min` and `|max` go with it.
                outcomes.append(Outcome(point: sample, parts: parts + extra, kept: []))
            case var .remainder(kept):
                // No earlier than it lay before: after the finer points that begin its period.
                let from = max(kept.start, sample.start)
                let version = SyncReplacement.storedMark(of: sample)?.version ?? 0
                kept.metadata[MetadataKeySyncVersion] = .number(version + 1)
                if let held = whole.heldByFiner, case let .quantity(left) = kept.value {
                    kept.metadata[HAEWritePlan.totalKey] = .number(left.value + held)
                }
                // Weighed whole again, against the same samples: it stays as it is.
                if isUnchanged(sample, as: kept) { continue }
                let period = (HAEWritePlan.periodStart(of: sample), HAEWritePlan.periodEnd(of: sample))
                let spans = finer.inside(sample).map { (HAEWritePlan.periodStart(of: $0), HAEWritePlan.periodEnd(of: $0)) }
                outcomes.append(Outcome(point: sample, parts: parts, kept: HAEPieces.split(kept, from: from, period: period, avoiding: spans)))
            }
        }
        return outcomes
    }

    /// Whether `kept`, the remainder of a stored point an export's samples reduced before (``HAEWritePlan/exportHeldKey``:
    /// weighed over its whole period again), is what `stored` already is: the same amount and total
    /// (``HAEWritePlan/totalKey``), the same samples' amount taken off, ending at the same time. Nothing is written
    /// then (an export imported again, another type's import).
    private static func isUnchanged(_ stored: Sample, as kept: Sample) -> Bool {
        guard let before = HAEWritePlan.exportHeld(by: stored), let now = HAEWritePlan.exportHeld(by: kept),
              case let .quantity(amount) = stored.value, case let .quantity(left) = kept.value, amount.unit == left.unit,
              stored.metadata[HAEWritePlan.exportUntilKey] == kept.metadata[HAEWritePlan.exportUntilKey] else { return false }
        let tolerance = max(1e-9, abs(amount.value + before) * 1e-9)
        let same = { (one: Double?, other: Double?) in one == nil ? other == nil : other.map { abs(one! - $0) <= tolerance } ?? false }
        let total = { (sample: Sample) -> Double? in
            guard case let .number(total)? = sample.metadata[HAEWritePlan.totalKey] else { return nil }
            return total
        }
        return same(amount.value, left.value) && same(before, now) && same(total(stored), total(kept))
    }

    /// `samples` without the extra samples of a heart-rate point (``HAEWritePlan/pointOfPart(type:identifier:)``:
    /// its `|min` and `|max`, one and two milliseconds long at its start) whose point is among them, and those extras
    /// by their point (``extraKey(of:)``). The extras are weighed with their point, never on their own: a reading an
    /// export holds inside the point's hour need not touch its first two milliseconds, and the point covered must not
    /// leave them behind as a minimum and a maximum of their own. An extra whose point is not there stays in.
    static func separatingExtras(_ samples: [Sample]) -> (rest: [Sample], extras: [HAEWritePlan.SourcedKey: [Sample]]) {
        let pointOf = samples.map { $0.typeIdentifier == HAEWritePlan.partedType ? HAEWritePlan.SourcedKey(pointOfPart: $0) : nil }
        guard pointOf.contains(where: { $0 != nil }) else { return (samples, [:]) }
        let points = Set(samples.indices.filter { pointOf[$0] == nil }.compactMap { extraKey(of: samples[$0]) })
        var rest: [Sample] = []
        var extras: [HAEWritePlan.SourcedKey: [Sample]] = [:]
        for (sample, point) in zip(samples, pointOf) {
            if let point, points.contains(point) {
                extras[point, default: []].append(sample)
            } else {
                rest.append(sample)
            }
        }
        return (rest, extras)
    }

    /// The key a heart-rate point's extras are found by (its type, sync identifier and source); nil for a sample of
    /// another type or without a sync identifier.
    static func extraKey(of sample: Sample) -> HAEWritePlan.SourcedKey? {
        sample.typeIdentifier == HAEWritePlan.partedType ? HAEWritePlan.SourcedKey(point: sample) : nil
    }
}
