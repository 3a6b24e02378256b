import Foundation
import Testing
@testable import HealthCore
import TextSupport
import TestKit

extension ImportTests {
    /// Health Auto Export payloads: the JSON reader, the mapping of metric names, periods, the special shapes, and
    /// re-sends, on an in-memory store (no file system, no clock).
    struct HealthAutoExportTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: healthAutoExportTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/hae").path
        static let berlin = TimeZone(identifier: "Europe/Berlin")!
        static let steps = "HKQuantityTypeIdentifierStepCount"
        static let heartRate = "HKQuantityTypeIdentifierHeartRate"
        static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
        /// ../shared/fixtures/health-auto-export, next to the repository.
        static let realFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures/health-auto-export").path

        static func payload(_ name: String) throws -> HealthAutoExportPayload {
            let bytes = try #require(FileManager.default.contents(atPath: fixtures + "/" + name))
            return try HealthAutoExportPayload(bytes: Array(bytes), name: name)
        }

        static func payload(text: String) throws -> HealthAutoExportPayload {
            try HealthAutoExportPayload(bytes: Array(text.utf8), name: "test.json")
        }

        static func importer(_ store: InMemorySampleStore) -> HealthImporter {
            HealthImporter(store: store, timeZone: berlin)
        }

        static func date(_ text: String) -> Date { ExportDateParser.parse(text)! }

        // MARK: - JSON reader

