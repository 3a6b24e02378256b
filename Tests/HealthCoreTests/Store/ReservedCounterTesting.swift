import Foundation
@testable import HealthCore

/// What the tests of the change counter's reserved blocks share: two boots, stores that take themselves to run in
/// one of them (``JSONFileStore/bootForTests``), and a water sample by the hour.
protocol ReservedCounterTesting {}

extension ReservedCounterTesting {
    static var bootA: String { "aaaaaaaa-1111-4111-8111-111111111111" }
    static var bootB: String { "bbbbbbbb-2222-4222-8222-222222222222" }
    static var everything: DateInterval { DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd) }

    /// The store at `path`, as a process of `boot` opens it ("" for a process that cannot tell its boot).
    func store(_ path: String, boot: String) -> JSONFileStore {
        let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
        store.bootForTests.withLock { $0 = boot }
        return store
    }

    /// 100 mL of water at `hour` o'clock on 2024-06-01 (UTC).
    func water(_ hour: Int, source: String = "hkctl") -> Sample {
        let start = IndependentTestKit.utc(2024, 6, 1, hour)
        return Sample(typeIdentifier: SampleType.water.identifier, start: start, end: start,
                      value: .quantity(Quantity(100, try! HealthUnit(parsing: "mL"))), source: source, created: start)
    }
}
