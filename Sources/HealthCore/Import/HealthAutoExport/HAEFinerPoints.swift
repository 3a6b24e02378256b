/// The stored Health Auto Export points of one type while an Apple Health export supersedes them
/// (``JSONFileStore/supersedeHealthAutoExport(types:adding:)``), and what the export leaves of each.
///
/// A coarser point that finer HAE points of another form reduced (a week kept as its rest beyond the days sent since:
/// ``HAEWritePlan/totalKey``) is weighed as its total as sent less what those finer points still hold after the
/// export, so that the export's samples inside its period come off its total once. (Weighing its stored rest took a
/// covered day's steps off twice: once as the day's own point, deleted, and once from the week.)
struct HAEFinerPoints {
    /// The points, finest form first, so that a coarser point comes after every finer one it can hold.
    let finestFirst: [Sample]
    /// The same points by start, to find those inside a period without looking at the others.
    private let byStart: [Sample]
    /// What each point weighed so far holds after the export: nothing when covered, else its remainder.
    private var after: [UUID: Quantity] = [:]

    init(_ points: [Sample]) {
        finestFirst = points.sorted { HAEWritePlan.level(of: $0) < HAEWritePlan.level(of: $1) }
        byStart = points.sorted { $0.start < $1.start }
    }

    /// The point to weigh against the export's samples: itself, or, for one reduced by finer points, itself with its
    /// total as sent less what those points hold (`heldByFiner`, in its unit), which its remainder adds back to its
    /// new total. An amount an earlier export's samples reduced comes with what they held of it
    /// (``HAEWritePlan/exportHeldKey``), to be weighed against them again as they are stored now.
    func beforeSuperseding(_ stored: Sample) -> (point: Sample, heldByFiner: Double?) {
        // Weighed from where its amount still holds samples an export may count (an earlier export's are out of it,
        // unless it holds them again), to its period's end.
        var point = stored
        point.start = HAEWritePlan.exportBoundary(of: stored)
        point.end = HAEWritePlan.periodEnd(of: stored)
        let heldByExport = HAEWritePlan.exportHeld(by: stored) ?? 0
        if heldByExport != 0, case let .quantity(amount) = point.value {
            point.value = .quantity(Quantity(amount.value + heldByExport, amount.unit))
        }
        guard case let .number(reduced)? = point.metadata[HAEWritePlan.totalKey], case let .quantity(amount) = point.value else {
            return (point, nil)
        }
        let total = reduced + heldByExport
        var held = 0.0
        for other in inside(stored) {
            guard let kept = after[other.uuid] ?? other.value.quantity, let value = try? kept.value(in: amount.unit) else {
                return (point, nil)
            }
            held += value
        }
        var whole = point
        whole.value = .quantity(Quantity(total - held, amount.unit))
        return (whole, held)
    }

    /// The points of another form and a related source anywhere in `stored`'s period: the finer points inside it.
    func inside(_ stored: Sample) -> [Sample] {
        guard let form = HAEWritePlan.form(of: stored) else { return [] }
        let from = HAEWritePlan.periodStart(of: stored), to = HAEWritePlan.periodEnd(of: stored)
        var low = 0, high = byStart.count
        while low < high {
            let middle = (low + high) / 2
            if byStart[middle].start < from { low = middle + 1 } else { high = middle }
        }
        var found: [Sample] = []
        for other in byStart[low...] {
            guard other.start < to else { break }
            guard other.uuid != stored.uuid, other.end <= to, HAEWritePlan.form(of: other).map({ $0 != form }) == true,
                  HAEWritePlan.related(other.source, stored.source) else { continue }
            found.append(other)
        }
        return found
    }

    /// Records what the export leaves of `point`.
    mutating func note(_ point: Sample, _ coverage: HAECoverage) {
        switch coverage {
        case .none: break
        case .covered: if let quantity = point.value.quantity { after[point.uuid] = Quantity(0, quantity.unit) }
        case let .remainder(kept): after[point.uuid] = kept.value.quantity
        }
    }
}