        func numbersAreReadToTheLastBitAndStringsDecoded() throws {
            let text = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 08:00:00 +0200","qty":107.09999999999999,"source":"Eli\u2019s \ud83d\ude00 Watch\n"},{"date":"2024-05-10 09:00:00 +0200","qty":-1.5e-3,"source":"A\"B\\C"}]}]}}"#
            let payload = try Self.payload(text: text)
            let points = payload.parsed.metrics[0].points
            expectEqual(points[0]["qty"], .number(Double("107.09999999999999")!))
            expectEqual(points[0]["source"], .string("Eli’s 😀 Watch\n"))
            expectEqual(points[1]["qty"], .number(-0.0015))
            expectEqual(points[1]["source"], .string("A\"B\\C"))
            expectEqual(points[0]["date"], .date(Self.date("2024-05-10 08:00:00 +0200"), offset: 7200))
        }

        @Test(arguments: [
            ("{\"data\":{\"metrics\":[", 1, "found the end of the input"),
            ("{\"data\":{\"metrics\":[]}} x", 1, "more JSON follows"),
            ("{\"data\":[1]}", 1, "'data' must be an object"),
            ("{\"other\":1}", 1, "no 'data' key"),
            ("{\"data\":{\"metrics\":[{\"units\":\"count\",\"data\":[]}]}}", 1, "has no 'name'"),
            ("{\"data\":{\"metrics\":[{\"name\":\"x\",\n\"data\":{}}]}}", 2, "'data' must be an array"),
            ("{\"data\":{\"metrics\":[{\"name\":\"x\",\"data\":[{\"qty\":01}]}]}}", 1, "leading zeros"),
            ("{\"data\":{\"metrics\":[{\"name\":\"x\",\"data\":[{\"qty\":\"a\u{1}\"}]}]}}", 1, "control character"),
            ("{\"data\":{\"metrics\":[{\"name\":\"\\ud800\",\"data\":[]}]}}", 1, "not valid UTF-8 or has a bad escape"),
            ("{\"data\":{\"metrics\":[{\"name\":\"x\",\"data\":[NaN]}]}}", 1, "expected a number"),
            ("{\"data\":{\"metrics\":{\"name\":\"step_count\"}}}", 1, "'metrics' must be an array"),
            ("{\"data\":{\"workouts\":\"none\"}}", 1, "'workouts' must be an array"),
        ])
        func invalidPayloadsThrowOneClearErrorWithTheirLine(text: String, line: Int, reason: String) throws {
            do {
                _ = try Self.payload(text: text)
                Issue.record("no error for \(text)")
            } catch let ImportError.invalidHealthAutoExport(name, errorLine, _, message) {
                expectEqual(name, "test.json")
                expectEqual(errorLine, line, "\(message)")
                #expect(message.contains(reason), "\(message)")
            }
        }

        func nestingIsBounded() throws {
            let deep = "{\"data\":{\"metrics\":[{\"name\":\"x\",\"data\":[{\"metadata\":" + String(repeating: "[", count: 100)
                + String(repeating: "]", count: 100) + "}]}]}}"
            #expect(throws: ImportError.self) { _ = try Self.payload(text: deep) }
        }

        func onlyAnObjectStartingWithDataLooksLikeAPayload() {
            #expect(HAEParser.looksLikePayload(Array("\u{FEFF}{\n  \"data\" : {\n \"metrics\"".utf8)))
            #expect(HAEParser.looksLikePayload(Array("{\"data\":{}}".utf8)))
            #expect(!HAEParser.looksLikePayload(Array("{\"uuid\":\"x\",\"type\":\"y\"}".utf8)))
            #expect(!HAEParser.looksLikePayload(Array("{\"data\":[]}".utf8)))
            #expect(!HAEParser.looksLikePayload(Array("<HealthData>".utf8)))
        }

        // MARK: - Periods

        func periodsAreRecognisedFromTheDates() {
            let day = [(Self.date("2024-03-30 00:00:00 +0100"), 3600), (Self.date("2024-03-31 00:00:00 +0100"), 3600)]
            let hour = [(Self.date("2024-03-30 05:00:00 +0100"), 3600)]
            let minute = [(Self.date("2024-03-30 05:07:00 +0100"), 3600)]
            let instant = [(Self.date("2024-03-30 05:07:31 +0100"), 3600)]
            let weeks = [(Self.date("2024-03-04 00:00:00 +0100"), 3600), (Self.date("2024-03-11 00:00:00 +0100"), 3600)]
            expectEqual(HAEPeriod.payloadLevel([day]), .day)
            expectEqual(HAEPeriod.payloadLevel([day, hour]), .hour)
            expectEqual(HAEPeriod.payloadLevel([day, minute, instant]), .minute)
            expectEqual(HAEPeriod.payloadLevel([instant]), .instant)
            expectEqual(HAEPeriod.payloadLevel([weeks]), .week)
            expectEqual(HAEPeriod.payloadLevel([Array(weeks.prefix(1))]), .day)
            // A reading at a whole minute of a metric that does not decide leaves a per-day payload per day; when no
            // deciding metric has an aggregated date, all decide.
            expectEqual(HAEPeriod.payloadLevel([day, minute], deciding: [true, false]), .day)
            expectEqual(HAEPeriod.payloadLevel([instant, minute], deciding: [true, false]), .minute)
            // A day that starts at 01:00 (summer time from midnight, Chile) after a day at the offset an hour less.
            let santiago = [(Self.date("2024-09-07 00:00:00 -0400"), -14_400), (Self.date("2024-09-08 01:00:00 -0300"), -10_800),
                            (Self.date("2024-09-09 00:00:00 -0300"), -10_800)]
            expectEqual(HAEPeriod.payloadLevel([santiago]), .day)
            expectEqual(HAEPeriod.payloadLevel([Array(santiago.dropFirst())]), .hour)
        }

        func aDayEndsAtTheNextLocalMidnightAcrossDST() {
            let start = Self.date("2024-03-31 00:00:00 +0100")
            expectEqual(HAEPeriod.day.end(of: start, offset: 3600, zone: Self.berlin).timeIntervalSince(start), 23 * 3600)
            let autumn = Self.date("2024-10-27 00:00:00 +0200")
            expectEqual(HAEPeriod.day.end(of: autumn, offset: 7200, zone: Self.berlin).timeIntervalSince(autumn), 25 * 3600)
            // Another zone than the phone's: 24 hours at the written offset.
            expectEqual(HAEPeriod.day.end(of: start, offset: 3600, zone: TimeZone(identifier: "America/New_York")!)
                .timeIntervalSince(start), 24 * 3600)
            expectEqual(HAEPeriod.week.end(of: start, offset: 3600, zone: Self.berlin).timeIntervalSince(start), 7 * 86_400 - 3600)
        }

        // MARK: - Metrics

        func everyMappedNameHasAHealthKitIdentifierAndTheCommonOnesAreInTheCatalogue() {
            for (name, kind) in HAEMetricKind.table {
                #expect(kind.identifier.hasPrefix("HKQuantityTypeIdentifier") || kind.identifier.hasPrefix("HKCategoryTypeIdentifier")
                        || kind.identifier.hasPrefix("HKCorrelationTypeIdentifier"), "\(name)")
            }
            expectEqual(HAEMetricKind.kind(of: "walking_speed")?.identifier, "HKQuantityTypeIdentifierWalkingSpeed")
            for name in ["step_count", "active_energy", "basal_energy_burned", "heart_rate", "resting_heart_rate", "dietary_water",
                         "weight_body_mass", "blood_oxygen_saturation", "sleep_analysis", "mindful_minutes", "blood_pressure",
                         "walking_running_distance", "flights_climbed", "vo2_max", "respiratory_rate"] {
                let identifier = HAEMetricKind.kind(of: name)!.identifier
                #expect(SampleTypeCatalogue.standard.type(identifier: identifier) != nil
                        || CorrelationType.identified(identifier) != nil, "\(name)")
            }
        }

        func dailyStepsCoverTheirLocalDayAndPercentagesAreFractions() throws {
            let store = InMemorySampleStore()
            let receipt = try Self.importer(store).importHealthAutoExport(try Self.payload("day-steps.json"), receivedThrough: nil)
            expectEqual(receipt.inputKind, .healthAutoExport)
            expectEqual(receipt.counts[Self.steps]?.added, 3)
            expectEqual(receipt.counts["HealthAutoExport_mystery_metric"]?.keptGenerically, 1)
            expectEqual(receipt.totals.rejected, 0)
            let steps = store.allSamples.filter { $0.typeIdentifier == Self.steps }.sorted { $0.start < $1.start }
            expectEqual(steps.map(\.duration), [86_400, 23 * 3600, 86_400])
            expectEqual(steps.map { $0.value.quantity?.value }, [9000, 8000, 7000])
            expectEqual(steps.map(\.source), ["Health Auto Export", "Jane’s Apple Watch|Jane’s iPhone", "Health Auto Export"])
            expectEqual(steps[0].metadata[HAESampleBuilder.aggregationKey], .string("day"))
            guard case let .string(identifier)? = steps[0].metadata[MetadataKeySyncIdentifier] else { Issue.record("no sync identifier"); return }
            // A day is named by its local date (the same day re-sent from another time zone is the same point).
            expectEqual(identifier, "HAE|step_count|2024-03-30")
            expectEqual(HAESampleBuilder.localDate(Self.date("2024-05-10 00:00:00 -0400"), offset: -14_400), "2024-05-10")
            expectEqual(HAESampleBuilder.localDate(Self.date("1969-12-31 23:00:00 +0000"), offset: 0), "1969-12-31")
            expectEqual(HAESampleBuilder.localDate(Self.date("2024-02-29 00:00:00 +1400"), offset: 50_400), "2024-02-29")
            expectEqual(steps[0].metadata[MetadataKeySyncVersion], .number(1))
            let oxygen = store.allSamples.filter { $0.typeIdentifier == "HKQuantityTypeIdentifierOxygenSaturation" }
            expectEqual(Set(oxygen.compactMap { $0.value.quantity?.value }), [0.97, 0.95])
            let energy = try #require(store.allSamples.first { $0.typeIdentifier == "HKQuantityTypeIdentifierBasalEnergyBurned" })
            #expect(abs(try energy.value.quantity!.value(in: HealthUnit(parsing: "kcal")) - 1000) < 1e-9)
            let mystery = try #require(store.allSamples.first { $0.typeIdentifier == "HealthAutoExport_mystery_metric" })
            expectEqual(mystery.value, .generic(value: "{\"qty\":3}", unit: "zorks"))
            #expect(try Self.payload("day-steps.json").sampleTypeIdentifiers.contains("HealthAutoExport_mystery_metric"))
        }

        func reSendsAddNothingAndAChangedValueReplaces() throws {
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            _ = try importer.importHealthAutoExport(try Self.payload("day-steps.json"), receivedThrough: nil)
            let count = store.allSamples.count
            let again = try importer.importHealthAutoExport(try Self.payload("day-steps.json"), receivedThrough: nil)
            #expect(again.totals.added == 0 && again.totals.replaced == 0 && again.totals.keptGenerically == 0)
            expectEqual(again.totals.alreadyPresent, count)
            expectEqual(store.allSamples.count, count)
            let grown = try importer.importHealthAutoExport(try Self.payload("day-steps-grown.json"), receivedThrough: "phone")
            expectEqual(grown.counts[Self.steps]?.replaced, 1)
            expectEqual(grown.counts[Self.steps]?.alreadyPresent, 2)
            expectEqual(grown.totals.added, 0)
            let steps = store.allSamples.filter { $0.typeIdentifier == Self.steps }
            expectEqual(steps.count, 3)
            let last = try #require(steps.max { $0.start < $1.start })
            expectEqual(last.value.quantity?.value, 7500)
            expectEqual(last.metadata[MetadataKeySyncVersion], .number(2))
            expectEqual(last.metadata[HAESampleBuilder.receivedThroughKey], .string("phone"))
        }

        func aDryRunCountsAndWritesNothing() throws {
            let store = InMemorySampleStore()
            let receipt = try HealthImporter(store: store, dryRun: true, timeZone: Self.berlin)
                .importHealthAutoExport(try Self.payload("day-steps.json"), receivedThrough: nil)
            #expect(receipt.dryRun && receipt.totals.added == 6 && receipt.totals.keptGenerically == 1)
            #expect(store.allSamples.isEmpty)
        }

        func theSameTimeInAnotherFormReplacesTheStoredForm() throws {
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            let day = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 00:00:00 +0200","qty":300,"source":"Watch"}]}]}}"#
            let hours = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 08:00:00 +0200","qty":100,"source":"Watch"},{"date":"2024-05-10 09:00:00 +0200","qty":200,"source":"Watch"}]}]}}"#
            _ = try importer.importHealthAutoExport(try Self.payload(text: day), receivedThrough: nil)
            let perHour = try importer.importHealthAutoExport(try Self.payload(text: hours), receivedThrough: nil)
            #expect(perHour.totals.replaced == 1 && perHour.totals.added == 1)
            expectEqual(store.allSamples.map { $0.value.quantity?.value ?? 0 }.sum, 300)
            #expect(store.allSamples.allSatisfy { $0.duration == 3600 })
            // The day again, with the figure its hours add up to: the store holds it already, in finer form.
            let back = try importer.importHealthAutoExport(try Self.payload(text: day), receivedThrough: nil)
            #expect(back.totals.replaced == 0 && back.totals.alreadyPresent == 1)
            #expect(store.allSamples.count == 2 && store.allSamples.allSatisfy { $0.duration == 3600 })
            // A grown day is more than its hours hold: it replaces them.
            let grown = try importer.importHealthAutoExport(try Self.payload(text: day.replacingOccurrences(of: "\"qty\":300", with: "\"qty\":350")), receivedThrough: nil)
            expectEqual(grown.totals.replaced, 1)
            #expect(store.allSamples.count == 1 && store.allSamples[0].duration == 86_400)
            // A night per stage after the same night per night.
            let sleep = InMemorySampleStore()
            _ = try Self.importer(sleep).importHealthAutoExport(try Self.payload("overlap-hae.json"), receivedThrough: nil)
            _ = try Self.importer(sleep).importHealthAutoExport(try Self.payload("sleep-stages.json"), receivedThrough: nil)
            let nights = sleep.allSamples.filter { $0.typeIdentifier == Self.sleep }
            #expect(nights.count == 6 && nights.allSatisfy { $0.metadata[HAESampleBuilder.aggregationKey] == .string("none") })
        }

        /// Hours since the last sync after a day total: the day keeps what is left of its amount beyond them (nothing
        /// lost, nothing twice), however often the hours come or grow, as pieces over the hours around them
        /// (``HAEPieces``); hours that cover the whole day replace it.
        func hoursCoveringPartOfADayLeaveItsRemainder() throws {
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            func hours(_ list: [(Int, Int)]) throws -> HealthAutoExportPayload {
                let points = list.map { #"{"date":"2024-05-10 \#(String(format: "%02d", $0.0)):00:00 +0200","qty":\#($0.1),"source":"Watch"}"# }
                return try Self.payload(text: #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["# + points.joined(separator: ",") + "]}]}}")
            }
            let day = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 00:00:00 +0200","qty":4500,"source":"Watch"}]}]}}"#
            _ = try importer.importHealthAutoExport(try Self.payload(text: day), receivedThrough: nil)
            func total() -> Double { store.allSamples.map { $0.value.quantity?.value ?? 0 }.reduce(0, +) }
            // The day's pieces, joined as the one point they are.
            func dayPoint() -> Sample? {
                let pieces = store.allSamples.filter { $0.metadata[HAESampleBuilder.aggregationKey] == .string("day") }
                return pieces.isEmpty ? nil : HAEPieces.joined(pieces.sorted { $0.start < $1.start })
            }
            func dayPieces() -> [(Int, Int)] {
                store.allSamples.filter { $0.metadata[HAESampleBuilder.aggregationKey] == .string("day") }.sorted { $0.start < $1.start }
                    .map { (Int($0.start.timeIntervalSince1970 - 1_715_292_000) / 3600, Int($0.end.timeIntervalSince1970 - 1_715_292_000) / 3600) }
            }
            _ = try importer.importHealthAutoExport(try hours([(10, 500), (11, 500)]), receivedThrough: nil)
            #expect(total() == 4500 && abs((dayPoint()?.value.quantity?.value ?? 0) - 3500) < 1e-9)
            expectEqual(dayPoint()?.metadata[HAEWritePlan.totalKey], .number(4500))
            expectEqual(dayPieces().map { [$0.0, $0.1] }, [[0, 10], [12, 24]], "\(dayPieces())")
            // The 11:00 hour grown, and 12:00: the remainder is counted from the day's 4,500, not subtracted twice.
            _ = try importer.importHealthAutoExport(try hours([(11, 700), (12, 300)]), receivedThrough: nil)
            #expect(abs(total() - 4500) < 1e-9 && abs((dayPoint()?.value.quantity?.value ?? 0) - 3000) < 1e-9)
            expectEqual(dayPieces().map { [$0.0, $0.1] }, [[0, 10], [13, 24]], "\(dayPieces())")
            // The same hours again change nothing.
            let again = try importer.importHealthAutoExport(try hours([(11, 700), (12, 300)]), receivedThrough: nil)
            #expect(again.totals.replaced == 0 && again.totals.added == 0 && abs(total() - 4500) < 1e-9)
            // All 24 hours: the day total goes.
            _ = try importer.importHealthAutoExport(try hours((0..<24).map { ($0, $0 == 10 ? 500 : 100) }), receivedThrough: nil)
            #expect(dayPoint() == nil && total() == 500 + 23 * 100)
        }

        /// A minute that starts a stored hour (or a Monday that starts a stored week) is a different point: it
        /// leaves the hour's remainder instead of replacing the whole hour as if it were the same point re-sent.
        func aFinerPointAtTheStartOfAStoredCoarserOneKeepsItsRemainder() throws {
            func payload(_ points: [(String, Int)]) throws -> HealthAutoExportPayload {
                let list = points.map { #"{"date":"2024-05-10 \#($0.0):00 +0200","qty":\#($0.1),"source":"Watch"}"# }
                return try Self.payload(text: #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["# + list.joined(separator: ",") + "]}]}}")
            }
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            func total() -> Double { store.allSamples.map { $0.value.quantity?.value ?? 0 }.reduce(0, +) }
            _ = try importer.importHealthAutoExport(try payload([("08:00", 50), ("09:00", 65)]), receivedThrough: nil)
            // Minutes 09:00 (5) and 09:30 (10): the 09:00 hour keeps 65 − 15 = 50 over the rest of its hour.
            let minutes = try importer.importHealthAutoExport(try payload([("09:00", 5), ("09:30", 10)]), receivedThrough: nil)
            expectEqual(minutes.totals.added, 2, "\(minutes.counts)")
            expectEqual(total(), 115)
            let identifiers = store.allSamples.compactMap { sample -> String? in
                if case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] { return identifier } else { return nil }
            }
            #expect(identifiers.contains("HAE|step_count|2024-05-10T07:00:00+00:00/PT1H"))
            #expect(identifiers.contains("HAE|step_count|2024-05-10T07:00:00+00:00/PT1M"))
        }

        /// Hours re-sent after the phone moved from Berlin (+0200) to India (+0530), whose hours start at :30 UTC: the
        /// same 400 steps, 06:00Z–10:00Z, arrive as 05:30Z–10:30Z; each Berlin hour is covered by the new hours and
        /// goes, so each step counts once (before: 800). A new hour covering part of an old one leaves its remainder.
        func hoursReSentWithAnotherAlignmentReplaceTheHoursTheyCover() throws {
            func payload(_ points: [(String, Int)], offset: String) throws -> HealthAutoExportPayload {
                let list = points.map { #"{"date":"2024-05-10 \#($0.0):00 \#(offset)","qty":\#($0.1),"source":"Watch"}"# }
                return try Self.payload(text: #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["# + list.joined(separator: ",") + "]}]}}")
            }
            let berlin = try payload([("08:00", 100), ("09:00", 100), ("10:00", 100), ("11:00", 100)], offset: "+0200")
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            func total() -> Double { store.allSamples.map { $0.value.quantity?.value ?? 0 }.reduce(0, +) }
            _ = try importer.importHealthAutoExport(berlin, receivedThrough: nil)
            let india = try payload([("11:00", 50), ("12:00", 100), ("13:00", 100), ("14:00", 100), ("15:00", 50)], offset: "+0530")
            _ = try importer.importHealthAutoExport(india, receivedThrough: nil)
            expectEqual(total(), 400)
            expectEqual(store.allSamples.count, 5)
            let again = try importer.importHealthAutoExport(india, receivedThrough: nil)
            #expect(again.totals.added == 0 && again.totals.replaced == 0 && total() == 400)
            // Only the first India hour (05:30Z–06:30Z, 50 steps, half of it in the Berlin 06:00Z hour): that hour keeps
            // 100 − 25 = 75, the other Berlin hours stay whole.
            let partial = InMemorySampleStore()
            _ = try Self.importer(partial).importHealthAutoExport(berlin, receivedThrough: nil)
            _ = try Self.importer(partial).importHealthAutoExport(try payload([("11:00", 50)], offset: "+0530"), receivedThrough: nil)
            let values = partial.allSamples.sorted { $0.start < $1.start }.map { $0.value.quantity?.value ?? 0 }
            expectEqual(values, [50, 75, 100, 100, 100])
        }

        /// A day first sent without a source (older app settings) and re-sent with one is the same point: the re-send
        /// replaces it instead of counting the day twice.
        func aPointReSentWithASourceAfterNoneIsTheSamePoint() throws {
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            let without = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 00:00:00 +0200","qty":4500}]}]}}"#
            let with = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 00:00:00 +0200","qty":4600,"source":"Jane’s iPhone"}]}]}}"#
            _ = try importer.importHealthAutoExport(try Self.payload(text: without), receivedThrough: nil)
            let receipt = try importer.importHealthAutoExport(try Self.payload(text: with), receivedThrough: nil)
            #expect(receipt.totals.replaced == 1 && receipt.totals.added == 0, "\(receipt.counts)")
            expectEqual(store.allSamples.map(\.source), ["Jane’s iPhone"])
            expectEqual(store.allSamples.first?.value.quantity?.value, 4600)
        }

        /// A synced folder holding files of two aggregation settings is imported at every run: once both are in,
        /// the next run adds nothing and replaces nothing (each file's figures are held in the other's form).
        func filesOfTwoSettingsImportedAgainChangeNothing() throws {
            func payload(_ points: [(String, Int)]) throws -> HealthAutoExportPayload {
                let list = points.map { #"{"date":"2024-05-10 \#($0.0):00 +0200","qty":\#($0.1),"source":"Watch"}"# }
                return try Self.payload(text: #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["# + list.joined(separator: ",") + "]}]}}")
            }
            let cases: [(HealthAutoExportPayload, HealthAutoExportPayload, Double)] = [
                (try payload([("08:10", 10), ("08:20", 20), ("09:05", 60)]), try payload([("08:00", 30), ("09:00", 60)]), 90),
                (try payload([("00:00", 4500)]), try payload([("15:00", 200), ("16:00", 300)]), 4500),
            ]
            for (first, second, expected) in cases {
                let store = InMemorySampleStore()
                let importer = Self.importer(store)
                _ = try importer.importHealthAutoExport(first, receivedThrough: nil)
                _ = try importer.importHealthAutoExport(second, receivedThrough: nil)
                let held = store.allSamples
                for payload in [first, second] {
                    let again = try importer.importHealthAutoExport(payload, receivedThrough: nil)
                    #expect(again.totals.added == 0 && again.totals.replaced == 0, "\(again.counts)")
                }
                let now: Set<UUID> = Set(store.allSamples.map(\.uuid)), before: Set<UUID> = Set(held.map(\.uuid))
                expectEqual(now, before)
                let total: Double = store.allSamples.reduce(0) { $0 + ($1.value.quantity?.value ?? 0) }
                expectEqual(total, expected)
            }
        }

        /// Forms that one payload holds side by side (readings with seconds beside whole minutes, as a minute-level
        /// payload has) never cross, even when the payload is stored in several batches: importing it again with
        /// batches of two samples finds every point unchanged.
        func formsOfOnePayloadNeverCrossAcrossBatches() throws {
            let points = [("08:10:00", 10), ("08:10:30", 3), ("08:11:00", 12), ("08:11:20", 4), ("08:12:00", 8), ("08:12:40", 5)]
            let list = points.map { #"{"date":"2024-05-10 \#($0.0) +0200","qty":\#($0.1),"source":"Watch"}"# }
            let text = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["# + list.joined(separator: ",") + "]}]}}"
            let store = InMemorySampleStore()
            let importer = HealthImporter(store: store, batchSize: 2, timeZone: Self.berlin)
            let first = try importer.importHealthAutoExport(try Self.payload(text: text), receivedThrough: nil)
            expectEqual(first.totals.added, 6, "\(first.counts)")
            let again = try importer.importHealthAutoExport(try Self.payload(text: text), receivedThrough: nil)
            #expect(again.totals.alreadyPresent == 6 && again.totals.replaced == 0, "\(again.counts)")
            expectEqual(store.allSamples.map { $0.value.quantity?.value ?? 0 }.sum, 42)
        }

        /// A `|`-joined source over the limit is shortened the same way every time, keeping whole names.
        func aLongJoinedSourceIsShortenedDeterministically() {
            let names = (1...30).map { "Device number \($0)" }
            let long = names.joined(separator: "|")
            let fitted = HAESampleBuilder.fitted(long)
            #expect(fitted.unicodeScalars.count <= TextRules.sourceNameLimit && fitted == HAESampleBuilder.fitted(long))
            #expect(fitted.hasPrefix("Device number 1|Device number 2|") && fitted.hasSuffix(" more"))
            #expect(HAEWritePlan.related(fitted, long))
            expectEqual(HAESampleBuilder.fitted("Watch|iPhone"), "Watch|iPhone")
            let single = String(repeating: "x", count: 250)
            expectEqual(HAESampleBuilder.fitted(single), single)
        }

        /// The other spellings HAE's own list uses name the same types as the usual ones.
        func otherSpellingsOfAMetricNameTheSameType() {
            let pairs = [("walking_heart_rate", "walking_heart_rate_average"), ("headphone_audio", "headphone_audio_exposure"),
                         ("environmental_audio", "environmental_audio_exposure"), ("cholesterol", "dietary_cholesterol"),
                         ("biotin", "dietary_biotin"), ("monosaturated_fat", "monounsaturated_fat"),
                         ("swim_stroke_count", "swimming_stroke_count"), ("wheelchair_push_count", "push_count"),
                         ("number_of_time_fallen", "number_of_times_fallen"), ("number_of_alcoholic_beverages", "alcohol_consumption"),
                         ("forced_expiratory_volume", "forced_expiratory_volume_1"), ("downhill_snow_sports", "distance_downhill_snow_sports"),
                         ("under_water_depth", "underwater_depth"), ("under_water_temperature", "water_temperature")]
            for (other, usual) in pairs {
                #expect(HAEMetricKind.kind(of: other) != nil && HAEMetricKind.kind(of: other) == HAEMetricKind.kind(of: usual), "\(other)")
                expectEqual(HAEMetricKind.syncName(of: other), HAEMetricKind.syncName(of: usual), "\(other)")
            }
        }

        /// Two HAE names of one type share their sync identifiers; other names keep their own.
        func namesOfOneTypeShareTheSyncName() {
            expectEqual(HAEMetricKind.syncName(of: "dietary_caffeine"), "caffeine")
            expectEqual(HAEMetricKind.syncName(of: "caffeine"), "caffeine")
            expectEqual(HAEMetricKind.syncName(of: "step_count"), "step_count")
            expectEqual(HAEMetricKind.syncName(of: "some_future_metric"), "some_future_metric")
        }

        /// A night summary re-sent without a part drops that part; another source's night of the same date stays.
        func aNightReSentWithoutAPartDropsItOnlyForItsSource() throws {
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            func night(_ deep: Double, _ source: String) throws -> HealthAutoExportPayload {
                try Self.payload(text: #"{"data":{"metrics":[{"name":"sleep_analysis","units":"hr","data":[{"date":"2024-05-10 00:00:00 +0200","totalSleep":\#(4 + deep),"asleep":0,"core":4,"deep":\#(deep),"rem":0,"awake":0,"inBed":0,"sleepStart":"2024-05-09 23:00:00 +0200","sleepEnd":"2024-05-10 0\#(Int(3 + deep)):00:00 +0200","source":"\#(source)"}]}]}}"#)
            }
            _ = try importer.importHealthAutoExport(try night(1, "Eli’s Watch"), receivedThrough: nil)
            _ = try importer.importHealthAutoExport(try night(1, "Jane’s Watch"), receivedThrough: nil)
            let again = try importer.importHealthAutoExport(try night(0, "Jane’s Watch"), receivedThrough: nil)
            #expect(again.totals.replaced >= 1)
            let deep = store.allSamples.filter { $0.value == .category(4) }
            expectEqual(deep.map(\.source), ["Eli’s Watch"])
        }

        func aSourceThatGrewIsTheSamePoint() throws {
            let store = InMemorySampleStore()
            let importer = Self.importer(store)
            func day(_ qty: Int, _ source: String) throws -> HealthAutoExportPayload {
                try Self.payload(text: #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 00:00:00 +0200","qty":\#(qty),"source":"\#(source)"}]}]}}"#)
            }
            _ = try importer.importHealthAutoExport(try day(100, "Watch"), receivedThrough: nil)
            let second = try importer.importHealthAutoExport(try day(300, "Watch|iPhone"), receivedThrough: nil)
            expectEqual(second.totals.replaced, 1)
            expectEqual(store.allSamples.map(\.source), ["Watch|iPhone"])
            // Another device's own figure for the same day is another point.
            let other = try importer.importHealthAutoExport(try day(50, "Tablet"), receivedThrough: nil)
            expectEqual(other.totals.added, 1)
        }

        func heartRateMinAvgMaxGiveTheDaysFigures() throws {
            let store = InMemorySampleStore()
            _ = try Self.importer(store).importHealthAutoExport(try Self.payload("heart-rate-minutes.json"), receivedThrough: nil)
            let readings = store.allSamples.filter { $0.typeIdentifier == Self.heartRate }
            let values = try readings.map { try $0.value.quantity!.value(in: HealthUnit(parsing: "count/min")) }
            expectEqual(values.min(), 50)
            expectEqual(values.max(), 90)
            let weighted = zip(readings, values).reduce(0.0) { $0 + $1.0.duration * $1.1 } / readings.reduce(0.0) { $0 + $1.duration }
            // Dates are kept to the millisecond as doubles: durations carry an error of about 1e-7 s.
            #expect(abs(weighted - 200.0 / 3) < 1e-6)
            expectEqual(readings.map(\.duration).sum, 180)
            let main = try #require(readings.first { $0.metadata["HAEAvg"] == .number(75) })
            #expect(main.metadata["HAEMin"] == .number(65) && main.metadata["HAEMax"] == .number(90))
            let steps = store.allSamples.filter { $0.typeIdentifier == Self.steps }
            expectEqual(steps.map(\.duration), [60, 60], "per-minute points cover their minute")
        }

        func sleepPerNightGivesThePayloadsFigures() throws {
            let store = InMemorySampleStore()
            let receipt = try Self.importer(store).importHealthAutoExport(try Self.payload("sleep-nights.json"), receivedThrough: nil)
            expectEqual(receipt.totals.rejected, 0)
            let zone = ZoneRules(secondsFromGMT: 7200)
            let query = SleepNightsQuery(interval: DateInterval(start: Self.date("2024-05-09 12:00:00 +0200"),
                                                                end: Self.date("2024-05-11 12:00:00 +0200")))
            let nights = try query.run(on: store, calendar: GregorianCalendar(timeZone: zone)).filter { $0.sampleCount > 0 }
            expectEqual(nights.count, 2)
            expectEqual(nights[0].asleep, 7.25 * 3600)
            #expect(nights[0].asleepCore == 4.5 * 3600 && nights[0].asleepDeep == 1.25 * 3600 && nights[0].asleepREM == 1.5 * 3600)
            #expect(nights[0].asleepUnspecified == 0 && nights[0].awake == 0.25 * 3600 && nights[0].inBed == 7.75 * 3600)
            #expect(nights[1].asleep == 7 * 3600 && nights[1].asleepUnspecified == 0)
            #expect(nights[1].awake == 0.5 * 3600 && nights[1].inBed == 8 * 3600)
        }

        func sleepOldestFormTakesAsleepAsUnstagedAndKeepsItsSources() throws {
            let text = #"{"data":{"metrics":[{"name":"sleep_analysis","units":"hr","data":[{"sleepEnd":"2023-01-22 07:16:00 +1100","inBedSource":"Watch","inBed":13.941666666666666,"inBedEnd":"2023-01-22 07:16:54 +1100","sleepStart":"2023-01-22 00:16:00 +1100","inBedStart":"2023-01-22 00:17:54 +1100","sleepSource":"AutoSleep","asleep":7,"date":"2023-01-22 00:03:01 +1100"}]}]}}"#
            let store = InMemorySampleStore()
            _ = try Self.importer(store).importHealthAutoExport(try Self.payload(text: text), receivedThrough: nil)
            let samples = store.allSamples.sorted { $0.value.categoryRawValue! < $1.value.categoryRawValue! }
            expectEqual(samples.map(\.value), [.category(0), .category(1)])
            expectEqual(samples.map(\.source), ["Watch", "AutoSleep"])
            #expect(samples[1].duration == 7 * 3600 && samples[1].start == Self.date("2023-01-22 00:16:00 +1100"))
            // 13.94 h cannot fit between 00:17:54 and 07:16:54: it ends at inBedEnd, inside the night.
            #expect(samples[0].duration == 50_190 && samples[0].end == Self.date("2023-01-22 07:16:54 +1100"))
            expectEqual(samples[0].metadata[MetadataKeySyncIdentifier], .string("HAE|sleep_analysis|2023-01-22|inBed"))
        }

        /// Merged sources summed past a day (asleep 30 h, in bed 34 h): no sample can be that long, so each figure is
        /// limited to the span the night's times write, and kept as written in `HAEHours`; the night is stored.
        func aNightWhoseFiguresPassADayIsLimitedToItsTimesNotRefused() throws {
            let text = #"{"data":{"metrics":[{"name":"sleep_analysis","units":"hr","data":[{"date":"2024-05-12 23:00:00 +0200","asleep":30,"inBed":34,"sleepStart":"2024-05-12 23:00:00 +0200","sleepEnd":"2024-05-13 07:00:00 +0200","inBedStart":"2024-05-12 22:50:00 +0200","inBedEnd":"2024-05-13 07:10:00 +0200","sleepSource":"Watch","inBedSource":"iPhone"}]}]}}"#
            let store = InMemorySampleStore()
            let receipt = try Self.importer(store).importHealthAutoExport(try Self.payload(text: text), receivedThrough: nil)
            expectEqual(receipt.totals.rejected, 0, "\(receipt.problems)")
            let samples = store.allSamples.sorted { $0.value.categoryRawValue! < $1.value.categoryRawValue! }
            expectEqual(samples.map(\.value), [.category(0), .category(1)])
            // In bed 22:50–07:10 (8 h 20 min), asleep 23:00–07:00 (8 h).
            #expect(samples[0].start == Self.date("2024-05-12 22:50:00 +0200") && samples[0].end == Self.date("2024-05-13 07:10:00 +0200"))
            #expect(samples[1].start == Self.date("2024-05-12 23:00:00 +0200") && samples[1].end == Self.date("2024-05-13 07:00:00 +0200"))
            #expect(samples[0].metadata["HAEHours"] == .number(34) && samples[1].metadata["HAEHours"] == .number(30))
            // A night within a day keeps its figures exactly, with no such mark.
            let plain = InMemorySampleStore()
            _ = try Self.importer(plain).importHealthAutoExport(try Self.payload(text: text.replacingOccurrences(of: "\"asleep\":30", with: "\"asleep\":7.5")), receivedThrough: nil)
            let asleep = try #require(plain.allSamples.first { $0.value == .category(1) })
            #expect(asleep.duration == 7.5 * 3600 && asleep.metadata["HAEHours"] == nil)
        }

        func shapesBecomeTheirHealthKitFormsAndTheRestIsKept() throws {
            let store = InMemorySampleStore()
            let receipt = try Self.importer(store).importHealthAutoExport(try Self.payload("shapes.json"), receivedThrough: nil)
            expectEqual(receipt.totals.rejected, 0, "\(receipt.problems)")
            let pressure = try #require(store.allSamples.first { $0.typeIdentifier == "HKCorrelationTypeIdentifierBloodPressure" })
            expectEqual(pressure.detail?.correlation?.members.count, 2)
            let systolic = try #require(store.allSamples.first { $0.typeIdentifier == CorrelationType.systolic })
            #expect(systolic.value.quantity?.value == 120 && systolic.source == "Omron")
            let glucose = try #require(store.allSamples.first { $0.typeIdentifier == "HKQuantityTypeIdentifierBloodGlucose" })
            expectEqual(glucose.metadata["HKMetadataKeyBloodGlucoseMealTime"], .number(1))
            let mindful = try #require(store.allSamples.first { $0.typeIdentifier == "HKCategoryTypeIdentifierMindfulSession" })
            expectEqual(mindful.duration, 600)
            // A mood is typed (HAEStateOfMindTests holds the details).
            #expect(receipt.counts[StateOfMind.typeIdentifier]?.added == 1 && receipt.counts["HealthAutoExport_stateOfMind"] == nil)
            // Workouts are typed (HAEWorkoutTests holds the details).
            expectEqual(receipt.counts[Workout.typeIdentifier]?.added, 1)
            let workout = try #require(store.allSamples.compactMap(Workout.init(sample:)).first)
            #expect(workout.duration == 1800 && workout.activity == .walking)
            expectEqual(workout.metadataValues?["HAEWorkoutName"], .string("Outdoor Walk"))
            for kept in ["HKQuantityTypeIdentifierInsulinDelivery", "HKCategoryTypeIdentifierHandwashingEvent",
                         "HKCategoryTypeIdentifierToothbrushingEvent", "HKCategoryTypeIdentifierSexualActivity"] {
                let counts = receipt.counts[kept]
                expectEqual((counts?.added ?? 0) + (counts?.keptGenerically ?? 0), 1, "\(kept)")
            }
            let again = try Self.importer(store).importHealthAutoExport(try Self.payload("shapes.json"), receivedThrough: nil)
            expectEqual(again.totals.added + again.totals.keptGenerically + again.totals.replaced, 0)
        }

        func badPointsAreRefusedWithTheirLinesAndTheRestIsStored() throws {
            let store = InMemorySampleStore()
            let receipt = try Self.importer(store).importHealthAutoExport(try Self.payload("bad-points.json"), receivedThrough: nil)
            expectEqual(receipt.counts[Self.steps]?.rejected, 5)
            expectEqual(receipt.counts[Self.steps]?.added, 1)
            expectEqual(receipt.problems.map(\.line), [2, 3, 4, 5, 6])
            #expect(receipt.problems[0].reason.contains("'qty' is 'many', not a number"))
            #expect(receipt.problems[1].reason.contains("not a date"))
            #expect(receipt.problems[2].reason.contains("negative"))
            expectEqual(store.allSamples.count, 1)
        }

        func samplesCoveredByAnExportAreNotStoredTwice() throws {
            let watch = "Jane’s iPhone"
            let exported = (0..<3).map { hour in
                Sample(typeIdentifier: Self.steps, start: Self.date("2024-05-10 0\(hour + 7):00:00 +0200"),
                       end: Self.date("2024-05-10 0\(hour + 7):10:00 +0200"), value: .quantity(Quantity(1000, try! HealthUnit(parsing: "count"))),
                       source: watch, created: Self.date("2024-05-10 10:00:00 +0200"))
            }
            let store = InMemorySampleStore(exported)
            let receipt = try Self.importer(store).importHealthAutoExport(try Self.payload("overlap-hae.json"), receivedThrough: nil)
            // The export's 3,000 end at 09:10, within HAE's day: its 4,500 go on as the remainder, 1,500 over 09:10–24:00.
            #expect(receipt.counts[Self.steps]?.added == 1 && receipt.counts[Self.steps]?.covered == 0)
            let steps = store.allSamples.filter { $0.typeIdentifier == Self.steps }
            expectEqual(steps.count, 4)
            let rest = steps.first { $0.metadata[HAESampleBuilder.aggregationKey] != nil }
            #expect(rest?.start == Self.date("2024-05-10 09:10:00 +0200") && rest?.value.quantity?.value == 1500)
            // An export that goes on past the day holds all of it: HAE's total is covered.
            let later = Sample(typeIdentifier: Self.steps, start: Self.date("2024-05-11 08:00:00 +0200"),
                               end: Self.date("2024-05-11 08:10:00 +0200"), value: .quantity(Quantity(10, try! HealthUnit(parsing: "count"))),
                               source: watch, created: Self.date("2024-05-11 10:00:00 +0200"))
            let whole = InMemorySampleStore(exported + [later])
            let covered = try Self.importer(whole).importHealthAutoExport(try Self.payload("overlap-hae.json"), receivedThrough: nil)
            #expect(covered.counts[Self.steps]?.covered == 1 && covered.counts[Self.steps]?.alreadyPresent == 1)
            expectEqual(whole.allSamples.filter { $0.typeIdentifier == Self.steps }.count, 4)
            // Another app's samples cannot stand for the phone's total: kept whole.
            let otherApp = InMemorySampleStore((exported + [later]).map { var other = $0; other.source = "Pedometer++"; return other })
            let kept = try Self.importer(otherApp).importHealthAutoExport(try Self.payload("overlap-hae.json"), receivedThrough: nil)
            expectEqual(kept.counts[Self.steps]?.added, 1)
            expectEqual(otherApp.allSamples.first { $0.metadata[HAESampleBuilder.aggregationKey] != nil }?.value.quantity?.value, 4500)
            // What the owner typed into hkctl never reached the phone: HAE's day total does not include it.
            let typed = InMemorySampleStore(exported.map { sample in
                var own = sample
                own.source = AuthorizationState.ownerSource
                return own
            })
            let added = try Self.importer(typed).importHealthAutoExport(try Self.payload("overlap-hae.json"), receivedThrough: nil)
            #expect(added.counts[Self.steps]?.added == 1 && added.counts[Self.steps]?.covered == 0)
        }

        /// An export made at 14:00 holds the Watch's and the iPhone's samples of the same morning walk (5,000 and
        /// 4,800 steps, 08:00–12:00); HAE's day total (9,000, from both devices) is HealthKit's merged figure, so the
        /// export stands for 5,000 of it (the two devices' samples merged as statistics merge them, not 9,800 added
        /// up), and 4,000 are kept over 12:00–24:00: merged, the day is 9,000 again, nothing the phone measured lost.
        func twoDevicesCountingTheSameWalkInAnExportAreSubtractedOnce() throws {
            let count = try HealthUnit(parsing: "count")
            func walk(_ source: String, _ steps: Double) -> Sample {
                Sample(typeIdentifier: Self.steps, start: Self.date("2024-05-10 08:00:00 +0200"), end: Self.date("2024-05-10 12:00:00 +0200"),
                       value: .quantity(Quantity(steps, count)), source: source, created: Self.date("2024-05-10 14:00:00 +0200"))
            }
            let store = InMemorySampleStore([walk("Jane’s Apple Watch", 5000), walk("Jane’s iPhone", 4800)])
            let day = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 00:00:00 +0200","qty":9000,"source":"Jane’s Apple Watch|Jane’s iPhone"}]}]}}"#
            let receipt = try Self.importer(store).importHealthAutoExport(try Self.payload(text: day), receivedThrough: nil)
            expectEqual(receipt.counts[Self.steps]?.added, 1, "the rest of the day is kept, not covered")
            let rest = try #require(store.allSamples.first { $0.metadata[HAESampleBuilder.aggregationKey] != nil })
            #expect(rest.start == Self.date("2024-05-10 12:00:00 +0200") && rest.end == Self.date("2024-05-11 00:00:00 +0200"))
            expectEqual(rest.value.quantity?.value, 4000)
        }

        /// The two real payloads in ../shared, read in place.
        @Suite(.enabled(if: FileManager.default.fileExists(atPath: HealthAutoExportTests.realFolder),
                        "../shared/fixtures/health-auto-export is not next to the repository, so the real-payload tests are skipped"))
        struct RealPayloads {
            static let folder = HealthAutoExportTests.realFolder

            static func payload(_ name: String) throws -> HealthAutoExportPayload {
                let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + name))
                return try HealthAutoExportPayload(bytes: Array(bytes), name: name)
            }

            @Test func minuteLevelDayIsReadWhole() throws {
                let payload = try Self.payload("namtonthat_apple-health-data_minute-level-2023-01-20-kJ-mL.json")
                expectEqual(payload.metricNames.count, 37)
                expectEqual(payload.aggregation, "minute")
                let store = InMemorySampleStore()
                let zone = TimeZone(identifier: "Australia/Melbourne")!
                let receipt = try HealthImporter(store: store, timeZone: zone).importHealthAutoExport(payload, receivedThrough: nil)
                expectEqual(receipt.totals.rejected, 0, "\(receipt.problems)")
                expectEqual(receipt.totals.added + receipt.totals.keptGenerically, payload.pointCount)
                expectEqual(receipt.counts[HealthAutoExportTests.heartRate]?.added, 636)
                let oxygen = store.allSamples.filter { $0.typeIdentifier == "HKQuantityTypeIdentifierOxygenSaturation" }
                #expect(oxygen.count == 14 && oxygen.allSatisfy { ($0.value.quantity?.value ?? 2) <= 1 })
                let water = store.allSamples.filter { $0.typeIdentifier == "HKQuantityTypeIdentifierDietaryWater" }
                #expect(water.allSatisfy { $0.value.quantity?.unit.unitString == "mL" })
                let energy = store.allSamples.filter { $0.typeIdentifier == "HKQuantityTypeIdentifierBasalEnergyBurned" }
                #expect(energy.count == 1422 && energy.allSatisfy { $0.value.quantity?.unit.unitString == "kJ" })
                let again = try HealthImporter(store: store, timeZone: zone).importHealthAutoExport(payload, receivedThrough: nil)
                expectEqual(again.totals.alreadyPresent, payload.pointCount)
                // Stored and read again in small batches: the forms the payload holds side by side (readings beside
                // minutes) still never cross, whichever batch each lands in.
                let small = InMemorySampleStore()
                _ = try HealthImporter(store: small, batchSize: 50, timeZone: zone).importHealthAutoExport(payload, receivedThrough: nil)
                let smallAgain = try HealthImporter(store: small, batchSize: 50, timeZone: zone).importHealthAutoExport(payload, receivedThrough: nil)
                expectEqual(smallAgain.totals.alreadyPresent, payload.pointCount, "\(smallAgain.counts.filter { $0.value.alreadyPresent != $0.value.total })")
            }

            @Test func dailyWeekWithTheOldestSleepForm() throws {
                let payload = try Self.payload("namtonthat_apple-health-data_daily-week-2023-01-old-sleep-sleepSource.json")
                expectEqual(payload.aggregation, "day")
                let store = InMemorySampleStore()
                let zone = TimeZone(identifier: "Australia/Melbourne")!
                let receipt = try HealthImporter(store: store, timeZone: zone).importHealthAutoExport(payload, receivedThrough: nil)
                expectEqual(receipt.totals.rejected, 0)
                expectEqual(receipt.counts[HealthAutoExportTests.sleep]?.added, 15, "eight nights in bed, seven with sleep")
                let steps = store.allSamples.filter { $0.typeIdentifier == HealthAutoExportTests.steps }
                #expect(steps.first { $0.value.quantity?.value == 17022.917041443572 } != nil)
                let query = SleepNightsQuery(interval: DateInterval(start: ExportDateParser.parse("2023-01-21 12:00:00 +1100")!,
                                                                    end: ExportDateParser.parse("2023-01-29 12:00:00 +1100")!))
                let nights = try query.run(on: store, calendar: GregorianCalendar(timeZone: ZoneRules(secondsFromGMT: 39_600)))
                    .filter { $0.sampleCount > 0 }
                expectEqual(nights.map { $0.asleep / 3600 }, [7, 6.05, 7, 8.25, 8.383333333333333, 7.333333333333333, 7.333333333333333, 0]
                    .map { HAESleep.seconds($0) / 3600 })
                expectEqual(nights.map { ($0.inBed ?? 0) / 3600 }, [13.941666666666666, 11.55, 13.708333333333334, 16.508333333333333,
                                                                   16.433333333333334, 14.358333333333334, 14.45833333333334,
                                                                   13.09166666666667].map { HAESleep.seconds($0) / 3600 })
            }
        }
    
        /// A payload stored through a ``HealthStore`` of another source (a relay such as a push token): the types the
        /// owner granted are stored, a type no grant allows refuses the whole payload, and a type Apple computes
        /// refuses only its own points (with the reason), so an app set to send every metric still delivers the rest.
        func aRelayingSourceStoresGrantedTypesAndRefusesOnlyApplesComputedPoints() throws {
            let text = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-05-10 08:00:00 +0200","qty":120,"source":"Jane’s iPhone"}]},{"name":"apple_exercise_time","units":"min","data":[{"date":"2024-05-10 08:00:00 +0200","qty":30,"source":"Jane’s Apple Watch"}]},{"name":"some_new_metric","units":"count","data":[{"date":"2024-05-10 08:00:00 +0200","qty":1}]}]}}"#
            try TestSupport.withTemporaryDirectory { folder in
                let storage = JSONFileStore(path: folder + "/store")
                let relay = try HealthStore(storage: storage, source: "iphone")
                let importer = HealthImporter(store: relay, timeZone: Self.berlin)
                #expect(throws: AuthorizationError.notDetermined(source: "iphone", type: "steps")) {
                    try importer.importHealthAutoExport(Self.payload(text: text), receivedThrough: nil)
                }
                try HealthStore(storage: storage, source: AuthorizationState.ownerSource)
                    .decideAuthorization(for: "iphone", allow: true, share: [QuantityType(.stepCount)], read: [])
                let receipt = try importer.importHealthAutoExport(Self.payload(text: text), receivedThrough: nil)
                let exercise = QuantityTypeIdentifier.appleExerciseTime.rawValue
                expectEqual(receipt.counts[Self.steps]?.added, 1)
                expectEqual(receipt.counts[exercise]?.rejected, 1)
                #expect(receipt.counts[exercise]?.added ?? 0 == 0)
                expectEqual(receipt.totals.keptGenerically, 1, "an unknown metric needs no grant and is kept")
                let reason = try #require(receipt.problems.first { $0.type == exercise }?.reason)
                #expect(reason.contains("computed by Apple"), "\(reason)")
                let day = DateInterval(start: Self.date("2024-05-10 00:00:00 +0200"), duration: 86_400)
                let stored = try storage.samples(ofType: Self.steps, overlapping: day)
                expectEqual(stored.map(\.source), ["Jane’s iPhone"])
                expectEqual(stored.first?.metadata["HAEReceivedThrough"], .string("iphone"))
                #expect(try storage.samples(ofType: exercise, overlapping: day).isEmpty)
            }
        }
}
}

/// The checks ``ImportTests.HealthAutoExportTests/checks(_:)`` runs.
private let healthAutoExportTestsChecks: [Check<ImportTests.HealthAutoExportTests>] = [
    Check("numbersAreReadToTheLastBitAndStringsDecoded",
          ImportTests.HealthAutoExportTests.numbersAreReadToTheLastBitAndStringsDecoded),
    Check("nestingIsBounded", ImportTests.HealthAutoExportTests.nestingIsBounded),
    Check("onlyAnObjectStartingWithDataLooksLikeAPayload",
          ImportTests.HealthAutoExportTests.onlyAnObjectStartingWithDataLooksLikeAPayload),
    Check("periodsAreRecognisedFromTheDates", ImportTests.HealthAutoExportTests.periodsAreRecognisedFromTheDates),
    Check("aDayEndsAtTheNextLocalMidnightAcrossDST",
          ImportTests.HealthAutoExportTests.aDayEndsAtTheNextLocalMidnightAcrossDST),
    Check("everyMappedNameHasAHealthKitIdentifierAndTheCommonOnesAreInTheCatalogue",
          ImportTests.HealthAutoExportTests.everyMappedNameHasAHealthKitIdentifierAndTheCommonOnesAreInTheCatalogue),
    Check("dailyStepsCoverTheirLocalDayAndPercentagesAreFractions",
          ImportTests.HealthAutoExportTests.dailyStepsCoverTheirLocalDayAndPercentagesAreFractions),
    Check("reSendsAddNothingAndAChangedValueReplaces",
          ImportTests.HealthAutoExportTests.reSendsAddNothingAndAChangedValueReplaces),
    Check("aDryRunCountsAndWritesNothing", ImportTests.HealthAutoExportTests.aDryRunCountsAndWritesNothing),
    Check("theSameTimeInAnotherFormReplacesTheStoredForm",
          ImportTests.HealthAutoExportTests.theSameTimeInAnotherFormReplacesTheStoredForm),
    Check("hoursCoveringPartOfADayLeaveItsRemainder",
          ImportTests.HealthAutoExportTests.hoursCoveringPartOfADayLeaveItsRemainder),
    Check("aFinerPointAtTheStartOfAStoredCoarserOneKeepsItsRemainder",
          ImportTests.HealthAutoExportTests.aFinerPointAtTheStartOfAStoredCoarserOneKeepsItsRemainder),
    Check("hoursReSentWithAnotherAlignmentReplaceTheHoursTheyCover",
          ImportTests.HealthAutoExportTests.hoursReSentWithAnotherAlignmentReplaceTheHoursTheyCover),
    Check("aPointReSentWithASourceAfterNoneIsTheSamePoint",
          ImportTests.HealthAutoExportTests.aPointReSentWithASourceAfterNoneIsTheSamePoint),
    Check("filesOfTwoSettingsImportedAgainChangeNothing",
          ImportTests.HealthAutoExportTests.filesOfTwoSettingsImportedAgainChangeNothing),
    Check("formsOfOnePayloadNeverCrossAcrossBatches",
          ImportTests.HealthAutoExportTests.formsOfOnePayloadNeverCrossAcrossBatches),
    Check("aLongJoinedSourceIsShortenedDeterministically",
          ImportTests.HealthAutoExportTests.aLongJoinedSourceIsShortenedDeterministically),
    Check("otherSpellingsOfAMetricNameTheSameType",
          ImportTests.HealthAutoExportTests.otherSpellingsOfAMetricNameTheSameType),
    Check("namesOfOneTypeShareTheSyncName", ImportTests.HealthAutoExportTests.namesOfOneTypeShareTheSyncName),
    Check("aNightReSentWithoutAPartDropsItOnlyForItsSource",
          ImportTests.HealthAutoExportTests.aNightReSentWithoutAPartDropsItOnlyForItsSource),
    Check("aSourceThatGrewIsTheSamePoint", ImportTests.HealthAutoExportTests.aSourceThatGrewIsTheSamePoint),
    Check("heartRateMinAvgMaxGiveTheDaysFigures",
          ImportTests.HealthAutoExportTests.heartRateMinAvgMaxGiveTheDaysFigures),
    Check("sleepPerNightGivesThePayloadsFigures",
          ImportTests.HealthAutoExportTests.sleepPerNightGivesThePayloadsFigures),
    Check("sleepOldestFormTakesAsleepAsUnstagedAndKeepsItsSources",
          ImportTests.HealthAutoExportTests.sleepOldestFormTakesAsleepAsUnstagedAndKeepsItsSources),
    Check("aNightWhoseFiguresPassADayIsLimitedToItsTimesNotRefused",
          ImportTests.HealthAutoExportTests.aNightWhoseFiguresPassADayIsLimitedToItsTimesNotRefused),
    Check("shapesBecomeTheirHealthKitFormsAndTheRestIsKept",
          ImportTests.HealthAutoExportTests.shapesBecomeTheirHealthKitFormsAndTheRestIsKept),
    Check("badPointsAreRefusedWithTheirLinesAndTheRestIsStored",
          ImportTests.HealthAutoExportTests.badPointsAreRefusedWithTheirLinesAndTheRestIsStored),
    Check("samplesCoveredByAnExportAreNotStoredTwice",
          ImportTests.HealthAutoExportTests.samplesCoveredByAnExportAreNotStoredTwice),
    Check("twoDevicesCountingTheSameWalkInAnExportAreSubtractedOnce",
          ImportTests.HealthAutoExportTests.twoDevicesCountingTheSameWalkInAnExportAreSubtractedOnce),
    Check("aRelayingSourceStoresGrantedTypesAndRefusesOnlyApplesComputedPoints",
          ImportTests.HealthAutoExportTests.aRelayingSourceStoresGrantedTypesAndRefusesOnlyApplesComputedPoints),
]
