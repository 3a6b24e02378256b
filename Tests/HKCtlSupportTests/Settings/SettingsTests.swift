import Foundation
import HealthCore
@testable import HKCtlSupport
import Testing
import TestKit

/// ``Settings``: the `tz` key beside the display units, and documents written before it existed.
struct SettingsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: settingsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func tzTakesRecordedOnlyAndIsListedFirst() throws {
        var settings = Settings()
        #expect(!settings.showsRecordedZones)
        #expect(throws: SettingsError.invalidValue(key: "tz", value: "Asia/Tokyo")) {
            try settings.set("tz", to: "Asia/Tokyo", catalogue: .standard)
        }
        try settings.set("unit.weight", to: "lb", catalogue: .standard)
        try settings.set("tz", to: "recorded", catalogue: .standard)
        let value = try settings.value("tz", catalogue: .standard)
        #expect(settings.showsRecordedZones && value == "recorded")
        expectEqual(settings.entries.map(\.key), ["tz", "unit.weight"])
        try settings.unset("tz", catalogue: .standard)
        #expect(!settings.showsRecordedZones && settings.entries.map(\.key) == ["unit.weight"])
        #expect(Settings.keys(catalogue: .standard).first == "tz" && Settings.keys(catalogue: .standard).contains("unit.water"))
        #expect(!Settings.keys(catalogue: .standard).contains("unit.sleep"))
    }

    func documentsWithoutTheKeyStillDecodeAndRoundTrip() throws {
        let old = try JSONDecoder().decode(Settings.self, from: Data(#"{"displayUnits":{"weight":"lb"}}"#.utf8))
        #expect(old.displayUnits == ["weight": "lb"] && old.displayZone == nil)
        var settings = old
        settings.displayZone = Settings.recordedZone
        let decoded = try JSONDecoder().decode(Settings.self, from: JSONEncoder().encode(settings))
        expectEqual(decoded, settings)
    }
}

/// The checks ``SettingsTests/checks(_:)`` runs.
private let settingsTestsChecks: [Check<SettingsTests>] = [
    Check("tzTakesRecordedOnlyAndIsListedFirst", SettingsTests.tzTakesRecordedOnlyAndIsListedFirst),
    Check("documentsWithoutTheKeyStillDecodeAndRoundTrip", SettingsTests.documentsWithoutTheKeyStillDecodeAndRoundTrip),
]
