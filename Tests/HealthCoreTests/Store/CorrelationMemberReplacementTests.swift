import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A correlation keeps its members whole when one of them is replaced: a greater sync version of a food entry's energy
/// (saved, or in a later export), or a corrected systolic reading (`replace`, `hkctl edit`). Before, the correlation
/// went on naming the replaced sample, and an import stored the new version beside the old (300 and 350 kcal made 650).
struct CorrelationMemberReplacementTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: correlationMemberReplacementTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit
    private typealias Support = ImportTestSupport
    private static let energyType = QuantityTypeIdentifier.dietaryEnergyConsumed.rawValue
    static let foodType = CorrelationTypeIdentifier.food.rawValue
    private static let pressureType = CorrelationTypeIdentifier.bloodPressure.rawValue
    private static let systolicType = QuantityTypeIdentifier.bloodPressureSystolic.rawValue

    /// Energy eaten at `Ops.madeAt` with sync identifier `meal-1` in `version`.
    private static func energy(_ kcal: Double, version: Double) throws -> Sample {
        var sample = Sample(typeIdentifier: energyType, start: Ops.madeAt, end: Ops.madeAt,
                            value: .quantity(Quantity(kcal, try HealthUnit(parsing: "kcal"))), source: "hkctl", created: Ops.madeAt)
        sample.metadata = [MetadataKeySyncIdentifier: "meal-1", MetadataKeySyncVersion: .number(version)]
        return sample
    }

    /// A food entry (without sync keys) holding `members`.
    private static func food(_ members: [Sample]) -> Sample {
        Correlation.sample(of: .food, members: members, start: Ops.madeAt, end: Ops.madeAt, source: "hkctl", created: Ops.madeAt)
    }

    /// The stored correlations of `type`, each as its members' values where they are stored (`missing` and the uuid where
    /// not), in the order they are named (``KeyedCorrelationTests`` too).
    static func correlations(_ store: SampleStore, _ type: String = foodType) throws -> [[String]] {
        try store.samples(ofType: type, overlapping: Ops.everything).map { correlation in
            try (correlation.detail?.correlation?.members ?? []).map { member in
                let found = try store.samples(ofType: member.typeIdentifier, overlapping: Ops.everything).first { $0.uuid == member.uuid }
                return found.map { "\($0.value)" } ?? "missing \(member.uuid)"
            }
        }
    }

    private static func values(_ store: SampleStore, _ type: String = energyType) throws -> [String] {
        try store.samples(ofType: type, overlapping: Ops.everything).map { "\($0.value)" }
    }

    // MARK: Saves

    /// A food entry's energy deleted alone, and the delete undone: the entry (rewritten as a copy, as a replace of its
    /// member rewrites it) names the energy's restored copy, beside its other member; an undo after that goes on back.
    func aMemberDeletedAloneIsNamedAgainWhenTheDeleteIsUndone() throws {
        try Ops.withStore { store, _ in
            var energy = try Self.energy(300, version: 1)
            energy.metadata = [:]
            let protein = Sample(typeIdentifier: QuantityTypeIdentifier.dietaryProtein.rawValue, start: Ops.madeAt, end: Ops.madeAt,
                                 value: .quantity(Quantity(20, try HealthUnit(parsing: "g"))), source: "hkctl", created: Ops.madeAt)
            let entry = Self.food([energy, protein])
            try Ops.recording(store, .add).save([energy, protein, entry])
            try Ops.recording(store, .delete).delete(uuids: [energy.uuid], now: Ops.madeAt)
            try expectEqual(Self.correlations(store), [["missing \(energy.uuid)", "quantity(20 g)"]])
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(plan.kind, .delete)
            expectEqual(plan.restored, 1)
            try expectEqual(Self.correlations(store), [["quantity(300 kcal)", "quantity(20 g)"]], "the entry names the copy")
            try expectEqual(Self.values(store), ["quantity(300 kcal)"], "one energy sample")
            let entries = try store.samples(ofType: Self.foodType, overlapping: Ops.everything)
            expectEqual(entries.count, 1)
            #expect(entries[0].uuid != entry.uuid, "the entry is rewritten as a copy")
            // The save undone: the entry's copy and both members go.
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Self.correlations(store), [])
            try expectEqual(Self.values(store), [])
            try expectEqual(Self.values(store, QuantityTypeIdentifier.dietaryProtein.rawValue), [])
        }
    }

    func aGreaterVersionOfAMemberIsNamedByItsCorrelation() throws {
        try Ops.withStore { store, _ in
            let first = try Self.energy(300, version: 1)
            let entry = Self.food([first])
            try store.save([first, entry])
            let anchor = try store.currentAnchor()
            let newer = try Self.energy(350, version: 2)
            let outcome = try Ops.recording(store, .add).saveReporting([newer])
            expectEqual(outcome.saved, [newer.uuid])
            expectEqual(outcome.replaced, [first.uuid])
            expectEqual(outcome.repointed.count, 1)
            try expectEqual(Self.values(store), ["quantity(350 kcal)"])
            try expectEqual(Self.correlations(store), [["quantity(350 kcal)"]])
            let found = try CorrelationQuery(type: .food, interval: Ops.everything).run(on: store)
            expectEqual(found.map { $0.objects.map(\.uuid) }, [[newer.uuid]])
            // Syncing clients see the entry go and its copy come, with the member, in one change.
            let changes = try store.changes(since: anchor)
            expectEqual(Set(changes.deleted.map(\.uuid)), [first.uuid, entry.uuid])
            expectEqual(Set(changes.added.map(\.uuid)), Set([newer.uuid] + outcome.repointed))
            // An undo brings both back: the entry's copy names the member's copy.
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(plan.restored, 2)
            try expectEqual(Self.values(store), ["quantity(300 kcal)"])
            try expectEqual(Self.correlations(store), [["quantity(300 kcal)"]])
        }
    }

    /// `undo --type` past a newer replacement that rewrote the same correlation is refused (a review found both
    /// copies of a food entry left half broken); undone newest first, the entry comes back whole.
    func undoByTypePastANewerReplacementOfTheSameEntryIsRefused() throws {
        try Ops.withStore { store, path in
            let energy = try Self.energy(300, version: 1)
            var protein = Sample(typeIdentifier: QuantityTypeIdentifier.dietaryProtein.rawValue, start: Ops.madeAt, end: Ops.madeAt,
                                 value: .quantity(Quantity(10, try HealthUnit(parsing: "g"))), source: "hkctl", created: Ops.madeAt)
            protein.metadata = [MetadataKeySyncIdentifier: "meal-1-protein", MetadataKeySyncVersion: 1]
            try store.save([energy, protein, Self.food([energy, protein])])
            try Ops.recording(store, .add).save([try Self.energy(350, version: 2)])
            var more = protein
            more.uuid = UUID()
            more.value = .quantity(Quantity(12, try HealthUnit(parsing: "g")))
            more.metadata[MetadataKeySyncVersion] = 2
            try Ops.recording(store, .add).save([more])
            try expectEqual(Self.correlations(store), [["quantity(350 kcal)", "quantity(12 g)"]])
            let before = Ops.tree(path)
            #expect(throws: UndoError.newerChangeInTheWay(type: "dietary-energy", shared: ["food"])) {
                try store.undo(source: "hkctl", touching: Self.energyType, now: Ops.undoneAt)
            }
            expectEqual(Ops.tree(path), before)
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            _ = try store.undo(source: "hkctl", touching: Self.energyType, now: Ops.undoneAt)
            try expectEqual(Self.correlations(store), [["quantity(300 kcal)", "quantity(10 g)"]])
        }
    }

    /// Corrections of two different readings share types, not samples: `undo --type` takes back the older one.
    func undoByTypePastACorrectionOfAnotherReadingIsAllowed() throws {
        try Ops.withStore { store, _ in
            let first = try Self.reading(128), second = try Self.reading(140)
            try Ops.recording(store, .add).save(first)
            try Ops.recording(store, .add).save(second)
            var systolic = first[0]
            systolic.uuid = UUID()
            systolic.value = .quantity(Quantity(121, try HealthUnit(parsing: "mmHg")))
            try Ops.recording(store, .replace).replace([first[0].uuid], with: [systolic], now: Ops.undoneAt)
            var diastolic = second[1]
            diastolic.uuid = UUID()
            diastolic.value = .quantity(Quantity(86, try HealthUnit(parsing: "mmHg")))
            try Ops.recording(store, .replace).replace([second[1].uuid], with: [diastolic], now: Ops.undoneAt)
            _ = try store.undo(source: "hkctl", touching: Self.systolicType, now: Ops.undoneAt)
            try expectEqual(Set(Self.correlations(store, Self.pressureType)),
                            [["quantity(128 mmHg)", "quantity(80 mmHg)"], ["quantity(140 mmHg)", "quantity(86 mmHg)"]])
        }
    }

    /// An import that meets a record's two versions in separate batches counts what its dry run counts (the entry it
    /// wrote naming the first version is not a stored sample replaced).
    func aDryRunCountsWhatSmallBatchesDo() throws {
        for batch in [20_000, 1] {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                let text = Support.export([Self.record("300", "1"), Self.entry("300", "1"), Self.record("350", "2")].joined(separator: "\n"))
                let planned = try Support.importXML(text, into: store, dryRun: true, batchSize: batch)
                let receipt = try Support.importXML(text, into: store, batchSize: batch)
                expectEqual(planned.counts, receipt.counts, "batch \(batch)")
                try expectEqual(Self.correlations(store), [["quantity(350 kcal)"]], "batch \(batch)")
            }
        }
    }

    func anUnchangedVersionLeavesTheCorrelationAlone() throws {
        try Ops.withStore { store, path in
            let first = try Self.energy(300, version: 2)
            try store.save([first, Self.food([first])])
            let before = Ops.tree(path)
            let outcome = try store.saveReporting([try Self.energy(350, version: 2)])
            expectEqual(outcome.repointed, [])
            expectEqual(Ops.tree(path), before)
        }
    }

    /// A correlation saved with a member whose version is not greater than the stored one's (so the member is not
    /// written) names the stored sample instead of a uuid nothing holds.
    func aCorrelationSavedWithAnUnchangedMemberNamesTheStoredOne() throws {
        for store in [InMemorySampleStore() as SampleStore, nil] {
            try Ops.withStore { file, _ in
                let store = store ?? file
                try store.save([try Self.energy(300, version: 2)])
                let older = try Self.energy(250, version: 1)
                let outcome = try store.saveReporting([older, Self.food([older])])
                expectEqual(outcome.unchanged, [older.uuid])
                try expectEqual(Self.values(store), ["quantity(300 kcal)"])
                try expectEqual(Self.correlations(store), [["quantity(300 kcal)"]], "\(type(of: store))")
            }
        }
    }

    /// A source's greater version leaves another source's correlation as it is (it may not change it): that one goes
    /// on naming the replaced sample.
    func anotherSourcesCorrelationIsLeftAlone() throws {
        try Ops.withStore { store, _ in
            let first = try Self.energy(300, version: 1)
            var entry = Self.food([first])
            entry.source = "Another app"
            try store.save([first, entry])
            let outcome = try store.saveReporting([try Self.energy(350, version: 2)])
            expectEqual(outcome.repointed, [])
            try expectEqual(store.samples(ofType: Self.foodType, overlapping: Ops.everything).map(\.uuid), [entry.uuid])
        }
    }

    func theMemoryStoreRepointsToo() throws {
        let store = InMemorySampleStore()
        let first = try Self.energy(300, version: 1)
        try store.save([first, Self.food([first])])
        let outcome = try store.saveReporting([try Self.energy(350, version: 2)])
        expectEqual(outcome.repointed.count, 1)
        try expectEqual(Self.values(store), ["quantity(350 kcal)"])
        try expectEqual(Self.correlations(store), [["quantity(350 kcal)"]])
    }

    /// A workout associated with a food entry whose energy gets a greater sync version: the entry is rewritten as a copy
    /// naming the new energy, and the workout (in place, keeping its uuid) names the entry's copy, in both stores.
    func aWorkoutHoldingAnEntryFollowsItsCopy() throws {
        func check(_ store: SampleStore) throws {
            let first = try Self.energy(300, version: 1)
            let entry = Self.food([first])
            var workout = Workout(activityType: .running, start: Ops.madeAt.addingTimeInterval(-1800),
                                  end: Ops.madeAt.addingTimeInterval(1800)).sample
            workout.source = "hkctl"
            if case .workout(var detail)? = workout.detail { detail.associatedUUIDs = [entry.uuid]; workout.detail = .workout(detail) }
            try store.save([first, entry, workout])
            let outcome = try store.saveReporting([try Self.energy(350, version: 2)])
            expectEqual(outcome.repointed.count, 2, "the entry and the workout")
            let entries = try store.samples(ofType: Self.foodType, overlapping: Ops.everything)
            expectEqual(entries.count, 1)
            #expect(entries.first?.uuid != entry.uuid)
            let workouts = try store.samples(ofType: Workout.typeIdentifier, overlapping: Ops.everything)
            expectEqual(workouts.map(\.uuid), [workout.uuid])
            expectEqual(workouts.map { $0.detail?.workout?.associatedUUIDs ?? [] }, [entries.map(\.uuid)])
        }
        try check(InMemorySampleStore())
        try Ops.withStore { store, _ in try check(store) }
    }

    /// A blood pressure reading: systolic `systolic` and diastolic 80 at `Ops.madeAt`.
    private static func reading(_ systolic: Double) throws -> [Sample] {
        let members = try [(QuantityTypeIdentifier.bloodPressureSystolic, systolic), (.bloodPressureDiastolic, 80)].map {
            Sample(typeIdentifier: $0.0.rawValue, start: Ops.madeAt, end: Ops.madeAt,
                   value: .quantity(Quantity($0.1, try HealthUnit(parsing: "mmHg"))), source: "hkctl", created: Ops.madeAt)
        }
        return members + [Correlation.sample(of: .bloodPressure, members: members, start: Ops.madeAt, end: Ops.madeAt,
                                             source: "hkctl", created: Ops.madeAt)]
    }

    func aCorrectedMemberIsNamedByItsCorrelation() throws {
        try Ops.withStore { store, path in
            let reading = try Self.reading(128)
            try store.save(reading)
            var corrected = reading[0]
            corrected.uuid = UUID()
            corrected.value = .quantity(Quantity(118, try HealthUnit(parsing: "mmHg")))
            try Ops.recording(store, .replace).replace([reading[0].uuid], with: [corrected], now: Ops.undoneAt)
            try expectEqual(Self.correlations(store, Self.pressureType), [["quantity(118 mmHg)", "quantity(80 mmHg)"]])
            try expectEqual(Self.values(store, Self.systolicType), ["quantity(118 mmHg)"])
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Self.correlations(store, Self.pressureType), [["quantity(128 mmHg)", "quantity(80 mmHg)"]])
            // A member moved outside its correlation's dates is refused, and nothing changes.
            let now = try #require(try store.samples(ofType: Self.systolicType, overlapping: Ops.everything).first)
            var moved = now
            moved.uuid = UUID()
            moved.start = Ops.madeAt.addingTimeInterval(3600)
            moved.end = moved.start
            let before = Ops.tree(path)
            let holder = try #require(try store.samples(ofType: Self.pressureType, overlapping: Ops.everything).first)
            #expect(throws: ChangeError.memberLeavesCorrelation(member: now.uuid, correlation: holder.uuid, type: Self.pressureType)) {
                try store.replace([now.uuid], with: [moved], now: Ops.undoneAt)
            }
            expectEqual(Ops.tree(path), before)
        }
    }

    // MARK: Imports

    private static func record(_ kcal: String, _ version: String) -> String {
        Support.record(energyType, value: kcal, unit: "kcal", source: "MyFitnessPal", start: "2024-03-12 13:00:00 +0100",
                       end: "2024-03-12 13:00:00 +0100",
                       metadata: [(MetadataKeySyncIdentifier, "meal-1"), (MetadataKeySyncVersion, version)],
                       created: "2024-03-12 21:05:00 +0100")
    }

    private static func entry(_ kcal: String, _ version: String) -> String {
        """
         <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" creationDate="2024-03-12 21:05:00 +0100" startDate="2024-03-12 13:00:00 +0100" endDate="2024-03-12 13:00:00 +0100">
          <MetadataEntry key="HKFoodType" value="Banana"/>
        \(record(kcal, version))
         </Correlation>
        """
    }

    func aLaterExportsGreaterVersionReplacesTheMemberOnce() throws {
        // The top-level copies before the correlations (as the Health app writes them), after, and in batches of one.
        let layouts: [(String, (String, String) -> [String], Int)] = [
            ("records first", { [Self.record($0, $1), Self.entry($0, $1)] }, 20_000),
            ("correlations first", { [Self.entry($0, $1), Self.record($0, $1)] }, 20_000),
            ("batches of one", { [Self.record($0, $1), Self.entry($0, $1)] }, 1),
        ]
        for (how, parts, batch) in layouts {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                // Each import an operation of its own, as each run of `hkctl import` is.
                var recorded: JSONFileStore {
                    JSONFileStore(path: path, timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Ops.madeAt))
                }
                let store = JSONFileStore(path: path, timeZone: .gmt)
                let first = Support.export(parts("300", "1").joined(separator: "\n"))
                let later = Support.export(parts("350", "2").joined(separator: "\n"))
                _ = try Support.importXML(first, into: recorded, batchSize: batch)
                try expectEqual(Self.correlations(store), [["quantity(300 kcal)"]], "\(how)")
                let before = Ops.tree(path)
                let planned = try Support.importXML(later, into: store, dryRun: true, batchSize: batch)
                expectEqual(Ops.tree(path), before, "\(how): a dry run writes nothing")
                let receipt = try Support.importXML(later, into: recorded, batchSize: batch)
                for counts in [planned.counts, receipt.counts] {
                    expectEqual(counts[Self.energyType]?.replaced, 1, "\(how): \(counts)")
                    expectEqual(counts[Self.energyType]?.added, 0, "\(how): \(counts)")
                    expectEqual(counts[Self.foodType]?.replaced, 1, "\(how): \(counts)")
                    expectEqual(counts[Self.foodType]?.alreadyPresent, 1, "\(how): \(counts)")
                }
                try expectEqual(Self.values(store), ["quantity(350 kcal)"], "\(how)")
                try expectEqual(Self.correlations(store), [["quantity(350 kcal)"]], "\(how)")
                // Either export again changes nothing.
                let settled = Ops.tree(path)
                for text in [later, first] {
                    let again = try Support.importXML(text, into: store, batchSize: batch)
                    expectEqual(again.counts.values.map { $0.added + $0.replaced }.reduce(0, +), 0, "\(how): \(again.counts)")
                }
                expectEqual(Ops.tree(path).filter { !$0.key.hasSuffix(".summary") }.count, settled.count, "\(how)")
                try expectEqual(Self.correlations(store), [["quantity(350 kcal)"]], "\(how)")
                // Undoing the later import brings the first version back, named by its entry.
                _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
                try expectEqual(Self.values(store), ["quantity(300 kcal)"], "\(how)")
                try expectEqual(Self.correlations(store), [["quantity(300 kcal)"]], "\(how)")
            }
        }
    }

    /// An export's new food entry holding a keyed record whose key the store holds under another uuid (saved through
    /// the library) at an equal version names the stored sample (a review found it naming a uuid never stored).
    func anImportedEntryNamesTheStoredSampleOfItsRecordsKey() throws {
        for batch in [20_000, 1] {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                var stored = try Self.energy(300, version: 1)
                stored.source = "MyFitnessPal"
                stored.start = Date(timeIntervalSince1970: 1_710_244_800)
                stored.end = stored.start
                try store.save([stored])
                let text = Support.export([Self.entry("300", "1"), Self.record("300", "1")].joined(separator: "\n"))
                let planned = try Support.importXML(text, into: store, dryRun: true, batchSize: batch)
                let receipt = try Support.importXML(text, into: store, batchSize: batch)
                expectEqual(planned.counts, receipt.counts)
                expectEqual(receipt.counts[Self.foodType]?.added, 1, "\(receipt.counts)")
                expectEqual(receipt.counts[Self.energyType]?.alreadyPresent, 2, "\(receipt.counts)")
                try expectEqual(Self.correlations(store), [["quantity(300 kcal)"]], "batch \(batch)")
                try expectEqual(store.samples(ofType: Self.energyType, overlapping: Ops.everything).map(\.uuid), [stored.uuid])
            }
        }
    }

    /// hkctl's jsonl backup writes a correlation after the records it holds, so restoring one into a store that holds a
    /// record's sync key under another uuid names the stored sample (a review found the backup writing food entries
    /// before dietary energy, and the restored entry naming a uuid not stored).
    func aBackupRestoresAnEntryNamingTheStoredSampleOfItsRecordsKey() throws {
        try Support.withTemporaryDirectory { folder in
            let source = JSONFileStore(path: folder + "/source", timeZone: .gmt)
            let energy = try Self.energy(300, version: 1)
            try source.save([energy, Self.food([energy])])
            let backup = folder + "/backup.jsonl"
            _ = try SampleExporter(store: source).export(types: nil, interval: Ops.everything, format: .jsonl, exportDate: Ops.madeAt,
                                                         to: FileDestination(path: backup))
            let lines = try String(contentsOfFile: backup, encoding: .utf8).split(separator: "\n")
            expectEqual(lines.map { $0.contains("\"type\":\"\(Self.foodType)\"") }, [false, true], "\(lines)")
            let target = JSONFileStore(path: folder + "/target", timeZone: .gmt)
            var same = try Self.energy(300, version: 1)
            same.uuid = UUID()
            try target.save([same])
            let receipt = try HealthImporter(store: target).importFile(atPath: backup)
            expectEqual(receipt.counts[Self.foodType]?.added, 1, "\(receipt.counts)")
            try expectEqual(Self.correlations(target), [["quantity(300 kcal)"]])
            try expectEqual(target.samples(ofType: Self.energyType, overlapping: Ops.everything).map(\.uuid), [same.uuid])
        }
    }

    func twoEntriesHoldingOneKeyedRecordShareIt() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let text = Support.export([Self.record("300", "1"), Self.entry("300", "1"), Self.record("300", "1"),
                                       Self.entry("300", "1")].joined(separator: "\n"))
            let receipt = try Support.importXML(text, into: store)
            expectEqual(receipt.counts[Self.energyType]?.added, 1, "\(receipt.counts)")
            try expectEqual(Self.values(store), ["quantity(300 kcal)"])
            // One sample of that key, named by both (the export's two entries are one identity: matched one for one).
            let entries = try Self.correlations(store)
            #expect(!entries.isEmpty && entries.allSatisfy { $0 == ["quantity(300 kcal)"] }, "\(entries)")
        }
    }
}

