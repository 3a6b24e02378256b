import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A look-up by uuid (`hkctl delete UUID`, `hkctl edit UUID`, a uuid prefix) decodes only the lines whose start may
/// hold a uuid looked for (``UUIDLineFilter``): it read and decoded every sample of the store, 3.7 s for ten years'.
/// Lines written another way than hkctl writes them are still decoded, so none is missed.
struct UUIDLineFilterTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: uUIDLineFilterTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit
    private typealias Kit = IndependentTestKit
    private static let uuid = UUID(uuidString: "1332C702-7F1A-4B2C-9D3E-0123456789AB")!
    private static let other = UUID(uuidString: "7F00D1E5-CCCC-4000-8000-000000000003")!

    private static func mayHold(_ filter: UUIDLineFilter, _ line: String) -> Bool {
        Array(line.utf8).withUnsafeBufferPointer { filter.mayHold($0) }
    }

    func aLineIsPassedOverOnlyWhenItPlainlyHoldsAnotherUUID() {
        let filter = UUIDLineFilter(uuids: [Self.uuid])
        let rest = ",\"type\":\"HKQuantityTypeIdentifierDietaryWater\"}"
        #expect(Self.mayHold(filter, "{\"uuid\":\"\(Self.uuid.lowercasedText)\"" + rest))
        #expect(Self.mayHold(filter, "{\"uuid\":\"\(Self.uuid.uuidString)\"" + rest), "upper case")
        #expect(!Self.mayHold(filter, "{\"uuid\":\"\(Self.other.lowercasedText)\"" + rest))
        #expect(!Self.mayHold(filter, "{\"uuid\":\"\(Self.other.uuidString)\"" + rest))
        // Written another way: decoded.
        #expect(Self.mayHold(filter, "{\"type\":\"HKQuantityTypeIdentifierDietaryWater\",\"uuid\":\"\(Self.other.lowercasedText)\"}"))
        #expect(Self.mayHold(filter, "{\"uuid\":\"\\u0037f00d1e5-cccc-4000-8000-000000000003\"" + rest), "an escape")
        #expect(Self.mayHold(filter, "{\"uuid\": \"\(Self.other.lowercasedText)\"" + rest), "a space")
        #expect(Self.mayHold(filter, "{\"uuid\":\"7f00d1e5\"" + rest), "not a whole uuid")
        #expect(Self.mayHold(filter, "{\"uuid\":\"7f00d1e5-cccc-4000-8000-00000000000g\"" + rest), "not hexadecimal")
        #expect(Self.mayHold(filter, "{\"uuid\":\"7f00d1e5c-ccc-4000-8000-000000000003\"" + rest), "a dash elsewhere")
        #expect(Self.mayHold(filter, ""))
        // Several uuids: any of them.
        let both = UUIDLineFilter(uuids: [Self.other, Self.uuid])
        #expect(Self.mayHold(both, "{\"uuid\":\"\(Self.uuid.lowercasedText)\"" + rest))
        #expect(Self.mayHold(both, "{\"uuid\":\"\(Self.other.lowercasedText)\"" + rest))
    }

    func aPrefixIsComparedAsTheStoreSpellsIt() throws {
        let rest = ",\"type\":\"HKQuantityTypeIdentifierDietaryWater\"}"
        let line = "{\"uuid\":\"\(Self.uuid.lowercasedText)\"" + rest
        for typed in ["1332c702", "1332C702", "1332c7027f1a", "1332c702-7f1a", "1332C702-7F1A-4B2C-9d3e-0123"] {
            let prefix = try #require(UUIDPrefix(typed))
            #expect(Self.mayHold(UUIDLineFilter(prefix: prefix), line), "\(typed)")
            #expect(prefix.matches(Self.uuid), "\(typed)")
        }
        for typed in ["1332c703", "1332c7027f1b", "1332c702-7f1a-4b2c-9d3f"] {
            let prefix = try #require(UUIDPrefix(typed))
            #expect(!Self.mayHold(UUIDLineFilter(prefix: prefix), line), "\(typed)")
        }
        #expect(Self.mayHold(UUIDLineFilter(prefix: try #require(UUIDPrefix("1332C7027F1A4B2C9"))), line), "no dashes")
    }

    /// The line codec's parser (a table look-up per digit) reads what Foundation reads, in either case, and nothing else:
    /// every byte that is not a digit where one belongs, and every misplaced dash, makes it nil (Foundation on Linux
    /// takes a space for a digit; the store never writes one).
    func theLineCodecsUUIDParserAgreesWithFoundation() {
        func parse(_ text: String) -> UUID? { Array(text.utf8).withUnsafeBufferPointer { SampleLineCodec.uuid($0) } }
        var random = IndependentTestKit.SeededGenerator(seed: 46)
        for _ in 0..<300 {
            let uuid = UUID(uuid: (UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                   UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                   UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                   UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                   UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                   UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                   UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                                   UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random)))
            expectEqual(parse(uuid.uuidString), uuid)
            expectEqual(parse(uuid.lowercasedText), uuid)
            var bytes = Array(uuid.lowercasedText.utf8)
            let position = Int.random(in: 0..<36, using: &random)
            let isDash = [8, 13, 18, 23].contains(position)
            let candidates: [UInt8] = isDash ? Array("0aF/:@G`g ".utf8) : Array("-/:@G`g \"\u{0}".utf8) + [0x80, 0xFF]
            bytes[position] = candidates[Int.random(in: 0..<candidates.count, using: &random)]
            let text = String(decoding: bytes, as: UTF8.self)
            expectEqual(bytes.withUnsafeBufferPointer { SampleLineCodec.uuid($0) }, nil, "\(text)")
        }
        expectEqual(parse(String(Self.uuid.uuidString.dropLast())), nil)
    }

    /// In a store: the sample looked for is found by uuid and by prefix with one line decoded; a line another program
    /// wrote with its uuid last and in capitals is found too; a deleted sample is not.
    func theStoreDecodesOnlyTheLinesThatMayHoldIt() throws {
        try Ops.withStore { store, path in
            let samples = (0..<40).map { Ops.water(Double(100 + $0), hour: $0 % 24) }
            try store.save(samples)
            let wanted = samples[17]
            expectEqual(try store.samples(withUUIDs: [wanted.uuid]).map(\.uuid), [wanted.uuid])
            expectEqual(store.readCounts.current.linesDecodedForUUIDs, 1)
            let prefix = try #require(UUIDPrefix(String(wanted.uuid.uuidString.prefix(13))))
            expectEqual(try store.samples(withUUIDPrefix: prefix).map(\.uuid).filter { $0 == wanted.uuid }, [wanted.uuid])
            #expect(store.readCounts.current.linesDecodedForUUIDs < 5)
            // Another program's line: the uuid key last, the uuid in capitals.
            let file = try #require(try store.partitions(ofType: SampleType.water.identifier, overlapping: Ops.everything).first)
            let full = path + "/" + file
            var lines = try String(contentsOfFile: full, encoding: .utf8).split(separator: "\n").map(String.init)
            let index = try #require(lines.firstIndex { $0.contains(samples[3].uuid.lowercasedText) })
            let key = "{\"uuid\":\"\(samples[3].uuid.lowercasedText)\","
            #expect(lines[index].hasPrefix(key))
            lines[index] = "{" + lines[index].dropFirst(key.count).dropLast() + ",\"uuid\":\"\(samples[3].uuid.uuidString)\"}"
            try (lines.joined(separator: "\n") + "\n").write(toFile: full, atomically: false, encoding: .utf8)
            let reopened = JSONFileStore(path: path, timeZone: .gmt)
            expectEqual(try reopened.samples(withUUIDs: [samples[3].uuid]).map { $0.value.quantity?.value }, [103])
            expectEqual(reopened.readCounts.current.linesDecodedForUUIDs, 1)
            try reopened.delete(uuids: [wanted.uuid], now: Ops.undoneAt)
            expectEqual(try reopened.samples(withUUIDs: [wanted.uuid]), [])
            expectEqual(try reopened.samples(withUUIDs: [samples[3].uuid, samples[5].uuid]).count, 2)
        }
    }

    /// A delete or replace limited to types looks only at their files: another type's sample that happens to share the
    /// uuid (a program saved both) is left alone, where without the limit both go.
    func aLookLimitedToTypesLeavesAnotherTypesSampleWithTheSameUUID() throws {
        try Ops.withStore { store, _ in
            let water = Ops.water(250, hour: 8)
            var twin = Kit.quantity(.steps, 900, "count", Kit.utc(2024, 6, 1, 9))
            twin.uuid = water.uuid
            try store.save([water])
            try store.save([twin])
            var corrected = water
            corrected.uuid = UUID()
            corrected.value = .quantity(Quantity(300, .literUnit(with: .milli)))
            try store.replace([water.uuid], with: [corrected], types: [water.typeIdentifier], now: Ops.undoneAt)
            expectEqual(try Ops.visible(store).map(\.uuid), [corrected.uuid])
            expectEqual(try Ops.visible(store, .steps).map(\.uuid), [water.uuid], "the steps sample stays")
            _ = try store.delete(uuids: [water.uuid], now: Ops.undoneAt, types: [SampleType.steps.identifier])
            expectEqual(try Ops.visible(store, .steps), [])
            expectEqual(try Ops.visible(store).map(\.uuid), [corrected.uuid], "the water stays")
        }
    }
}

private let uUIDLineFilterTestsChecks: [Check<UUIDLineFilterTests>] = [
    Check("aLineIsPassedOverOnlyWhenItPlainlyHoldsAnotherUUID", UUIDLineFilterTests.aLineIsPassedOverOnlyWhenItPlainlyHoldsAnotherUUID),
    Check("aPrefixIsComparedAsTheStoreSpellsIt", UUIDLineFilterTests.aPrefixIsComparedAsTheStoreSpellsIt),
    Check("theLineCodecsUUIDParserAgreesWithFoundation", UUIDLineFilterTests.theLineCodecsUUIDParserAgreesWithFoundation),
    Check("aLookLimitedToTypesLeavesAnotherTypesSampleWithTheSameUUID",
          UUIDLineFilterTests.aLookLimitedToTypesLeavesAnotherTypesSampleWithTheSameUUID),
    Check("theStoreDecodesOnlyTheLinesThatMayHoldIt", UUIDLineFilterTests.theStoreDecodesOnlyTheLinesThatMayHoldIt),
]
