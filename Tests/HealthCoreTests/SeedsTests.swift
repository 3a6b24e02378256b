import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The demo data in seeds/ must always load with the current schema.
struct SeedsTests {
    static let demoStore = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("seeds/demo-store").path

    @Test func demoStoreLoadsEverySampleWithTheCurrentSchema() throws {
        let store = JSONFileStore(path: SeedsTests.demoStore)
        #expect(try store.isExistingStore())
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        for name in ["water", "steps", "weight", "sleep", "heart-rate", "mindful"] {
            let type = try SampleTypeCatalogue.standard.type(named: name)
            let samples = try store.samples(ofType: type.identifier, overlapping: everything)
            #expect(!samples.isEmpty, "no \(type.name) samples in the demo store")
            for sample in samples { try sample.validated(as: type) }
        }
        // Every line of every partition decodes: count lines and compare with what the store returned.
        var lineCount = 0, sampleCount = 0
        for type in SampleTypeCatalogue.standard.types {
            let folder = SeedsTests.demoStore + "/" + JSONFileStore.typeFolder(type.identifier)
            guard FileManager.default.fileExists(atPath: folder) else { continue }
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
                lineCount += text.split(separator: "\n").count
            }
            sampleCount += try store.samples(ofType: type.identifier, overlapping: everything).count
        }
        expectEqual(lineCount, sampleCount)
    }
}