/// The checks ``CorrelationMemberReplacementTests/checks(_:)`` runs.
private let correlationMemberReplacementTestsChecks: [Check<CorrelationMemberReplacementTests>] = [
    Check("aGreaterVersionOfAMemberIsNamedByItsCorrelation", CorrelationMemberReplacementTests.aGreaterVersionOfAMemberIsNamedByItsCorrelation),
    Check("aMemberDeletedAloneIsNamedAgainWhenTheDeleteIsUndone",
          CorrelationMemberReplacementTests.aMemberDeletedAloneIsNamedAgainWhenTheDeleteIsUndone),
    Check("undoByTypePastANewerReplacementOfTheSameEntryIsRefused",
          CorrelationMemberReplacementTests.undoByTypePastANewerReplacementOfTheSameEntryIsRefused),
    Check("undoByTypePastACorrectionOfAnotherReadingIsAllowed",
          CorrelationMemberReplacementTests.undoByTypePastACorrectionOfAnotherReadingIsAllowed),
    Check("aDryRunCountsWhatSmallBatchesDo", CorrelationMemberReplacementTests.aDryRunCountsWhatSmallBatchesDo),
    Check("anUnchangedVersionLeavesTheCorrelationAlone", CorrelationMemberReplacementTests.anUnchangedVersionLeavesTheCorrelationAlone),
    Check("aCorrelationSavedWithAnUnchangedMemberNamesTheStoredOne",
          CorrelationMemberReplacementTests.aCorrelationSavedWithAnUnchangedMemberNamesTheStoredOne),
    Check("anotherSourcesCorrelationIsLeftAlone", CorrelationMemberReplacementTests.anotherSourcesCorrelationIsLeftAlone),
    Check("theMemoryStoreRepointsToo", CorrelationMemberReplacementTests.theMemoryStoreRepointsToo),
    Check("aWorkoutHoldingAnEntryFollowsItsCopy", CorrelationMemberReplacementTests.aWorkoutHoldingAnEntryFollowsItsCopy),
    Check("anImportedEntryNamesTheStoredSampleOfItsRecordsKey",
          CorrelationMemberReplacementTests.anImportedEntryNamesTheStoredSampleOfItsRecordsKey),
    Check("aCorrectedMemberIsNamedByItsCorrelation", CorrelationMemberReplacementTests.aCorrectedMemberIsNamedByItsCorrelation),
    Check("aLaterExportsGreaterVersionReplacesTheMemberOnce", CorrelationMemberReplacementTests.aLaterExportsGreaterVersionReplacesTheMemberOnce),
    Check("aBackupRestoresAnEntryNamingTheStoredSampleOfItsRecordsKey",
          CorrelationMemberReplacementTests.aBackupRestoresAnEntryNamingTheStoredSampleOfItsRecordsKey),
    Check("twoEntriesHoldingOneKeyedRecordShareIt", CorrelationMemberReplacementTests.twoEntriesHoldingOneKeyedRecordShareIt),
]
