import Foundation
import Testing
import TestKit
@testable import HealthCore

/// `export --format jsonl|json` spells each sample as the store's line writer does (``SampleLineWriter``, bytes, since
/// session 46; ``SampleLineCodec/encode(_:sequence:)`` before): every line is the codec's spelling of the sample it
/// decodes to, in the export's zone, for the demo store and for samples of every kind (a workout, a food entry, a
/// category, metadata with quotes, escapes and other scripts), through a destination that takes bytes and one that
/// takes only text.
struct JSONExportLinesTests {
    @Test(arguments: jSONExportLinesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit
    private typealias Kit = IndependentTestKit

    /// Keeps what it is given; takes bytes as they are when `bytes`, else only through ``write(_:)``.
    private final class Memory: ExportDestination {
        var text = ""
        var byteWrites = 0
        let bytes: Bool
        init(bytes: Bool) { self.bytes = bytes }
        func write(_ text: String) throws { self.text += text }
        func write(utf8 bytes: UnsafeRawBufferPointer) throws {
            if self.bytes {
                byteWrites += 1
                text += String(decoding: bytes, as: UTF8.self)
            } else {
                try write(String(decoding: bytes, as: UTF8.self))
            }
        }
        func finish() throws {}
    }

    /// The varied samples, saved into `store`.
    private static func saveVariedSamples(into store: JSONFileStore) throws {
        var water = Ops.water(250, hour: 8)
        water.metadata = ["note": .string("a \"quoted\" line\\ with\ttab, ünïcödé and 日本語"), "HKWasUserEntered": .number(1)]
        let energy = Kit.quantity(SampleTypeCatalogue.standard.type(identifier: QuantityTypeIdentifier.dietaryEnergyConsumed.rawValue)!, 420.5, "kcal", Kit.utc(2024, 6, 1, 12))
        let food = Correlation.sample(of: .food, members: [energy], start: Kit.utc(2024, 6, 1, 12), end: Kit.utc(2024, 6, 1, 12),
                                      source: "hkctl", created: Ops.madeAt)
        let sleep = Sample(typeIdentifier: CategoryTypeIdentifier.sleepAnalysis.rawValue, start: Kit.utc(2024, 3, 30, 22),
                           end: Kit.utc(2024, 3, 31, 6, 30), value: .category(3), source: "Watch", created: Ops.madeAt)
        try store.save([water, energy, food, sleep, UndoHolderKit.workout(naming: [water.uuid])])
    }

    private static func exported(_ store: SampleStore, _ format: ExportFormat, zone: ZoneRules, bytes: Bool) throws -> Memory {
        let output = Memory(bytes: bytes)
        _ = try SampleExporter(store: store, timeZone: zone).export(types: nil, interval: Ops.everything, format: format,
                                                                    exportDate: Ops.madeAt, to: output)
        return output
    }

    private static func checkLines(of store: SampleStore, zone: ZoneRules, atLeast count: Int) throws {
        let codec = SampleLineCodec(catalogue: .standard, timeZone: zone)
        var decoder = codec
        for bytes in [true, false] {
            let jsonl = try exported(store, .jsonl, zone: zone, bytes: bytes)
            #expect(bytes == (jsonl.byteWrites > 0))
            let lines = jsonl.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.last == "", "ends with a newline")
            #expect(lines.count - 1 >= count)
            for line in lines.dropLast() {
                let sample = try Array(line.utf8).withUnsafeBufferPointer { try decoder.decode($0) }
                expectEqual(line, codec.encode(sample))
            }
            let json = try exported(store, .json, zone: zone, bytes: bytes)
            expectEqual(json.text, "[\n" + lines.dropLast().joined(separator: ",\n") + "\n]\n")
        }
    }

    func everyLineIsTheCodecsSpellingOfItsSample() throws {
        try Ops.withStore { store, _ in
            try Self.saveVariedSamples(into: store)
            for zone in ["UTC", "Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata"] {
                try Self.checkLines(of: store, zone: try #require(ZoneDatabase.system(environment: [:]).zone(named: zone)), atLeast: 5)
            }
            // Nothing at all: an empty array, no lines.
            let empty = JSONFileStore(path: store.path + "-none")
            expectEqual(try Self.exported(empty, .json, zone: .gmt, bytes: true).text, "[]\n")
            expectEqual(try Self.exported(empty, .jsonl, zone: .gmt, bytes: true).text, "")
        }
    }

    func theDemoStoreExportsAsTheCodecSpellsIt() throws {
        let store = JSONFileStore(path: SeedsTests.demoStore)
        try Self.checkLines(of: store, zone: try #require(ZoneDatabase.system(environment: [:]).zone(named: "Europe/Berlin")),
                            atLeast: 100)
    }
}

private let jSONExportLinesTestsChecks: [Check<JSONExportLinesTests>] = [
    Check("everyLineIsTheCodecsSpellingOfItsSample", JSONExportLinesTests.everyLineIsTheCodecsSpellingOfItsSample),
    Check("theDemoStoreExportsAsTheCodecSpellsIt", JSONExportLinesTests.theDemoStoreExportsAsTheCodecSpellsIt),
]
