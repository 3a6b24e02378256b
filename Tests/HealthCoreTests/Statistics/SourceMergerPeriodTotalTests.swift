import Foundation
import Testing
@testable import HealthCore

/// A Health Auto Export period total does not hide what hkctl's owner typed in; other sources merge as before.
struct SourceMergerPeriodTotalTests {
    static func sample(_ source: String, _ start: Double, _ end: Double, total: Bool) -> Sample {
        Sample(typeIdentifier: "HKQuantityTypeIdentifierDietaryWater", start: Date(timeIntervalSince1970: start),
               end: Date(timeIntervalSince1970: end), value: .quantity(Quantity(1, try! HealthUnit(parsing: "mL"))),
               source: source, created: Date(timeIntervalSince1970: 0),
               metadata: total ? [HAESampleBuilder.aggregationKey: .string("day")] : [:])
    }

    @Test func anOwnersEntryCountsBesideAPeriodTotalButNotBesideAMeasuredSample() {
        let merger = SourceMerger(ranks: ["Jane’s iPhone": 0, "Other app": 1, AuthorizationState.ownerSource: 2])
        let day = Self.sample("Jane’s iPhone", 0, 86_400, total: true)
        let glass = Self.sample(AuthorizationState.ownerSource, 36_000, 36_000, total: false)
        let other = Self.sample("Other app", 50_000, 50_000, total: false)
        let merged = merger.merge([day, glass, other].enumerated().map { MergedSample(index: $0.offset, sample: $0.element, value: 1) })
        #expect(!merged.samples[1].isDropped, "the owner's glass counts beside HAE's day total")
        #expect(merged.samples[2].isDropped, "another app's sample is merged away as before")
        // A measured sample of the phone at that time still wins over the owner's.
        let measured = Self.sample("Jane’s iPhone", 35_000, 37_000, total: false)
        let again = merger.merge([measured, glass].enumerated().map { MergedSample(index: $0.offset, sample: $0.element, value: 1) })
        #expect(again.samples[1].isDropped)
    }
}
