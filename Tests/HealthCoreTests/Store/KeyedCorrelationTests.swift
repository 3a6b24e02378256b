import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A correlation that carries sync keys of its own follows HealthKit's rule whole: a greater version replaces the
/// stored one with the members it no longer names, an older version is not kept, nor are the records an import added
/// for it. Before, an import kept such a correlation by its identity, so a later export's version was stored beside
/// the earlier one (two food entries, 300 and 350 kcal), and an older export imported after a newer one did the same.
struct KeyedCorrelationTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: keyedCorrelationTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit
    private typealias Support = ImportTestSupport
    static let energyType = QuantityTypeIdentifier.dietaryEnergyConsumed.rawValue
    static let proteinType = QuantityTypeIdentifier.dietaryProtein.rawValue
    private static let foodType = CorrelationTypeIdentifier.food.rawValue

    /// The stored food entries, each as its members' values where they are stored.
    static func entries(_ store: SampleStore) throws -> [[String]] {
        try CorrelationMemberReplacementTests.correlations(store, foodType)
    }

    static func values(_ store: SampleStore, _ type: String) throws -> [String] {
        try store.samples(ofType: type, overlapping: Ops.everything).map { "\($0.value)" }.sorted()
    }

    // MARK: Exports

    private static let when = "2024-03-12 13:00:00 +0100"

    /// A record of an export (no sync keys of its own, as a food app's nutrients usually have none).
    private static func record(_ type: String, _ value: String, _ unit: String) -> String {
        Support.record(type, value: value, unit: unit, source: "MyFitnessPal", start: when, end: when,
                       created: "2024-03-12 21:05:00 +0100")
    }

    /// A food entry with sync keys `lunch-1` in `version`, holding `records`.
    private static func entry(_ version: String, _ records: [String]) -> String {
        """
         <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" creationDate="2024-03-12 21:05:00 +0100" startDate="\(when)" endDate="\(when)">
          <MetadataEntry key="HKFoodType" value="Lunch"/>
          <MetadataEntry key="HKMetadataKeySyncIdentifier" value="lunch-1"/>
          <MetadataEntry key="HKMetadataKeySyncVersion" value="\(version)"/>
        \(records.joined(separator: "\n"))
         </Correlation>
        """
    }

    /// An export holding the entry in `version`: its energy `kcal` and 10 g of protein, at top level and inside it, in
    /// `layout`'s order.
    static func export(_ version: String, kcal: String, layout: Layout) -> String {
        let records = [record(energyType, kcal, "kcal"), record(proteinType, "10", "g")]
        let parts = layout == .correlationsFirst ? [entry(version, records)] + records : records + [entry(version, records)]
        return Support.export(parts.joined(separator: "\n"))
    }

    enum Layout: CaseIterable { case recordsFirst, correlationsFirst, batchesOfOne }

    /// Imports `text` into the store at `path`, recorded as the owner's import, after a dry run that must count the same
    /// and write nothing.
    static func importChecked(_ text: String, path: String, batch: Int, _ what: String) throws -> ImportReceipt {
        let store = JSONFileStore(path: path, timeZone: .gmt)
        let before = Ops.tree(path)
        let planned = try Support.importXML(text, into: store, dryRun: true, batchSize: batch)
        expectEqual(Ops.tree(path), before, "\(what): a dry run writes nothing")
        let recorded = JSONFileStore(path: path, timeZone: .gmt,
                                     recording: OperationRecording(kind: .import, source: "hkctl", date: Ops.madeAt))
        let receipt = try Support.importXML(text, into: recorded, batchSize: batch)
        expectEqual(planned.counts, receipt.counts, "\(what): the dry run counts what the import does")
        return receipt
    }

    /// Runs `body` once for each layout in a store of its own: the layout, its batch size (1 for `.batchesOfOne`),
    /// the store's path and the store.
    private static func forEachLayout(_ body: (Layout, Int, String, JSONFileStore) throws -> Void) throws {
        for layout in Layout.allCases {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                try body(layout, layout == .batchesOfOne ? 1 : 20_000, path, JSONFileStore(path: path, timeZone: .gmt))
            }
        }
    }

    func aLaterExportsGreaterVersionReplacesTheEntryWhole() throws {
        try Self.forEachLayout { layout, batch, path, store in
            let first = Self.export("1", kcal: "300", layout: layout), later = Self.export("2", kcal: "350", layout: layout)
            _ = try Self.importChecked(first, path: path, batch: batch, "\(layout) first")
            try expectEqual(Self.entries(store), [["quantity(300 kcal)", "quantity(10 g)"]], "\(layout)")
            let receipt = try Self.importChecked(later, path: path, batch: batch, "\(layout) later")
            expectEqual(receipt.counts[Self.foodType]?.replaced, 1, "\(layout): \(receipt.counts)")
            expectEqual(receipt.counts[Self.foodType]?.added, 0, "\(layout): \(receipt.counts)")
            // The 350 kcal record is new; the 300 kcal one went with the entry it belonged to.
            expectEqual(receipt.counts[Self.energyType]?.replaced, 0, "\(layout): \(receipt.counts)")
            expectEqual(receipt.counts[Self.energyType]?.added, 1, "\(layout): \(receipt.counts)")
            expectEqual(receipt.counts[Self.proteinType]?.added ?? 0, 0, "\(layout): \(receipt.counts)")
            // One entry, in the later version; the member both versions hold stays, the one the later dropped goes.
            try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "\(layout)")
            try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "\(layout)")
            try expectEqual(Self.values(store, Self.proteinType), ["quantity(10 g)"], "\(layout)")
            // Either export again leaves the entry and its members as they are.
            for text in [later, first] {
                let again = try Support.importXML(text, into: store, batchSize: batch)
                expectEqual(again.counts.values.map { $0.added + $0.replaced + $0.keptGenerically }.reduce(0, +), 0,
                            "\(layout): \(again.counts)")
                try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "\(layout)")
                try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "\(layout)")
            }
            // Undoing the later import brings the first version back whole.
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Self.entries(store), [["quantity(300 kcal)", "quantity(10 g)"]], "\(layout)")
            try expectEqual(Self.values(store, Self.energyType), ["quantity(300 kcal)"], "\(layout)")
        }
    }

    func anOlderExportAfterANewerOneKeepsNothingOfTheOlderEntry() throws {
        try Self.forEachLayout { layout, batch, path, store in
            _ = try Self.importChecked(Self.export("2", kcal: "350", layout: layout), path: path, batch: batch, "\(layout) newer")
            let settled = Ops.tree(path)
            let receipt = try Self.importChecked(Self.export("1", kcal: "300", layout: layout), path: path, batch: batch,
                                                 "\(layout) older")
            expectEqual(receipt.counts.values.map { $0.added + $0.replaced + $0.keptGenerically }.reduce(0, +), 0,
                        "\(layout): \(receipt.counts)")
            expectEqual(receipt.counts[Self.foodType]?.alreadyPresent, 1, "\(layout): \(receipt.counts)")
            try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "\(layout)")
            try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "\(layout)")
            // Undoing it leaves the store holding what it held before (the record it took out stays out).
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "\(layout)")
            try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "\(layout)")
            expectEqual(Set(Ops.tree(path).keys).isSuperset(of: settled.keys), true, "\(layout)")
        }
    }

    /// An entry whose records carry sync keys too waits for their keys to be settled before its own is decided: a later
    /// export's versions of both leave one entry naming the later record, in batches of any size.
    func anEntryAndItsRecordsAllWithSyncKeysLeaveTheLaterVersions() throws {
        func export(_ version: String, _ kcal: String) -> String {
            let record = Support.record(Self.energyType, value: kcal, unit: "kcal", source: "MyFitnessPal", start: Self.when,
                                        end: Self.when, metadata: [(MetadataKeySyncIdentifier, "lunch-1-energy"),
                                                                   (MetadataKeySyncVersion, version)])
            return Support.export([record, Self.entry(version, [record])].joined(separator: "\n"))
        }
        for batch in [20_000, 1] {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                _ = try Self.importChecked(export("1", "300"), path: path, batch: batch, "first, batch \(batch)")
                try expectEqual(Self.entries(store), [["quantity(300 kcal)"]], "batch \(batch)")
                let later = try Self.importChecked(export("2", "350"), path: path, batch: batch, "later, batch \(batch)")
                // One entry replaced, and one record: each counted once (the entry's copy naming the new record, written
                // on the way, is not a second).
                for type in [Self.foodType, Self.energyType] {
                    expectEqual(later.counts[type]?.replaced, 1, "batch \(batch): \(later.counts)")
                    expectEqual(later.counts[type]?.added, 0, "batch \(batch): \(later.counts)")
                }
                _ = try Self.importChecked(export("1", "300"), path: path, batch: batch, "older again, batch \(batch)")
                try expectEqual(Self.entries(store), [["quantity(350 kcal)"]], "batch \(batch)")
                try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "batch \(batch)")
            }
        }
    }

    /// One export holding two versions of one entry (or of one blood pressure reading), in either order: the greater is
    /// stored alone, with none of the records the other held (a review found the lower version's records left in the
    /// store, 650 kcal for the day), and the dry run counts what the import does in batches of any size.
    func twoVersionsInOneExportLeaveTheGreaterAlone() throws {
        let v1 = [Self.record(Self.energyType, "300", "kcal"), Self.record(Self.proteinType, "10", "g")]
        let v2 = [Self.record(Self.energyType, "350", "kcal"), Self.record(Self.proteinType, "10", "g")]
        let pressure = CorrelationTypeIdentifier.bloodPressure.rawValue
        let systolic = QuantityTypeIdentifier.bloodPressureSystolic.rawValue, diastolic = QuantityTypeIdentifier.bloodPressureDiastolic.rawValue
        func reading(_ version: String, _ high: String) -> [String] {
            let records = [Self.record(systolic, high, "mmHg"), Self.record(diastolic, "80", "mmHg")]
            let element = Self.entry(version, records).replacingOccurrences(of: "HKCorrelationTypeIdentifierFood", with: pressure)
            return records + [element]
        }
        for greaterFirst in [false, true] {
            let food = [v1 + [Self.entry("1", v1)], v2 + [Self.entry("2", v2)]]
            let readings = [reading("1", "120"), reading("2", "118")]
            let parts = greaterFirst ? [food[1], food[0], readings[1], readings[0]] : food + readings
            let text = Support.export(parts.joined().joined(separator: "\n"))
            for batch in [20_000, 1] {
                let what = "greater first: \(greaterFirst), batch \(batch)"
                try Support.withTemporaryDirectory { folder in
                    let path = folder + "/store"
                    let store = JSONFileStore(path: path, timeZone: .gmt)
                    let receipt = try Self.importChecked(text, path: path, batch: batch, "\(what)")
                    expectEqual(receipt.counts.values.map(\.replaced).reduce(0, +), 0, "\(what): \(receipt.counts)")
                    try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "\(what)")
                    try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "\(what)")
                    try expectEqual(Self.values(store, Self.proteinType), ["quantity(10 g)"], "\(what)")
                    try expectEqual(CorrelationMemberReplacementTests.correlations(store, pressure),
                                    [["quantity(118 mmHg)", "quantity(80 mmHg)"]], "\(what)")
                    try expectEqual(Self.values(store, systolic), ["quantity(118 mmHg)"], "\(what)")
                    try expectEqual(Self.values(store, diastolic), ["quantity(80 mmHg)"], "\(what)")
                    // Undone, nothing of it is left.
                    _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
                    for type in [Self.foodType, Self.energyType, Self.proteinType, pressure, systolic, diastolic] {
                        try expectEqual(Self.values(store, type), [], "\(what): \(type)")
                    }
                }
            }
        }
    }

    /// An older entry's record with sync keys of its own, which the newer entry no longer holds, is not kept either.
    func anOlderEntrysKeyedRecordIsNotKept() throws {
        let fiberType = QuantityTypeIdentifier.dietaryFiber.rawValue
        let fiber = Support.record(fiberType, value: "5", unit: "g", source: "MyFitnessPal", start: Self.when, end: Self.when,
                                   metadata: [(MetadataKeySyncIdentifier, "lunch-1-fiber"), (MetadataKeySyncVersion, "1")])
        let records = [Self.record(Self.energyType, "300", "kcal"), fiber]
        let older = Support.export((records + [Self.entry("1", records)]).joined(separator: "\n"))
        for batch in [20_000, 1] {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                _ = try Self.importChecked(Self.export("2", kcal: "350", layout: .recordsFirst), path: path, batch: batch, "newer")
                let receipt = try Self.importChecked(older, path: path, batch: batch, "older, batch \(batch)")
                expectEqual(receipt.counts.values.map { $0.added + $0.replaced }.reduce(0, +), 0, "batch \(batch): \(receipt.counts)")
                try expectEqual(Self.values(store, fiberType), [], "batch \(batch)")
                try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "batch \(batch)")
            }
        }
    }

    /// Random series of exports, each holding some versions of two entries in random order, imported in random batch
    /// sizes: after each import the store holds each entry in the greatest version met so far with exactly that
    /// version's records, the dry run counts what the import does, and undoing the imports newest first walks the store
    /// back through each state before them.
    func randomExportsKeepTheGreatestVersionOfEachEntry() throws {
        var random = IndependentTestKit.SeededGenerator(seed: 40)
        func records(_ key: Int, _ version: Int) -> [String] {
            [Self.record(Self.energyType, "\(100 * key + 10 * version)", "kcal"),
             Self.record(Self.proteinType, "\(key)\(version)", "g")]
        }
        func entry(_ key: Int, _ version: Int) -> String {
            Self.entry("\(version)", records(key, version)).replacingOccurrences(of: "lunch-1", with: "lunch-\(key)")
        }
        /// What the store shows: each entry's members' values, and the energy and protein stored.
        func state(_ store: SampleStore) throws -> [String] {
            try Self.entries(store).map { $0.joined(separator: "+") }.sorted()
                + Self.values(store, Self.energyType) + Self.values(store, Self.proteinType)
        }
        for round in 0..<20 {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                var greatest: [Int: Int] = [:]
                var states: [[String]] = []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    var met: [(Int, Int)] = []
                    for key in 1...2 { for version in 1...3 where Bool.random(using: &random) { met.append((key, version)) } }
                    met.shuffle(using: &random)
                    let body = met.flatMap(records) + met.map(entry)
                    let batch = [1, 2, 20_000].randomElement(using: &random)!
                    let what = "round \(round), \(met), batch \(batch)"
                    let before = try state(store)
                    let log = { (try? String(contentsOfFile: path + "/operations.jsonl", encoding: .utf8)) ?? "" }
                    let operations = log()
                    _ = try Self.importChecked(Support.export(body.joined(separator: "\n")), path: path, batch: batch, "\(what)")
                    // An import that wrote something is an operation to undo.
                    if log() != operations { states.append(before) }
                    for (key, version) in met { greatest[key] = max(greatest[key] ?? 0, version) }
                    let expected = greatest.sorted { $0.key < $1.key }.map { key, version in
                        "quantity(\(100 * key + 10 * version) kcal)+quantity(\(key)\(version) g)"
                    }.sorted()
                    let energy = greatest.map { "quantity(\(100 * $0.key + 10 * $0.value) kcal)" }.sorted()
                    let protein = greatest.map { "quantity(\($0.key)\($0.value) g)" }.sorted()
                    try expectEqual(state(store), expected + energy + protein, "\(what)")
                }
                for before in states.reversed() {
                    _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
                    try expectEqual(state(store), before, "round \(round): undone")
                }
            }
        }
    }

    /// Random series of imports mixing versions of two entries whose records may come from another source and share a
    /// record between versions, a plain export of one version's records, and an entry without sync keys holding them:
    /// the same series gives the same store whatever the batch size, the dry run counts what the import does, each
    /// entry with sync keys stands in the greatest version met, no correlation names a sample that is not stored, and
    /// the entry without sync keys stays whole.
    func randomSeriesGiveOneStoreWhateverTheBatchSize() throws {
        var random = IndependentTestKit.SeededGenerator(seed: 41)
        func record(_ type: String, _ value: String, _ unit: String, other: Bool) -> String {
            Support.record(type, value: value, unit: unit, source: other ? "Other" : "MyFitnessPal", start: Self.when, end: Self.when,
                           created: "2024-03-12 21:05:00 +0100")
        }
        func records(_ key: Int, _ version: Int, other: Bool) -> [String] {
            // The protein is the same record in every version of an entry.
            [record(Self.energyType, "\(100 * key + 10 * version)", "kcal", other: other), record(Self.proteinType, "\(key)0", "g", other: other)]
        }
        enum Part { case version(Int, Int), plain(Int), unkeyed(Int) }
        func text(_ parts: [Part], other: Bool) -> String {
            var top: [String] = [], nested: [String] = []
            for part in parts {
                switch part {
                case let .version(key, version):
                    top += records(key, version, other: other)
                    nested.append(Self.entry("\(version)", records(key, version, other: other))
                        .replacingOccurrences(of: "lunch-1", with: "lunch-\(key)"))
                case let .plain(version):
                    top += records(1, version, other: other)
                case let .unkeyed(version):
                    top += records(1, version, other: other)
                    nested.append(Self.entry("0", records(1, version, other: other))
                        .replacingOccurrences(of: "\n  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"lunch-1\"/>", with: "")
                        .replacingOccurrences(of: "\n  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"0\"/>", with: "")
                        .replacingOccurrences(of: "Lunch", with: "Snack"))
                }
            }
            return Support.export((top + nested).joined(separator: "\n"))
        }
        func state(_ store: SampleStore) throws -> [String] {
            try Self.entries(store).map { $0.joined(separator: "+") }.sorted()
                + Self.values(store, Self.energyType) + Self.values(store, Self.proteinType)
        }
        for round in 0..<20 {
            let other = Bool.random(using: &random)
            var series: [[Part]] = []
            // An export holds one version of an entry (the phone keeps one); one of the entry's versions' records alone,
            // or held by an entry without sync keys, comes in an export of its own.
            for _ in 0..<Int.random(in: 2...4, using: &random) {
                switch Int.random(in: 0..<5, using: &random) {
                case 0: series.append([.plain(Int.random(in: 1...3, using: &random))])
                case 1: series.append([.unkeyed(Int.random(in: 1...3, using: &random))])
                default:
                    var parts: [Part] = []
                    for key in 1...2 where Bool.random(using: &random) { parts.append(.version(key, Int.random(in: 1...3, using: &random))) }
                    series.append(parts.shuffled(using: &random))
                }
            }
            var finals: [[String]] = []
            for batch in [1, 2, 20_000] {
                try Support.withTemporaryDirectory { folder in
                    let path = folder + "/store"
                    let store = JSONFileStore(path: path, timeZone: .gmt)
                    var greatest: [Int: Int] = [:]
                    for (step, parts) in series.enumerated() {
                        let what = "round \(round), step \(step), other source \(other), batch \(batch)"
                        _ = try Self.importChecked(text(parts, other: other), path: path, batch: batch, "\(what)")
                        for case let .version(key, version) in parts { greatest[key] = max(greatest[key] ?? 0, version) }
                        let entries = try Self.entries(store)
                        #expect(!entries.joined().contains { $0.hasPrefix("missing") }, "\(what): \(entries) \(series)")
                        for (key, version) in greatest {
                            #expect(entries.contains(["quantity(\(100 * key + 10 * version) kcal)", "quantity(\(key)0 g)"]),
                                    "\(what): entry \(key) v\(version) in \(entries)")
                        }
                        let keyed = entries.count - (try store.samples(ofType: Self.foodType, overlapping: Ops.everything)
                            .filter { $0.metadata[MetadataKeySyncIdentifier] == nil }.count)
                        expectEqual(keyed, greatest.count, "\(what): one entry a key in \(entries)")
                    }
                    finals.append(try state(store))
                }
            }
            expectEqual(finals[0], finals[1], "round \(round): batches of 1 and 2")
            expectEqual(finals[1], finals[2], "round \(round): batches of 2 and 20,000 \(series) other \(other)")
        }
    }

    /// Cases a review found (session 40): a record stored before an import that meets two versions of an entry stays in
    /// batches of any size; an entry without sync keys naming the same records stays whole when a keyed entry's versions
    /// replace each other; a version met again beside a lower one leaves no record unnamed; records of another source
    /// than their entry go with its older version.
    func reviewedCases() throws {
        func records(_ kcal: String, source: String) -> [String] {
            [Support.record(Self.energyType, value: kcal, unit: "kcal", source: source, start: Self.when, end: Self.when),
             Support.record(Self.proteinType, value: "10", unit: "g", source: source, start: Self.when, end: Self.when)]
        }
        func entry(_ version: String?, _ kcal: String, source: String = "MyFitnessPal") -> String {
            var text = Self.entry(version ?? "0", records(kcal, source: source))
            if version == nil {
                text = text.replacingOccurrences(of: "\n  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"lunch-1\"/>", with: "")
                    .replacingOccurrences(of: "\n  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"0\"/>", with: "")
            }
            return text
        }
        func export(_ parts: [(version: String?, kcal: String)], source: String = "MyFitnessPal") -> String {
            Support.export((parts.flatMap { records($0.kcal, source: source) } + parts.map { entry($0.version, $0.kcal, source: source) })
                .joined(separator: "\n"))
        }
        for batch in [1, 20_000] {
            try Support.withTemporaryDirectory { folder in
                // A record stored before, then an export holding two versions of the entry that holds it.
                let path = folder + "/plain"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                _ = try Self.importChecked(Support.export(records("300", source: "MyFitnessPal")[0]), path: path, batch: batch, "plain")
                _ = try Self.importChecked(export([("1", "300"), ("2", "350")]), path: path, batch: batch, "both, batch \(batch)")
                try expectEqual(Self.values(store, Self.energyType), ["quantity(300 kcal)", "quantity(350 kcal)"], "batch \(batch)")
                try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "batch \(batch)")
            }
            try Support.withTemporaryDirectory { folder in
                // An entry without sync keys holding the records of the keyed entry's first version.
                let path = folder + "/unkeyed"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                for (step, parts) in [[(nil, "300")], [("1", "300")], [("2", "350")]].enumerated() {
                    _ = try Self.importChecked(export(parts), path: path, batch: batch, "step \(step), batch \(batch)")
                }
                try expectEqual(Set(Self.entries(store)), [["quantity(300 kcal)", "quantity(10 g)"], ["quantity(350 kcal)", "quantity(10 g)"]],
                                "batch \(batch)")
            }
            try Support.withTemporaryDirectory { folder in
                // The greater version stored, then an export holding it beside the lower one (the protein the same record).
                let path = folder + "/again"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                _ = try Self.importChecked(export([("2", "350")]), path: path, batch: batch, "v2")
                for parts in [[("1", "300"), ("2", "350")], [("2", "350"), ("1", "300")]] {
                    let receipt = try Self.importChecked(export(parts), path: path, batch: batch, "\(parts), batch \(batch)")
                    expectEqual(receipt.counts.values.map { $0.added + $0.replaced }.reduce(0, +), 0, "batch \(batch): \(receipt.counts)")
                    try expectEqual(Self.values(store, Self.proteinType), ["quantity(10 g)"], "\(parts), batch \(batch)")
                    try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "\(parts), batch \(batch)")
                }
            }
            for order in [["1", "2"], ["2", "1"]] {
                try Support.withTemporaryDirectory { folder in
                    // Records of another source than their entry, in two exports and in one.
                    let path = folder + "/other"
                    let store = JSONFileStore(path: path, timeZone: .gmt)
                    for version in order {
                        _ = try Self.importChecked(export([(version, version == "1" ? "300" : "350")], source: "Other"), path: path,
                                                   batch: batch, "other \(version), batch \(batch)")
                    }
                    try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "\(order), batch \(batch)")
                    let together = folder + "/together"
                    _ = try Self.importChecked(export(order.map { ($0, $0 == "1" ? "300" : "350") }, source: "Other"), path: together,
                                               batch: batch, "together \(order), batch \(batch)")
                    try expectEqual(Self.values(JSONFileStore(path: together, timeZone: .gmt), Self.energyType), ["quantity(350 kcal)"],
                                    "together \(order), batch \(batch)")
                }
            }
        }
    }

    /// Cases a third review found (session 40): an entry without sync keys that comes after the keyed entry's greater
    /// version in the same export keeps its records in batches of any size (batches of one deleted the record it
    /// named); a member stored in another month than its entry goes with it (it stayed: 650 kcal).
    func thirdReviewCases() throws {
        func records(_ kcal: String, at date: String) -> [String] {
            [Support.record(Self.energyType, value: kcal, unit: "kcal", source: "MyFitnessPal", start: date, end: date),
             Support.record(Self.proteinType, value: "10", unit: "g", source: "MyFitnessPal", start: date, end: date)]
        }
        func entry(_ version: String?, _ records: [String], at date: String = Self.when) -> String {
            var text = Self.entry(version ?? "0", records).replacingOccurrences(of: Self.when, with: date)
            if version == nil {
                text = text.replacingOccurrences(of: "\n  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"lunch-1\"/>", with: "")
                    .replacingOccurrences(of: "\n  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"0\"/>", with: "")
            }
            return text
        }
        let lunch = Self.when
        for batch in [1, 2, 20_000] {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                let first = records("300", at: lunch), later = records("350", at: lunch)
                _ = try Self.importChecked(Support.export((first + [entry("1", first)]).joined(separator: "\n")), path: path,
                                           batch: batch, "v1, batch \(batch)")
                let text = Support.export((later + [entry("2", later)] + first + [entry(nil, first)]).joined(separator: "\n"))
                _ = try Self.importChecked(text, path: path, batch: batch, "v2 and an entry without keys, batch \(batch)")
                try expectEqual(Set(Self.entries(store)), [["quantity(350 kcal)", "quantity(10 g)"], ["quantity(300 kcal)", "quantity(10 g)"]],
                                "batch \(batch)")
                try expectEqual(Self.values(store, Self.energyType), ["quantity(300 kcal)", "quantity(350 kcal)"], "batch \(batch)")
            }
            try Support.withTemporaryDirectory { folder in
                // The entry at 23:59:50 on 30 June, its energy at 00:00:10 on 1 July (UTC).
                let path = folder + "/months"
                let store = JSONFileStore(path: path, timeZone: .gmt)
                let before = "2024-06-30 23:59:50 +0000", after = "2024-07-01 00:00:10 +0000"
                for (version, kcal) in [("1", "300"), ("2", "350")] {
                    let energy = [Support.record(Self.energyType, value: kcal, unit: "kcal", source: "MyFitnessPal", start: after, end: after)]
                    _ = try Self.importChecked(Support.export((energy + [entry(version, energy, at: before)]).joined(separator: "\n")),
                                               path: path, batch: batch, "v\(version) across months, batch \(batch)")
                }
                try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"], "batch \(batch)")
            }
        }
        // The same through a library save.
        try Ops.withStore { store, _ in
            func energy(_ kcal: Double, at seconds: Double) throws -> Sample {
                Sample(typeIdentifier: Self.energyType, start: Date(timeIntervalSince1970: seconds), end: Date(timeIntervalSince1970: seconds),
                       value: .quantity(Quantity(kcal, try HealthUnit(parsing: "kcal"))), source: "hkctl", created: Ops.madeAt)
            }
            func food(_ version: Double, _ member: Sample) -> Sample {
                let at = Date(timeIntervalSince1970: 1_719_791_990)  // 2024-06-30T23:59:50Z
                var sample = Correlation.sample(of: .food, members: [member], start: at, end: at, source: "hkctl", created: Ops.madeAt)
                sample.metadata = [MetadataKeySyncIdentifier: "lunch-1", MetadataKeySyncVersion: .number(version)]
                return sample
            }
            let first = try energy(300, at: 1_719_792_010), later = try energy(350, at: 1_719_791_990)
            try store.save([first, food(1, first)])
            let outcome = try store.saveReporting([later, food(2, later)])
            #expect(outcome.replaced.contains(first.uuid), "\(outcome)")
            try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"])
        }
    }

    /// An app (another source than the owner) importing its entry's greater version deletes none of another source's
    /// records the older version held (a review found it deleting MyFitnessPal's energy and protein); the owner's import
    /// does.
    func anotherSourcesImportDeletesOnlyItsOwn() throws {
        func export(_ version: String, _ kcal: String, records source: String) -> String {
            let records = [Support.record(Self.energyType, value: kcal, unit: "kcal", source: source, start: Self.when, end: Self.when),
                           Support.record(Self.proteinType, value: "10", unit: "g", source: source, start: Self.when, end: Self.when)]
            let entry = Self.entry(version, records).replacingOccurrences(of: "sourceName=\"MyFitnessPal\" creationDate", with: "sourceName=\"app\" creationDate")
            return Support.export((records + [entry]).joined(separator: "\n"))
        }
        for owner in [false, true] {
            try Support.withTemporaryDirectory { folder in
                let storage = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                _ = try Support.importXML(export("1", "300", records: "MyFitnessPal"), into: storage)
                let ownerStore = try HealthStore(storage: storage, source: AuthorizationState.ownerSource)
                let types: Set<SampleType> = [try #require(ObjectType.quantityType(forIdentifier: .dietaryEnergyConsumed)),
                                              try #require(ObjectType.quantityType(forIdentifier: .dietaryProtein))]
                try ownerStore.decideAuthorization(for: "app", allow: true, share: types, read: [])
                let importer: SampleStore = owner ? ownerStore : try HealthStore(storage: storage, source: "app")
                _ = try Support.importXML(export("2", "350", records: "app"), into: importer)
                let energy = try storage.samples(ofType: Self.energyType, overlapping: Ops.everything).map { "\($0.source) \($0.value)" }.sorted()
                expectEqual(energy, owner ? ["app quantity(350 kcal)"] : ["MyFitnessPal quantity(300 kcal)", "app quantity(350 kcal)"],
                            "owner \(owner)")
                expectEqual(try Self.values(storage, Self.proteinType).count, owner ? 1 : 2, "owner \(owner)")
            }
        }
    }

    /// Library saves a fifth review found (session 40): a greater version in the same save as a lower one keeps the
    /// member both name (it was left out as the lower one's), in both stores; an app's save of its entry's greater
    /// version deletes none of another source's members.
    func librarySavesKeepSharedAndOtherSourcesMembers() throws {
        func energy(_ kcal: Double, source: String = "hkctl") throws -> Sample {
            Sample(typeIdentifier: Self.energyType, start: Ops.madeAt, end: Ops.madeAt,
                   value: .quantity(Quantity(kcal, try HealthUnit(parsing: "kcal"))), source: source, created: Ops.madeAt)
        }
        func food(_ version: Double, _ members: [Sample], source: String = "hkctl") -> Sample {
            var sample = Correlation.sample(of: .food, members: members, start: Ops.madeAt, end: Ops.madeAt, source: source, created: Ops.madeAt)
            sample.metadata = [MetadataKeySyncIdentifier: "lunch-1", MetadataKeySyncVersion: .number(version)]
            return sample
        }
        for memory in [false, true] {
            try Ops.withStore { file, _ in
                let store: SampleStore = memory ? InMemorySampleStore() : file
                let first = try energy(30)
                try store.save([first, food(1, [first])])
                let shared = try energy(50), more = try energy(70)
                try store.saveReporting([shared, food(2, [shared]), more, food(3, [shared, more])])
                try expectEqual(Self.entries(store), [["quantity(50 kcal)", "quantity(70 kcal)"]], "memory \(memory)")
                try expectEqual(Self.values(store, Self.energyType), ["quantity(50 kcal)", "quantity(70 kcal)"], "memory \(memory)")
            }
        }
        try Ops.withStore { storage, _ in
            let theirs = try energy(300, source: "MyFitnessPal")
            try storage.save([theirs, food(1, [theirs], source: "app")])
            try HealthStore(storage: storage, source: AuthorizationState.ownerSource).decideAuthorization(
                for: "app", allow: true, share: [try #require(ObjectType.quantityType(forIdentifier: .dietaryEnergyConsumed))], read: [])
            let ours = try energy(350, source: "app")
            let outcome = try HealthStore(storage: storage, source: "app").saveReporting([ours, food(2, [ours], source: "app")])
            #expect(!outcome.replaced.contains(theirs.uuid), "\(outcome)")
            let stored = try storage.samples(ofType: Self.energyType, overlapping: Ops.everything).map { "\($0.source) \($0.value)" }.sorted()
            expectEqual(stored, ["MyFitnessPal quantity(300 kcal)", "app quantity(350 kcal)"])
        }
    }

    /// A record stored before the import (by another import, or logged by hand) is never taken out with an older
    /// version that holds it: only what this import added for it goes.
    func aRecordStoredBeforeStaysWithAnOlderEntry() throws {
        try Support.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, timeZone: .gmt)
            _ = try Self.importChecked(Support.export(Self.record(Self.energyType, "300", "kcal")), path: path, batch: 20_000, "record")
            _ = try Self.importChecked(Self.export("2", kcal: "350", layout: .recordsFirst), path: path, batch: 20_000, "newer")
            _ = try Self.importChecked(Self.export("1", kcal: "300", layout: .recordsFirst), path: path, batch: 20_000, "older")
            try expectEqual(Self.values(store, Self.energyType), ["quantity(300 kcal)", "quantity(350 kcal)"])
            try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]])
        }
    }

    /// The same in a store in memory, through the library's importer.
    func theMemoryStoreFollowsTheRuleToo() throws {
        let store = InMemorySampleStore()
        _ = try Support.importXML(Self.export("1", kcal: "300", layout: .recordsFirst), into: store)
        _ = try Support.importXML(Self.export("2", kcal: "350", layout: .recordsFirst), into: store)
        try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]])
        _ = try Support.importXML(Self.export("1", kcal: "300", layout: .recordsFirst), into: store)
        try expectEqual(Self.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]])
        try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"])
    }

    /// An import that saved a record's lower version and replaced it with a greater one met later (in batches of one)
    /// is undone to what the store held before it: the lower version is not brought back (before, it came back as a
    /// copy, which the store never held).
    func undoingAnImportLeavesOutWhatItReplacedOfItsOwn() throws {
        try Support.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, timeZone: .gmt)
            func keyed(_ kcal: String, _ version: String) -> String {
                Support.record(Self.energyType, value: kcal, unit: "kcal", source: "MyFitnessPal", start: Self.when, end: Self.when,
                               metadata: [(MetadataKeySyncIdentifier, "snack-1"), (MetadataKeySyncVersion, version)])
            }
            let text = Support.export([keyed("300", "1"), Self.record(Self.proteinType, "10", "g"), keyed("350", "2")]
                .joined(separator: "\n"))
            _ = try Self.importChecked(text, path: path, batch: 1, "keyed")
            try expectEqual(Self.values(store, Self.energyType), ["quantity(350 kcal)"])
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(plan.replacedWithin, 1)
            try expectEqual(Self.values(store, Self.energyType), [])
            try expectEqual(Self.values(store, Self.proteinType), [])
        }
    }

    // MARK: Saves

    /// A library save of a greater version that names a member the stored version holds too keeps that member (before,
    /// the stored version's members were all deleted, and the new version named one that was gone).
    func aSavedGreaterVersionKeepsTheMemberItNamesAgain() throws {
        for memory in [true, false] {
            try Ops.withStore { file, _ in
                let store: SampleStore = memory ? InMemorySampleStore() : file
                let unit = try HealthUnit(parsing: "g")
                let protein = Sample(typeIdentifier: Self.proteinType, start: Ops.madeAt, end: Ops.madeAt,
                                     value: .quantity(Quantity(10, unit)), source: "hkctl", created: Ops.madeAt)
                let fat = Sample(typeIdentifier: QuantityTypeIdentifier.dietaryFatTotal.rawValue, start: Ops.madeAt, end: Ops.madeAt,
                                 value: .quantity(Quantity(4, unit)), source: "hkctl", created: Ops.madeAt)
                func entry(_ version: Double, _ members: [Sample]) -> Sample {
                    var sample = Correlation.sample(of: .food, members: members, start: Ops.madeAt, end: Ops.madeAt,
                                                    source: "hkctl", created: Ops.madeAt)
                    sample.metadata[MetadataKeySyncIdentifier] = "lunch-1"
                    sample.metadata[MetadataKeySyncVersion] = .number(version)
                    return sample
                }
                try store.save([protein, fat, entry(1, [protein, fat])])
                var more = fat
                more.uuid = UUID()
                more.value = .quantity(Quantity(6, unit))
                let outcome = try store.saveReporting([more, entry(2, [protein, more])])
                expectEqual(Set(outcome.replaced).contains(protein.uuid), false, "memory \(memory)")
                expectEqual(Set(outcome.replaced).contains(fat.uuid), true, "memory \(memory)")
                try expectEqual(Self.entries(store), [["quantity(10 g)", "quantity(6 g)"]], "memory \(memory)")
                try expectEqual(Self.values(store, QuantityTypeIdentifier.dietaryFatTotal.rawValue), ["quantity(6 g)"])
            }
        }
    }
}

