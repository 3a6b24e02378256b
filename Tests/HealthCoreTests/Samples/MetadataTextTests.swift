import Testing
import TestKit
import TextSupport
@testable import HealthCore

/// `MetadataText.json` and `csvField` (written into one buffer for speed, issue 32) give exactly the text of the plain
/// definition: keys sorted, `@` keys left out when asked, strings escaped as JSON requires, numbers as JSON numbers.
struct MetadataTextTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: metadataTextTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// The plain definition the fast writer must match.
    private static func reference(_ metadata: [String: MetadataValue], userOnly: Bool) -> String {
        "{" + metadata.keys.filter { !userOnly || !$0.hasPrefix("@") }.sorted().map { key in
            switch metadata[key]! {
            case let .string(text): return JSONText.quoted(key) + ":" + JSONText.quoted(text)
            case let .number(number): return JSONText.quoted(key) + ":" + NumberFormatting.json(number)
            }
        }.joined(separator: ",") + "}"
    }

    func fixedCases() {
        expectEqual(MetadataText.json([:]), "{}")
        #expect(MetadataText.json(["HKTimeZone": "America/Los_Angeles"]) == #"{"HKTimeZone":"America/Los_Angeles"}"#)
        #expect(MetadataText.json(["b": 2, "a": "x\"y\n", "@raw": "1"]) == #"{"@raw":"1","a":"x\"y\n","b":2}"#)
        #expect(MetadataText.json(["b": 2, "a": 0.5, "@raw": "1"], userOnly: true) == #"{"a":0.5,"b":2}"#)
        expectEqual(MetadataText.json(["@only": "1"], userOnly: true), "{}")
        expectEqual(MetadataText.csvField(["@only": "1"], userOnly: true), "")
        expectEqual(MetadataText.csvField([:]), "")
        expectEqual(MetadataText.csvField(["note": "é\u{2028}"]), "{\"note\":\"é\\u2028\"}")
    }

    /// Seeded random dictionaries (0 to 4 keys, `@` keys, escapes, non-ASCII, numbers) against the definition.
    func matchesThePlainDefinition() {
        var random = IndependentTestKit.SeededGenerator(seed: 32)
        let pieces = ["HKTimeZone", "note", "@a", "@", "é", "Z", "a\"b", "tab\t", "\u{1}", "\u{2029}", "mood", "日本",
                      ""]
        func text() -> String {
            (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        for _ in 0..<2_000 {
            var metadata: [String: MetadataValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                metadata[text()] = Bool.random(using: &random) ? .string(text())
                    : .number([0, -1, 2.5, 1e15, 1e-7, 123456789].randomElement(using: &random)!)
            }
            for userOnly in [false, true] {
                expectEqual(MetadataText.json(metadata, userOnly: userOnly), Self.reference(metadata, userOnly: userOnly),
                            "\(metadata)")
            }
        }
    }
}

/// The checks ``MetadataTextTests/checks(_:)`` runs.
private let metadataTextTestsChecks: [Check<MetadataTextTests>] = [
    Check("fixedCases", MetadataTextTests.fixedCases),
    Check("matchesThePlainDefinition", MetadataTextTests.matchesThePlainDefinition),
]
