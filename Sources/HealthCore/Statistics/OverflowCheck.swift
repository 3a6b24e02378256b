import TextSupport

/// Figures that are not finite numbers: a sum of stored values near the largest `Double` (a hand-edited 1e308)
/// overflows to infinity. The library never hands out such a figure (JSON has no infinity): it refuses the query and names
/// the samples involved, those outside their type's valid range.
public enum OverflowError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A figure of `type` over the range overflowed; payload: the type's name and the uuids of the samples outside
    /// the valid range (at most ``OverflowCheck/namedLimit``) with how many there are in all.
    case overflow(type: String, samples: [String], total: Int)

    public var description: String {
        switch self {
        case let .overflow(type, samples, total):
            let named = samples.joined(separator: ", ") + (total > samples.count ? " and \(total - samples.count) more" : "")
            let which = samples.isEmpty ? "no single sample is outside the valid range" : "the sample\(total == 1 ? "" : "s") \(named) "
                + "hold\(total == 1 ? "s" : "") a value outside the valid range for \(type)"
            return "The figures of \(type) over this range are too large to be numbers (they overflow): \(which); "
                + "correct or delete \(total == 1 ? "it" : "them") (StoreDoctor lists them)."
        }
    }

    public var errorDescription: String? { description }
}

/// Finds figures that overflowed, and the samples behind them.
enum OverflowCheck {
    /// How many uuids an ``OverflowError`` names.
    static let namedLimit = 10

    /// Whether every figure of `statistics` (and of its sources) is finite.
    static func isFinite(_ statistics: Statistics) -> Bool {
        let figures = [statistics.sum, statistics.unmergedSum, statistics.average, statistics.minimum, statistics.maximum,
                       statistics.mostRecent, statistics.asleep, statistics.inBed, statistics.durationSeconds]
        guard figures.allSatisfy({ $0?.isFinite ?? true }) else { return false }
        return statistics.sourceStatistics.allSatisfy { isFinite($0.statistics) }
            && statistics.contributions.allSatisfy { ($0.value?.isFinite ?? true) && ($0.counted?.isFinite ?? true) }
    }

    /// Whether a value in `type`'s canonical unit is one no writer stores: not finite, or outside the valid range.
    static func isOutOfRange(_ value: Double, of type: SampleType) -> Bool {
        guard value.isFinite else { return true }
        if let range = type.validRange { return !range.contains(value) }
        return abs(value) > 1e15
    }

    /// Throws when a figure of `result` overflowed, naming the samples of the range outside the valid range.
    ///
    /// - Throws: ``OverflowError/overflow(type:samples:total:)``.
    static func check(_ result: StatisticsResult, interval: DateInterval, store: SampleStore) throws {
        guard !(isFinite(result.total) && result.buckets.allSatisfy(isFinite)) else { return }
        var culprits: [String] = []
        var total = 0
        try store.forEachSample(ofType: result.type.identifier, overlapping: interval) { sample in
            guard case let .quantity(quantity) = sample.value, let canonical = result.type.canonicalUnit,
                  let value = try? quantity.value(in: canonical) else { return }
            if isOutOfRange(value, of: result.type) {
                total += 1
                if culprits.count < namedLimit { culprits.append(sample.uuid.lowercasedText) }
            }
        }
        throw OverflowError.overflow(type: result.type.name, samples: culprits, total: total)
    }

    /// Throws when a figure of `summary` overflowed, naming the workouts whose energy or distance is out of range.
    ///
    /// - Throws: ``OverflowError/overflow(type:samples:total:)``.
    static func check(_ summary: WorkoutSummary, workouts: [Workout]) throws {
        func finite(_ figures: WorkoutSummary.Figures) -> Bool {
            [figures.totalDuration, figures.energyKilocalories, figures.distanceMeters, figures.paceSecondsPerKilometer]
                .allSatisfy { $0?.isFinite ?? true }
        }
        guard !(finite(summary.total) && summary.buckets.allSatisfy({ finite($0.figures) })) else { return }
        let culprits = workouts.filter { !$0.hasPlausibleTotals }.map { $0.uuid.lowercasedText }
        throw OverflowError.overflow(type: "workouts", samples: Array(culprits.prefix(namedLimit)), total: culprits.count)
    }
}
