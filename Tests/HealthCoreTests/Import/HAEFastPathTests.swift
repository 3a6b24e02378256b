import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Health Auto Export batches planned without reading the store back (``HAEImportRun``) against the path that
    /// reads every batch: the stores must be the same byte for byte (the random uuids of new samples aside), for
    /// fresh stores, re-sends, grown re-sends, other forms and stores holding an export's samples; and the decision
    /// itself, case by case.
    struct HAEFastPathTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: hAEFastPathTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        static let berlin = TimeZone(identifier: "Europe/Berlin")!
        static let fixtures = HealthAutoExportTests.fixtures
        /// Fixed, so both stores' `created` dates and records are equal.
        static let now = ExportDateParser.parse("2024-12-31 12:00:00 +0000")!

        static func store(_ path: String) -> JSONFileStore {
            JSONFileStore(path: path, timeZone: IndependentTestKit.zone("Europe/Berlin"), clock: { HAEFastPathTests.now },
                          recording: OperationRecording(kind: .import, source: "hkctl", date: HAEFastPathTests.now))
        }

        /// Minute-level points of several metrics over `days` days from 2024-03-29 (across the DST change), heart rate
        /// as Min/Avg/Max, sources that vary; `changed` alters every seventh value and adds points (a grown re-send).
        static func minutePayload(days: Int, seed: UInt64, changed: Bool = false, unit: Int = 60) -> String {
            var state = seed
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            let start = ExportDateParser.parse("2024-03-29 00:00:00 +0100")!
            let zone = berlin
            func stamp(_ date: Date) -> String {
                ExportDateParser.format(date, offsetSeconds: zone.secondsFromGMT(for: date))
            }
            let metrics: [(name: String, units: String)] = [("step_count", "count"), ("heart_rate", "count/min"),
                                                            ("active_energy", "kcal"), ("blood_oxygen_saturation", "%")]
            var parts: [String] = []
            for metric in metrics {
                var points: [String] = []
                var index = 0
                for minute in stride(from: 0, to: days * 1440, by: unit) {
                    guard next(3) > 0 || (changed && index % 5 == 0) else { continue }
                    index += 1
                    let date = start.addingTimeInterval(Double(minute * 60 + next(max(1, unit / 2)) * 60))
                    let bump = changed && index % 7 == 0 ? 3 : 0
                    let source = ["Jane’s Apple Watch", "Jane’s Apple Watch|Jane’s iPhone", "Jane’s iPhone"][next(3)]
                    switch metric.name {
                    case "heart_rate":
                        let avg = 60 + next(40) + bump, spread = next(3) * 4
                        points.append("{\n  \"Min\" : \(avg - spread),\n  \"Avg\" : \(avg),\n  \"Max\" : \(avg + spread),\n  \"date\" : \"\(stamp(date))\",\n  \"source\" : \"\(source)\"\n}")
                    case "blood_oxygen_saturation":
                        points.append("{\"qty\":\(94 + next(6)),\"date\":\"\(stamp(date))\"}")
                    default:
                        points.append("{\"qty\":\(1 + next(200) + bump),\"date\":\"\(stamp(date))\",\"source\":\"\(source)\"}")
                    }
                }
                parts.append("{\"name\":\"\(metric.name)\",\"units\":\"\(metric.units)\",\"data\":[" + points.joined(separator: ",\n") + "]}")
            }
            return "{\"data\":{\"metrics\":[" + parts.joined(separator: ",\n") + "]}}"
        }

        enum Step {
            case json(String, name: String)
            case fixture(String)
            /// An Apple Health export (`export.xml`) imported by its own path.
            case xml(String)
            /// A payload pushed through a program.
            case push(String, through: String)
        }

        /// What the fast store is compared with: a store that reads every batch back, or one whose run writes unread
        /// batches from samples built for every point (no ``HAEDirectPoints``).
        enum Reference { case everyBatchRead, samplesBuilt }

        /// Runs `steps` into two stores, the fast one and `reference`, and compares receipts and files after each step.
        /// - Returns: How many batches the fast store planned without reading, how many it read, how many samples
        ///   it wrote straight from their points, and how many batches it made ahead while the one before was written
        ///   (``HAEWriteAhead``) and then wrote unread or planned.
        @discardableResult
        static func compare(_ steps: [Step], batchSize: Int, reference: Reference = .everyBatchRead) throws
            -> (unread: Int, read: Int, direct: Int, ahead: Int, declinedAhead: Int) {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let fast = store(folder + "/fast"), plain = store(folder + "/plain")
                var unread = 0, read = 0, direct = 0, ahead = 0, declinedAhead = 0
                for (number, step) in steps.enumerated() {
                    var receipts: [ImportReceipt] = []
                    for (target, everyBatch) in [(fast, false), (plain, true)] {
                        let importer = HealthImporter(store: target, batchSize: batchSize, timeZone: berlin)
                        importer.readsEveryHAEBatch = everyBatch && reference == .everyBatchRead
                        importer.writesHAEDirectly = !everyBatch
                        switch step {
                        case let .json(text, name):
                            receipts.append(try importer.importHealthAutoExport(HealthAutoExportPayload(bytes: Array(text.utf8), name: name),
                                                                                receivedThrough: nil))
                        case let .push(text, through):
                            receipts.append(try importer.importHealthAutoExport(HealthAutoExportPayload(bytes: Array(text.utf8), name: "push"),
                                                                                receivedThrough: through))
                        case let .fixture(name):
                            receipts.append(try importer.importFile(atPath: fixtures + "/" + name))
                        case let .xml(text):
                            receipts.append(try importer.importFile(atPath: ImportTestSupport.write(text, named: "export-\(number).xml", in: folder)))
                        }
                        if !everyBatch, let run = importer.lastHAERun {
                            unread += run.unread
                            read += run.read
                            direct += run.direct
                            ahead += run.writtenAhead
                            declinedAhead += run.declinedAhead
                        }
                    }
                    expectEqual(receipts[0].counts, receipts[1].counts, "step \(number)")
                    expectEqual(receipts[0].problems.map(\.reason), receipts[1].problems.map(\.reason), "step \(number)")
                    let (left, right) = (try canonicalFiles(fast.path), try canonicalFiles(plain.path))
                    expectEqual(left.keys.sorted(), right.keys.sorted(), "step \(number)")
                    for (name, text) in right where left[name] != text {
                        let pair = zip((left[name] ?? "").split(separator: "\n"), text.split(separator: "\n")).first { $0 != $1 }
                        Issue.record("step \(number): \(name) differs: \(pair.map { "\($0)\n\($1)" } ?? "in length")")
                    }
                }
                return (unread, read, direct, ahead, declinedAhead)
            }
        }

        /// Every file of the store but its lock, with each uuid replaced by its rank of first appearance (files in
        /// path order): new samples get random uuids, the rest must be equal.
        static func canonicalFiles(_ root: String) throws -> [String: String] {
            var paths: [String] = []
            let enumerator = FileManager.default.enumerator(atPath: root)
            while let relative = enumerator?.nextObject() as? String {
                var isFolder: ObjCBool = false
                guard relative != ".lock", FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder),
                      !isFolder.boolValue else { continue }
                paths.append(relative)
            }
            var ranks: [Substring: Int] = [:]
            var files: [String: String] = [:]
            for path in paths.sorted() {
                let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)), as: UTF8.self)
                files[path] = text.replacing(/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/) { match in
                    let key = match.output
                    if ranks[key] == nil { ranks[key] = ranks.count }
                    return "uuid-\(ranks[key]!)"
                }
            }
            return files
        }

        // MARK: - Both paths write the same store

        func minutePointsFreshResentAndGrownGiveTheSameStore() throws {
            // One day in batches of 47: as many batches as two days in batches of 97 gave, at two thirds of the time.
            let year = Self.minutePayload(days: 1, seed: 7, unit: 5)
            let counts = try Self.compare([
                .json(year, name: "a.json"),
                .json(year, name: "a-again.json"),
                .json(Self.minutePayload(days: 1, seed: 7, changed: true, unit: 5), name: "grown.json"),
                // Per hour after per minute: another form of the same time.
                .json(Self.minutePayload(days: 1, seed: 9, unit: 60), name: "hours.json"),
            ], batchSize: 47)
            // Small batches split heart-rate points (three samples each) across batches; the first import's batches
            // after the first are not read back unless such a split point meets its other samples.
            #expect(counts.unread > 10, "\(counts)")
            #expect(counts.read > 0, "\(counts)")
        }

        func theHandMadeFixturesGiveTheSameStoreInAnyOrder() throws {
            let names = ["day-steps.json", "heart-rate-minutes.json", "sleep-stages.json", "shapes.json", "bad-points.json",
                         "day-steps-grown.json", "sleep-nights.json", "overlap-hae.json"]
            for batchSize in [1, 2, 20_000] {
                try Self.compare(names.map { .fixture($0) }, batchSize: batchSize)
                try Self.compare(names.reversed().map { .fixture($0) } + names.map { .fixture($0) }, batchSize: batchSize)
            }
        }

        func onTopOfAnExportsSamplesBothPathsAgree() throws {
            let export = try String(contentsOfFile: Self.fixtures + "/overlap-export.xml", encoding: .utf8)
            try Self.compare([.xml(export), .fixture("overlap-hae.json"), .fixture("day-steps.json")], batchSize: 3)
            // An export's steps inside the generated days: covered points and remainders in the read batches.
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let steps = (0..<30).map { index in
                ImportTestSupport.record(value: "\(100 + index)", start: "2024-03-30 \(10 + index / 6):\(two(10 * (index % 6))):00 +0100",
                                         end: "2024-03-30 \(10 + index / 6):\(two(10 * (index % 6) + 5)):00 +0100")
            }.joined(separator: "\n")
            try Self.compare([.xml(ImportTestSupport.export(steps)), .json(Self.minutePayload(days: 3, seed: 3, unit: 5), name: "b.json"),
                              .xml(ImportTestSupport.export(steps))], batchSize: 50)
        }

        /// Points written straight from their columns (``HAEDirectPoints``) against the same runs building every point as
        /// a sample: the same stores and receipts for every shape (quantities, heart rate as one reading and as Min/Avg/Max,
        /// percentages, blood pressure, sleep in both forms, workouts, state of mind, unknown metrics kept, refused
        /// points, a merged source too long, a push through a program), in batches that mix both kinds and in one.
        func pointsWrittenDirectlyGiveTheSameStoreAsSamplesBuilt() throws {
            let independent = ["special-shapes.json", "units-water-percent-caffeine.json", "heart-rate-unaggregated-min-max.json",
                               "merged-source-over-200-characters.json", "pretty-nbsp-source-17-digits.json", "week-steps.json",
                               "travel-day-berlin.json", "only-workouts.json", "sleep-five-forms.json", "heart-rate-hours-first.json",
                               "../hae-independent2/all-metric-names.json", "../hae-mood/moods.json", "../hae-workouts/v2-workouts.json"]
                .map { "../hae-independent/" + $0 }
            #expect(independent.allSatisfy { FileManager.default.fileExists(atPath: Self.fixtures + "/" + $0) })
            let handMade = ["day-steps.json", "heart-rate-minutes.json", "sleep-stages.json", "shapes.json", "bad-points.json",
                            "day-steps-grown.json", "sleep-nights.json", "overlap-hae.json"]
            // Batches of 3 mix built and direct samples in most batches (each batch writes and syncs: the hand-made
            // fixtures only).
            var direct = try Self.compare(handMade.map { .fixture($0) }, batchSize: 3, reference: .samplesBuilt).direct
            direct += try Self.compare((handMade + independent).map { .fixture($0) }, batchSize: 20_000, reference: .samplesBuilt).direct
            #expect(direct > 30, "\(direct)")
            // Minute-level days: fresh, pushed, grown, the same points twice in one payload (the second time in another
            // batch: met through the run's notes); batches that end inside a metric and hold two.
            let minutes = Self.minutePayload(days: 1, seed: 5, unit: 10)
            let inner = minutes.dropFirst("{\"data\":{\"metrics\":[".count).dropLast(3)
            let twice = "{\"data\":{\"metrics\":[" + inner + ",\n" + inner + "]}}"
            for batchSize in [250, 20_000] {
                let counts = try Self.compare([
                    .json(minutes, name: "m.json"),
                    .push(Self.minutePayload(days: 1, seed: 6, unit: 13), through: "Health Auto Export"),
                    .json(Self.minutePayload(days: 1, seed: 5, changed: true, unit: 10), name: "grown.json"),
                    .fixture("heart-rate-minutes.json"),
                    .json(twice, name: "twice.json"),
                ], batchSize: batchSize, reference: .samplesBuilt)
                #expect(counts.direct > 300, "\(counts)")
            }
        }

        /// Batches made while the one before is written (``HAEWriteAhead``) store what writing each in turn stores:
        /// a fresh day of minutes in batches of 60, made ahead once the first is written unread, then the same day
        /// into the store that holds it (every batch planned, none made ahead); days across the change to summer time,
        /// a batch each, whose days at the second offset, made ahead, meet the run's days at the first and are planned
        /// after all.
        func batchesWrittenAheadGiveTheSameStore() throws {
            let minutes = Self.minutePayload(days: 1, seed: 11, unit: 5)
            let days = ["2024-03-29 00:00:00 +0100", "2024-03-30 00:00:00 +0100", "2024-03-31 00:00:00 +0100",
                        "2024-04-01 00:00:00 +0200", "2024-04-02 00:00:00 +0200", "2024-04-03 00:00:00 +0200"]
            let points = days.enumerated().map { "{\"date\":\"\($1)\",\"qty\":\(1000 + $0 * 17),\"source\":\"Watch\"}" }
            let summerTime = "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":["
                + points.joined(separator: ",") + "]}]}}"
            for reference in [Reference.everyBatchRead, .samplesBuilt] {
                let counts = try Self.compare([.json(minutes, name: "day.json"), .json(minutes, name: "again.json")], batchSize: 60,
                                              reference: reference)
                #expect(counts.ahead > 10, "\(counts)")
                #expect(counts.read > 10, "\(counts)")
                let turn = try Self.compare([.json(summerTime, name: "days.json")], batchSize: 1, reference: reference)
                #expect(turn.ahead > 0, "\(turn)")
                #expect(turn.declinedAhead > 0, "\(turn)")
            }
        }

        /// The run's notes hash sync identifiers from their UTF-8 in NFC: equal identifiers (`==`) hash alike whatever
        /// their bytes (a Kelvin sign is a K), and a direct row's identifier, hashed from its pieces, as its text.
        func syncHashesFollowStringEquality() throws {
            for (a, b) in [("HAE|K|2024", "HAE|\u{212A}|2024"), ("HAE|caf\u{E9}", "HAE|cafe\u{301}"), ("HAE|x;", "HAE|x\u{37E}")] {
                expectEqual(a, b)
                expectEqual(HAEImportRun.syncHash(a), HAEImportRun.syncHash(b), "\(a)")
            }
            #expect(HAEImportRun.syncHash("HAE|a") != HAEImportRun.syncHash("HAE|b"))
            let builder = HAESampleBuilder(catalogue: .standard, defaultSource: "x", zone: Self.berlin, level: .minute, created: Self.now,
                                           receivedThrough: nil)
            let start = ExportDateParser.parse("2024-03-31 03:05:00 +0200")!
            for period in [HAEPeriod.instant, .minute, .hour, .day, .week] {
                let stamp = try #require(HAESampleBuilder.stamp(start, offset: 7200, period: period))
                for (part, name) in [(HAEDirectPoints.Part.whole, nil), (.min, "min"), (.max, "max")] as [(HAEDirectPoints.Part, String?)] {
                    let text = HAESampleBuilder.syncIdentifier(prefix: "HAE|step_count|", start: start, period: period, date: (start, 7200), part: name)
                    expectEqual(builder.lookups.syncHash(Array("HAE|step_count|".utf8), stamp, period, part), HAEImportRun.syncHash(text), "\(text)")
                }
            }
        }

        /// A heart-rate point is three samples (`|min`, `|max` and the point); a batch that ended between them made
        /// the next batch take the point's own sample for a re-send in the other shape, deleting its minimum and
        /// maximum. Batches now end between points, so every batch size stores the same.
        func batchesNeverSplitAPointsSamples() throws {
            for batchSize in [1, 2, 4, 5, 20_000] {
                let store = InMemorySampleStore()
                let receipt = try HealthImporter(store: store, batchSize: batchSize, timeZone: Self.berlin)
                    .importHealthAutoExport(try HealthAutoExportTests.payload("heart-rate-minutes.json"), receivedThrough: nil)
                let heart = store.allSamples.filter { $0.typeIdentifier == HealthAutoExportTests.heartRate }
                expectEqual(heart.count, 9, "batch size \(batchSize)")
                expectEqual(receipt.counts[HealthAutoExportTests.heartRate]?.added, 9, "batch size \(batchSize)")
                expectEqual(receipt.totals.replaced, 0, "batch size \(batchSize)")
            }
        }

        /// A heart-rate point sent again later in the same payload, in the other shape or with other figures: its
        /// earlier minimum and maximum do not stand beside the later sending, whether the two fall in one batch or in
        /// two (where the later batch replaces them). 08:00 full then `Avg` only, 08:01 full twice, 08:02 `Avg` only
        /// then full: 1 + 3 + 3 samples, with only the later figures.
        func aPointSentAgainInOneBatchTakesItsMinimumAndMaximumWithIt() throws {
            func point(_ minute: Int, _ figures: String) -> String {
                "{\"date\":\"2024-05-10 08:0\(minute):00 +0200\",\(figures),\"source\":\"Watch\"}"
            }
            let points = [point(0, "\"Min\":60,\"Avg\":70,\"Max\":90"), point(1, "\"Min\":61,\"Avg\":71,\"Max\":91"),
                          point(2, "\"Avg\":80"), point(0, "\"Avg\":72"), point(1, "\"Min\":62,\"Avg\":75,\"Max\":95"),
                          point(2, "\"Min\":70,\"Avg\":82,\"Max\":99")]
            let text = "{\"data\":{\"metrics\":[{\"name\":\"heart_rate\",\"units\":\"count/min\",\"data\":["
                + points.joined(separator: ",") + "]}]}}"
            var stores: [Int: [String]] = [:]
            for batchSize in [1, 2, 3, 4, 20_000] {
                let store = InMemorySampleStore()
                _ = try HealthImporter(store: store, batchSize: batchSize, timeZone: Self.berlin)
                    .importHealthAutoExport(try HealthAutoExportTests.payload(text: text), receivedThrough: nil)
                let heart = store.allSamples.filter { $0.typeIdentifier == HealthAutoExportTests.heartRate }
                expectEqual(heart.count, 7, "batch size \(batchSize)")
                let values = Set(heart.map { $0.value.quantity?.value ?? -1 })
                for kept in [72.0, 62, 95, 70, 99] { #expect(values.contains(kept), "batch size \(batchSize): \(kept)") }
                for gone in [60.0, 90, 61, 91, 80] { #expect(!values.contains(gone), "batch size \(batchSize): \(gone)") }
                stores[batchSize] = heart.map { "\($0.start.timeIntervalSince1970) \($0.end.timeIntervalSince1970) \($0.value.quantity?.value ?? -1)" }.sorted()
            }
            for batchSize in [2, 3, 4, 20_000] { expectEqual(stores[batchSize], stores[1], "batch size \(batchSize)") }
        }

        /// Only a heart-rate point's samples go with it: a kept element whose identifier happens to end in `|min`
        /// (a symptom named `min`) stands beside a later element of the same time without one, and is kept.
        func anElementNamedMinIsNotAPointsMinimum() throws {
            let element = "{\"start\":\"2024-05-10 08:00:00 +0200\",\"end\":\"2024-05-10 08:30:00 +0200\",\"severity\":\"Mild\",\"source\":\"Watch\""
            let text = "{\"data\":{\"symptoms\":[" + element + ",\"name\":\"min\"}," + element + "}," + element + "}]}}"
            let store = InMemorySampleStore()
            _ = try HealthImporter(store: store, timeZone: Self.berlin)
                .importHealthAutoExport(try HealthAutoExportTests.payload(text: text), receivedThrough: nil)
            let kept = store.allSamples.filter { $0.typeIdentifier == "HealthAutoExport_symptoms" }
            expectEqual(kept.count, 2)
            expectEqual(kept.filter { "\($0.value)".contains("min") }.count, 1)
        }

        // MARK: - When a batch is not read back

        static func candidates(_ text: String) throws -> [HAECandidate] {
            let payload = try HealthAutoExportPayload(bytes: Array(text.utf8), name: "t.json")
            let builder = HAESampleBuilder(catalogue: .standard, defaultSource: payload.defaultSource, zone: berlin, level: payload.level,
                                           offsets: payload.offsets, dayStarts: payload.dayStarts, created: now, receivedThrough: nil)
            var found: [HAECandidate] = []
            for metric in payload.parsed.metrics {
                builder.build(metric) { if case let .candidate(candidate) = $0 { found.append(candidate) } }
            }
            return found
        }

        static func steps(_ points: [(String, Int)], name: String = "step_count") throws -> [HAECandidate] {
            try candidates("{\"data\":{\"metrics\":[{\"name\":\"\(name)\",\"units\":\"count\",\"data\":["
                + points.map { "{\"date\":\"\($0.0)\",\"qty\":\($0.1),\"source\":\"Watch\"}" }.joined(separator: ",") + "]}]}}")
        }

        func laterBatchesOfAFreshStoreAreNotReadUntilAnotherWriterWrites() throws {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = Self.store(folder + "/s")
                let run = HAEImportRun()
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:00:00 +0200", 10), ("2024-05-10 08:01:00 +0200", 11)]),
                                                    dryRun: false, run: run)
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:02:00 +0200", 12)]), dryRun: false, run: run)
                #expect((run.unread, run.read) == (2, 0))
                // The same point again (a re-send inside one import): read, and found unchanged.
                let again = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:01:00 +0200", 11)]), dryRun: false, run: run)
                expectEqual(again.outcomes, [.unchanged])
                #expect((run.unread, run.read) == (2, 1))
                // Another writer: from then on every batch is read.
                try store.save([Sample(typeIdentifier: "HKQuantityTypeIdentifierDietaryWater", start: Self.now.addingTimeInterval(-60),
                                       end: Self.now.addingTimeInterval(-60), value: .quantity(Quantity(250, try HealthUnit(parsing: "mL"))),
                                       source: "hkctl", created: Self.now)])
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:03:00 +0200", 13)]), dryRun: false, run: run)
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:04:00 +0200", 14)]), dryRun: false, run: run)
                #expect(!run.trusted)
                #expect((run.unread, run.read) == (2, 3))
            }
        }

        func aBatchNearSamplesStoredBeforeTheRunIsRead() throws {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = Self.store(folder + "/s")
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:00:00 +0200", 10)]), dryRun: false)
                let run = HAEImportRun()
                // The same month: read. Months later, beyond the window's day before and eight days after: not read.
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-20 08:00:00 +0200", 10)]), dryRun: false, run: run)
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-09-20 08:00:00 +0200", 10)]), dryRun: false, run: run)
                // Another type, stored nowhere yet: not read.
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:00:00 +0200", 10)], name: "flights_climbed"),
                                                    dryRun: false, run: run)
                #expect((run.unread, run.read) == (2, 1))
            }
        }

        func anotherFormOrSleepIsRead() throws {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = Self.store(folder + "/s")
                let run = HAEImportRun()
                // Minutes, then a day of the same type (another form): read, and the day replaces the minute inside it.
                _ = try store.storeHealthAutoExport(try Self.steps([("2024-05-10 08:00:00 +0200", 10), ("2024-05-10 08:05:00 +0200", 10)]),
                                                    dryRun: false, run: run)
                let day = try store.storeHealthAutoExport(try Self.steps([("2024-05-11 00:00:00 +0200", 900), ("2024-05-12 00:00:00 +0200", 800)]),
                                                          dryRun: false, run: run)
                expectEqual(day.outcomes.count, 2)
                #expect((run.unread, run.read) == (1, 1))
                let sleep = try Self.candidates(String(decoding: try #require(FileManager.default.contents(atPath: Self.fixtures + "/sleep-stages.json")),
                                                       as: UTF8.self))
                _ = try store.storeHealthAutoExport(sleep, dryRun: false, run: run)
                #expect((run.unread, run.read) == (1, 2))
            }
        }

        /// The plan's reading leaves out, undecoded, the lines whose dates put them outside the window: it hands over
        /// exactly the samples the full reading gives that touch the window (edges included), with their sequences.
        func readingAroundAWindowGivesTheSamplesThatTouchIt() throws {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = Self.store(folder + "/s")
                let unit = try HealthUnit(parsing: "count")
                let start = ExportDateParser.parse("2024-05-01 00:00:00 +0000")!
                // Every 37 minutes of May, some an instant, some ten minutes, one a day long; a category sample too.
                var samples: [Sample] = []
                for index in 0..<1200 {
                    let from = start.addingTimeInterval(Double(index) * 2220)
                    let length: TimeInterval = index % 3 == 0 ? 0 : (index == 7 ? 86_400 : 600)
                    let source = index % 2 == 0 ? "Watch" : "Jane’s iPhone"
                    samples.append(Sample(typeIdentifier: HealthAutoExportTests.steps, start: from, end: from.addingTimeInterval(length),
                                          value: .quantity(Quantity(Double(index), unit)), source: source, created: Self.now))
                }
                samples.append(Sample(typeIdentifier: HealthAutoExportTests.steps, start: start.addingTimeInterval(86_400 * 10),
                                      end: start.addingTimeInterval(86_400 * 10 + 60), value: .generic(value: "x", unit: nil),
                                      source: "Watch", created: Self.now))
                try store.saveChecked(samples)
                let partition = try #require(try store.partitions(ofType: HealthAutoExportTests.steps,
                                                                   overlapping: DateInterval(start: start, duration: 86_400 * 31)).first)
                for (from, days) in [(0.0, 1.0), (9.5, 2.0), (20.0, 9.0), (-3.0, 2.0), (33.0, 1.0)] {
                    // Edges on a sample's start and end exactly.
                    let window = DateInterval(start: start.addingTimeInterval(from * 86_400 + 600), duration: days * 86_400 + 2220)
                    var all: [String] = [], filtered: [String] = []
                    try store.readPartitionWithSequence(partition) { sample, sequence in
                        if sample.end >= window.start, sample.start <= window.end { all.append("\(sample.uuid) \(sequence)") }
                    }
                    try store.readPartitionWithSequence(partition, around: window) { sample, sequence in
                        if sample.end >= window.start, sample.start <= window.end { filtered.append("\(sample.uuid) \(sequence)") }
                    }
                    expectEqual(filtered, all, "window from day \(from)")
                    #expect(!all.isEmpty || from < 0 || from > 31, "window from day \(from)")
                }
            }
        }

        /// (Sleep in one form only: stages and nights in one batch meet each other, as a point sent twice does, and
        /// such batches are always planned: ``HAEImportRun`` reads every sleep batch, the store every batch that
        /// holds a sync identifier twice.)
        func planAgainstNothingStoredIsThePlanAgainstAnEmptyStore() throws {
            var all: [HAECandidate] = []
            for name in ["day-steps.json", "heart-rate-minutes.json", "sleep-stages.json", "shapes.json"] {
                all += try Self.candidates(String(decoding: try #require(FileManager.default.contents(atPath: Self.fixtures + "/" + name)),
                                                  as: UTF8.self))
            }
            let quick = HAEWritePlan.planAgainstNothingStored(all), full = HAEWritePlan.plan(all, stored: [], cumulative: { _ in true })
            expectEqual(quick.outcomes, full.outcomes)
            expectEqual(quick.writes, full.writes)
            #expect(full.deletes.isEmpty && quick.deletes.isEmpty)
            #expect(all.contains { !$0.members.isEmpty })
        }
    }
}

