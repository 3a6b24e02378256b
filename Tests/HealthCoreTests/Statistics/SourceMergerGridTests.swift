import Foundation
import Testing
@testable import HealthCore
import TestKit

/// ``SourceMerger`` against a minute grid: a sample keeps exactly the minutes that no sample of a higher-priority
/// source covers, and an instant counts unless a higher source covers it or has an instant there. Sources interleave
/// in runs of every length (the merger groups a source's samples run by run), and the ranking of sources that name
/// their devices is the one the first sample of each source gives.
struct SourceMergerGridTests {
    @Test(arguments: sourceMergerGridTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let sources = ["Watch", "Phone", "Ring"]

    func eachSampleKeepsTheMinutesNoHigherSourceCovers() {
        var random = Kit.SeededGenerator(seed: 4_803)
        for round in 0..<150 {
            var samples: [Sample] = []
            var source = Self.sources[0]
            while samples.count < Int.random(in: 1...60, using: &random) {
                if Int.random(in: 0..<3, using: &random) == 0 { source = Self.sources.randomElement(using: &random)! }
                let start = Int.random(in: 0..<120, using: &random)
                let length = Int.random(in: 0..<5, using: &random) == 0 ? 0 : Int.random(in: 1...20, using: &random)
                samples.append(Sample(typeIdentifier: SampleType.steps.identifier, start: Kit.referenceNow.addingTimeInterval(Double(start * 60)),
                                      end: Kit.referenceNow.addingTimeInterval(Double((start + length) * 60)),
                                      value: .quantity(Quantity(Double(length + 1), .count())), source: source,
                                      created: Kit.referenceNow))
            }
            let order = Self.sources.shuffled(using: &random)
            let ranks = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            let merged = SourceMerger(ranks: ranks).merge(samples.enumerated().map { MergedSample(index: $0.offset, sample: $0.element, value: 1) })
            // Without the lost stretches noted, the same stretches count.
            let bare = SourceMerger(ranks: ranks).merge(samples.enumerated().map { MergedSample(index: $0.offset, sample: $0.element, value: 1) },
                                                       keepingLost: false)
            expectEqual(bare.changed, merged.changed, "round \(round): changed")
            for (index, sample) in samples.enumerated() {
                let higher = samples.filter { ranks[$0.source]! < ranks[sample.source]! }
                let result = merged.samples[index]
                expectEqual(bare.samples[index].cut, result.cut, "round \(round), sample \(index): the same cut")
                #expect(bare.samples[index].lost.isEmpty, "round \(round), sample \(index): nothing noted")
                // What the sample lost is the rest of its time, each stretch to a higher source.
                let lostSeconds = result.lost.reduce(0.0) { $0 + $1.span.end.timeIntervalSince($1.span.start) }
                let keptSeconds = result.kept.reduce(0.0) { $0 + $1.end.timeIntervalSince($1.start) }
                if sample.start != sample.end {
                    expectEqual(lostSeconds + keptSeconds, sample.end.timeIntervalSince(sample.start), "round \(round), sample \(index): lost and kept")
                }
                #expect(result.lost.allSatisfy { ranks[$0.source]! < ranks[sample.source]! }, "round \(round), sample \(index): lost to higher sources")
                if sample.start == sample.end {
                    let hidden = higher.contains { ($0.start <= sample.start && sample.start < $0.end) || ($0.start == $0.end && $0.start == sample.start) }
                    expectEqual(result.isDropped, hidden, "round \(round), instant \(index)")
                } else {
                    var kept = 0.0
                    var minute = sample.start
                    while minute < sample.end {
                        let next = minute.addingTimeInterval(60)
                        if !higher.contains(where: { $0.start < next && $0.end > minute }) { kept += 60 }
                        minute = next
                    }
                    let counted = result.kept.reduce(0.0) { $0 + $1.end.timeIntervalSince($1.start) }
                    expectEqual(counted, kept, "round \(round), sample \(index) of \(sample.source)")
                }
            }
        }
    }

    /// The sources of samples ranked as by the device of each source's first sample (what the ranking read before it
    /// looked at a run of one source once).
    func sourcesAreRankedByTheDeviceOfTheirFirstSample() {
        var random = Kit.SeededGenerator(seed: 4_804)
        let devices: [String?] = [nil, "name:Apple Watch, model:Watch", "name:iPhone, model:iPhone", "name:Scale"]
        for round in 0..<100 {
            var samples: [Sample] = []
            var source = "Zeta"
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                if Int.random(in: 0..<3, using: &random) == 0 { source = ["Zeta", "alpha", "Beta", "Health"].randomElement(using: &random)! }
                samples.append(Sample(typeIdentifier: SampleType.steps.identifier, start: Kit.referenceNow, end: Kit.referenceNow,
                                      value: .quantity(Quantity(1, .count())), source: source, created: Kit.referenceNow,
                                      device: devices.randomElement(using: &random)!))
            }
            var firstDevices: [String: String?] = [:]
            for sample in samples where firstDevices[sample.source] == nil { firstDevices[sample.source] = sample.device }
            for priority in [SourcePriority.automatic, try! SourcePriority(["Beta"])] {
                expectEqual(priority.ranked(sourcesOf: samples), priority.ranked(firstDevices.map { (name: $0.key, device: $0.value) }),
                            "round \(round)")
            }
        }
    }
}

/// The checks ``SourceMergerGridTests/checks(_:)`` runs.
private let sourceMergerGridTestsChecks: [Check<SourceMergerGridTests>] = [
    Check("eachSampleKeepsTheMinutesNoHigherSourceCovers", SourceMergerGridTests.eachSampleKeepsTheMinutesNoHigherSourceCovers),
    Check("sourcesAreRankedByTheDeviceOfTheirFirstSample", SourceMergerGridTests.sourcesAreRankedByTheDeviceOfTheirFirstSample),
]
