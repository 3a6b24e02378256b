/// The nights of a batch of Health Auto Export candidates, for ``HAEWritePlan``'s sleep rules: which candidates make
/// one sending of a night's summary, the last sendings of each night, and whether stored stages give a summary's figures.
extension HAEWritePlan {
    /// The night a sleep part of a summary belongs to: its sync identifier without the part (`HAE|sleep_analysis|<night>`).
    static func nightKey(_ sample: Sample) -> String? {
        guard case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier],
              let bar = identifier.lastIndex(of: "|") else { return nil }
        return String(identifier[..<bar])
    }

    /// Whether two candidates are parts of one night summary's sending (the same night and point, whatever the
    /// parts' sources).
    static func sameNightSending(_ a: HAECandidate, _ b: HAECandidate) -> Bool {
        a.point == b.point && b.sample.typeIdentifier == HAESleep.type && form(of: b.sample) == "night"
            && nightKey(a.sample) == nightKey(b.sample)
    }

    /// Whether a candidate is a part of a night's summary.
    static func isNightPart(_ candidate: HAECandidate) -> Bool {
        candidate.sample.typeIdentifier == HAESleep.type && form(of: candidate.sample) == "night"
    }

    /// A night summary's sending: the parts one point of the payload gave (``HAECandidate/point``), with their sources,
    /// and the index of the first of them in the batch.
    struct NightSending {
        let first: Int
        var parts: [HAECandidate]
        var sources: Set<String> { Set(parts.map(\.sample.source)) }
    }

    /// The night summaries of a batch, by night: each night's last sendings, the latest first (a sending puts aside
    /// the earlier ones of the same or related sources, as it replaces their parts: `Watch`, then `Watch|iPhone`).
    static func lastSendings(_ candidates: [HAECandidate]) -> [String: [NightSending]] {
        var all: [String: [NightSending]] = [:]
        for (index, candidate) in candidates.enumerated() where isNightPart(candidate) {
            guard let night = HAEWritePlan.nightKey(candidate.sample) else { continue }
            if let last = all[night]?.last, last.parts.last?.point == candidate.point {
                all[night]![all[night]!.count - 1].parts.append(candidate)
            } else {
                all[night, default: []].append(NightSending(first: index, parts: [candidate]))
            }
        }
        return all.mapValues { sendings in
            var kept: [NightSending] = []
            for sending in sendings {
                let sources = sending.sources
                kept.removeAll { earlier in earlier.sources.contains { old in sources.contains { HAEWritePlan.related(old, $0) } } }
                kept.insert(sending, at: 0)
            }
            return kept
        }
    }

    /// Whether the stored stages of a night give the figures of the payload's summary of it (`parts`: the night's
    /// last sending, ``lastSendings(_:)``, so a night sent twice does not count twice): per sleep value (in bed,
    /// asleep, awake, core, deep, REM), the stages' seconds within an hour of the summary's span equal its parts'
    /// (to the second).
    static func stagesHold(parts: [Sample], stored: [Sample]) -> Bool {
        guard let from = parts.map(\.start).min(), let to = parts.map(\.end).max() else { return false }
        let window = (from.addingTimeInterval(-3600), to.addingTimeInterval(3600))
        let stages = stored.filter { form(of: $0) == "stage" && $0.end > window.0 && $0.start < window.1 }
        guard !stages.isEmpty else { return false }
        func seconds(_ samples: [Sample]) -> [Int: Double] {
            var byValue: [Int: Double] = [:]
            for sample in samples { if let raw = sample.value.categoryRawValue { byValue[raw, default: 0] += sample.duration } }
            return byValue
        }
        let summary = seconds(parts), held = seconds(stages)
        return Set(summary.keys).union(held.keys).allSatisfy { abs((summary[$0] ?? 0) - (held[$0] ?? 0)) < 1 }
    }

    /// Whether `stages` reach from within 10 minutes of `from` to within 10 minutes of `to`: the rule by which a
    /// payload's stages stand for a night's summary.
    static func stagesSpan(_ stages: [Sample], from: Date, to: Date) -> Bool {
        let inside = stages.filter { $0.end > from && $0.start < to }
        guard let first = inside.map(\.start).min(), let last = inside.map(\.end).max() else { return false }
        return first <= from.addingTimeInterval(600) && last >= to.addingTimeInterval(-600)
    }
}
