import Foundation
import Testing
import TestKit
@testable import HealthCore

/// ``HAEStartIndex``: the settling of wide HAE points looks for the samples that can meet a period through it instead of
/// filtering every sample for every point, and must find the very samples a filter of all finds, in the same order.
struct HAEStartIndexTests {
    /// Random instants, minutes, hours and days (and samples that share a start): for random periods, the places the
    /// index gives, tested as the plan tests them (inside the period, or across it), are exactly those a filter of the
    /// whole list keeps, in the list's order.
    @Test func findsWhatAFilterOfTheWholeListFindsInItsOrder() {
        var generator = SystemRandomNumberGenerator()
        let origin = Date(timeIntervalSince1970: 1_714_521_600)
        let lengths: [TimeInterval] = [0, 60, 3_600, 86_400]
        for round in 0..<20 {
            let samples = (0..<(50 + round * 20)).map { _ -> Sample in
                let start = origin.addingTimeInterval(Double(Int.random(in: 0..<(3 * 86_400), using: &generator) / 60 * 60))
                let length = lengths.randomElement(using: &generator)!
                return Sample(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: start, end: start.addingTimeInterval(length),
                              value: .quantity(Quantity(1, .count())), source: "Watch", created: start)
            }
            let index = HAEStartIndex(samples)
            expectEqual(index.longest, (samples.map { $0.end.timeIntervalSince($0.start) }.max() ?? 0))
            for _ in 0..<30 {
                let start = origin.addingTimeInterval(Double(Int.random(in: -86_400..<(4 * 86_400), using: &generator)))
                let end = start.addingTimeInterval(lengths.randomElement(using: &generator)! + 60)
                let inside = { (sample: Sample) in sample.start >= start && sample.end <= end }
                let across = { (sample: Sample) in sample.end > start && sample.start < end }
                let near = index.places(meeting: start, end).map { samples[$0] }
                expectEqual(near.filter(inside).map(\.uuid), samples.filter(inside).map(\.uuid))
                expectEqual(near.filter(across).map(\.uuid), samples.filter(across).map(\.uuid))
                let places = index.places(meeting: start, end)
                expectEqual(places, places.sorted())
            }
        }
        #expect(HAEStartIndex([]).places(meeting: origin, origin.addingTimeInterval(60)).isEmpty)
    }
}
