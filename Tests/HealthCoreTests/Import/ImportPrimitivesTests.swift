import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport
import CDigest

extension ImportTests {
    struct SHA1Tests {
        private func hex(_ text: String) -> String {
            var bytes = Array(text.utf8)
            return bytes.withUnsafeMutableBytes { SHA1.digest(UnsafeRawBufferPointer($0)) }.map { String(format: "%02x", $0) }.joined()
        }

        @Test(arguments: [
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
            (String(repeating: "a", count: 1000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
        ])
        func matchesPublishedVectors(message: String, digest: String) {
            expectEqual(hex(message), digest)
        }

        @Test func everyLengthAroundTheBlockBoundaryHashesLikeTheIncrementalDefinition() {
            // 55, 56 and 64 bytes are where the padding moves to a second block.
            expectEqual(hex(String(repeating: "a", count: 55)), "c1c8bbdc22796e28c0e15163d20899b65621d65a")
            expectEqual(hex(String(repeating: "a", count: 56)), "c2db330f6083854c99d4b5bfb6e8f29f201be699")
            expectEqual(hex(String(repeating: "a", count: 64)), "0098ba824b5c16427bd7a1122a5a442a25ec644d")
        }

        /// The processor's SHA instructions (CDigest), where they run, compress any blocks from any state as the
        /// portable code does: 2,000 random runs of 1 to 6 blocks.
        @Test func theProcessorsInstructionsCompressAsThePortableCodeDoes() {
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<2_000 {
                let blocks = Int.random(in: 1...6, using: &generator)
                let bytes = (0..<(blocks * 64)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let start: SHA1.State = (.random(in: 0...UInt32.max), .random(in: 0...UInt32.max), .random(in: 0...UInt32.max),
                                         .random(in: 0...UInt32.max), .random(in: 0...UInt32.max))
                var fast = start, portable = start
                bytes.withUnsafeBytes { raw in
                    SHA1.compress(&fast, raw.baseAddress!, blocks: blocks)
                    SHA1.compress(&portable, raw.baseAddress!, blocks: blocks, portable: true)
                }
                guard fast == portable else {
                    Issue.record("\(blocks) blocks from \(start): \(fast) against \(portable)")
                    return
                }
            }
        }

        /// Where the processor says it has SHA instructions (Linux's `sha_ni` flag), they are used, so the check above
        /// compares two implementations rather than one with itself.
        @Test func theInstructionsRunWhereTheProcessorHasThem() throws {
            #if os(Linux) && arch(x86_64)
            let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
            let hasThem = flags.split(separator: "\n").contains { $0.hasPrefix("flags") && $0.split(separator: " ").contains("sha_ni") }
            var state = SHA1.initialState
            let block = [UInt8](repeating: 0x61, count: 64)
            let used = withUnsafeMutableBytes(of: &state) { words in
                block.withUnsafeBufferPointer { hkctl_sha1_blocks(words.baseAddress!.assumingMemoryBound(to: UInt32.self), $0.baseAddress!, 1) }
            }
            expectEqual(used, hasThem ? 1 : 0, "cpuinfo says sha_ni \(hasThem ? "present" : "absent")")
            #endif
        }
    }
}

extension ImportTests {
    struct DecimalParserTests {
        @Test(arguments: [
            ("0", 0.0), ("72.4", 72.4), ("0.00288", 0.00288), ("-3", -3.0), ("1.5e3", 1500.0), ("+2.5", 2.5),
            ("0.1234567890123456789", 0.1234567890123456789), ("7000", 7000.0), (".5", 0.5),
        ])
        func parsesNumbersExactly(text: String, value: Double) {
            expectEqual(DecimalParser.parse(text), value)
        }

        /// Numbers past the fast path (17 digits, as the Health apps write doubles; exponents) read as `Double(String)`
        /// reads them, and ``JSONBytes/appendNumber(_:to:)`` writes what ``NumberFormatting/json(_:)`` writes.
        @Test func longNumbersReadAsTheStandardLibraryReadsThemAndAreWrittenBack() {
            var generator = SystemRandomNumberGenerator()
            var values: [Double] = [0, -0.0, 1, -1, 59, 1e15, 1e15 - 1, -123456789012345, 0.1, 2.5e-8, 123.456, 1e300]
            for _ in 0..<3000 {
                values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
                values.append(Double.random(in: 0...200, using: &generator))
                values.append(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
                // Every binade the exact quotient serves, its edges too (powers of two and their neighbours).
                let power = Double(sign: .plus, exponent: Int.random(in: -12...54, using: &generator), significand: 1)
                values += [power * Double.random(in: 1..<2, using: &generator), power, power.nextDown, power.nextUp]
            }
            let buffer = ByteBuffer(capacity: 64)
            for value in values where value.isFinite {
                for text in [String(format: "%.17g", value), "\(value)", String(format: "%.16e", value)] {
                    expectEqual(DecimalParser.parse(text), Double(text), "\(text)")
                }
                buffer.removeAll()
                JSONBytes.appendNumber(value, to: buffer)
                expectEqual(String(decoding: buffer.bytes, as: UTF8.self), NumberFormatting.json(value), "\(value)")
            }
        }

        @Test(arguments: ["", "abc", "1,5", "nan", "inf", "1.2.3", "12kg", "-", "1e999"])
        func refusesWhatIsNotAFiniteNumber(text: String) {
            expectNil(DecimalParser.parse(text))
        }
    }
}

extension ImportTests {
    struct ExportDateParserTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: exportDateParserTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        func parsesTheExportFormatWithItsOffset() {
            // 2024-03-10 01:59:00 -0800 = 09:59:00Z.
            expectEqual(ExportDateParser.parse("2024-03-10 01:59:00 -0800"), Date(timeIntervalSince1970: 1_710_064_740))
            expectEqual(ExportDateParser.parse("2024-03-10T09:59:00Z"), Date(timeIntervalSince1970: 1_710_064_740))
            expectEqual(ExportDateParser.parse("2024-03-10 11:59:00.250 +02:00"), Date(timeIntervalSince1970: 1_710_064_740.25))
        }

        func parsesTheCompactDatesOfIOS8Exports() {
            // 2015-06-16 07:19:16 -0700 = 14:19:16Z.
            expectEqual(ExportDateParser.parse("20150616071916-0700"), Date(timeIntervalSince1970: 1_434_464_356))
        }

        @Test(arguments: ["", "2024-02-30 10:00:00 +0000", "2024-03-10 01:59:00", "2024-13-01 00:00:00 +0000",
                          "1899-12-31 23:00:00 +0000", "2024-03-10 25:00:00 +0000", "yesterday", "2024-03-10 01:59:00 +2500"])
        func refusesImpossibleOrIncompleteDates(text: String) {
            expectNil(ExportDateParser.parse(text))
        }

        func formatsLikeTheHealthApp() {
            let date = Date(timeIntervalSince1970: 1_710_064_740)
            expectEqual(ExportDateParser.format(date, offsetSeconds: -8 * 3600), "2024-03-10 01:59:00 -0800")
            expectEqual(ExportDateParser.format(date.addingTimeInterval(0.5), offsetSeconds: 0), "2024-03-10 09:59:00.500 +0000")
        }
    }
}

extension ImportTests {
    struct DeviceDescriptionTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: deviceDescriptionTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        func dropsTheMemoryAddress() {
            let a = DeviceDescription(exportText: "<<HKDevice: 0x600001a2c0f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1>")
            let b = DeviceDescription(exportText: "<<HKDevice: 0x2821818b0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1>")
            expectEqual(a, b)
            expectEqual(a.normalized, "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1")
            expectEqual(a.value("hardware"), "Watch6,2")
            expectEqual(a.value("software"), "10.1")
        }

        func keepsCommasInsideValues() {
            let device = DeviceDescription(exportText: "<<HKDevice: 0x1>, name:Jane, her watch, manufacturer:Apple Inc.>")
            expectEqual(device.value("name"), "Jane, her watch")
            expectEqual(device.value("manufacturer"), "Apple Inc.")
        }

        func roundTripsThroughTheExportForm() {
            let device = DeviceDescription(normalized: "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.1")
            expectEqual(DeviceDescription(exportText: device.exportText), device)
        }

        func keepsOtherTextAsAName() {
            expectEqual(DeviceDescription(exportText: "Withings scale").normalized, "name:Withings scale")
        }
    }
}

extension ImportTests {
    struct RecordIdentityTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: recordIdentityTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private func sample(value: SampleValue, start: String = "2024-05-01T08:00:00-07:00", metadata: [String: MetadataValue] = [:],
                            device: String? = nil, created: String = "2024-05-01T09:00:00Z") -> Sample {
            Sample(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: ISODate.parse(start)!, end: ISODate.parse(start)!.addingTimeInterval(600),
                   value: value, source: "Jane’s iPhone", created: ISODate.parse(created)!, metadata: metadata, device: device)
        }

