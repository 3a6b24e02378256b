/// How far samples from elsewhere (an Apple Health export: HealthKit's own samples) stand for a Health Auto Export
/// point, so that each step and each night counts once and nothing the phone measured is lost, in whichever order the
/// two arrive. A pure function, used when an HAE point is stored (``HAEWritePlan``) and when an export is imported
/// after HAE points (``JSONFileStore/supersedeHealthAutoExport(types:)``).
///
/// Only samples of a related source count (``HAEWritePlan/related(_:_:)``: the same name, or sharing one of the
/// `|`-joined names HAE writes; any, for a point without a source, such as a workout): another app's entry cannot
/// stand for the phone's total.
/// - **Covered**: the related samples reach the end of the point's period (one of them ends at or after it, or
///   starts after it: the export was made after the period was over), so they hold all of it: the point is not kept.
/// - **Remainder** (cumulative types only): they overlap the point but end within its period (an export made during
///   the day, or a sample crossing the midnight that starts the point's day): the point is kept as what is left of
///   its total beyond theirs (their amounts inside the period, a sample crossing its edge pro rata, and samples of
///   two devices counting the same time merged as statistics merge them, so the time counts once), over the part
///   of the period after their last sample. Nothing left: covered.
/// - Otherwise the point is kept whole (a reading type, or a night, whose period the samples do not reach the end of).
///
/// A remainder names what the samples held of the point (``HAEWritePlan/exportHeldKey``), so that a later import
/// weighs the point as it was before them against the samples stored then (a greater sync version of one of them).
enum HAECoverage: Equatable {
    /// The metadata key of a point kept as its remainder beyond samples from elsewhere: what it stands for is what
    /// it was sent as less theirs (an undo of the push it came with takes the remainder too).
    static let remainderKey = "HAERemainder"

    case none
    case covered
    case remainder(Sample)

    /// The coverage of `point` by `others` (samples that are not HAE's, of its type, sorted by start; `longest` is the
    /// longest duration among them). `cumulative`: whether the type's amounts add up (steps, water), so that a part
    /// can be subtracted.
    static func of(_ point: Sample, by others: [Sample], longest: TimeInterval, cumulative: Bool) -> HAECoverage {
        let related = HAEWritePlan.overlappingInstantsIncluded(point, in: others, longest: longest).filter {
            Self.related($0, point)
        }
        guard !related.isEmpty else { return givenBack(point) }
        if point.end <= point.start || related.contains(where: { $0.end >= point.end && $0.end > point.start })
            || reachesBeyond(point, in: others) { return .covered }
        guard cumulative, case let .quantity(total) = point.value else { return .none }
        // Their amount inside the period is counted once where they overlap each other (an iPhone and a Watch both
        // counting the same walk: HAE's total is HealthKit's merged figure), by the statistics' own source merging.
        var inside = 0.0
        var after = point.start
        var merged: [MergedSample] = []
        for (index, other) in related.enumerated() {
            guard case let .quantity(amount) = other.value, let value = try? amount.value(in: total.unit) else { return .none }
            if other.end <= other.start {
                guard other.start >= point.start, other.start < point.end else { continue }
                after = max(after, other.end.addingTimeInterval(0.001))
            } else {
                guard min(other.end, point.end) > max(other.start, point.start) else { continue }
                after = max(after, min(other.end, point.end))
            }
            merged.append(MergedSample(index: index, sample: other, value: value))
        }
        for sample in SourceMerger(ranks: [:]).merge(merged, keepingLost: false).samples {
            for span in sample.kept {
                if span.isInstant {
                    // An instant counts where it lies: from the point's start (included) to its end (excluded).
                    if span.start >= point.start, span.start < point.end { inside += sample.value }
                } else {
                    let seconds = span.overlap(point.start, point.end)
                    if seconds > 0 { inside += sample.amount(forSeconds: seconds) }
                }
            }
        }
        let left = total.value - inside
        guard left > max(1e-9, abs(total.value) * 1e-9), after < point.end else { return .covered }
        guard inside > 0 || after > point.start else { return givenBack(point) }
        var kept = HAEWritePlan.starting(point, at: after, periodStart: HAEWritePlan.periodStart(of: point))
        kept.value = .quantity(Quantity(left, total.unit))
        // Weighed from its period's start, what the samples held of it comes off again at the next import, as they are
        // then; a point reduced before the key existed is weighed from where they ended, and knows only what came after.
        let weighedWhole = point.metadata[HAEWritePlan.exportUntilKey] == nil || HAEWritePlan.exportHeld(by: point) != nil
        kept.metadata[HAEWritePlan.exportHeldKey] = weighedWhole ? .number(inside) : nil
        kept.metadata[HAEWritePlan.exportUntilKey] = .number(after.timeIntervalSince1970)
        kept.metadata[HAECoverage.remainderKey] = .string("export")
        return .remainder(kept)
    }

    /// A point weighed again that an export's samples had reduced (``HAEWritePlan/exportHeldKey``, its amount here
    /// with what they held) when none of them holds any of it now (deleted since): whole again, kept as a remainder of
    /// nothing taken off, so that undoing the push it came with still takes it. Any other: none.
    private static func givenBack(_ point: Sample) -> HAECoverage {
        guard let held = HAEWritePlan.exportHeld(by: point), held != 0 else { return .none }
        var whole = point
        whole.metadata[HAEWritePlan.exportHeldKey] = .number(0)
        whole.metadata[HAEWritePlan.exportUntilKey] = nil
        return .remainder(whole)
    }

    /// Whether `other` can stand for `point`: a related source, or any when the point names none (HAE writes no
    /// source for a workout: ``HealthAutoExportPayload/defaultSourceName``).
    private static func related(_ other: Sample, _ point: Sample) -> Bool {
        point.source == HealthAutoExportPayload.defaultSourceName || HAEWritePlan.related(other.source, point.source)
    }

    /// Whether a related sample of `others` starts at or after the point's end (the samples go on past its period).
    /// Looks at most at a few thousand samples after it.
    private static func reachesBeyond(_ point: Sample, in others: [Sample]) -> Bool {
        var low = 0, high = others.count
        while low < high {
            let middle = (low + high) / 2
            if others[middle].start < point.end { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < others.count, index < low + 4096 {
            if related(others[index], point) { return true }
            index += 1
        }
        return false
    }
}
