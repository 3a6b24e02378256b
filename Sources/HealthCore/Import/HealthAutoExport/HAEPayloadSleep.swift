/// The sleep of a whole Health Auto Export payload, read before its first batch, so that the rules between a night's
/// stages and its summary (``HAEWritePlan``) decide for the whole payload, whatever its batches: whether the payload's
/// stages span a stored night, and which form stands where the payload holds a night in both.
struct HAEPayloadSleep: Sendable {
    /// The payload's stages (the stage form of sleep), in payload order.
    let stages: [Sample]
    /// The times the payload's summaries of each night span, and whether its stages span them too (within 10 minutes
    /// at either end): then the stages stand for the night and the summary is not written; otherwise the summary
    /// stands and the stages inside it are not.
    let spans: [(night: String, from: Date, to: Date, stagesSpan: Bool)]

    /// Builds the sleep of `metrics` (the payload's, in order) with `builder`; nil when they hold no sleep.
    init?(_ metrics: [HAEMetric], builder: HAESampleBuilder) {
        var stages: [Sample] = []
        var summaryTimes: [String: (from: Date, to: Date)] = [:]
        var order: [String] = []
        for metric in metrics {
            guard HAEMetricKind.kind(of: metric.name)?.shape == .sleep else { continue }
            builder.build(metric) { built in
                guard case let .candidate(candidate) = built, candidate.sample.typeIdentifier == HAESleep.type else { return }
                switch HAEWritePlan.form(of: candidate.sample) {
                case "stage": stages.append(candidate.sample)
                case "night":
                    guard let night = HAEWritePlan.nightKey(candidate.sample) else { return }
                    if let times = summaryTimes[night] {
                        summaryTimes[night] = (min(times.from, candidate.sample.start), max(times.to, candidate.sample.end))
                    } else {
                        summaryTimes[night] = (candidate.sample.start, candidate.sample.end)
                        order.append(night)
                    }
                default: break
                }
            }
        }
        guard !stages.isEmpty || !order.isEmpty else { return nil }
        self.stages = stages
        spans = order.map { night in
            let (from, to) = summaryTimes[night]!
            return (night, from, to, HAEWritePlan.stagesSpan(stages, from: from, to: to))
        }
    }

    /// Whether the payload holds `sample` (sleep) in its other form as well, in a way that stands instead of it: a
    /// summary part of a night its stages span, or a stage inside a night its stages do not span. Either way the night
    /// is the payload's in one form only, whatever the order of the two in the payload and its batches.
    func givesWay(_ sample: Sample) -> Bool {
        switch HAEWritePlan.form(of: sample) {
        case "night":
            guard let night = HAEWritePlan.nightKey(sample) else { return false }
            return spans.contains { $0.night == night && $0.stagesSpan }
        case "stage":
            return spans.contains { !$0.stagesSpan && sample.end > $0.from && sample.start < $0.to }
        default:
            return false
        }
    }
}