        func ignoresOffsetAndNumberSpelling() {
            var identity = RecordIdentity(catalogue: .standard)
            let a = identity.uuid(for: sample(value: .quantity(Quantity(100, .count()))))
            let b = identity.uuid(for: sample(value: .generic(value: "100.0", unit: "count"), start: "2024-05-01T16:00:00+01:00"))
            expectEqual(a, b)
            expectEqual(a.uuidString.dropFirst(14).first, "5", "a version-5 UUID")
        }

        func coversDeviceCreationDateVersionAndMetadata() {
            var identity = RecordIdentity(catalogue: .standard)
            let plain = sample(value: .quantity(Quantity(100, .count())))
            let base = identity.uuid(for: plain)
            var variants = [sample(value: .quantity(Quantity(100, .count())), device: "name:iPhone"),
                            sample(value: .quantity(Quantity(100, .count())), created: "2025-01-01T00:00:00Z"),
                            sample(value: .quantity(Quantity(100, .count())), metadata: ["HKWasUserEntered": .string("1")])]
            var versioned = plain
            versioned.sourceVersion = "17.2"
            variants.append(versioned)
            let uuids = variants.map { identity.uuid(for: $0) }
            #expect(!uuids.contains(base))
            expectEqual(Set(uuids).count, uuids.count)
            // The rule of earlier builds left all of these out.
            expectEqual(Set(variants.map { identity.legacyUUID(for: $0) }), [identity.legacyUUID(for: plain)])
        }

