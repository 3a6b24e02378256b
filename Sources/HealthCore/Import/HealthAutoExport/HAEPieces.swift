/// A Health Auto Export point's rest held as pieces: what is left of a coarser point beyond the finer points inside its
/// period lies over the gaps between them, each gap's piece its share of the rest by its length, so that a day sent on
/// its own in the middle of a week (Tuesday alone) counts its own figure and the week's rest lies over the other days.
///
/// The pieces of a point share its type, source, sync identifier, version and total (``HAEWritePlan/totalKey``); each
/// names its period's start (``HAEWritePlan/periodStartKey``) and end (``HAEWritePlan/periodEndKey``) where it does not
/// begin or end with it. The rules that find stored points by their time and identity see the pieces as the one
/// point they are (``group(_:)``), and delete them together.
enum HAEPieces {
    /// The shortest gap between finer points that holds a piece of the rest (a shorter one is left to the others).
    static let shortestGap: TimeInterval = 1

    /// What follows the point's sync identifier in the identifier of its second piece on (`#2`, `#3`, ...): as in
    /// HealthKit, no two samples of a source and type share a sync identifier, so that an export of the store imports
    /// back with every piece (the first piece keeps the point's own identifier).
    static let pieceMark: Character = "#"

    /// The point's sync identifier for a piece's (`HAE|step_count|2024-05-06/P1W#2` gives `…/P1W`); any other
    /// identifier as it is.
    static func pointIdentifier(_ identifier: String) -> String {
        guard let mark = identifier.lastIndex(of: pieceMark) else { return identifier }
        let number = identifier[identifier.index(after: mark)...]
        guard !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) }) else { return identifier }
        return String(identifier[..<mark])
    }

    /// ``pointIdentifier(_:)`` of a metadata value that holds a string.
    static func pointIdentifier(_ value: MetadataValue) -> MetadataValue {
        guard case let .string(identifier) = value else { return value }
        return .string(pointIdentifier(identifier))
    }

    /// `stored` with each point held as several pieces replaced by one sample standing for them: from its first
    /// piece's start to its last one's end, their amounts added up, its period in its metadata. `pieces`: the pieces of
    /// each such sample, by its uuid (the first piece's).
    static func group(_ stored: [Sample]) -> (samples: [Sample], pieces: [UUID: [Sample]]) {
        var positions: [String: Int] = [:]
        var samples: [Sample] = []
        samples.reserveCapacity(stored.count)
        var pieces: [UUID: [Sample]] = [:]
        for sample in stored {
            // A piece of several does not begin or end with its period (one that does both is the whole rest).
            guard sample.metadata[HAEWritePlan.periodStartKey] != nil || sample.metadata[HAEWritePlan.periodEndKey] != nil,
                  sample.metadata[HAESampleBuilder.aggregationKey] != nil,
                  case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] else {
                samples.append(sample)
                continue
            }
            let key = sample.typeIdentifier + "\n" + pointIdentifier(identifier) + "\n" + sample.source
            guard let index = positions[key] else {
                positions[key] = samples.count
                samples.append(sample)
                continue
            }
            let first = samples[index]
            pieces[first.uuid, default: [first]].append(sample)
        }
        for index in positions.values { samples[index] = joined(pieces[samples[index].uuid] ?? [samples[index]]) }
        return (samples, pieces)
    }

    /// One sample standing for the pieces of a point (the first one's uuid and metadata).
    static func joined(_ parts: [Sample]) -> Sample {
        var whole = parts[0]
        if let identifier = whole.metadata[MetadataKeySyncIdentifier] { whole.metadata[MetadataKeySyncIdentifier] = pointIdentifier(identifier) }
        let periodStart = parts.map(HAEWritePlan.periodStart).min()!, periodEnd = parts.map(HAEWritePlan.periodEnd).max()!
        whole.start = parts.map(\.start).min()!
        whole.end = parts.map(\.end).max()!
        if case let .quantity(first) = whole.value {
            let sum = parts.reduce(0.0) { total, part in total + ((part.value.quantity.flatMap { try? $0.value(in: first.unit) }) ?? 0) }
            whole.value = .quantity(Quantity(sum, first.unit))
        }
        whole.metadata[HAEWritePlan.periodStartKey] = periodStart < whole.start ? .number(periodStart.timeIntervalSince1970) : nil
        whole.metadata[HAEWritePlan.periodEndKey] = periodEnd > whole.end ? .number(periodEnd.timeIntervalSince1970) : nil
        return whole
    }

    /// `rest` (a quantity point's remainder, its amount what is left) laid from `from` to the end of its period
    /// (`period`) over the gaps between `spans` (the finer points inside it): one piece per gap of at least
    /// ``shortestGap``, each its share of the amount by its length, the last one taking what the others' shares leave
    /// so that they add up exactly. No gap: one piece from `from` to the period's end, as before pieces.
    /// Each piece gets a new uuid, except the first, which keeps `rest`'s.
    static func split(_ rest: Sample, from: Date, period: (start: Date, end: Date), avoiding spans: [(Date, Date)]) -> [Sample] {
        var gaps: [(Date, Date)] = []
        var cursor = from
        for span in spans.sorted(by: { $0.0 < $1.0 }) where span.1 > cursor {
            if span.0 > cursor, span.0.timeIntervalSince(cursor) >= shortestGap { gaps.append((cursor, min(span.0, period.end))) }
            cursor = max(cursor, span.1)
            if cursor >= period.end { break }
        }
        if cursor < period.end, period.end.timeIntervalSince(cursor) >= shortestGap { gaps.append((cursor, period.end)) }
        gaps.removeAll { $0.1 <= $0.0 }
        if gaps.isEmpty { gaps = [(from, period.end)] }
        guard case let .quantity(amount) = rest.value else { return [piece(rest, gaps[0], period: period)] }
        let length = gaps.reduce(0.0) { $0 + $1.1.timeIntervalSince($1.0) }
        var given = 0.0
        return gaps.enumerated().map { index, gap in
            var part = piece(rest, gap, period: period)
            if index > 0 {
                part.uuid = UUID()
                if case let .string(identifier)? = rest.metadata[MetadataKeySyncIdentifier] {
                    part.metadata[MetadataKeySyncIdentifier] = .string(pointIdentifier(identifier) + String(pieceMark) + String(index + 1))
                }
            }
            let value = index == gaps.count - 1 || length <= 0
                ? amount.value - given : amount.value * gap.1.timeIntervalSince(gap.0) / length
            given += value
            part.value = .quantity(Quantity(value, amount.unit))
            return part
        }
    }

    /// What is left of a cumulative point (`whole`, over its period) beyond the finer points inside it (`spans`): `left`
    /// of its `total` as sent (kept in ``HAEWritePlan/totalKey``), laid from `from` over the gaps between them
    /// (``split(_:from:period:avoiding:)``).
    static func rest(of whole: Sample, left: Quantity, total: Double, from: Date, avoiding spans: [(Date, Date)]) -> [Sample] {
        var kept = whole
        kept.value = .quantity(left)
        kept.metadata[HAEWritePlan.totalKey] = .number(total)
        return split(kept, from: from, period: (whole.start, whole.end), avoiding: spans)
    }

    /// Restored points (`restored`, some of them pieces) weighed against the HAE points that stay (`staying`, of the
    /// same type): each coarser one whose period finer points of a related source hold in part keeps its total
    /// (``HAEWritePlan/totalKey``, else its amount) less what they keep, as pieces over the gaps between them; nothing
    /// left: none. The rule ``HAEWritePlan``'s settling applies to a stored point when finer points come.
    static func settleRestored(_ restored: [Sample], among staying: [Sample]) -> [HAESuperseding.Outcome] {
        guard !restored.isEmpty else { return [] }
        let restoredUUIDs = Set(restored.map(\.uuid))
        let (points, pieces) = group(staying + restored)
        var outcomes: [HAESuperseding.Outcome] = []
        for point in points {
            let parts = pieces[point.uuid] ?? [point]
            guard parts.allSatisfy({ restoredUUIDs.contains($0.uuid) }), let form = HAEWritePlan.form(of: point),
                  case let .quantity(amount) = point.value else { continue }
            let whole = HAEWritePlan.overItsPeriod(point)
            let finer = points.filter { other in
                guard other.uuid != point.uuid, let otherForm = HAEWritePlan.form(of: other), otherForm != form,
                      HAEWritePlan.related(other.source, point.source) else { return false }
                let period = HAEWritePlan.overItsPeriod(other)
                return period.start >= whole.start && period.end <= whole.end
            }
            guard !finer.isEmpty else { continue }
            var total = amount.value
            if case let .number(sent)? = point.metadata[HAEWritePlan.totalKey] { total = sent }
            var held = 0.0
            for other in finer {
                guard let value = other.value.quantity.flatMap({ try? $0.value(in: amount.unit) }) else { return outcomes }
                held += value
            }
            let left = total - held
            let tolerance = max(1e-9, abs(total) * 1e-9)
            guard left > tolerance else {
                outcomes.append(HAESuperseding.Outcome(point: point, parts: parts, kept: []))
                continue
            }
            guard abs(left - amount.value) > tolerance else { continue }
            let spans = finer.map { (HAEWritePlan.periodStart(of: $0), HAEWritePlan.periodEnd(of: $0)) }
            outcomes.append(HAESuperseding.Outcome(point: point, parts: parts, kept: rest(
                of: whole, left: Quantity(left, amount.unit), total: total, from: point.start, avoiding: spans)))
        }
        return outcomes
    }

    private static func piece(_ rest: Sample, _ gap: (Date, Date), period: (start: Date, end: Date)) -> Sample {
        var part = rest
        part.start = gap.0
        part.end = gap.1
        part.metadata[HAEWritePlan.periodStartKey] = gap.0 > period.start ? .number(period.start.timeIntervalSince1970) : nil
        part.metadata[HAEWritePlan.periodEndKey] = gap.1 < period.end ? .number(period.end.timeIntervalSince1970) : nil
        return part
    }
}
