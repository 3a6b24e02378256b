import Testing
import TestKit
import TextSupport

/// The "did you mean …?" rule shared by types, workout activities, commands and options.
struct NameSuggestionsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: nameSuggestionsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private let names = ["water", "steps", "weight", "sleep", "heart-rate", "walking-speed"]

    func aMistypedNameGetsTheNearestKnownOnes() {
        expectEqual(NameSuggestions.nearest("watr", among: names), ["water"])
        expectEqual(NameSuggestions.nearest("stepss", among: names), ["steps"])
        expectEqual(NameSuggestions.nearest("slepe", among: names), ["sleep"], "a swap of neighbours costs 1")
        expectEqual(NameSuggestions.nearest("HEART-RAT", among: names), ["heart-rate"], "case is ignored")
        expectEqual(NameSuggestions.closest("weigth", among: names), "weight")
    }

    func aNameFarFromEveryKnownOneGetsNone() {
        #expect(NameSuggestions.nearest("cholesterol", among: names).isEmpty)
        expectNil(NameSuggestions.closest("x", among: names))
    }

    /// A pasted page of text (100,000 characters) is out of reach of every name; the answer comes without aligning
    /// it to each of them.
    func aVeryLongNameGetsNone() {
        let long = String(repeating: "x", count: 100_000)
        #expect(NameSuggestions.nearest(long, among: names).isEmpty)
        expectEqual(NameSuggestions.nearest("waterss", among: names), ["water"],
                    "a name as far as a third of the typed length is still within reach")
    }

    func theDistanceCountsEditsAndSwaps() {
        expectEqual(NameSuggestions.distance(Array("kitten"), Array("sitting")), 3)
        expectEqual(NameSuggestions.distance(Array("ab"), Array("ba")), 1)
        expectEqual(NameSuggestions.distance(Array(""), Array("abc")), 3)
    }
}

/// The checks ``NameSuggestionsTests/checks(_:)`` runs.
private let nameSuggestionsTestsChecks: [Check<NameSuggestionsTests>] = [
    Check("aMistypedNameGetsTheNearestKnownOnes", NameSuggestionsTests.aMistypedNameGetsTheNearestKnownOnes),
    Check("aNameFarFromEveryKnownOneGetsNone", NameSuggestionsTests.aNameFarFromEveryKnownOneGetsNone),
    Check("aVeryLongNameGetsNone", NameSuggestionsTests.aVeryLongNameGetsNone),
    Check("theDistanceCountsEditsAndSwaps", NameSuggestionsTests.theDistanceCountsEditsAndSwaps),
]