        func theResumedPrefixGivesTheSameUUIDAsAFreshHash() {
            var cached = RecordIdentity(catalogue: .standard)
            var samples = (0..<6).map { sample(value: .quantity(Quantity(Double($0), .count())), device: $0 % 3 == 0 ? nil : "name:Watch \($0 % 2)") }
            samples[5].sourceVersion = String(repeating: "v", count: 200)
            for item in samples + samples.reversed() {
                var fresh = RecordIdentity(catalogue: .standard)
                expectEqual(cached.uuid(for: item), fresh.uuid(for: item))
            }
        }

        func occurrencesOfIdenticalRecordsHaveTheirOwnUUIDs() {
            var identity = RecordIdentity(catalogue: .standard)
            let base = identity.uuid(for: sample(value: .quantity(Quantity(100, .count()))))
            let second = RecordIdentity.occurrence(2, of: base), third = RecordIdentity.occurrence(3, of: base)
            expectEqual(Set([base, second, third]).count, 3)
            expectEqual(second, RecordIdentity.occurrence(2, of: base))
            expectEqual(second.uuidString.dropFirst(14).first, "5", "a version-5 UUID")
        }

        /// A record that took a stored sample written in another unit (``IdentityPartition/matchLoosely(_:hold:)``) is
        /// held, and given back when the stored sample's own record comes: it is new after all, one for one. The same
        /// unit, another amount, or a sample already taken is no match.
        func aRecordTakenInAnotherUnitIsGivenBackToTheSamplesOwnRecord() {
            var identity = RecordIdentity(catalogue: .standard)
            func energy(_ value: Double, _ unit: String) -> Sample {
                var energy = sample(value: .quantity(Quantity(value, try! HealthUnit(parsing: unit))))
                energy.typeIdentifier = "HKQuantityTypeIdentifierDietaryEnergyConsumed"
                return energy
            }
            let kcal = energy(120.5, "kcal"), kilojoules = energy(504.172, "kJ")
            let stored = identity.uuid(for: kcal)
            let storedKey = identity.looseUUID(for: kcal)!, recordKey = identity.looseUUID(for: kilojoules)!
            expectEqual(storedKey.uuid, recordKey.uuid)
            expectEqual(recordKey.unit, "kJ")
            func partition() -> IdentityPartition {
                let partition = IdentityPartition()
                partition.addStored(uuid: stored, identity: stored, nameable: false)
                partition.loose = [storedKey.uuid: [(stored, storedKey.amount, storedKey.unit)]]
                return partition
            }
            let record = identity.uuid(for: kilojoules)
            let held = { HeldRecord(type: kilojoules.typeIdentifier, typeKey: 0, start: kilojoules.start, end: kilojoules.end, uuid: record,
                                    identity: record, content: .sample(kilojoules, generic: false)) }
            let taken = partition()
            #expect(taken.matchLoosely(recordKey, hold: held))
            var released: [HeldRecord] = []
            #expect(!taken.match(uuid: stored, identity: stored, anyUUID: false, hold: held, released: &released))
            expectEqual(released.map(\.uuid), [record])
            #expect(!taken.matchLoosely(recordKey, hold: held), "the sample is taken")
            var sameUnit = recordKey
            sameUnit.unit = "kcal"
            #expect(!partition().matchLoosely(sameUnit, hold: held))
            var other = recordKey
            other.amount *= 1.0001
            #expect(!partition().matchLoosely(other, hold: held))
        }

