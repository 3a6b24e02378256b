import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The source priority order: default classes, the user's list, and its document in the store.
struct MergePriorityTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: mergePriorityTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    @Test(arguments: [
        ("Jane’s Apple Watch", nil, SourceKind.wearable), ("Mi Band 7", nil, .wearable), ("Oura", nil, .wearable),
        ("Garmin Connect", nil, .wearable), ("Jane’s iPhone", nil, .phone), ("Pixel 8", nil, .phone),
        ("Pedometer++", "name:Apple Watch, model:Watch, hardware:Watch6,2", .wearable),
        ("Pedometer++", "name:iPhone, model:iPhone, hardware:iPhone14,5", .phone), ("MyFitnessPal", nil, .app),
        ("Spring Cleaning", nil, .app), ("hkctl", nil, .manual), ("Health", nil, .manual),
    ] as [(String, String?, SourceKind)])
    func classifiesSources(name: String, device: String?, kind: SourceKind) {
        expectEqual(SourceKind.classify(name: name, device: device), kind)
    }

    /// Names of ASCII and punctuation are split without `split`; the words must be the ones the general rule
    /// (lower-cased runs of letters, by Character) gives, for every kind of name.
    @Test(arguments: [
        "Jane’s Apple Watch", "Mi Band 7", "Pedometer++", "name:iPhone, model:iPhone, hardware:iPhone14,5", "",
        "  ", "hkctl", "ÉLODIE’S iPhone", "Zoë’s Watch", "Watch\u{301}", "K\u{212A}elvin", "a🏻b", "⌚️ Watch",
        "🇫🇷 Pixel", "iPhone—Pro", "x\r\ny", "Oura «Ring»", "Ärzte App", "İstanbul Phone", "Ω band", "a\u{200D}b",
    ])
    func splitsWordsAsTheGeneralRuleDoes(name: String) {
        expectEqual(SourceKind.words(in: name), name.lowercased().split { !$0.isLetter }.map(String.init))
    }

    func defaultOrderIsWearablePhoneAppManualThenName() {
        let order = SourcePriority.automatic.ranked(["hkctl", "Zepp", "iPhone", "Apple Watch", "Acme", "Mi Band"].map { ($0, nil) })
        expectEqual(order, ["Apple Watch", "Mi Band", "iPhone", "Acme", "Zepp", "hkctl"])
    }

    func listedSourcesComeFirstInTheirOrder() throws {
        let priority = try SourcePriority(["hkctl", "iPhone"])
        let order = priority.ranked(["Apple Watch", "iPhone", "hkctl", "Acme"].map { ($0, nil) })
        expectEqual(order, ["hkctl", "iPhone", "Apple Watch", "Acme"])
    }

    func refusesDuplicatesAndEmptyNames() {
        #expect(throws: SourceError.duplicateSource("iPhone")) { try SourcePriority(["iPhone", "Watch", "iPhone"]) }
        #expect(throws: SourceError.emptySourceName) { try SourcePriority([""]) }
    }

    func documentDefaultsEqualDecodingAnEmptyObject() throws {
        let decoded = try JSONDecoder().decode(SourcePriorities.self, from: Data("{}".utf8))
        expectEqual(decoded, SourcePriorities())
        expectEqual(decoded.priority(for: SampleType.steps.identifier), .automatic)
    }

    func documentRoundTrips() throws {
        var document = SourcePriorities()
        document.set(try SourcePriority(["Apple Watch", "iPhone"]), for: SampleType.steps.identifier)
        let data = try JSONEncoder().encode(document)
        let decoded = try JSONDecoder().decode(SourcePriorities.self, from: data)
        expectEqual(decoded.priority(for: SampleType.steps.identifier).order, ["Apple Watch", "iPhone"])
        #expect(String(decoding: data, as: UTF8.self).contains("\"version\":1"))
        document.set(.automatic, for: SampleType.steps.identifier)
        expectEqual(document, SourcePriorities())
    }

    func documentFromANewerVersionIsRefused() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SourcePriorities.self, from: Data(#"{"version":2,"priorities":{}}"#.utf8))
        }
    }

    func documentWithADuplicateIsRefused() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SourcePriorities.self, from: Data(#"{"version":1,"priorities":{"x":["a","a"]}}"#.utf8))
        }
    }

    func storeKeepsThePriorities() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            try expectEqual(store.sourcePriorities(), SourcePriorities())
            try store.setSourcePriority(try SourcePriority(["iPhone"]), for: SampleType.steps.identifier)
            try expectEqual(store.sourcePriorities().priority(for: SampleType.steps.identifier).order, ["iPhone"])
            try store.setSourcePriority(.automatic, for: SampleType.steps.identifier)
            try expectEqual(store.sourcePriorities(), SourcePriorities())
        }
    }

    func summariesListSourcesInPriorityOrder() throws {
        let samples = [IndependentTestKit.steps(5, MergeFixtures.at(9), source: "iPhone"),
                       IndependentTestKit.steps(6, MergeFixtures.at(10), MergeFixtures.at(11), source: "iPhone"),
                       IndependentTestKit.steps(7, MergeFixtures.at(8), source: "Apple Watch")]
        let rows = try SourceSummary.summaries(of: .steps, in: InMemorySampleStore(samples), priority: .automatic)
        expectEqual(rows.map(\.source), ["Apple Watch", "iPhone"])
        expectEqual(rows.map(\.sampleCount), [1, 2])
        #expect(rows[1].first == MergeFixtures.at(9) && rows[1].last == MergeFixtures.at(11))
        expectEqual(rows.map(\.rank), [1, 2])
    }
}

/// The checks ``MergePriorityTests/checks(_:)`` runs.
private let mergePriorityTestsChecks: [Check<MergePriorityTests>] = [
    Check("defaultOrderIsWearablePhoneAppManualThenName",
          MergePriorityTests.defaultOrderIsWearablePhoneAppManualThenName),
    Check("listedSourcesComeFirstInTheirOrder", MergePriorityTests.listedSourcesComeFirstInTheirOrder),
    Check("refusesDuplicatesAndEmptyNames", MergePriorityTests.refusesDuplicatesAndEmptyNames),
    Check("documentDefaultsEqualDecodingAnEmptyObject", MergePriorityTests.documentDefaultsEqualDecodingAnEmptyObject),
    Check("documentRoundTrips", MergePriorityTests.documentRoundTrips),
    Check("documentFromANewerVersionIsRefused", MergePriorityTests.documentFromANewerVersionIsRefused),
    Check("documentWithADuplicateIsRefused", MergePriorityTests.documentWithADuplicateIsRefused),
    Check("storeKeepsThePriorities", MergePriorityTests.storeKeepsThePriorities),
    Check("summariesListSourcesInPriorityOrder", MergePriorityTests.summariesListSourcesInPriorityOrder),
]
