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

    /// Water at 1, 2 and 3 o'clock saved by a writer of `boot`, and the `sequence` and `.lock` files as they were after
    /// the first save: what is left on disk when only that save's syncs reached it (the counter's and the lock's later
    /// rewrites within the block are never synced). Write them back to act out the loss.
    func threeSavesKeepingTheFirstsFiles(_ path: String, boot: String) throws -> (writer: JSONFileStore, counter: [UInt8], lock: [UInt8]) {
        let writer = store(path, boot: boot)
        try writer.save([water(1)])
        let counter = IndependentTestKit.bytes(path + "/sequence"), lock = IndependentTestKit.bytes(path + "/.lock")
        try writer.save([water(2)])
        try writer.save([water(3)])
        return (writer, counter, lock)
    }

    /// 100 mL of water at `hour` o'clock on 2024-06-01 (UTC).
    func water(_ hour: Int, source: String = "hkctl") -> Sample {
        let start = IndependentTestKit.utc(2024, 6, 1, hour)
        return Sample(typeIdentifier: SampleType.water.identifier, start: start, end: start,
                      value: .quantity(Quantity(100, try! HealthUnit(parsing: "mL"))), source: source, created: start)
    }
}
