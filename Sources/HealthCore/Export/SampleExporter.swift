/// Writes the samples of a store in one of the ``ExportFormat``s, streaming: a month of one type at a time is
/// in memory, whatever the store's size.
///
/// Types are written one after another (sorted by identifier, correlation types last: a correlation comes after the
/// records it holds, as in the Health app's export, so an import reads them first); within a type, samples are in
/// chronological order
/// (by start, then end, then UUID). The range selects samples with HealthKit's overlap predicate, as queries and
/// statistics do; a record an export dated by a day (an activity summary) by its day in the exporter's zone
/// (``DayDatedRecord``).
public struct SampleExporter: Sendable {
    /// What an export wrote.
    public struct Summary: Equatable, Sendable {
        /// Samples written per type identifier.
        public var counts: [String: Int] = [:]
        /// All samples written.
        public var total: Int { counts.values.reduce(0, +) }
    }

    /// The store to read.
    public let store: SampleStore
    /// The types, for category names and units.
    public let catalogue: SampleTypeCatalogue
    /// The zone whose offsets written dates carry.
    public let timeZone: ZoneRules

    /// Creates an exporter.
    public init(store: SampleStore, catalogue: SampleTypeCatalogue = .standard, timeZone: ZoneRules = .gmt) {
        self.store = store
        self.catalogue = catalogue
        self.timeZone = timeZone
    }

    /// The type identifiers that have samples in the store, sorted (including types kept generically by an import,
    /// such as `HKWorkoutTypeIdentifier`).
    public func storedTypeIdentifiers() throws -> [String] { try StoreContents.typeIdentifiers(in: store) }

    /// Writes the samples of `types` (all stored types when nil) overlapping `interval` to `output`, and finishes it.
    ///
    /// - Parameters:
    ///   - types: Type identifiers, or nil for every type in the store.
    ///   - interval: The range; samples overlapping it are written.
    ///   - format: The format.
    ///   - exportDate: The `ExportDate` of a Health XML export (the time of the export).
    ///   - output: Where to write; its ``ExportDestination/finish()`` is called at the end.
    /// - Returns: How many samples of each type were written.
    /// - Throws: ``ExportError`` when the output cannot be written; store errors.
    public func export(types: [String]?, interval: DateInterval, format: ExportFormat, exportDate: Date,
                       to output: any ExportDestination) throws -> Summary {
        var writer: SampleWriter
        switch format {
        case .jsonl: writer = JSONSampleWriter(catalogue: catalogue, timeZone: timeZone, array: false)
        case .json: writer = JSONSampleWriter(catalogue: catalogue, timeZone: timeZone, array: true)
        case .csv: writer = CSVSampleWriter(catalogue: catalogue, timeZone: timeZone)
        case .healthxml:
            let characteristics = try (store as? JSONFileStore)?.document("characteristics.json", default: Characteristics())
            writer = HealthXMLWriter(catalogue: catalogue, timeZone: timeZone, exportDate: exportDate, locale: "en_US",
                                     characteristics: characteristics)
        }
        var summary = Summary()
        try writer.begin(to: output)
        let listed = try types ?? storedTypeIdentifiers()
        for type in listed.filter({ CorrelationType.identified($0) == nil }) + listed.filter({ CorrelationType.identified($0) != nil }) {
            // A type kept generically may hold records dated by a day, taken by their day in this export's zone.
            let generic = catalogue.type(identifier: type) == nil
            try forEachChunk(ofType: type, overlapping: generic ? DayDatedRecord.widened(interval) : interval) { read in
                let chunk = generic ? read.filter { DayDatedRecord.belongs($0, in: interval, zone: timeZone) } : read
                // Health XML writes a correlation logged with hkctl as a Correlation element holding its members.
                let written = format == .healthxml && CorrelationType.identified(type) != nil
                    ? try CorrelationQuery.correlations(of: chunk, in: store).map {
                        CorrelationExportForm.generic($0.sample, members: $0.members, timeZone: timeZone)
                    } : chunk
                for sample in written { try writer.write(sample, to: output) }
                summary.counts[type, default: 0] += written.count
            }
        }
        try writer.end(to: output)
        try output.finish()
        return summary
    }

    /// Calls `body` with the type's samples overlapping `interval`, in chronological order, a month at a time.
    ///
    /// Each partition is read once, under the shared lock of its own (so a slow reader of the output never holds
    /// writers up for long), and each tombstone is decoded once (the store instance remembers them between
    /// partitions), so an export's time grows with the store, never with deletions × months. A month file's samples
    /// that start in the month before or after it (which queries find too) come in their place; the type's long samples
    /// (`long.jsonl`) are read first and merged in. Other stores than ``JSONFileStore`` are read in one piece.
    func forEachChunk(ofType type: String, overlapping interval: DateInterval, _ body: ([Sample]) throws -> Void) throws {
        guard let fileStore = store as? JSONFileStore, let (months, hasLong) = try StoreContents.months(ofType: type, in: store)
        else {
            try body(try store.samples(ofType: type, overlapping: interval))
            return
        }
        let first = IdentityIndex.month(of: interval.start.addingTimeInterval(-JSONFileStore.longSampleThreshold))
        let last = IdentityIndex.month(of: interval.end)
        let files = months.filter { $0 >= first - 1 && $0 <= last + 1 }
        var long: [Sample] = []
        if hasLong {
            try fileStore.forEachSample(ofType: type, inPartition: "long.jsonl", overlapping: interval) { long.append($0) }
            long.sortChronologically()
        }
        var nextLong = 0
        var pending: [Sample] = []
        /// Hands over, in order, what is read and starts before `limit`.
        func emit(before limit: Date) throws {
            var chunk: [Sample] = []
            var rest: [Sample] = []
            for sample in pending {
                if sample.start < limit { chunk.append(sample) } else { rest.append(sample) }
            }
            pending = rest
            while nextLong < long.count && long[nextLong].start < limit {
                chunk.append(long[nextLong])
                nextLong += 1
            }
            guard !chunk.isEmpty else { return }
            chunk.sortChronologically()
            try body(chunk)
        }
        for (index, month) in files.enumerated() {
            let from = IdentityIndex.startOfMonth(month - 1), to = IdentityIndex.startOfMonth(month + 2)
            let name = JSONFileStore.monthKey(IdentityIndex.startOfMonth(month)) + ".jsonl"
            try fileStore.forEachSample(ofType: type, inPartition: name, overlapping: interval) { sample in
                if sample.start >= from && sample.start < to { pending.append(sample) }
            }
            // Later files hold samples from the month before theirs on: everything before that is complete.
            if index + 1 < files.count { try emit(before: IdentityIndex.startOfMonth(files[index + 1] - 1)) }
        }
        try emit(before: DateRange.distantEnd)
    }
}