/// The checks ``ImportTests.HAEFastPathTests/checks(_:)`` runs.
private let hAEFastPathTestsChecks: [Check<ImportTests.HAEFastPathTests>] = [
    Check("minutePointsFreshResentAndGrownGiveTheSameStore",
          ImportTests.HAEFastPathTests.minutePointsFreshResentAndGrownGiveTheSameStore),
    Check("theHandMadeFixturesGiveTheSameStoreInAnyOrder",
          ImportTests.HAEFastPathTests.theHandMadeFixturesGiveTheSameStoreInAnyOrder),
    Check("onTopOfAnExportsSamplesBothPathsAgree", ImportTests.HAEFastPathTests.onTopOfAnExportsSamplesBothPathsAgree),
    Check("pointsWrittenDirectlyGiveTheSameStoreAsSamplesBuilt",
          ImportTests.HAEFastPathTests.pointsWrittenDirectlyGiveTheSameStoreAsSamplesBuilt),
    Check("batchesWrittenAheadGiveTheSameStore", ImportTests.HAEFastPathTests.batchesWrittenAheadGiveTheSameStore),
    Check("syncHashesFollowStringEquality", ImportTests.HAEFastPathTests.syncHashesFollowStringEquality),
    Check("batchesNeverSplitAPointsSamples", ImportTests.HAEFastPathTests.batchesNeverSplitAPointsSamples),
    Check("aPointSentAgainInOneBatchTakesItsMinimumAndMaximumWithIt",
          ImportTests.HAEFastPathTests.aPointSentAgainInOneBatchTakesItsMinimumAndMaximumWithIt),
    Check("anElementNamedMinIsNotAPointsMinimum", ImportTests.HAEFastPathTests.anElementNamedMinIsNotAPointsMinimum),
    Check("laterBatchesOfAFreshStoreAreNotReadUntilAnotherWriterWrites",
          ImportTests.HAEFastPathTests.laterBatchesOfAFreshStoreAreNotReadUntilAnotherWriterWrites),
    Check("aBatchNearSamplesStoredBeforeTheRunIsRead",
          ImportTests.HAEFastPathTests.aBatchNearSamplesStoredBeforeTheRunIsRead),
    Check("anotherFormOrSleepIsRead", ImportTests.HAEFastPathTests.anotherFormOrSleepIsRead),
    Check("readingAroundAWindowGivesTheSamplesThatTouchIt",
          ImportTests.HAEFastPathTests.readingAroundAWindowGivesTheSamplesThatTouchIt),
    Check("planAgainstNothingStoredIsThePlanAgainstAnEmptyStore",
          ImportTests.HAEFastPathTests.planAgainstNothingStoredIsThePlanAgainstAnEmptyStore),
]