        /// A uuid is decided once, whichever way its record comes: as an identity's first occurrence (kept once, in the
        /// partition's identities met) or with a uuid of its own (a correlation's member, the store's jsonl), in
        /// either order; a later occurrence is a record of its own.
        func aUUIDIsDecidedOnceWhicheverWayItsRecordComes() {
            var released: [HeldRecord] = []
            let first = UUID(), second = UUID(), base = UUID()
            let held = { HeldRecord(type: "HKQuantityTypeIdentifierStepCount", typeKey: 0, start: Date(timeIntervalSince1970: 0),
                                    end: Date(timeIntervalSince1970: 60), uuid: first, identity: first,
                                    content: .sample(self.sample(value: .quantity(Quantity(1, .count()))), generic: false)) }
            let partition = IdentityPartition()
            // First occurrence, then the same uuid as a record of its own.
            expectEqual(partition.occurrence(of: first), 1)
            #expect(partition.match(uuid: first, identity: first, firstOccurrence: true, anyUUID: false, hold: held, released: &released))
            #expect(!partition.match(uuid: first, identity: first, anyUUID: false, hold: held, released: &released),
                    "decided as its identity's first occurrence")
            // A record of its own, then the same uuid as an identity's first occurrence.
            #expect(partition.match(uuid: second, identity: second, anyUUID: false, hold: held, released: &released))
            expectEqual(partition.occurrence(of: second), 1)
            #expect(!partition.match(uuid: second, identity: second, firstOccurrence: true, anyUUID: false, hold: held, released: &released),
                    "decided as a record of its own")
            // An identity's second occurrence is another record; its uuid too is decided once.
            expectEqual(partition.occurrence(of: base), 1)
            #expect(partition.match(uuid: base, identity: base, firstOccurrence: true, anyUUID: false, hold: held, released: &released))
            expectEqual(partition.occurrence(of: base), 2)
            let twin = RecordIdentity.occurrence(2, of: base)
            #expect(partition.match(uuid: twin, identity: base, anyUUID: false, hold: held, released: &released))
            #expect(!partition.match(uuid: twin, identity: base, anyUUID: false, hold: held, released: &released))
            expectEqual(partition.recordsDecided, 4)
            expectEqual(released.count, 0)
        }

        func distinguishesValuesSourcesAndTimes() {
            var identity = RecordIdentity(catalogue: .standard)
            let base = identity.uuid(for: sample(value: .quantity(Quantity(100, .count()))))
            #expect(base != identity.uuid(for: sample(value: .quantity(Quantity(101, .count())))))
            #expect(base != identity.uuid(for: sample(value: .quantity(Quantity(100, .count())), start: "2024-05-01T08:00:01-07:00")))
            var other = sample(value: .quantity(Quantity(100, .count())))
            other.source = "Jane’s Watch"
            #expect(base != identity.uuid(for: other))
        }

        func usesTheSyncIdentifierAndVersionWhenPresent() {
            var identity = RecordIdentity(catalogue: .standard)
            let sync: [String: MetadataValue] = ["HKMetadataKeySyncIdentifier": .string("abc"), "HKMetadataKeySyncVersion": .string("2")]
            let a = identity.uuid(for: sample(value: .quantity(Quantity(100, .count())), metadata: sync))
            let b = identity.uuid(for: sample(value: .quantity(Quantity(250, .count())), start: "2024-05-02T08:00:00-07:00", metadata: sync))
            expectEqual(a, b)
            var newer = sync
            newer["HKMetadataKeySyncVersion"] = .number(3)
            #expect(a != identity.uuid(for: sample(value: .quantity(Quantity(100, .count())), metadata: newer)))
        }

        func isAVersion5UUIDOfTheDocumentedNamespace() {
            // Cross-check the UUID construction against RFC 4122's example namespace (DNS) with Python's uuid5 value.
            var name = [UInt8]([0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8])
            name += Array("python.org".utf8)
            var digest = name.withUnsafeBytes { SHA1.digest($0) }
            digest[6] = (digest[6] & 0x0F) | 0x50
            digest[8] = (digest[8] & 0x3F) | 0x80
            let text = digest.prefix(16).map { String(format: "%02x", $0) }.joined()
            expectEqual(text, "886313e13b8a53729b900c9aee199e5d")
        }
    }
}

extension ImportTests {
    struct XMLTextTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: xMLTextTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private func decode(_ text: String) -> String {
            var text = text
            return text.withUTF8 { XMLText.decode($0) }
        }

