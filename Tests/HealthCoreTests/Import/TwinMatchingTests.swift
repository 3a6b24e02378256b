import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// Issue 29, items 1 and 3: identical twins (records equal in everything, told apart by their occurrence number)
    /// are matched one for one, whatever uuid a stored twin has and in whatever order they come. A copy an undone
    /// delete restored stands for the twin it replaces; a backup restores every twin, however many.
    struct TwinMatchingTests {
        private typealias Support = ImportTestSupport
        private static let steps = "HKQuantityTypeIdentifierStepCount"
        private static let all = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        private static let madeAt = Date(timeIntervalSince1970: 1_717_243_200)

        /// An export of `count` identical step records (value 7) and one other record (value 9).
        private static func export(twins count: Int) -> String {
            Support.export((Array(repeating: Support.record(value: "7"), count: count) + [Support.record(value: "9")])
                .joined(separator: "\n"))
        }

        /// The uuid an import gives the `position`th twin (from 1).
        private static func twinUUID(_ position: Int, in store: JSONFileStore) throws -> UUID {
            let twin = try #require(try stored(store).first { $0.quantity?.value == 7 })
            var identity = RecordIdentity(catalogue: .standard)
            let base = identity.uuid(for: twin)
            return position == 1 ? base : RecordIdentity.occurrence(position, of: base)
        }

        private static func stored(_ store: JSONFileStore) throws -> [Sample] {
            try store.samples(ofType: steps, overlapping: all)
        }

        private static func twinCount(_ store: JSONFileStore) throws -> Int {
            try stored(store).filter { $0.quantity?.value == 7 }.count
        }

        private static func importFile(_ path: String, into store: JSONFileStore) throws -> ImportReceipt.Counts {
            try HealthImporter(store: store).importFile(atPath: path).counts[steps] ?? ImportReceipt.Counts()
        }

        /// `store`'s jsonl export (a backup) at `path`.
        private static func backup(_ store: JSONFileStore, to path: String) throws -> String {
            _ = try SampleExporter(store: store).export(types: nil, interval: all, format: .jsonl, exportDate: madeAt,
                                                        to: FileDestination(path: path))
            return path
        }

        /// Deletes the twins at `positions` (one delete) and undoes the delete.
        private static func deleteAndUndo(_ positions: [Int], in store: JSONFileStore) throws {
            let uuids = try positions.map { try twinUUID($0, in: store) }
            let deleting = JSONFileStore(path: store.path, recording: OperationRecording(kind: .delete, source: "hkctl", date: madeAt))
            _ = try deleting.delete(uuids: uuids, now: madeAt)
            let plan = try store.undo(source: "hkctl", now: madeAt)
            #expect(plan.kind == .delete && plan.total == positions.count)
        }

        /// Every set of twin positions to delete: each one, each pair, all.
        static let cases: [(twins: Int, deleted: [Int])] = {
            // Spelled out step by step: as one expression it took the type checker 20 s.
            var cases: [(twins: Int, deleted: [Int])] = []
            for count in [2, 3] {
                for position in 1...count { cases.append((twins: count, deleted: [position])) }
                if count == 3 {
                    let pairs: [[Int]] = [[1, 2], [2, 3], [1, 3]]
                    for pair in pairs { cases.append((twins: 3, deleted: pair)) }
                }
                cases.append((twins: count, deleted: Array(1...count)))
            }
            return cases
        }()

        @Test(arguments: cases)
        func reimportingAfterATwinDeleteIsUndoneAddsNothing(twins: Int, deleted: [Int]) throws {
            try Support.withTemporaryDirectory { folder in
                let export = try Support.write(Self.export(twins: twins), in: folder)
                let store = JSONFileStore(path: folder + "/store")
                try expectEqual(Self.importFile(export, into: store).added, twins + 1)
                try Self.deleteAndUndo(deleted, in: store)
                try expectEqual(Self.twinCount(store), twins)
                let again = try Self.importFile(export, into: store)
                #expect(again.added == 0 && again.alreadyPresent == twins + 1, "\(again)")
                try expectEqual(Self.twinCount(store), twins)
                try expectEqual(Self.importFile(export, into: store).added, 0)
            }
        }

        /// The same with a backup made before the delete: restoring it finds the restored copies.
        @Test(arguments: cases)
        func restoringABackupMadeBeforeAnUndoneTwinDeleteAddsNothing(twins: Int, deleted: [Int]) throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try Self.importFile(try Support.write(Self.export(twins: twins), in: folder), into: store)
                let jsonl = try Self.backup(store, to: folder + "/before.jsonl")
                try Self.deleteAndUndo(deleted, in: store)
                let restore = try Self.importFile(jsonl, into: store)
                #expect(restore.added == 0 && restore.alreadyPresent == twins + 1, "\(restore)")
                try expectEqual(Self.twinCount(store), twins)
            }
        }

        /// A backup made after the undo (holding the copies) restores every twin into a fresh store, into a store
        /// holding one twin, and into a store that imported the export; itself it finds whole.
        @Test(arguments: cases)
        func aBackupHoldingRestoredCopiesRestoresEveryTwinOnce(twins: Int, deleted: [Int]) throws {
            try Support.withTemporaryDirectory { folder in
                let export = try Support.write(Self.export(twins: twins), in: folder)
                let store = JSONFileStore(path: folder + "/store")
                _ = try Self.importFile(export, into: store)
                try Self.deleteAndUndo(deleted, in: store)
                let jsonl = try Self.backup(store, to: folder + "/after.jsonl")
                try expectEqual(Self.importFile(jsonl, into: store).added, 0)

                let fresh = JSONFileStore(path: folder + "/fresh")
                try expectEqual(Self.importFile(jsonl, into: fresh).added, twins + 1)
                try expectEqual(Self.twinCount(fresh), twins)

                let one = JSONFileStore(path: folder + "/one")
                _ = try Self.importFile(try Support.write(Self.export(twins: 1), named: "one.xml", in: folder), into: one)
                let restore = try Self.importFile(jsonl, into: one)
                #expect(restore.added == twins - 1 && restore.alreadyPresent == 2, "\(restore)")
                try expectEqual(Self.twinCount(one), twins)

                let imported = JSONFileStore(path: folder + "/imported")
                _ = try Self.importFile(export, into: imported)
                try expectEqual(Self.importFile(jsonl, into: imported).added, 0)
                try expectEqual(Self.twinCount(imported), twins)
                // And the export into the store the backup restored.
                try expectEqual(Self.importFile(export, into: fresh).added, 0)
                try expectEqual(Self.twinCount(fresh), twins)
            }
        }

        /// Item 3: a backup of N identical twins restores all N into a store that holds one of them (an interrupted
        /// restore run again), for any N: no fixed number of occurrences.
        @Test(arguments: [2, 8, 9, 10, 12, 40])
        func aBackupOfManyTwinsRestoresEveryOneIntoAStoreHoldingOne(twins: Int) throws {
            try Support.withTemporaryDirectory { folder in
                let source = JSONFileStore(path: folder + "/source")
                _ = try Self.importFile(try Support.write(Self.export(twins: twins), in: folder), into: source)
                try expectEqual(Self.twinCount(source), twins)
                let jsonl = try Self.backup(source, to: folder + "/backup.jsonl")
                for held in Set([1, twins / 2, twins]).sorted() {
                    let target = JSONFileStore(path: folder + "/target-\(held)")
                    _ = try Self.importFile(try Support.write(Self.export(twins: held), named: "held.xml", in: folder), into: target)
                    let restore = try Self.importFile(jsonl, into: target)
                    #expect(restore.added == twins - held && restore.alreadyPresent == held + 1, "holding \(held): \(restore)")
                    try expectEqual(Self.twinCount(target), twins)
                    #expect(Set(try Self.stored(target).map(\.uuid)) == Set(try Self.stored(source).map(\.uuid)))
                    try expectEqual(Self.importFile(jsonl, into: target).added, 0)
                }
            }
        }

        /// A twin deleted (not undone) comes back with a re-import, whichever position it had, as any deleted record
        /// does; the others are found.
        @Test(arguments: [1, 2, 3])
        func reimportingAfterATwinIsDeletedBringsItBack(position: Int) throws {
            try Support.withTemporaryDirectory { folder in
                let export = try Support.write(Self.export(twins: 3), in: folder)
                let store = JSONFileStore(path: folder + "/store")
                _ = try Self.importFile(export, into: store)
                _ = try store.delete(uuids: [try Self.twinUUID(position, in: store)], now: Self.madeAt)
                try expectEqual(Self.twinCount(store), 2)
                let again = try Self.importFile(export, into: store)
                #expect(again.added == 1 && again.alreadyPresent == 3, "\(again)")
                try expectEqual(Self.twinCount(store), 3)
                try expectEqual(Self.importFile(export, into: store).added, 0)
            }
        }

        /// Held records weigh on the index's capacity: a restore into a store whose samples all have other uuids
        /// (held one each) with a capacity that drops months as it goes still matches every twin one for one, since a
        /// backup lists a month's samples together.
        @Test func heldRecordsWithinASmallCapacityStillMatchOneForOne() throws {
            try Support.withTemporaryDirectory { folder in
                // Three months, a reading a day, each twice (twins).
                let records = (0..<90).flatMap { day -> [String] in
                    let date = Calendar(identifier: .gregorian).date(byAdding: .day, value: day, to: Date(timeIntervalSince1970: 1_704_103_200))!
                    let text = ISODate.format(date, in: .gmt).prefix(10) + " 08:00:00 -0000"
                    let record = Support.record(value: "\(day + 1)", start: String(text), end: String(text))
                    return [record, record]
                }
                let source = JSONFileStore(path: folder + "/source")
                _ = try Self.importFile(try Support.write(Support.export(records.joined(separator: "\n")), in: folder), into: source)
                let jsonl = try Self.backup(source, to: folder + "/backup.jsonl")
                // The same samples under other uuids (as `hkctl add` would give them), one of each pair.
                let other = JSONFileStore(path: folder + "/other")
                var seen = Set<Double>()
                try other.save(try Self.stored(source).filter { seen.insert($0.quantity!.value).inserted }.map { sample in
                    var copy = sample
                    copy.uuid = UUID()
                    return copy
                })
                let receipt = try HealthImporter(store: other, batchSize: 7, identityCapacity: 200).importFile(atPath: jsonl)
                #expect(receipt.counts[Self.steps]?.added == 90 && receipt.counts[Self.steps]?.alreadyPresent == 90, "\(receipt.counts)")
                let values = try Self.stored(other).map { $0.quantity!.value }
                #expect(values.count == 180 && Set(values).count == 90)
            }
        }

        /// Visible samples per identity.
        private static func census(_ store: JSONFileStore) throws -> [UUID: Int] {
            var identity = RecordIdentity(catalogue: .standard)
            var counts: [UUID: Int] = [:]
            for sample in try stored(store) { counts[identity.uuid(for: sample), default: 0] += 1 }
            return counts
        }

        /// What an input holds per identity: the census of a store it was imported into alone.
        private static func census(ofInput path: String, in folder: String) throws -> [UUID: Int] {
            let alone = JSONFileStore(path: folder + "/alone-\(UUID().uuidString)")
            _ = try importFile(path, into: alone)
            return try census(alone)
        }

        /// The rule behind every case above, on random stores and inputs: records are matched to stored samples one
        /// for one (by uuid, else by identity), in any order, so after an import each identity has as many samples as
        /// the larger of what the store held and what the input holds: nothing doubled, nothing lost. Stores are made
        /// by imports, deletes of random twins and undos; inputs are exports and jsonl backups (in their order,
        /// reversed, or shuffled).
        @Test(arguments: 0..<4)
        func anyImportLeavesEachIdentityAtTheLargerOfStoreAndInput(seed: Int) throws {
            var random = IndependentTestKit.SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
            try Support.withTemporaryDirectory { folder in
                var files = 0
                func randomExport() throws -> String {
                    // Three readings (two at one time, so their twins interleave in a backup), each 0 to 4 times.
                    var records: [String] = []
                    for (value, start) in [("7", "08:00"), ("8", "08:00"), ("9", "09:00")] {
                        let record = Support.record(value: value, start: "2024-05-01 \(start):00 -0700", end: "2024-05-01 \(start):00 -0700")
                        records += Array(repeating: record, count: Int.random(in: 0...4, using: &random))
                    }
                    files += 1
                    return try Support.write(Support.export(records.joined(separator: "\n")), named: "export-\(files).xml", in: folder)
                }
                func randomStore() throws -> JSONFileStore {
                    files += 1
                    let store = JSONFileStore(path: folder + "/store-\(files)")
                    _ = try Self.importFile(try randomExport(), into: store)
                    for _ in 0..<Int.random(in: 0...2, using: &random) {
                        let samples = try Self.stored(store)
                        guard !samples.isEmpty else { break }
                        let doomed = samples.filter { _ in Bool.random(using: &random) }.map { $0.uuid }
                        guard !doomed.isEmpty else { continue }
                        let deleting = JSONFileStore(path: store.path,
                                                     recording: OperationRecording(kind: .delete, source: "hkctl", date: Self.madeAt))
                        _ = try deleting.delete(uuids: doomed, now: Self.madeAt)
                        if Bool.random(using: &random) { _ = try store.undo(source: "hkctl", now: Self.madeAt) }
                    }
                    return store
                }
                func randomInput() throws -> String {
                    guard Bool.random(using: &random) else { return try randomExport() }
                    files += 1
                    let jsonl = try Self.backup(try randomStore(), to: folder + "/backup-\(files).jsonl")
                    var lines = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n").map(String.init)
                    if lines.isEmpty { return try randomExport() }
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: break
                    case 1: lines.reverse()
                    default: lines.shuffle(using: &random)
                    }
                    try (lines.joined(separator: "\n") + "\n").write(toFile: jsonl, atomically: true, encoding: .utf8)
                    return jsonl
                }
                for round in 0..<6 {
                    let store = try randomStore()
                    for step in 0..<3 {
                        let input = try randomInput()
                        let before = try Self.census(store)
                        let held = try Self.census(ofInput: input, in: folder)
                        _ = try Self.importFile(input, into: store)
                        let after = try Self.census(store)
                        for identity in Set(before.keys).union(held.keys) {
                            let expected = max(before[identity] ?? 0, held[identity] ?? 0)
                            #expect(after[identity] ?? 0 == expected,
                                    "seed \(seed) round \(round) step \(step): store \(before[identity] ?? 0), input \(held[identity] ?? 0)")
                        }
                        expectEqual(Set(after.keys), Set(before.keys).union(held.keys))
                    }
                }
            }
        }
    }
}
