import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Health Auto Export's `stateOfMind` array (Tests/Fixtures/hae-mood, described in its README) read as typed
    /// ``StateOfMind`` samples.
    struct HAEStateOfMindTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: hAEStateOfMindTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/hae-mood").path
        static let type = StateOfMind.typeIdentifier

        static func payload(_ name: String) throws -> HealthAutoExportPayload {
            let bytes = try #require(FileManager.default.contents(atPath: fixtures + "/" + name))
            return try HealthAutoExportPayload(bytes: Array(bytes), name: name)
        }

        static func moods(_ samples: [Sample]) -> [StateOfMind] {
            samples.compactMap(StateOfMind.init).sorted { $0.startDate < $1.startDate }
        }

        func elementsBecomeTypedMoodsAndBadOnesAreRefusedOneByOne() throws {
            let store = InMemorySampleStore()
            let payload = try Self.payload("moods.json")
            expectEqual(payload.sampleTypeIdentifiers, [Self.type])
            let receipt = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
            #expect(receipt.counts[Self.type]?.added == 3 && receipt.counts[Self.type]?.rejected == 5)
            expectNil(receipt.counts["HealthAutoExport_stateOfMind"], "nothing is kept untyped any more")
            let reasons = receipt.problems.map(\.reason)
            #expect(reasons.contains { $0.contains("'valence' 1.5, outside -1...1") })
            #expect(reasons.contains { $0.contains("'valence' \"pleasant\", not a number") })
            #expect(reasons.contains { $0.contains("'kind' \"weekly\"") && $0.contains("momentaryEmotion or dailyMood") })
            #expect(reasons.contains { $0.contains("no 'start' date") })
            #expect(reasons.contains { $0.contains("before it starts") })
            #expect(receipt.problems.allSatisfy { $0.type == Self.type && $0.line > 1 })

            let moods = Self.moods(store.allSamples)
            expectEqual(moods.count, 3)
            let first = moods[0], second = moods[1], third = moods[2]
            #expect(first.kind == .dailyMood && first.valence == 0.7 && first.valenceClassification == .pleasant)
            #expect(first.labels == [.calm] && first.associations == [.work])
            #expect(first.startDate == TestSupport.date("2024-02-06T22:00:00Z") && first.endDate == TestSupport.date("2024-02-06T22:05:00Z"))
            // Words outside HealthKit's sets are kept as written; the element's own metadata too.
            expectEqual(first.metadataValues?["HAE:labels"], .string("[\"Focused\"]"))
            expectEqual(first.metadataValues?["HAE:associations"], .string("[\"Productive\"]"))
            expectEqual(first.metadataValues?["customKey"], .string("customValue"))
            expectEqual(first.metadataValues?["HKExternalUUID"], .string("550e8400-e29b-41d4-a716-446655440000"))
            expectEqual(first.metadataValues?[MetadataKeySyncIdentifier], .string("HAE|stateOfMind|550e8400-e29b-41d4-a716-446655440000"))
            expectEqual(first.sourceName, "Health Auto Export")
            #expect(second.kind == .momentaryEmotion && second.valence == -0.45 && second.labels == [.anxious, .stressed])
            #expect(second.associations == [.selfCare, .currentEvents] && second.metadataValues?["HAE:labels"] == nil)
            #expect(third.kind == .dailyMood && third.valence == 0 && third.labels.isEmpty && third.valenceClassification == .neutral)
        }

        func aReSendAddsNothingAndAChangedElementReplacesItsMood() throws {
            let store = InMemorySampleStore()
            let importer = HealthImporter(store: store, timeZone: .gmt)
            _ = try importer.importHealthAutoExport(try Self.payload("moods.json"), receivedThrough: nil)
            let again = try importer.importHealthAutoExport(try Self.payload("moods.json"), receivedThrough: nil)
            #expect(again.counts[Self.type]?.added == 0 && again.counts[Self.type]?.alreadyPresent == 3)
            let resent = try importer.importHealthAutoExport(try Self.payload("moods-resent.json"), receivedThrough: nil)
            #expect(resent.counts[Self.type]?.alreadyPresent == 1 && resent.counts[Self.type]?.replaced == 2)
            let moods = Self.moods(store.allSamples)
            expectEqual(moods.count, 3, "replaced, not doubled, though its time changed")
            let changed = try #require(moods.first { $0.metadataValues?["HKExternalUUID"] == .string("7d3c1a2b-0000-4000-8000-000000000002") })
            #expect(changed.valence == -0.6 && changed.labels == [.anxious])
            expectEqual(changed.startDate, TestSupport.date("2024-02-07T02:45:00Z"))
            expectEqual(changed.metadataValues?[MetadataKeySyncVersion], .number(2))
            // Changed at the same time: only its valence and words differ, and they are compared too.
            let sameTime = try #require(moods.last)
            #expect(sameTime.valence == 0.1 && sameTime.labels == [.content] && sameTime.metadataValues?[MetadataKeySyncVersion] == .number(2))
        }

        func anElementKeptUntypedByAnEarlierVersionIsReplacedNotDoubled() throws {
            try TestSupport.withTemporaryDirectory { folder in
                let file = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                // What the previous version stored for the first element: an untyped sample of its JSON.
                let payload = try Self.payload("moods.json")
                let builder = HAESampleBuilder(catalogue: .standard, defaultSource: payload.defaultSource, zone: .gmt,
                                               level: .instant, created: TestSupport.date("2024-03-01T00:00:00Z"), receivedThrough: nil)
                guard case let .candidate(old) = HAEOtherArrays.candidate(payload.parsed.others[0], builder: builder) else {
                    Issue.record("the untyped form did not build")
                    return
                }
                _ = try file.storeHealthAutoExport([old], dryRun: false)
                let untyped = "HealthAutoExport_stateOfMind"
                let span = DateInterval(start: TestSupport.date("2024-01-01T00:00:00Z"), end: TestSupport.date("2024-03-01T00:00:00Z"))
                func stored(_ type: String) throws -> [Sample] {
                    var samples: [Sample] = []
                    try file.forEachSample(ofType: type, overlapping: span) { samples.append($0) }
                    return samples
                }
                try expectEqual(stored(untyped).count, 1)

                let importing = JSONFileStore(path: file.path, timeZone: .gmt,
                                              recording: OperationRecording(kind: .import, source: "hkctl", date: TestSupport.referenceNow))
                let receipt = try HealthImporter(store: importing, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
                #expect(receipt.counts[Self.type]?.replaced == 1 && receipt.counts[Self.type]?.added == 2)
                #expect(try stored(untyped).isEmpty, "the untyped copy is gone")
                let moods = Self.moods(try stored(Self.type))
                #expect(moods.count == 3 && moods[0].metadataValues?[MetadataKeySyncVersion] == .number(2))
                // And a third time: the typed moods stand.
                let again = try HealthImporter(store: file, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
                expectEqual(again.counts[Self.type]?.alreadyPresent, 3)
                // Undoing the import takes the replacement back: the untyped element returns, the moods go.
                _ = try file.undo(source: "hkctl", now: TestSupport.referenceNow)
                #expect(try stored(untyped).count == 1 && stored(Self.type).isEmpty)
            }
        }

        func kindsAreReadInEveryWrittenForm() throws {
            let cases: [(String, StateOfMind.Kind?)] = [
                ("\"mood\"", .dailyMood), ("\"Daily Mood\"", .dailyMood), ("\"daily_mood\"", .dailyMood), ("\"dailyMood\"", .dailyMood),
                ("2", .dailyMood), ("\"emotion\"", .momentaryEmotion), ("\"momentary_emotion\"", .momentaryEmotion),
                ("\"Momentary Emotion\"", .momentaryEmotion), ("1", .momentaryEmotion), ("\"weekly\"", nil), ("3", nil),
                ("null", nil), ("true", nil),
            ]
            for (json, kind) in cases {
                #expect(HAEStateOfMind.kind(try HAEJSONTree.parse(json)) == kind, "\(json)")
            }
        }
    }
}

/// The checks ``ImportTests.HAEStateOfMindTests/checks(_:)`` runs.
private let hAEStateOfMindTestsChecks: [Check<ImportTests.HAEStateOfMindTests>] = [
    Check("elementsBecomeTypedMoodsAndBadOnesAreRefusedOneByOne",
          ImportTests.HAEStateOfMindTests.elementsBecomeTypedMoodsAndBadOnesAreRefusedOneByOne),
    Check("aReSendAddsNothingAndAChangedElementReplacesItsMood",
          ImportTests.HAEStateOfMindTests.aReSendAddsNothingAndAChangedElementReplacesItsMood),
    Check("anElementKeptUntypedByAnEarlierVersionIsReplacedNotDoubled",
          ImportTests.HAEStateOfMindTests.anElementKeptUntypedByAnEarlierVersionIsReplacedNotDoubled),
    Check("kindsAreReadInEveryWrittenForm", ImportTests.HAEStateOfMindTests.kindsAreReadInEveryWrittenForm),
]
