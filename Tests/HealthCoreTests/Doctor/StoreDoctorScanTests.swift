import Foundation
import Testing
import TestKit
import TextSupport
@testable import HealthCore

/// `hkctl doctor` checks each type's folder on its own thread (a copy of a sample is a copy within its type), finds
/// copies through ``UUIDLocations`` instead of a dictionary, and names a sample's right file without building its path:
/// ten years' store 11.5 → about 4 s. What it reports, and what its repair moves aside, must not depend on any of it.
struct StoreDoctorScanTests {
    @Test(arguments: storeDoctorScanTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let now = Kit.utc(2024, 9, 1)

    func uuidLocationsAgreeWithADictionary() {
        var random = Kit.SeededGenerator(seed: 47)
        var table = UUIDLocations()
        var reference: [UUID: (file: Int32, line: Int32)] = [:]
        var known: [UUID] = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        for step in 0..<30_000 {
            let uuid: UUID
            if step % 4 == 0, !known.isEmpty {
                uuid = known[Int.random(in: 0..<known.count, using: &random)]
            } else {
                // Halves that differ in one word only, so that slots collide and probe.
                let high = UInt64.random(in: 0...4_095, using: &random), low = UInt64.random(in: 0...UInt64.max, using: &random)
                var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &bytes) { raw in
                    raw.storeBytes(of: high, as: UInt64.self)
                    raw.storeBytes(of: step % 3 == 0 ? low : 0, toByteOffset: 8, as: UInt64.self)
                }
                uuid = UUID(uuid: bytes)
                known.append(uuid)
            }
            let file = Int32(step / 1_000), line = Int32(step % 1_000 + 1)
            let found = table.insert(uuid, file: file, line: line)
            if let first = reference[uuid] {
                #expect(found?.file == first.file && found?.line == first.line, "step \(step)")
            } else {
                #expect(found == nil, "step \(step): new")
                reference[uuid] = (file, line)
            }
        }
        #expect(reference.count > 10_000)
    }

    /// Six types, each with a copy of a sample in another month, a sample in the wrong month's file, a line that does
    /// not decode and a torn final line, and a deleted sample whose uuid came back (no copy).
    private static func damagedStore(_ path: String) throws -> JSONFileStore {
        let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
        let types: [(SampleType, String, Double)] = [
            (.steps, "count", 500), (.water, "mL", 250), (.weight, "kg", 70),
            (try SampleTypeCatalogue.standard.type(named: "heart-rate"), "count/min", 60),
            (try SampleTypeCatalogue.standard.type(named: "active-energy"), "kcal", 20),
            (try SampleTypeCatalogue.standard.type(named: "distance"), "m", 800)]
        var saved: [[Sample]] = []
        for (index, (type, unit, value)) in types.enumerated() {
            let samples = (0..<30).map { day in
                Kit.quantity(type, value + Double(day), unit, Kit.utc(2024, 5 + day / 15, 1 + day % 15, 6 + index))
            }
            try store.save(samples)
            _ = try store.delete(uuids: [samples[2].uuid], now: now)
            saved.append(samples)
        }
        for (index, (type, unit, value)) in types.enumerated() {
            let samples = saved[index]
            let folder = path + "/" + JSONFileStore.typeFolder(type.identifier)
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            var copied = samples[3]
            copied.start = Kit.utc(2024, 6, 20)
            copied.end = copied.start
            try Kit.append(codec.encode(copied, sequence: 900 + UInt64(index)) + "\n", to: folder + "/2024-06.jsonl")
            var misplaced = samples[20]
            misplaced.uuid = UUID()
            try Kit.append(codec.encode(misplaced, sequence: 950 + UInt64(index)) + "\n", to: folder + "/2024-05.jsonl")
            var back = samples[2]
            back.value = .quantity(Quantity(value * 2, try HealthUnit(parsing: unit)))
            try Kit.append(codec.encode(back, sequence: 990 + UInt64(index)) + "\n", to: folder + "/2024-05.jsonl")
            try Kit.append("{\"uuid\":\"not one\"}\n", to: folder + "/2024-05.jsonl")
            try Kit.append("{\"uuid\":\"torn", to: folder + "/2024-06.jsonl")
        }
        return store
    }

