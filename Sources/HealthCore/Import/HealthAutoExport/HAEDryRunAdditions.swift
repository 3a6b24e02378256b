/// For a dry run of an export's import into a store that holds Health Auto Export samples: the samples the import
/// would add that can change how many HAE samples it supersedes (``HAECoverage``), so that the dry run counts what
/// the import then does, in memory bounded by the store's HAE points rather than by the export's size.
///
/// A type's HAE points are read from the store the first time a sample of that type comes (``load``), not for every
/// type up front. Of the samples a type's points can meet (from the first point's start to eight days after the last
/// one's end, as the import's superseding looks), it keeps:
/// - every sample that touches a point's period (its amount may count inside it), without its metadata, detail,
///   device and version, which coverage does not read, and with one copy of each source name;
/// - of the rest, one per source between two consecutive point ends: what matters of them is only that a sample of a
///   related source starts after a point's period (the export was made after it), and one per source and stretch
///   keeps that true for every point.
struct HAEDryRunAdditions {
    /// What one type's stored HAE points ask of the samples noted.
    private struct TypeCover {
        /// From the first point's period's start to eight days after the last one's end.
        var window: DateInterval
        /// The points' periods (a period and the sample over it together), merged and sorted.
        var periods: [(start: Date, end: Date)]
        /// The points' ends, sorted.
        var ends: [Date]
        /// For each source, the stretch between point ends (the number of ends at or before a sample's start) whose
        /// one sample was kept last.
        var lastStretch: [String: Int] = [:]
        var kept: [Sample] = []
    }

    /// Reads the visible HAE samples of a type from the store.
    let load: (String) throws -> [Sample]
    /// Each type met, with its index in ``covers``; nil: the store holds no HAE sample of it.
    private var types: [String: Int?] = [:]
    private var covers: [TypeCover] = []

    init(load: @escaping (String) throws -> [Sample]) {
        self.load = load
    }

    /// The samples kept, of every type, for ``JSONFileStore/supersedeHealthAutoExport(types:adding:)``.
    var samples: [Sample] { covers.flatMap(\.kept) }

    /// Whether a type met so far has HAE points in the store (else the import supersedes nothing).
    var meetsAnyPoint: Bool { !covers.isEmpty }

    /// Notes a sample the import would add, of `type` over `start`...`end`; `sample` is made only when it may be kept.
    mutating func note(_ sample: () -> Sample?, type: String, start: Date, end: Date) throws {
        if types[type] == nil {
            let cover = Self.cover(of: try load(type))
            if let cover { covers.append(cover) }
            types[type] = .some(cover == nil ? nil : covers.count - 1)
        }
        guard let index = types[type]!, end >= covers[index].window.start, start <= covers[index].window.end else { return }
        // An HAE sample (the store's own export read back) or the owner's never stands for a point.
        guard let made = sample(), made.metadata[HAESampleBuilder.aggregationKey] == nil,
              HAEWritePlan.isFromHealthKit(made) else { return }
        if !Self.touches(covers[index].periods, start: start, end: end) {
            let stretch = Self.count(of: covers[index].ends, atOrBefore: start)
            guard covers[index].lastStretch[made.source] != stretch else { return }
            covers[index].lastStretch[made.source] = stretch
        }
        covers[index].kept.append(slim(made))
    }

    private static func cover(of points: [Sample]) -> TypeCover? {
        guard !points.isEmpty else { return nil }
        var spans = points.map { point in
            (start: min(point.start, HAEWritePlan.periodStart(of: point)), end: max(point.end, HAEWritePlan.periodEnd(of: point)))
        }
        spans.sort { $0.start < $1.start }
        var periods: [(start: Date, end: Date)] = []
        for span in spans {
            if let last = periods.last, span.start <= last.end {
                periods[periods.count - 1].end = max(last.end, span.end)
            } else {
                periods.append(span)
            }
        }
        let start = periods[0].start, end = points.map(\.end).max()!
        return TypeCover(window: DateInterval(start: start, end: end.addingTimeInterval(8 * 86_400)), periods: periods,
                         ends: points.map(\.end).sorted())
    }

    /// Whether `start`...`end` touches one of `periods` (edges included: a superset of what coverage counts).
    private static func touches(_ periods: [(start: Date, end: Date)], start: Date, end: Date) -> Bool {
        // The first period that does not end before the sample starts.
        var low = 0, high = periods.count
        while low < high {
            let middle = (low + high) / 2
            if periods[middle].end < start { low = middle + 1 } else { high = middle }
        }
        return low < periods.count && periods[low].start <= end
    }

    private static func count(of sorted: [Date], atOrBefore date: Date) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] <= date { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Each source name and type identifier kept, once: the samples kept share their storage.
    private var names: Set<String> = []

    /// What coverage reads of a sample from elsewhere: its type, times, source and value.
    private mutating func slim(_ sample: Sample) -> Sample {
        var slim = sample
        slim.source = names.insert(sample.source).memberAfterInsert
        slim.typeIdentifier = names.insert(sample.typeIdentifier).memberAfterInsert
        slim.metadata = [:]
        slim.detail = nil
        slim.device = nil
        slim.sourceVersion = nil
        return slim
    }
}
