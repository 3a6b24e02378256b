import Foundation
import Testing
import TestKit
import HealthCore

/// The sample descriptors take any `SortComparator` of their kind, so Foundation's `SortDescriptor` (this file imports
/// Foundation, as ported HealthKit code does; HealthCore itself links only FoundationEssentials, see
/// `SmallFoundationTests`) passes unchanged; `SampleQuery` takes `SampleSortDescriptor(key:ascending:)` with HealthKit's
/// sort identifiers, as `NSSortDescriptor` is written for `HKSampleQuery`.
struct SortDescriptorSignatureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sortDescriptorSignatureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    /// Heart rate 61 at 08:00, 62 at 09:00, 63 at 10:00 (each a minute long), June 3.
    private static func withStore(_ body: (HealthStore) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { now })
            try store.save([
                TestSupport.quantitySample(QuantityType(.heartRate), 62, "count/min", start: "2024-06-03T09:00:00Z", end: "2024-06-03T09:01:00Z"),
                TestSupport.quantitySample(QuantityType(.heartRate), 61, "count/min", start: "2024-06-03T08:00:00Z", end: "2024-06-03T08:01:00Z"),
                TestSupport.quantitySample(QuantityType(.heartRate), 63, "count/min", start: "2024-06-03T10:00:00Z", end: "2024-06-03T10:01:00Z"),
            ])
            try await body(store)
        }
    }

    private static let perMinute = HealthUnit.count().unitDivided(by: .minute())

    func foundationsSortDescriptorSortsADescriptor() async throws {
        try await Self.withStore { store in
            // HealthKit's lines with the prefix dropped.
            let sortDescriptor = SortDescriptor(\QuantitySample.startDate, order: .reverse)
            let descriptor = SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.heartRate))],
                                                   sortDescriptors: [sortDescriptor], limit: 2)
            let samples = try await descriptor.result(for: store)
            expectEqual(samples.map { $0.quantity.doubleValue(for: Self.perMinute) }, [63, 62])
            // Written inline, with the key path's root inferred.
            let forward = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.heartRate))],
                                                          sortDescriptors: [SortDescriptor(\.endDate, order: .forward)]).result(for: store)
            expectEqual(forward.map { $0.quantity.doubleValue(for: Self.perMinute) }, [61, 62, 63])
        }
    }

    func healthCoresOwnDescriptorIsASortComparator() async throws {
        try await Self.withStore { store in
            var descriptor = SampleSortDescriptor(\QuantitySample.startDate, order: .reverse)
            let newest = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.heartRate))],
                                                         sortDescriptors: [descriptor]).result(for: store)
            expectEqual(newest.map { $0.quantity.doubleValue(for: Self.perMinute) }, [63, 62, 61])
            // As any SortComparator, its order can be flipped, and it sorts an array of samples by itself.
            descriptor.order = .forward
            expectEqual(newest.sorted(using: descriptor).map { $0.quantity.doubleValue(for: Self.perMinute) }, [61, 62, 63])
            // Without descriptors: oldest first.
            let plain = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.heartRate))]).result(for: store)
            expectEqual(plain.map { $0.quantity.doubleValue(for: Self.perMinute) }, [61, 62, 63])
        }
    }

    func theHandlerQuerySortsByHealthKitsSortIdentifiers() async throws {
        try await Self.withStore { store in
            #expect(SampleSortIdentifierStartDate == "startDate" && SampleSortIdentifierEndDate == "endDate")
            // HealthKit: `NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)`.
            let sortDescriptor = SampleSortDescriptor(key: SampleSortIdentifierEndDate, ascending: false)
            let values: [Double] = await withCheckedContinuation { done in
                let query = SampleQuery(sampleType: QuantityType(.heartRate), predicate: nil, limit: 2,
                                        sortDescriptors: [sortDescriptor]) { _, samples, _ in
                    done.resume(returning: (samples ?? []).compactMap { ($0 as? QuantitySample)?.quantity.doubleValue(for: Self.perMinute) })
                }
                store.execute(query)
            }
            expectEqual(values, [63, 62])
            let ascending: [Double] = await withCheckedContinuation { done in
                let query = SampleQuery(sampleType: QuantityType(.heartRate), predicate: nil, limit: ObjectQueryNoLimit,
                                        sortDescriptors: [SampleSortDescriptor(key: SampleSortIdentifierStartDate, ascending: true)]) { _, samples, _ in
                    done.resume(returning: (samples ?? []).compactMap { ($0 as? QuantitySample)?.quantity.doubleValue(for: Self.perMinute) })
                }
                store.execute(query)
            }
            expectEqual(ascending, [61, 62, 63])
            // HealthKit: `NSSortDescriptor(keyPath: \HKSample.startDate, ascending: false)`.
            let byKeyPath: [Double] = await withCheckedContinuation { done in
                let query = SampleQuery(sampleType: QuantityType(.heartRate), predicate: nil, limit: ObjectQueryNoLimit,
                                        sortDescriptors: [SampleSortDescriptor(keyPath: \HealthSample.startDate, ascending: false)]) { _, samples, _ in
                    done.resume(returning: (samples ?? []).compactMap { ($0 as? QuantitySample)?.quantity.doubleValue(for: Self.perMinute) })
                }
                store.execute(query)
            }
            expectEqual(byKeyPath, [63, 62, 61])
        }
    }

    func anUnknownSortKeyStopsTheProgram() async throws {
        #if os(Linux)
        let outcome = try TrapProbe.run("unknown sort key", filter: "SortDescriptorSignatureTests/unknownSortKeyProbe")
        #expect(outcome.trapped, "\(outcome)")
        #else
        await #expect(processExitsWith: .failure) {
            _ = SampleSortDescriptor(key: "quantity", ascending: true)
        }
        #endif
    }

    /// Run only in the child process of ``anUnknownSortKeyStopsTheProgram()`` (TestKit's `TrapProbe`).
    @Test(.enabled(if: TrapProbe.requested == "unknown sort key", "runs only in a trap probe's own process"))
    func unknownSortKeyProbe() {
        TrapProbe.reached()
        _ = SampleSortDescriptor(key: "quantity", ascending: true)
    }
}

extension SortDescriptorSignatureTests {
    @Test func anEmptyListOfDescriptorsMeansOldestFirst() async throws {
        try await Self.withStore { store in
            // HealthKit code may pass an empty array literal.
            let samples = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.heartRate))],
                                                          sortDescriptors: [], limit: 2).result(for: store)
            expectEqual(samples.map { $0.quantity.doubleValue(for: Self.perMinute) }, [61, 62])
        }
    }
}

/// The checks ``SortDescriptorSignatureTests/checks(_:)`` runs.
private let sortDescriptorSignatureTestsChecks: [Check<SortDescriptorSignatureTests>] = [
    Check("foundationsSortDescriptorSortsADescriptor",
          SortDescriptorSignatureTests.foundationsSortDescriptorSortsADescriptor),
    Check("healthCoresOwnDescriptorIsASortComparator",
          SortDescriptorSignatureTests.healthCoresOwnDescriptorIsASortComparator),
    Check("theHandlerQuerySortsByHealthKitsSortIdentifiers",
          SortDescriptorSignatureTests.theHandlerQuerySortsByHealthKitsSortIdentifiers),
    Check("anUnknownSortKeyStopsTheProgram", SortDescriptorSignatureTests.anUnknownSortKeyStopsTheProgram),
]