        func decodesEntitiesAndCharacterReferences() {
            expectEqual(decode("&lt;&lt;HKDevice&gt;&amp;&quot;&apos;"), "<<HKDevice>&\"'")
            expectEqual(decode("mL/min&#183;kg"), "mL/min·kg")
            expectEqual(decode("mL/min&#xB7;kg"), "mL/min·kg")
            expectEqual(decode("a &unknown; b & c"), "a &unknown; b & c")
        }

        func dropsStrayControlCharacters() {
            expectEqual(decode("Jane\u{0B}’s iPhone"), "Jane’s iPhone")
            expectEqual(decode("a\tb"), "a b")
        }

        func escapingRoundTrips() {
            let text = "<a & \"b\">\nc"
            expectEqual(decode(XMLText.escape(text)), text)
        }
    }
}

/// The checks ``ImportTests.ExportDateParserTests/checks(_:)`` runs.
private let exportDateParserTestsChecks: [Check<ImportTests.ExportDateParserTests>] = [
    Check("parsesTheExportFormatWithItsOffset", ImportTests.ExportDateParserTests.parsesTheExportFormatWithItsOffset),
    Check("parsesTheCompactDatesOfIOS8Exports", ImportTests.ExportDateParserTests.parsesTheCompactDatesOfIOS8Exports),
    Check("formatsLikeTheHealthApp", ImportTests.ExportDateParserTests.formatsLikeTheHealthApp),
]

/// The checks ``ImportTests.DeviceDescriptionTests/checks(_:)`` runs.
private let deviceDescriptionTestsChecks: [Check<ImportTests.DeviceDescriptionTests>] = [
    Check("dropsTheMemoryAddress", ImportTests.DeviceDescriptionTests.dropsTheMemoryAddress),
    Check("keepsCommasInsideValues", ImportTests.DeviceDescriptionTests.keepsCommasInsideValues),
    Check("roundTripsThroughTheExportForm", ImportTests.DeviceDescriptionTests.roundTripsThroughTheExportForm),
    Check("keepsOtherTextAsAName", ImportTests.DeviceDescriptionTests.keepsOtherTextAsAName),
]

/// The checks ``ImportTests.RecordIdentityTests/checks(_:)`` runs.
private let recordIdentityTestsChecks: [Check<ImportTests.RecordIdentityTests>] = [
    Check("ignoresOffsetAndNumberSpelling", ImportTests.RecordIdentityTests.ignoresOffsetAndNumberSpelling),
    Check("coversDeviceCreationDateVersionAndMetadata",
          ImportTests.RecordIdentityTests.coversDeviceCreationDateVersionAndMetadata),
    Check("theResumedPrefixGivesTheSameUUIDAsAFreshHash",
          ImportTests.RecordIdentityTests.theResumedPrefixGivesTheSameUUIDAsAFreshHash),
    Check("occurrencesOfIdenticalRecordsHaveTheirOwnUUIDs",
          ImportTests.RecordIdentityTests.occurrencesOfIdenticalRecordsHaveTheirOwnUUIDs),
    Check("distinguishesValuesSourcesAndTimes", ImportTests.RecordIdentityTests.distinguishesValuesSourcesAndTimes),
    Check("aUUIDIsDecidedOnceWhicheverWayItsRecordComes", ImportTests.RecordIdentityTests.aUUIDIsDecidedOnceWhicheverWayItsRecordComes),
    Check("aRecordTakenInAnotherUnitIsGivenBackToTheSamplesOwnRecord",
          ImportTests.RecordIdentityTests.aRecordTakenInAnotherUnitIsGivenBackToTheSamplesOwnRecord),
    Check("usesTheSyncIdentifierAndVersionWhenPresent",
          ImportTests.RecordIdentityTests.usesTheSyncIdentifierAndVersionWhenPresent),
    Check("isAVersion5UUIDOfTheDocumentedNamespace",
          ImportTests.RecordIdentityTests.isAVersion5UUIDOfTheDocumentedNamespace),
]

/// The checks ``ImportTests.XMLTextTests/checks(_:)`` runs.
private let xMLTextTestsChecks: [Check<ImportTests.XMLTextTests>] = [
    Check("decodesEntitiesAndCharacterReferences", ImportTests.XMLTextTests.decodesEntitiesAndCharacterReferences),
    Check("dropsStrayControlCharacters", ImportTests.XMLTextTests.dropsStrayControlCharacters),
    Check("escapingRoundTrips", ImportTests.XMLTextTests.escapingRoundTrips),
]
