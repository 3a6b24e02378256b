import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A sample's `metadata` is HealthKit's `[String: Any]?`: values read `as? Bool`, `as? String`, `as? Int`,
/// `as? Double`, `as? Quantity` and `as? Date` by their keys' documented types; `metadataValues` keeps them typed.
struct MetadataSignatureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: metadataSignatureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    func savedMetadataReadsAsHealthKitCodeReadsIt() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { Self.now })
            let at = TestSupport.date("2024-06-03T08:00:00Z")
            let pulse = QuantitySample(type: QuantityType(.heartRate), quantity: Quantity(unit: .count().unitDivided(by: .minute()), doubleValue: 62),
                                       start: at, end: at,
                                       metadata: [MetadataKeyWasUserEntered: true, MetadataKeyTimeZone: "Europe/Berlin",
                                                  MetadataKeyHeartRateMotionContext: 1, "Confidence": 0.75,
                                                  MetadataKeyWeatherTemperature: "72 degF",
                                                  MetadataKeyDateOfEarliestDataUsedForEstimate: "2024-06-01T07:30:00+02:00"])
            try await store.save(pulse)
            let sample = try #require(try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.heartRate))])
                .result(for: store).first)
            // HealthKit's lines, prefix dropped.
            let wasUserEntered = sample.metadata?[MetadataKeyWasUserEntered] as? Bool
            expectEqual(wasUserEntered, true)
            expectEqual(sample.metadata?[MetadataKeyTimeZone] as? String, "Europe/Berlin")
            expectEqual(sample.metadata?[MetadataKeyHeartRateMotionContext] as? Int, 1)
            expectEqual(sample.metadata?["Confidence"] as? Double, 0.75)
            let temperature = try #require(sample.metadata?[MetadataKeyWeatherTemperature] as? Quantity)
            expectEqual(temperature.doubleValue(for: .degreeFahrenheit()), 72)
            expectEqual(sample.metadata?[MetadataKeyDateOfEarliestDataUsedForEstimate] as? Date, TestSupport.date("2024-06-01T05:30:00Z"))
            // Typed access keeps what is stored.
            expectEqual(sample.metadataValues?[MetadataKeyWasUserEntered], .number(1))
            expectEqual(sample.metadataValues?[MetadataKeyWeatherTemperature], .string("72 degF"))
        }
    }

    func noMetadataIsNilAndValuesThatDoNotReadAsTheirKeysTypeStayAsStored() {
        let at = TestSupport.date("2024-06-03T08:00:00Z")
        let plain = CategorySample(type: CategoryType(.sleepAnalysis), value: 1, start: at, end: at)
        #expect(plain.metadata == nil && plain.metadataValues == nil)
        expectEqual(MetadataValue.number(2).healthKitValue(forKey: MetadataKeyWasUserEntered) as? Int, 2)
        expectEqual(MetadataValue.string("fast").healthKitValue(forKey: MetadataKeyAverageSpeed) as? String, "fast")
        expectEqual(MetadataValue.string("yesterday").healthKitValue(forKey: MetadataKeyDateOfEarliestDataUsedForEstimate) as? String, "yesterday")
        expectEqual(MetadataValue.number(1e20).healthKitValue(forKey: "Big") as? Double, 1e20)
        expectEqual(MetadataValue.number(-3).healthKitValue(forKey: "Offset") as? Int, -3)
        let speed = MetadataValue.string("5.2 km/hr").healthKitValue(forKey: MetadataKeyAverageSpeed) as? Quantity
        expectEqual(speed, Quantity(5.2, HealthUnit(from: "km/hr")))
    }
}

/// The checks ``MetadataSignatureTests/checks(_:)`` runs.
private let metadataSignatureTestsChecks: [Check<MetadataSignatureTests>] = [
    Check("savedMetadataReadsAsHealthKitCodeReadsIt", MetadataSignatureTests.savedMetadataReadsAsHealthKitCodeReadsIt),
    Check("noMetadataIsNilAndValuesThatDoNotReadAsTheirKeysTypeStayAsStored",
          MetadataSignatureTests.noMetadataIsNilAndValuesThatDoNotReadAsTheirKeysTypeStayAsStored),
]
