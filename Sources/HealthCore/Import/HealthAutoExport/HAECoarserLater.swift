/// The points of one Health Auto Export input (a folder's payloads in name order) that a later payload's point of a
/// coarser form holds whole: an hour of an hourly file whose day a later daily file sends, a day whose week comes later,
/// a reading inside a later minute. Imported one file at a time, the later point deletes the finer one it holds
/// (``HAEWritePlan``: the same time sent in two forms would count twice); imported again, the earlier file would send
/// the finer point again, which meets the coarser one as stored and comes back beside its remainder. So the finer
/// point gives way to the later one from the start (``HAECandidate/givesWayTo``): the plan counts it unchanged unless
/// samples from elsewhere (an export) hold the later point, which is then not written and leaves the finer one standing.
/// The first import leaves what importing the files one by one leaves, and the next finds everything unchanged.
///
/// Held means: the same type, a source related to the finer point's (``HAEWritePlan/related(_:_:)``), a coarser form
/// (``HAEWritePlan/level(_:)``) that its own payload holds without the finer point's form (forms a payload holds side
/// by side never cross), and a period from the finer point's start to its end. Sleep is left out (its nights are
/// decided per payload), as are the other arrays. Only types that one payload holds in a form another lacks are
/// looked at, so a folder of one aggregation setting pays one pass over its payloads' forms.
struct HAECoarserLater {
    /// Per payload, per metric index, per position: the later point that holds the one there.
    private var holders: [Int: [Int: [Int: Sample]]] = [:]
    /// How many points give way.
    private(set) var count = 0

    /// The positions of `metric`'s points in `payload` that a later coarser point holds, with that point; nil when none.
    func holders(payload: Int, metric: Int) -> [Int: Sample]? { holders[payload]?[metric] }

    /// A built point of a looked-at type: its main sample (a heart-rate point's, not its `|min` and `|max`) and where it
    /// is in the input.
    private struct Entry {
        let sample: Sample
        let level: Int
        let form: String
        let payload: Int
        let metric: Int
        let position: Int
    }

    /// Finds the points of `payloads` that give way (`builders[i]` builds payload `i`'s samples).
    init(_ payloads: borrowing [HealthAutoExportPayload], builders: [HAESampleBuilder]) {
        for type in HAECoarserLater.typesInTwoSettings(payloads) {
            var entries: [Entry] = []
            for payload in payloads.indices {
                for (number, metric) in payloads[payload].parsed.metrics.enumerated()
                where HAEMetricKind.typeIdentifier(ofMetric: metric.name) == type {
                    for position in metric.points.indices {
                        var main: Sample?
                        builders[payload].build(metric, at: position) { built in
                            guard case let .candidate(candidate) = built, candidate.sample.typeIdentifier == type,
                                  HAEWritePlan.pointOfPart(type: type, identifier: candidate.syncIdentifier) == nil else { return }
                            main = candidate.sample
                        }
                        guard let main, let form = HAEWritePlan.form(of: main) else { continue }
                        entries.append(Entry(sample: main, level: HAEWritePlan.level(form), form: form, payload: payload,
                                             metric: number, position: position))
                    }
                }
            }
            find(in: entries, of: payloads, type: type)
        }
    }

    /// The types (not sleep) that a payload holds in a form another, later payload lacks while holding a coarser one.
    private static func typesInTwoSettings(_ payloads: borrowing [HealthAutoExportPayload]) -> [String] {
        var formsByType: [String: [(payload: Int, forms: Set<String>)]] = [:]
        for payload in payloads.indices {
            for (type, forms) in payloads[payload].forms where type != HAESleep.type {
                formsByType[type, default: []].append((payload, forms))
            }
        }
        return formsByType.filter { _, list in
            guard Set(list.map(\.forms)).count > 1 else { return false }
            for (index, earlier) in list.enumerated() {
                for later in list[(index + 1)...] {
                    let coarsest = later.forms.map(HAEWritePlan.level).max() ?? 0
                    if earlier.forms.contains(where: { !later.forms.contains($0) && HAEWritePlan.level($0) < coarsest }) { return true }
                }
            }
            return false
        }.keys.sorted()
    }

    /// Marks each entry a later entry of a coarser form holds.
    private mutating func find(in entries: [Entry], of payloads: borrowing [HealthAutoExportPayload], type: String) {
        let coarse = entries.filter { $0.level > 0 }.sorted { $0.sample.start < $1.sample.start }
        let longest = coarse.map(\.sample.duration).max() ?? 0
        for entry in entries {
            // The coarse entries that start from `longest` before the entry to its start: every one that can hold it.
            let from = entry.sample.start.addingTimeInterval(-longest)
            var low = 0, high = coarse.count
            while low < high {
                let middle = (low + high) / 2
                if coarse[middle].sample.start < from { low = middle + 1 } else { high = middle }
            }
            var index = low
            while index < coarse.count, coarse[index].sample.start <= entry.sample.start {
                let holder = coarse[index]
                index += 1
                guard holder.payload > entry.payload, holder.level > entry.level, holds(holder.sample, entry.sample),
                      HAEWritePlan.related(holder.sample.source, entry.sample.source),
                      payloads[holder.payload].forms[type]?.contains(entry.form) != true else { continue }
                holders[entry.payload, default: [:]][entry.metric, default: [:]][entry.position] = holder.sample
                count += 1
                break
            }
        }
    }

    /// Whether `outer`'s period holds `inner` as the plan finds a finer point inside a coarser one: overlapping it (an
    /// instant strictly inside), from its start to its end.
    private func holds(_ outer: Sample, _ inner: Sample) -> Bool {
        outer.start < inner.end && inner.start < outer.end && outer.start <= inner.start && inner.end <= outer.end
    }
}
