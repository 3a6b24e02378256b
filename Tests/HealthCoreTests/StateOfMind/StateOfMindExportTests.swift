import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// States of mind in the CSV and Health XML exports (``StateOfMindExportForm``), and back through an import.
@Suite struct StateOfMindExportTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: stateOfMindExportTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport

    static func moods() -> [Sample] {
        func stored(_ state: StateOfMind, _ at: String) -> Sample {
            var record = state.sample
            record.source = "hkctl"
            record.created = TestSupport.date(at)
            return record
        }
        return [
            stored(StateOfMind(date: TestSupport.date("2024-05-01T08:00:00Z"), kind: .momentaryEmotion,
                               valence: StateOfMind.ValenceClassification.pleasant.representativeValence,
                               labels: [.calm, .grateful], associations: [.work, .selfCare], metadata: ["note": .string("after a run")]),
                   "2024-05-01T08:00:01Z"),
            stored(StateOfMind(date: TestSupport.date("2024-05-01T21:00:00Z"), kind: .dailyMood, valence: -0.4,
                               labels: [], associations: [.currentEvents], metadata: nil), "2024-05-01T21:00:00Z"),
            // Same time and kind as the first, another valence and no words: another mood, not the first again.
            stored(StateOfMind(date: TestSupport.date("2024-05-01T08:00:00Z"), kind: .momentaryEmotion, valence: 0.9,
                               labels: [], associations: [], metadata: ["note": .string("after a run")]), "2024-05-01T08:00:01Z"),
        ]
    }

    private func exported(_ store: SampleStore, _ format: ExportFormat) throws -> String {
        try Support.withTemporaryDirectory { folder in
            let path = folder + "/out"
            _ = try SampleExporter(store: store, timeZone: .gmt)
                .export(types: nil, interval: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd), format: format,
                        exportDate: TestSupport.referenceNow, to: FileDestination(path: path))
            return try String(contentsOfFile: path, encoding: .utf8)
        }
    }

    private func imported(_ text: String, into store: SampleStore) throws -> ImportReceipt {
        try Support.withTemporaryDirectory { folder in
            try HealthImporter(store: store).importFile(atPath: try Support.write(text, named: "export.xml", in: folder))
        }
    }

    /// Everything a mood holds but its uuid (an import of Health XML names records by their content).
    private func contents(_ samples: [Sample]) -> [String] {
        samples.compactMap(StateOfMind.init).map { state in
            "\(state.startDate.timeIntervalSince1970) \(state.kind) \(state.valence) \(state.labels) \(state.associations) "
                + "\(state.sourceName) \(state.sample.created.timeIntervalSince1970) \(state.sample.metadata.sorted { $0.key < $1.key })"
        }.sorted()
    }

    func csvCarriesKindValenceLabelsAndAssociations() throws {
        let lines = try exported(InMemorySampleStore(Self.moods()), .csv).split(separator: "\n").map(String.init)
        expectEqual(lines.count, 4)
        let first = try #require(lines.first { $0.contains("HKStateOfMindLabelCalm") })
        #expect(first.hasPrefix("HKDataTypeStateOfMind,2024-05-01T08:00:00"))
        #expect(first.contains(",HKStateOfMindKindMomentaryEmotion,,hkctl,,"))
        #expect(first.contains("\"\"HKStateOfMindValence\"\":0.571428"))
        #expect(first.contains("\"\"HKStateOfMindValenceClassification\"\":\"\"HKStateOfMindValenceClassificationPleasant\"\""))
        #expect(first.contains("\"\"HKStateOfMindLabels\"\":\"\"HKStateOfMindLabelCalm,HKStateOfMindLabelGrateful\"\""))
        #expect(first.contains("\"\"HKStateOfMindAssociations\"\":\"\"HKStateOfMindAssociationWork,HKStateOfMindAssociationSelfCare\"\""))
        #expect(first.contains("\"\"note\"\":\"\"after a run\"\""))
        let daily = try #require(lines.first { $0.contains("HKStateOfMindKindDailyMood") })
        #expect(daily.contains("\"\"HKStateOfMindValence\"\":-0.4") && !daily.contains("HKStateOfMindLabels"))
    }

    func healthXMLWritesARecordThatImportsBackAsTheSameMoods() throws {
        let original = InMemorySampleStore(Self.moods())
        let xml = try exported(original, .healthxml)
        #expect(xml.contains("<Record type=\"HKDataTypeStateOfMind\" sourceName=\"hkctl\" creationDate=\"2024-05-01 08:00:01 +0000\" "
                             + "startDate=\"2024-05-01 08:00:00 +0000\" endDate=\"2024-05-01 08:00:00 +0000\" value=\"HKStateOfMindKindMomentaryEmotion\">"))
        #expect(xml.contains("<MetadataEntry key=\"HKStateOfMindValence\" value=\"-0.4\" hkctlType=\"number\"/>"))
        #expect(xml.contains("<MetadataEntry key=\"HKStateOfMindAssociations\" value=\"HKStateOfMindAssociationCurrentEvents\"/>"))

        let copy = InMemorySampleStore()
        let receipt = try imported(xml, into: copy)
        #expect(!receipt.hasProblems, "\(receipt.problems)")
        #expect(receipt.counts[StateOfMind.typeIdentifier]?.added == 3 && receipt.totals.keptGenerically == 0)
        expectEqual(contents(copy.allSamples), contents(original.allSamples))
        #expect(copy.allSamples.allSatisfy { $0.metadata["HKStateOfMindValence"] == nil })
        // Again, into the copy and into the store it came from: every mood is already there.
        try expectEqual(imported(xml, into: copy).totals.alreadyPresent, 3)
        try expectEqual(imported(xml, into: original).totals.alreadyPresent, 3)
        expectEqual(original.allSamples.count, 3)
    }

    func entriesThatDoNotReadKeepTheRecordAsWritten() throws {
        let mood = Self.moods()[0]
        let typed = StateOfMindExportForm.generic(mood)
        #expect(typed.detail == nil && StateOfMindExportForm.typed(typed) == mood)
        var unknownLabel = typed
        unknownLabel.metadata[StateOfMindExportForm.labelsKey] = .string("HKStateOfMindLabelCalm,HKStateOfMindLabelFocused")
        var outOfRange = typed
        outOfRange.metadata[StateOfMindExportForm.valenceKey] = .number(1.5)
        var noValence = typed
        noValence.metadata[StateOfMindExportForm.valenceKey] = nil
        var unknownKind = typed
        unknownKind.value = .generic(value: "HKStateOfMindKindWeekly", unit: nil)
        for sample in [unknownLabel, outOfRange, noValence, unknownKind] {
            expectNil(StateOfMindExportForm.typed(sample))
        }
        // Swift case names and raw values read too; the classification written is ignored (it follows the valence).
        var plain = typed
        plain.value = .generic(value: "2", unit: nil)
        plain.metadata[StateOfMindExportForm.labelsKey] = .string("calm, grateful")
        plain.metadata[StateOfMindExportForm.valenceKey] = .string("0.25")
        plain.metadata[StateOfMindExportForm.classificationKey] = .string("HKStateOfMindValenceClassificationVeryUnpleasant")
        let read = try #require(StateOfMindExportForm.typed(plain).flatMap(StateOfMind.init))
        #expect(read.kind == .dailyMood && read.labels == [.calm, .grateful] && read.valence == 0.25 && read.valenceClassification == .slightlyPleasant)
    }
}

/// The checks ``StateOfMindExportTests/checks(_:)`` runs.
private let stateOfMindExportTestsChecks: [Check<StateOfMindExportTests>] = [
    Check("csvCarriesKindValenceLabelsAndAssociations",
          StateOfMindExportTests.csvCarriesKindValenceLabelsAndAssociations),
    Check("healthXMLWritesARecordThatImportsBackAsTheSameMoods",
          StateOfMindExportTests.healthXMLWritesARecordThatImportsBackAsTheSameMoods),
    Check("entriesThatDoNotReadKeepTheRecordAsWritten",
          StateOfMindExportTests.entriesThatDoNotReadKeepTheRecordAsWritten),
]