/// The checks ``KeyedCorrelationTests/checks(_:)`` runs.
private let keyedCorrelationTestsChecks: [Check<KeyedCorrelationTests>] = [
    Check("aLaterExportsGreaterVersionReplacesTheEntryWhole", KeyedCorrelationTests.aLaterExportsGreaterVersionReplacesTheEntryWhole),
    Check("anOlderExportAfterANewerOneKeepsNothingOfTheOlderEntry",
          KeyedCorrelationTests.anOlderExportAfterANewerOneKeepsNothingOfTheOlderEntry),
    Check("anEntryAndItsRecordsAllWithSyncKeysLeaveTheLaterVersions",
          KeyedCorrelationTests.anEntryAndItsRecordsAllWithSyncKeysLeaveTheLaterVersions),
    Check("twoVersionsInOneExportLeaveTheGreaterAlone", KeyedCorrelationTests.twoVersionsInOneExportLeaveTheGreaterAlone),
    Check("anOlderEntrysKeyedRecordIsNotKept", KeyedCorrelationTests.anOlderEntrysKeyedRecordIsNotKept),
    Check("randomExportsKeepTheGreatestVersionOfEachEntry", KeyedCorrelationTests.randomExportsKeepTheGreatestVersionOfEachEntry),
    Check("randomSeriesGiveOneStoreWhateverTheBatchSize", KeyedCorrelationTests.randomSeriesGiveOneStoreWhateverTheBatchSize),
    Check("reviewedCases", KeyedCorrelationTests.reviewedCases),
    Check("thirdReviewCases", KeyedCorrelationTests.thirdReviewCases),
    Check("anotherSourcesImportDeletesOnlyItsOwn", KeyedCorrelationTests.anotherSourcesImportDeletesOnlyItsOwn),
    Check("librarySavesKeepSharedAndOtherSourcesMembers", KeyedCorrelationTests.librarySavesKeepSharedAndOtherSourcesMembers),
    Check("aRecordStoredBeforeStaysWithAnOlderEntry", KeyedCorrelationTests.aRecordStoredBeforeStaysWithAnOlderEntry),
    Check("theMemoryStoreFollowsTheRuleToo", KeyedCorrelationTests.theMemoryStoreFollowsTheRuleToo),
    Check("undoingAnImportLeavesOutWhatItReplacedOfItsOwn", KeyedCorrelationTests.undoingAnImportLeavesOutWhatItReplacedOfItsOwn),
    Check("aSavedGreaterVersionKeepsTheMemberItNamesAgain", KeyedCorrelationTests.aSavedGreaterVersionKeepsTheMemberItNamesAgain),
]