    func theReportIsTheSameOnOneThreadAndOnMany() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try Self.damagedStore(folder + "/store")
            var one = StoreDoctor(store: store)
            one.threads = 1
            let expected = try one.check(now: Self.now)
            for threads in [2, 3, 8] {
                var many = StoreDoctor(store: store)
                many.threads = threads
                let report = try many.check(now: Self.now)
                expectEqual(report.findings, expected.findings, "\(threads) threads")
                expectEqual(report.filesChecked, expected.filesChecked)
                expectEqual(report.linesChecked, expected.linesChecked)
            }
            // Each type: two months of 18 and 17 lines (the torn one counted) and a tombstone.
            #expect(expected.filesChecked >= 6 * 3, "\(expected.filesChecked) files")
            #expect(expected.linesChecked >= 6 * 36, "\(expected.linesChecked) lines")
            // What each type's folder holds is found in it, in folder order.
            let copies = expected.findings.filter { $0.message.contains("a second copy of the sample at 2024-05.jsonl:") }
            expectEqual(copies.count, 6)
            expectEqual(copies.map(\.file), copies.map(\.file).sorted())
            expectEqual(copies.map { "\(PathText.lastComponent(of: $0.file)):\($0.line ?? 0)" }, Array(repeating: "2024-06.jsonl:16", count: 6))
            let misplaced = expected.findings.filter { $0.message.contains("belongs in 2024-06.jsonl") }
            expectEqual(misplaced.count, 6)
            expectEqual(misplaced.map { "\(PathText.lastComponent(of: $0.file)):\($0.line ?? 0)" }, Array(repeating: "2024-05.jsonl:16", count: 6))
            expectEqual(expected.findings.filter { $0.message.contains("belongs in") }.count, 6)
            expectEqual(expected.findings.filter { $0.message.contains("second copy") }.count, 6,
                        "a deleted sample's uuid that came back is no copy")
            expectEqual(expected.findings.filter { $0.message.contains("torn final line") }.count, 6)
            expectEqual(expected.errors.filter { $0.location.hasSuffix("/2024-05.jsonl:18") }.count, 6)
        }
    }

    func aRepairOnManyThreadsMovesAsideWhatOneThreadWould() throws {
        try TestSupport.withTemporaryDirectory { folder in
            var trees: [[String: String]] = []
            for threads in [1, 4] {
                let path = folder + "/store\(threads)"
                let store = try Self.damagedStore(path)
                var doctor = StoreDoctor(store: store)
                doctor.threads = threads
                let report = try doctor.repair(now: Self.now)
                #expect(report.errors.isEmpty, "\(report.errors)")
                expectEqual(report.repairs.filter { $0.hasPrefix("moved ") }.count, 12, "\(report.repairs)")
                // The uuids are random: compare the files' line counts and the quarantine's reasons.
                trees.append(OperationTestKit.tree(path).filter { $0.key.hasSuffix(".jsonl") }.reduce(into: [:]) { tree, entry in
                    let relative = String(entry.key.dropFirst(path.count))
                    let lines = (entry.value ?? []).split(separator: 0x0A)
                    tree[relative] = relative.hasSuffix("quarantine.jsonl")
                        ? lines.map { String(decoding: $0, as: UTF8.self).contains("torn final line") ? "t" : "b" }
                            .sorted().joined()
                        : String(lines.count)
                })
            }
            expectEqual(trees[0], trees[1])
        }
    }
}

/// The checks ``StoreDoctorScanTests/checks(_:)`` runs.
private let storeDoctorScanTestsChecks: [Check<StoreDoctorScanTests>] = [
    Check("uuidLocationsAgreeWithADictionary", StoreDoctorScanTests.uuidLocationsAgreeWithADictionary),
    Check("theReportIsTheSameOnOneThreadAndOnMany", StoreDoctorScanTests.theReportIsTheSameOnOneThreadAndOnMany),
    Check("aRepairOnManyThreadsMovesAsideWhatOneThreadWould",
          StoreDoctorScanTests.aRepairOnManyThreadsMovesAsideWhatOneThreadWould),
]
