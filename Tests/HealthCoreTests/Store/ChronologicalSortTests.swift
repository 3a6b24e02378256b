import Foundation
import Testing
@testable import HealthCore
import TestKit

/// ``Swift/Array/sortedChronologically()``, which sorts keys instead of samples, against the standard library's
/// stable sort by ``Sample/chronological(_:_:)`` that it replaces.
struct ChronologicalSortTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: chronologicalSortTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    /// Random samples with many equal starts and ends, and some with the same uuid (the sort calls those equal: they
    /// must keep their order, as the stable sort keeps it), in random, nearly sorted and sorted order.
    func sortsAsTheStableSortByChronologicalOrder() {
        var random = Kit.SeededGenerator(seed: 4_801)
        let uuids = (0..<40).map { _ in UUID() }
        for round in 0..<80 {
            var samples = (0..<Int.random(in: 0...200, using: &random)).map { index -> Sample in
                let start = Kit.referenceNow.addingTimeInterval(Double(Int.random(in: 0..<30, using: &random)) * 60)
                let end = start.addingTimeInterval(Double(Int.random(in: 0..<3, using: &random)) * 60)
                // The value tells equal samples apart, so an unstable result shows.
                return Sample(uuid: uuids.randomElement(using: &random)!, typeIdentifier: SampleType.steps.identifier,
                              start: start, end: end, value: .quantity(Quantity(Double(index), .count())),
                              source: ["Watch", "iPhone"].randomElement(using: &random)!, created: start)
            }
            if round % 4 != 0 {
                samples.sort(by: Sample.chronological)
                // Rounds 1 and 2 nearly sorted; round 3 already in order (the sort hands the same array back).
                for _ in 0..<(round % 4 == 3 ? 0 : 3) where samples.count > 1 {
                    samples.swapAt(Int.random(in: 0..<samples.count, using: &random), Int.random(in: 0..<samples.count, using: &random))
                }
            }
            let expected = samples.sorted(by: Sample.chronological)
            expectEqual(samples.sortedChronologically(), expected, "round \(round)")
            var sorted = samples
            sorted.sortChronologically()
            expectEqual(sorted, expected, "round \(round), in place")
        }
    }
}

/// The checks ``ChronologicalSortTests/checks(_:)`` runs.
private let chronologicalSortTestsChecks: [Check<ChronologicalSortTests>] = [
    Check("sortsAsTheStableSortByChronologicalOrder", ChronologicalSortTests.sortsAsTheStableSortByChronologicalOrder),
]
