#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The on-disk JSON Lines store, in fresh temporary folders.
struct JSONFileStoreTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: jSONFileStoreTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private static let stepsFolder = "samples/HKQuantityTypeIdentifierStepCount"
    private static let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)

    /// Runs `body` with a store at `<temporary folder>/store`, a path that does not exist yet.
    private func withStore(zone: ZoneRules = .gmt, _ body: (JSONFileStore, String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            try body(JSONFileStore(path: path, timeZone: zone, lockTimeout: 2), path)
        }
    }

    private func steps(_ value: Double, _ start: Date, _ end: Date? = nil) -> Sample { Kit.steps(value, start, end) }

    private func allSteps(_ store: JSONFileStore) throws -> [Sample] {
        try store.samples(ofType: SampleType.steps.identifier, overlapping: JSONFileStoreTests.everything)
    }

    private func line(_ sample: Sample, zone: ZoneRules = .gmt) -> String {
        SampleLineCodec(catalogue: .standard, timeZone: zone).encode(sample) + "\n"
    }

    private func text(_ path: String) -> String { String(decoding: Kit.bytes(path), as: UTF8.self) }

    /// The samples of a partition file, decoded line by line in file order (extra keys such as a change number
    /// do not matter).
    private func decoded(_ file: String) throws -> [Sample] {
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        let bytes = Kit.bytes(file)
        #expect(bytes.isEmpty || bytes.last == 0x0A, "\(file) must end with a newline")
        return try bytes.split(separator: 0x0A).map { line in
            try Array(line).withUnsafeBufferPointer { try codec.decode($0) }
        }
    }

    // MARK: Creation and layout

    func firstSaveCreatesAPrivateStore() throws {
        try withStore { store, path in
            try expectEqual(store.isExistingStore(), false)
            #expect(try allSteps(store).isEmpty)
            #expect(!Kit.exists(path), "reading must not create the store")

            try store.save([steps(10, Kit.utc(2024, 5, 31, 23, 30))])

            expectEqual(Kit.mode(path), 0o700)
            expectEqual(Kit.mode(path + "/samples"), 0o700)
            expectEqual(Kit.mode(path + "/" + JSONFileStoreTests.stepsFolder), 0o700)
            expectEqual(text(path + "/hkctl-store.json"), "{\"format\":\"hkctl-store\",\"version\":1}\n")
            expectEqual(Kit.mode(path + "/hkctl-store.json"), 0o600)
            expectEqual(Kit.mode(path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"), 0o600)
            expectEqual(Kit.mode(path + "/.lock"), 0o600)
            #expect(Set(Kit.contents(of: path)).isSuperset(of: [".lock", "hkctl-store.json", "samples"]))
            #expect(!Kit.exists(path + "/journal.jsonl"))
            // Every folder 0700, every file 0600.
            for entry in Kit.walk(path) {
                expectEqual(entry.mode, (entry.isFolder ? 0o700 : 0o600), "\(entry.path) has mode \(String(entry.mode, radix: 8))")
            }
            #expect(try store.isExistingStore())
        }
    }

    @Test(arguments: [0, 1, 42, 99_999_999_999, (1 << 53) - 1])
    func changeCounterIsTwentyDigitsAndReadsBack(value: UInt64) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder, timeZone: Kit.zone("UTC"))
            try store.writeSequence(value)
            let text = try String(contentsOfFile: folder + "/sequence", encoding: .utf8)
            expectEqual(text, String(repeating: "0", count: 20 - String(value).count) + String(value) + "\n")
            try expectEqual(store.currentSequence(), value)
        }
    }

    func emptyFolderBecomesAStore() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder, lockTimeout: 2)
            try expectEqual(store.isExistingStore(), false)
            try store.save([steps(1, Kit.utc(2024, 6, 1))])
            #expect(Kit.exists(folder + "/hkctl-store.json"))
            try expectEqual(allSteps(store).count, 1)
        }
    }

    func savingNothingCreatesNothing() throws {
        try withStore { store, path in
            try store.save([])
            #expect(!Kit.exists(path))
        }
    }

    func samplesArePartitionedByTheUTCMonthOfTheirStart() throws {
        // The store writes Paris offsets, but partitions follow UTC: 2024-05-31T23:30Z is June 1 in Paris
        // and still goes to 2024-05.jsonl.
        try withStore(zone: Kit.zone("Europe/Paris")) { store, path in
            let lateMay = steps(10, Kit.utc(2024, 5, 31, 23, 30))
            let june = steps(20, Kit.utc(2024, 6, 1))
            let january = steps(30, Kit.utc(2024, 1, 15, 8))
            let night = Kit.sleep(1, Kit.utc(2024, 5, 31, 22), Kit.utc(2024, 6, 1, 6))
            for sample in [lateMay, june, january, night] { try store.save([sample]) }

            let folder = path + "/" + JSONFileStoreTests.stepsFolder
            expectEqual(Kit.contents(of: folder), ["2024-01.jsonl", "2024-05.jsonl", "2024-06.jsonl"])
            try expectEqual(decoded(folder + "/2024-05.jsonl"), [lateMay])
            #expect(text(folder + "/2024-05.jsonl").contains(#""start":"2024-06-01T01:30:00+02:00""#))
            try expectEqual(decoded(folder + "/2024-06.jsonl"), [june])
            expectEqual(Kit.contents(of: path + "/samples/HKCategoryTypeIdentifierSleepAnalysis"), ["2024-05.jsonl"])

            expectEqual(store.partitionPath(for: lateMay), JSONFileStoreTests.stepsFolder + "/2024-05.jsonl")
            expectEqual(store.partitionPath(for: june), JSONFileStoreTests.stepsFolder + "/2024-06.jsonl")
            try expectEqual(allSteps(store), [january, lateMay, june])
        }
    }

    func monthKeysAreUTCMonths() {
        expectEqual(JSONFileStore.monthKey(Date(timeIntervalSince1970: Kit.utc(2024, 6, 1).timeIntervalSince1970 - 0.001)), "2024-05")
        expectEqual(JSONFileStore.monthKey(Kit.utc(2024, 6, 1)), "2024-06")
        expectEqual(JSONFileStore.monthKey(Kit.utc(2024, 2, 29, 23, 59, 59)), "2024-02")
        expectEqual(JSONFileStore.monthKey(Kit.utc(1969, 12, 31, 23)), "1969-12")  // before the epoch: floor, not truncation
        expectEqual(JSONFileStore.monthKey(Kit.utc(1900, 1, 1)), "1900-01")
    }

    func typeIdentifiersCannotEscapeTheSamplesFolder() {
        expectEqual(JSONFileStore.typeFolder("HKQuantityTypeIdentifierStepCount"), "samples/HKQuantityTypeIdentifierStepCount")
        expectEqual(JSONFileStore.typeFolder("../x"), "samples/%2E%2E%2Fx")
        expectEqual(JSONFileStore.typeFolder("a b"), "samples/a%20b")
    }

    /// The folder name as it was defined before names of plain letters skipped the byte-by-byte build (issue 32).
    private static func referenceTypeFolder(_ identifier: String) -> String {
        var name = ""
        for byte in identifier.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                name.append(Character(Unicode.Scalar(byte)))
            default:
                name += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return "samples/" + name
    }

    func typeFoldersMatchTheirDefinition() {
        var names = SampleTypeCatalogue.standard.types.map(\.identifier) + ["", "%", "%41", "é", "Zz09_-"]
        let alphabet = ["a", "Z", "0", "_", "-", ".", "/", " ", "%", "é", "\u{0}"]
        for first in alphabet { for second in alphabet { for third in alphabet { names.append(first + second + third) } } }
        let wrong = names.filter { JSONFileStore.typeFolder($0) != Self.referenceTypeFolder($0) }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    // MARK: Long samples and partition choice

    func samplesLongerThanTwoDaysGoToLongJsonlAndAreFound() throws {
        try withStore { store, path in
            let threeDays = steps(3000, Kit.utc(2024, 4, 1), Kit.utc(2024, 4, 4))       // 72 h > 48 h
            let twoDays = steps(2000, Kit.utc(2024, 4, 10), Kit.utc(2024, 4, 12))        // exactly 48 h: a month file
            let acrossNewYear = steps(500, Kit.utc(2023, 12, 30), Kit.utc(2024, 1, 5))
            for sample in [threeDays, twoDays, acrossNewYear] { try store.save([sample]) }

            let folder = path + "/" + JSONFileStoreTests.stepsFolder
            expectEqual(Kit.contents(of: folder), ["2024-04.jsonl", "long.jsonl"])
            try expectEqual(decoded(folder + "/long.jsonl"), [threeDays, acrossNewYear])
            expectEqual(store.partitionPath(for: threeDays), JSONFileStoreTests.stepsFolder + "/long.jsonl")

            let id = SampleType.steps.identifier
            try expectEqual(store.samples(ofType: id, overlapping: DateInterval(start: Kit.utc(2024, 4, 2), end: Kit.utc(2024, 4, 3))), [threeDays])
            try expectEqual(store.samples(ofType: id, overlapping: DateInterval(start: Kit.utc(2024, 4, 11), end: Kit.utc(2024, 4, 11, 1))), [twoDays])
            try expectEqual(store.samples(ofType: id, overlapping: DateInterval(start: Kit.utc(2024, 1, 3), end: Kit.utc(2024, 1, 4))), [acrossNewYear])
            #expect(try store.samples(ofType: id, overlapping: DateInterval(start: Kit.utc(2024, 6, 1), end: Kit.utc(2024, 6, 2))).isEmpty)
        }
    }

    func aSampleStartingInThePreviousMonthIsFound() throws {
        // 2 days from 2024-02-28T12:00Z to 03-01T12:00Z lives in 2024-02.jsonl but overlaps March 1.
        try withStore { store, _ in
            let straddling = steps(100, Kit.utc(2024, 2, 28, 12), Kit.utc(2024, 3, 1, 12))
            try store.save([straddling])
            let march1 = DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 3, 2))
            try expectEqual(store.samples(ofType: SampleType.steps.identifier, overlapping: march1), [straddling])
        }
    }

    func partitionsComeInMonthOrderWhateverTheFolderListing() throws {
        try withStore { store, path in
            let folder = JSONFileStoreTests.stepsFolder
            try FileManager.default.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true)
            var months: [String] = []
            for year in [1999, 2009, 2024] { for month in 1...12 { months.append(String(format: "%04d-%02d", year, month)) } }
            // Created in a scrambled order; names that are not month partitions are never listed.
            var generator = IndependentTestKit.SeededGenerator(seed: 7)
            for name in months.shuffled(using: &generator).map({ $0 + ".jsonl" }) + ["long.jsonl", "2024-13.jsonl", "2024-1.jsonl",
                                                                         "notes.txt", "2024-06.jsonl.tmp", "20x4-06.jsonl"] {
                try Data().write(to: URL(fileURLWithPath: path + "/" + folder + "/" + name))
            }
            let all = try store.partitions(ofType: SampleType.steps.identifier, overlapping: JSONFileStoreTests.everything)
            expectEqual(all, months.map { folder + "/" + $0 + ".jsonl" } + [folder + "/long.jsonl"])
            let some = try store.partitions(ofType: SampleType.steps.identifier,
                                            overlapping: DateInterval(start: Kit.utc(2009, 12, 20), end: Kit.utc(2024, 2, 10)))
            expectEqual(some, ["2009-12", "2024-01", "2024-02"].map { folder + "/" + $0 + ".jsonl" } + [folder + "/long.jsonl"])
        }
        expectEqual(JSONFileStore.monthNumber(ofFileName: "2024-06.jsonl"), 2024 * 12 + 5)
        for name in ["2024-00.jsonl", "2024-13.jsonl", "2024-6.jsonl", "2024-06.json", "2024-06.jsonl ", "2O24-06.jsonl", "long.jsonl"] {
            expectNil(JSONFileStore.monthNumber(ofFileName: name), "\(name)")
        }
    }

    func queriesReadOnlyThePartitionsTheyCanTouch() throws {
        try withStore { store, path in
            for month in 1...6 { try store.save([steps(Double(month), Kit.utc(2024, month, 15, 12))]) }
            try store.save([steps(99, Kit.utc(2024, 2, 1), Kit.utc(2024, 2, 5))])  // long
            let id = SampleType.steps.identifier
            let folder = JSONFileStoreTests.stepsFolder
            func partitions(_ start: Date, _ end: Date) throws -> [String] {
                try store.partitions(ofType: id, overlapping: DateInterval(start: start, end: end))
            }
            // Mid-March: only March (two days back is still March) and long.jsonl.
            try expectEqual(partitions(Kit.utc(2024, 3, 10), Kit.utc(2024, 3, 20)), [folder + "/2024-03.jsonl", folder + "/long.jsonl"])
            // From 04-01T12:00Z the two-day look-back reaches 03-30: March must be read too.
            try expectEqual(partitions(Kit.utc(2024, 4, 1, 12), Kit.utc(2024, 4, 5)), [folder + "/2024-03.jsonl", folder + "/2024-04.jsonl", folder + "/long.jsonl"])
            // From 04-03 the look-back stays in April.
            try expectEqual(partitions(Kit.utc(2024, 4, 3), Kit.utc(2024, 4, 5)), [folder + "/2024-04.jsonl", folder + "/long.jsonl"])
            try expectEqual(partitions(Kit.utc(2024, 1, 1), Kit.utc(2024, 7, 1)).count, 7)
            #expect(try store.partitions(ofType: "HKQuantityTypeIdentifierDietaryWater",
                                         overlapping: JSONFileStoreTests.everything).isEmpty)

            // Behaviour, not just the list: a corrupt January file does not disturb a March query.
            try Kit.append("garbage\n" + line(steps(1, Kit.utc(2024, 1, 16))), to: path + "/" + folder + "/2024-01.jsonl")
            let march = DateInterval(start: Kit.utc(2024, 3, 10), end: Kit.utc(2024, 3, 20))
            try expectEqual(store.samples(ofType: id, overlapping: march).map { $0.value.quantity?.value }, [3])
            #expect(throws: StoreError.self) {
                try store.samples(ofType: id, overlapping: DateInterval(start: Kit.utc(2024, 1, 10), end: Kit.utc(2024, 1, 20)))
            }
        }
    }

    // MARK: Appends

    func appendsNeverRewriteExistingBytes() throws {
        try withStore { store, path in
            let file = path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            try store.save([steps(1, Kit.utc(2024, 5, 1))])
            let first = Kit.bytes(file)
            var info = stat()
            stat(file, &info)
            let inode = info.st_ino

            try store.save([steps(2, Kit.utc(2024, 5, 2))])
            let second = Kit.bytes(file)
            #expect(second.count > first.count)
            #expect(second.starts(with: first), "the earlier bytes must be a prefix")

            try store.save([steps(3, Kit.utc(2024, 5, 3)), steps(4, Kit.utc(2024, 5, 4))])  // a batch, through the journal
            let third = Kit.bytes(file)
            #expect(third.starts(with: second))
            expectEqual(third.filter { $0 == 0x0A }.count, 4)
            expectEqual(third.last, 0x0A)
            stat(file, &info)
            expectEqual(info.st_ino, inode, "the file must be appended to, not replaced")
        }
    }

    func roundTripKeepsEveryField() throws {
        try withStore(zone: Kit.zone("America/New_York")) { store, _ in
            var sample = Kit.quantity(.water, 16.9, "fl_oz_us", Date(timeIntervalSince1970: 1_717_243_200.125),
                                      metadata: ["HKTimeZone": .string("America/New_York"), "Cup": .number(2), "cup": .string("mug")])
            sample.source = "Jane’s\u{00A0}iPhone"
            sample.created = Kit.utc(2024, 6, 1, 12, 5)
            try store.save([sample])
            let loaded = try store.samples(ofType: SampleType.water.identifier, overlapping: JSONFileStoreTests.everything)
            expectEqual(loaded, [sample])
        }
    }

    // MARK: Crash leftovers

    func tornTrailingLineIsIgnoredThenMovedAside() throws {
        try withStore { store, path in
            let first = steps(1, Kit.utc(2024, 5, 1))
            try store.save([first])
            let file = path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            let torn = #"{"uuid":"00000000-0000-0000-0000-0000000000aa","type":"HKQuantityTypeIdentifierStepCount","start":"2024-05-0"#
            try Kit.append(torn, to: file)

            try expectEqual(allSteps(store), [first])  // readers skip a line with no newline

            let second = steps(2, Kit.utc(2024, 5, 2))
            try store.save([second])
            try expectEqual(decoded(file), [first, second])
            try expectEqual(allSteps(store), [first, second])

            let recovered = Kit.contents(of: path + "/recovered")
            expectEqual(recovered.count, 1)
            let name = try #require(recovered.first)
            #expect(name.hasPrefix("samples_HKQuantityTypeIdentifierStepCount_2024-05.jsonl."))
            #expect(name.hasSuffix(".torn"))
            expectEqual(text(path + "/recovered/" + name), torn)
            expectEqual(Kit.mode(path + "/recovered"), 0o700)
        }
    }

    func garbageLastLineIsTreatedAsTorn() throws {
        try withStore { store, path in
            let first = steps(1, Kit.utc(2024, 5, 1))
            try store.save([first])
            let file = path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            try Kit.append("garbage!!!\n", to: file)

            try expectEqual(allSteps(store), [first])

            let second = steps(2, Kit.utc(2024, 5, 2))
            try store.save([second])
            try expectEqual(decoded(file), [first, second])
            let recovered = Kit.contents(of: path + "/recovered")
            expectEqual(recovered.count, 1)
            expectEqual(recovered.first.map { text(path + "/recovered/" + $0) }, "garbage!!!\n")
        }
    }

    func everyRecoveryKeepsItsOwnFile() throws {
        // Two crashes in a row (here within the same second) leave two torn tails; both must survive in recovered/.
        try withStore { store, path in
            let file = path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            try store.save([steps(1, Kit.utc(2024, 5, 1))])
            try Kit.append("{\"first torn", to: file)
            try store.save([steps(2, Kit.utc(2024, 5, 2))])
            try Kit.append("{\"second torn", to: file)
            try store.save([steps(3, Kit.utc(2024, 5, 3))])
            try expectEqual(decoded(file).map { $0.value.quantity?.value }, [1, 2, 3])
            let kept = Kit.contents(of: path + "/recovered").map { text(path + "/recovered/" + $0) }.sorted()
            expectEqual(kept, ["{\"first torn", "{\"second torn"])
        }
    }

    func garbageOnlyLineIsMovedAsideWhole() throws {
        try withStore { store, path in
            try store.save([steps(1, Kit.utc(2024, 6, 20))])  // creates the store
            let file = path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            try Kit.write("{\"uuid\":\n", to: file)
            try expectEqual(allSteps(store).count, 1)
            let sample = steps(2, Kit.utc(2024, 5, 2))
            try store.save([sample])
            try expectEqual(decoded(file), [sample])
        }
    }

    func corruptLineInTheMiddleThrowsWithItsLineNumber() throws {
        try withStore { store, path in
            let first = steps(1, Kit.utc(2024, 5, 1))
            try store.save([first])
            let file = path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            try Kit.append("not json\n" + line(steps(3, Kit.utc(2024, 5, 3))), to: file)

            let error = #expect(throws: StoreError.self) { try allSteps(store) }
            guard case let .corrupt(reported, lineNumber, _)? = error else {
                Issue.record("expected .corrupt, got \(String(describing: error))")
                return
            }
            expectEqual(reported, file)
            expectEqual(lineNumber, 2)
        }
    }

    func blankLinesAreNotCorruption() throws {
        try withStore { store, path in
            let first = steps(1, Kit.utc(2024, 5, 1))
            try store.save([first])
            let third = steps(3, Kit.utc(2024, 5, 3))
            try Kit.append("\n   \n" + line(third), to: path + "/" + JSONFileStoreTests.stepsFolder + "/2024-05.jsonl")
            try expectEqual(allSteps(store), [first, third])
        }
    }

    // MARK: Batches and the journal

    func batchSaveAcrossPartitionsIsAllVisible() throws {
        try withStore { store, path in
            let batch = [steps(1, Kit.utc(2024, 5, 1)), steps(2, Kit.utc(2024, 5, 20)), steps(3, Kit.utc(2024, 6, 2)),
                         steps(4, Kit.utc(2024, 3, 1), Kit.utc(2024, 3, 10)),
                         Kit.quantity(.water, 250, "mL", Kit.utc(2024, 6, 2, 8))]
            try store.save(batch)
            #expect(!Kit.exists(path + "/journal.jsonl"))
            try expectEqual(allSteps(store), [batch[3], batch[0], batch[1], batch[2]])
            try expectEqual(store.samples(ofType: SampleType.water.identifier, overlapping: JSONFileStoreTests.everything), [batch[4]])
            let folder = path + "/" + JSONFileStoreTests.stepsFolder
            expectEqual(Kit.contents(of: folder), ["2024-05.jsonl", "2024-06.jsonl", "long.jsonl"])
            try expectEqual(decoded(folder + "/2024-05.jsonl"), [batch[0], batch[1]])
        }
    }

    private static let may = stepsFolder + "/2024-05.jsonl", june = stepsFolder + "/2024-06.jsonl",
                       july = stepsFolder + "/2024-07.jsonl"

    /// Saves one steps sample in May 2024 and one in June, one at a time, before an interrupted batch.
    private func saveMayAndJune(_ store: JSONFileStore) throws -> (Sample, Sample) {
        let a = steps(1, Kit.utc(2024, 5, 10)), b = steps(2, Kit.utc(2024, 6, 10))
        try store.save([a])
        try store.save([b])
        return (a, b)
    }

    func interruptedBatchIsInvisibleThenCompletedExactlyOnce() throws {
        try withStore { store, path in
            let (a, b) = try saveMayAndJune(store)
            let may = JSONFileStoreTests.may, june = JSONFileStoreTests.june, july = JSONFileStoreTests.july
            let mayBefore = Kit.bytes(path + "/" + may), juneBefore = Kit.bytes(path + "/" + june)
            let mayLength = mayBefore.count, juneLength = juneBefore.count

            // A batch C (May), D + E (June), G (July), interrupted: May fully appended, June holds half of D's
            // line, July was created and written. As `save` does, the change counter was raised first and each
            // line carries its number; the journal lists the partition lengths before the batch.
            let c = steps(3, Kit.utc(2024, 5, 11)), d = steps(4, Kit.utc(2024, 6, 11))
            let e = steps(5, Kit.utc(2024, 6, 12)), g = steps(7, Kit.utc(2024, 7, 1))
            let first = try store.currentSequence()
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            let batch = [c, d, e, g].enumerated().map { codec.encode($1, sequence: first + 1 + UInt64($0)) + "\n" }
            try store.writeSequence(first + 4)
            try Kit.append(batch[0], to: path + "/" + may)
            try Kit.append(String(batch[1].prefix(40)), to: path + "/" + june)
            try Kit.write(batch[3], to: path + "/" + july)
            let header = "{\"journal\":1,\"partitions\":["
                + "{\"path\":\"\(may)\",\"length\":\(mayLength),\"lines\":1},"
                + "{\"path\":\"\(june)\",\"length\":\(juneLength),\"lines\":2},"
                + "{\"path\":\"\(july)\",\"length\":0,\"lines\":1}]}\n"
            try Kit.write(header + batch.joined(), to: path + "/journal.jsonl")

            // The journal parses as the store's own format.
            let journal = try #require(try store.readJournal())
            expectEqual(journal.entries.map(\.path), [may, june, july])
            expectEqual(journal.entries.map(\.length), [mayLength, juneLength, 0])
            expectEqual(journal.entries.map(\.lines.count), [1, 2, 1])

            // Readers before recovery see exactly the state before the batch.
            try expectEqual(allSteps(store), [a, b])
            try expectEqual(allSteps(JSONFileStore(path: path, lockTimeout: 2)), [a, b])
            try expectEqual(store.latestSamples(ofType: SampleType.steps.identifier, overlapping: JSONFileStoreTests.everything,
                                                limit: 10), [b, a])
            // Nor does a listing whose bar (LatestBar) is read from the end of the files: the batch's lines past the
            // journal's lengths are not the months' last lines yet.
            for limit in [1, 2] {
                try expectEqual(store.latestSamples(ofType: SampleType.steps.identifier, overlapping: JSONFileStoreTests.everything,
                                                    limit: limit), Array([b, a].prefix(limit)))
            }

            // The next save finishes the batch first, then appends its own sample.
            let f = steps(6, Kit.utc(2024, 6, 13))
            try store.save([f])
            #expect(!Kit.exists(path + "/journal.jsonl"))
            try expectEqual(allSteps(store), [a, c, b, d, e, f, g])
            try expectEqual(decoded(path + "/" + may), [a, c])
            try expectEqual(decoded(path + "/" + june), [b, d, e, f])
            try expectEqual(decoded(path + "/" + july), [g])
            // The bytes from before the batch are untouched.
            #expect(Kit.bytes(path + "/" + may).starts(with: mayBefore))
            #expect(Kit.bytes(path + "/" + june).starts(with: juneBefore))
            #expect(!Kit.exists(path + "/recovered"), "the half line is cut by the journal, not moved aside")

            // Every line holds its own change number: the batch was not applied twice.
            var numbers: [UInt64] = []
            for partition in [may, june, july] {
                try store.readPartitionWithSequence(partition) { _, number in numbers.append(number) }
            }
            #expect(numbers.count == 7 && Set(numbers).count == 7, "change numbers \(numbers)")

            // And only once: another save does not replay anything.
            let h = steps(8, Kit.utc(2024, 7, 2))
            try store.save([h])
            try expectEqual(allSteps(store), [a, c, b, d, e, f, g, h])
        }
    }

    func interruptedUndoBatchIsInvisibleThenCutBack() throws {
        try withStore { store, path in
            let (a, b) = try saveMayAndJune(store)
            let may = JSONFileStoreTests.may, june = JSONFileStoreTests.june, july = JSONFileStoreTests.july
            let mayBefore = Kit.bytes(path + "/" + may), juneBefore = Kit.bytes(path + "/" + june)

            // An import batch (May, June, a new July), interrupted: its journal holds only the lengths before it,
            // May got a whole line, June half of one, July was created and written.
            let c = steps(3, Kit.utc(2024, 5, 11)), d = steps(4, Kit.utc(2024, 6, 11)), g = steps(7, Kit.utc(2024, 7, 1))
            let first = try store.currentSequence()
            try store.writeSequence(first + 3)
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            try Kit.append(codec.encode(c, sequence: first + 1) + "\n", to: path + "/" + may)
            try Kit.append(String(codec.encode(d, sequence: first + 2).prefix(40)), to: path + "/" + june)
            try Kit.write(codec.encode(g, sequence: first + 3) + "\n", to: path + "/" + july)
            let header = "{\"journal\":2,\"undo\":true,\"partitions\":["
                + "{\"path\":\"\(may)\",\"length\":\(mayBefore.count),\"lines\":1},"
                + "{\"path\":\"\(june)\",\"length\":\(juneBefore.count),\"lines\":1},"
                + "{\"path\":\"\(july)\",\"length\":0,\"lines\":1}]}\n"
            try Kit.write(header, to: path + "/journal.jsonl")

            let journal = try #require(try store.readJournal())
            expectEqual(journal.recovery, .undo)
            expectEqual(journal.entries.map(\.path), [may, june, july])
            expectEqual(journal.entries.map(\.length), [mayBefore.count, juneBefore.count, 0])
            #expect(journal.entries.allSatisfy { $0.lines.isEmpty })

            // Readers see the state before the batch; the change anchor does not wait for numbers that will never
            // be visible.
            try expectEqual(allSteps(JSONFileStore(path: path, lockTimeout: 2)), [a, b])
            try expectEqual(store.currentAnchor().sequence, first + 3)

            // The next save cuts every partition back, then appends its own sample.
            let f = steps(6, Kit.utc(2024, 6, 13))
            try store.save([f])
            #expect(!Kit.exists(path + "/journal.jsonl"))
            expectEqual(Kit.bytes(path + "/" + may), mayBefore)
            #expect(Kit.bytes(path + "/" + june).starts(with: juneBefore))
            try expectEqual(decoded(path + "/" + june), [b, f])
            #expect(Kit.bytes(path + "/" + july).isEmpty)
            try expectEqual(allSteps(store), [a, b, f])
            #expect(!Kit.exists(path + "/recovered"), "the batch's lines are dropped, not kept as a torn tail")
            try expectEqual(store.currentSequence(), first + 4, "numbers of the undone batch are never used again")
        }
    }

    func undoJournalWithLinesIsRefused() throws {
        try withStore { store, path in
            try store.save([steps(1, Kit.utc(2024, 5, 10))])
            let may = JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            let length = Kit.bytes(path + "/" + may).count
            try Kit.append(line(steps(2, Kit.utc(2024, 5, 11))), to: path + "/" + may)
            let header = "{\"journal\":2,\"undo\":true,\"partitions\":[{\"path\":\"\(may)\",\"length\":\(length),\"lines\":1}]}\n"
            try Kit.write(header + line(steps(2, Kit.utc(2024, 5, 11))), to: path + "/journal.jsonl")
            let sizeBefore = Kit.bytes(path + "/" + may).count
            #expect(throws: StoreError.self) { try store.save([steps(3, Kit.utc(2024, 5, 12))]) }
            expectEqual(Kit.bytes(path + "/" + may).count, sizeBefore, "nothing may be cut on a journal that is not one hkctl writes")
        }
    }

    func journalVersionsAreCheckedAgainstTheirKind() throws {
        try withStore { store, path in
            try store.save([steps(1, Kit.utc(2024, 5, 10))])
            let may = JSONFileStoreTests.may
            let length = Kit.bytes(path + "/" + may).count
            let entry = "[{\"path\":\"\(may)\",\"length\":\(length),\"lines\":1}]}\n"
            // The first builds that wrote undo journals called them version 1: still undone.
            try Kit.write("{\"journal\":1,\"undo\":true,\"partitions\":" + entry, to: path + "/journal.jsonl")
            try expectEqual(store.readJournal()?.recovery, .undo)
            // Version 2 is only ever an undo journal; other versions are not this hkctl's.
            for header in ["{\"journal\":2,\"partitions\":", "{\"journal\":3,\"undo\":true,\"partitions\":",
                           "{\"undo\":true,\"partitions\":"] {
                try Kit.write(header + entry, to: path + "/journal.jsonl")
                let error = #expect(throws: StoreError.self) { try store.readJournal() }
                expectEqual(error.map { "\($0)" }?.contains("journal"), true, "\(header): \(String(describing: error))")
            }
            try Kit.write("{\"journal\":3,\"partitions\":" + entry, to: path + "/journal.jsonl")
            let newer = #expect(throws: StoreError.self) { try store.readJournal() }
            expectEqual(newer.map { "\($0)" }?.contains("version 3,"), true, "\(String(describing: newer))")
        }
    }

    func journalForAPartitionNotYetCreatedIsReplayed() throws {
        try withStore { store, path in
            try store.save([steps(1, Kit.utc(2024, 5, 10))])
            let august = JSONFileStoreTests.stepsFolder + "/2024-08.jsonl"
            let x = steps(9, Kit.utc(2024, 8, 1)), y = steps(10, Kit.utc(2024, 8, 2))
            let header = "{\"journal\":1,\"partitions\":[{\"path\":\"\(august)\",\"length\":0,\"lines\":2}]}\n"
            try Kit.write(header + line(x) + line(y), to: path + "/journal.jsonl")
            try expectEqual(allSteps(store).count, 1)
            try store.save([steps(11, Kit.utc(2024, 5, 11))])
            try expectEqual(decoded(path + "/" + august), [x, y])
            try expectEqual(allSteps(store).count, 4)
        }
    }

    func journalPointingOutsideTheStoreIsRefused() throws {
        try withStore { store, path in
            try store.save([steps(1, Kit.utc(2024, 5, 10))])
            let header = "{\"journal\":1,\"partitions\":[{\"path\":\"../escape.jsonl\",\"length\":0,\"lines\":1}]}\n"
            try Kit.write(header + line(steps(2, Kit.utc(2024, 5, 11))), to: path + "/journal.jsonl")
            let error = #expect(throws: StoreError.self) { try store.save([steps(3, Kit.utc(2024, 5, 12))]) }
            guard case let .corrupt(file, _, _)? = error else {
                Issue.record("expected .corrupt, got \(String(describing: error))")
                return
            }
            expectEqual(file, path + "/journal.jsonl")
            #expect(!Kit.exists((path as NSString).deletingLastPathComponent + "/escape.jsonl"))
        }
    }

    func journalWhoseLinesDoNotMatchItsHeaderIsRefused() throws {
        try withStore { store, path in
            try store.save([steps(1, Kit.utc(2024, 5, 10))])
            let may = JSONFileStoreTests.stepsFolder + "/2024-05.jsonl"
            let length = Kit.bytes(path + "/" + may).count
            // The header promises two lines, only one follows.
            let header = "{\"journal\":1,\"partitions\":[{\"path\":\"\(may)\",\"length\":\(length),\"lines\":2}]}\n"
            try Kit.write(header + line(steps(2, Kit.utc(2024, 5, 11))), to: path + "/journal.jsonl")
            #expect(throws: StoreError.self) { try store.save([steps(3, Kit.utc(2024, 5, 12))]) }
            expectEqual(Kit.bytes(path + "/" + may).count, length, "nothing may be applied from a bad journal")
        }
    }

    // MARK: Foreign folders and versions

    func folderWithOtherFilesIsNotAStore() throws {
        try TestSupport.withTemporaryDirectory { folder in
            try Kit.write("hello", to: folder + "/notes.txt")
            let store = JSONFileStore(path: folder, lockTimeout: 2)
            #expect(throws: StoreError.notAStore(folder)) { try store.isExistingStore() }
            #expect(throws: StoreError.notAStore(folder)) { try store.save([steps(1, Kit.utc(2024, 5, 1))]) }
            #expect(throws: StoreError.notAStore(folder)) { try allSteps(store) }
            expectEqual(Kit.contents(of: folder), ["notes.txt"], "nothing may be written into a foreign folder")
        }
    }

    func aFileIsNotAStore() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let file = folder + "/file"
            try Kit.write("x", to: file)
            #expect(throws: StoreError.notAFolder(file)) { try JSONFileStore(path: file, lockTimeout: 2).save([steps(1, Kit.utc(2024, 5, 1))]) }
            expectEqual(text(file), "x", "the file is left alone")
        }
    }

    func newerFormatVersionIsRefused() throws {
        try TestSupport.withTemporaryDirectory { folder in
            try Kit.write("{\"format\":\"hkctl-store\",\"version\":99}\n", to: folder + "/hkctl-store.json")
            let store = JSONFileStore(path: folder, lockTimeout: 2)
            #expect(throws: StoreError.newerVersion(found: 99, supported: 1)) { try store.save([steps(1, Kit.utc(2024, 5, 1))]) }
            #expect(throws: StoreError.newerVersion(found: 99, supported: 1)) { try allSteps(store) }
            expectEqual(Kit.contents(of: folder), ["hkctl-store.json"])
        }
    }

    /// Several instances of one store (a command opens its store for its settings, then for its query) each see the
    /// marker as it is now: the same file gives the same identity, and a replaced one is refused by every instance.
    func anotherInstanceSeesTheMarkerAsItIsNow() throws {
        try withStore { first, path in
            try first.save([steps(1, Kit.utc(2024, 5, 1))])
            #expect(try first.isExistingStore())
            let stamp = try #require(first.checkedMarker.current)
            let second = JSONFileStore(path: path, lockTimeout: 2)
            #expect(try second.isExistingStore())
            expectEqual(second.checkedMarker.current, stamp, "the same file, the same identity")
            try expectEqual(allSteps(second).count, 1)
            // Replaced whole by a newer version's marker: a third instance, and the two before, refuse the store.
            let marker = path + "/hkctl-store.json"
            try Kit.write("{\"format\":\"hkctl-store\",\"version\":99}\n", to: marker + ".new")
            #expect(rename(marker + ".new", marker) == 0)
            let third = JSONFileStore(path: path, lockTimeout: 2)
            #expect(throws: StoreError.newerVersion(found: 99, supported: 1)) { try third.isExistingStore() }
            #expect(throws: StoreError.newerVersion(found: 99, supported: 1)) { try second.isExistingStore() }
            #expect(throws: StoreError.newerVersion(found: 99, supported: 1)) { try first.isExistingStore() }
            // Good again: a fresh instance reads it and takes the store.
            try Kit.write("{\"format\":\"hkctl-store\",\"version\":1}\n", to: marker + ".new")
            #expect(rename(marker + ".new", marker) == 0)
            try expectEqual(allSteps(JSONFileStore(path: path, lockTimeout: 2)).count, 1)
        }
        // Another store looked at in between leaves each store's answer its own.
        try withStore { one, onePath in
            try TestSupport.withTemporaryDirectory { folder in
                try one.save([steps(1, Kit.utc(2024, 5, 1))])
                try Kit.write("{\"format\":\"hkctl-store\",\"version\":42}\n", to: folder + "/hkctl-store.json")
                #expect(throws: StoreError.newerVersion(found: 42, supported: 1)) { try JSONFileStore(path: folder, lockTimeout: 2).isExistingStore() }
                #expect(try JSONFileStore(path: onePath, lockTimeout: 2).isExistingStore())
                #expect(throws: StoreError.newerVersion(found: 42, supported: 1)) { try JSONFileStore(path: folder, lockTimeout: 2).isExistingStore() }
            }
        }
    }

    /// An instance reads its marker once while it stays the same file, and sees any change after: a marker replaced
    /// by a newer version's, rewritten in place with another version, made a symbolic link, or removed with the store.
    func aMarkerChangedAfterTheFirstLookIsSeen() throws {
        try withStore { store, path in
            try store.save([steps(1, Kit.utc(2024, 5, 1))])
            let marker = path + "/hkctl-store.json"
            #expect(try store.isExistingStore())
            #expect(store.checkedMarker.current != nil, "the good marker is remembered")
            #expect(try store.isExistingStore())
            // Replaced whole (a new file renamed over it), as a newer hkctl writes its marker.
            try Kit.write("{\"format\":\"hkctl-store\",\"version\":99}\n", to: marker + ".new")
            #expect(rename(marker + ".new", marker) == 0)
            #expect(throws: StoreError.newerVersion(found: 99, supported: 1)) { try store.isExistingStore() }
            #expect(throws: StoreError.newerVersion(found: 99, supported: 1)) { try allSteps(store) }
            // Good again, then rewritten in place to another text of the same length (a later modification time).
            try Kit.write("{\"format\":\"hkctl-store\",\"version\":1}\n", to: marker)
            #expect(try store.isExistingStore())
            try Kit.write("{\"format\":\"hkctl-store\",\"version\":7}\n", to: marker)
            var later = [timespec(tv_sec: 2_000_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000_000, tv_nsec: 0)]
            _ = utimensat(AT_FDCWD, marker, &later, 0)
            #expect(throws: StoreError.newerVersion(found: 7, supported: 1)) { try store.isExistingStore() }
            // A symbolic link in its place is refused as the first look refuses it.
            try Kit.write("{\"format\":\"hkctl-store\",\"version\":1}\n", to: path + "/elsewhere.json")
            unlink(marker)
            #expect(symlink(path + "/elsewhere.json", marker) == 0)
            #expect(throws: StoreError.self) { try store.isExistingStore() }
        }
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, lockTimeout: 2)
            try store.save([steps(1, Kit.utc(2024, 5, 1))])
            #expect(try store.isExistingStore())
            try FileManager.default.removeItem(atPath: path)
            #expect(try store.isExistingStore() == false, "a removed store is no store, though its marker was good")
        }
    }

    @Test(arguments: ["not json", "{\"format\":\"hkctl-store\"}", "{\"version\":\"one\"}", ""])
    func unreadableMarkerIsABadMarker(marker: String) throws {
        try TestSupport.withTemporaryDirectory { folder in
            try Kit.write(marker, to: folder + "/hkctl-store.json")
            #expect(throws: StoreError.badMarker(folder + "/hkctl-store.json")) {
                try JSONFileStore(path: folder, lockTimeout: 2).isExistingStore()
            }
        }
    }

    // MARK: Listing

    func latestSamplesAreNewestFirstAcrossMonths() throws {
        try withStore { store, _ in
            var all: [Sample] = []
            for month in 1...5 {
                all.append(steps(Double(month * 10), Kit.utc(2024, month, 5, 8)))
                all.append(steps(Double(month * 10 + 1), Kit.utc(2024, month, 20, 8)))
            }
            let long = steps(999, Kit.utc(2024, 3, 10), Kit.utc(2024, 3, 13))
            all.append(long)
            var generator = Kit.SeededGenerator(seed: 42)
            for sample in all.shuffled(using: &generator) { try store.save([sample]) }
            try store.save([Kit.sleep(1, Kit.utc(2024, 5, 30, 23), Kit.utc(2024, 5, 31, 7))])  // another type

            let id = SampleType.steps.identifier
            let everything = JSONFileStoreTests.everything
            let newestThree = try store.latestSamples(ofType: id, overlapping: everything, limit: 3)
            // May 20, May 5, April 20.
            expectEqual(newestThree.map(\.start), [Kit.utc(2024, 5, 20, 8), Kit.utc(2024, 5, 5, 8), Kit.utc(2024, 4, 20, 8)])
            #expect(try store.latestSamples(ofType: id, overlapping: everything, limit: 0).isEmpty)

            let everyOne = try store.latestSamples(ofType: id, overlapping: everything, limit: 50)
            expectEqual(everyOne.count, 11)
            expectEqual(everyOne, Array(all.sorted(by: Sample.chronological).reversed()))
            // The long sample (March 10) sits between March 20 and March 5.
            expectEqual(everyOne.firstIndex(of: long), 5)

            // Restricted to [02-01, 03-15): Feb 5, Feb 20, Mar 5 and the long sample overlap; newest three.
            let window = DateInterval(start: Kit.utc(2024, 2, 1), end: Kit.utc(2024, 3, 15))
            let windowed = try store.latestSamples(ofType: id, overlapping: window, limit: 3)
            expectEqual(windowed.map(\.start), [Kit.utc(2024, 3, 10), Kit.utc(2024, 3, 5, 8), Kit.utc(2024, 2, 20, 8)])
            // Same answer as the straightforward in-memory listing.
            let reference = try InMemorySampleStore(all).latestSamples(ofType: id, overlapping: window, limit: 3)
            expectEqual(windowed, reference)
        }
    }

    /// Samples that start and end together are ordered by uuid: the numeric order of its 128 bits, which must be
    /// the order of the uuid strings.
    func sameTimesAreOrderedByTheUUIDString() {
        var generator = IndependentTestKit.SeededGenerator(seed: 7)
        let at = IndependentTestKit.utc(2024, 5, 1)
        var samples: [Sample] = []
        for _ in 0..<300 {
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            if Bool.random(using: &generator) { bytes[0] = 0xAB }  // many shared first bytes
            let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                   bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            samples.append(Sample(uuid: uuid, typeIdentifier: SampleType.steps.identifier, start: at, end: at,
                                  value: .quantity(Quantity(1, .count())), source: "hkctl", created: at))
        }
        expectEqual(samples.sorted(by: Sample.chronological).map(\.uuid.uuidString), samples.map(\.uuid.uuidString).sorted())
    }

    /// `latestSamples` decodes only the newest plain lines in full: with deletions, a hand-edited line in another
    /// key order, ties in time and several months, it must answer exactly as the in-memory listing does.
    @Test(arguments: [false, true])
    func latestSamplesFromPlainAndOtherLinesMatchTheReference(savedShuffled: Bool) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            var generator = Kit.SeededGenerator(seed: 11)
            var all: [Sample] = []
            for day in 1...60 {
                for hour in [8, 8, 12, 20] {
                    let start = Kit.utc(2024, 3, 1).addingTimeInterval(Double(day * 86_400 + hour * 3600))
                    all.append(Kit.steps(Double.random(in: 1...900, using: &generator).rounded(), start,
                                         start.addingTimeInterval(Double([0, 60, 600][day % 3]))))
                }
            }
            // Shuffled, each month's lines are out of time order (backfilled samples).
            try store.save(savedShuffled ? all.shuffled(using: &generator) : all)
            let deleted = [all[all.count - 1], all[all.count - 6], all[40]]
            _ = try store.delete(uuids: deleted.map(\.uuid), now: Kit.utc(2024, 6, 1))
            all.removeAll { sample in deleted.contains { $0.uuid == sample.uuid } }
            // Rewrite one line of the newest month with its keys in another order: only the full decoder reads it.
            let file = try #require(try store.partitions(ofType: SampleType.steps.identifier,
                overlapping: JSONFileStoreTests.everything).last)
            var lines = try String(contentsOfFile: folder + "/store/" + file, encoding: .utf8).split(separator: "\n").map(String.init)
            let edited = try #require(lines.indices.last)
            lines[edited] = lines[edited].replacingOccurrences(of: #"{"uuid":"#, with: #"{"source":"hkctl","uuid":"#)
                .replacingOccurrences(of: #","source":"hkctl","#, with: ",")
            try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/store/" + file, atomically: false, encoding: .utf8)
            let reference = InMemorySampleStore(all)
            for window in [JSONFileStoreTests.everything, DateInterval(start: Kit.utc(2024, 4, 10), end: Kit.utc(2024, 4, 20, 12))] {
                for limit in [0, 1, 3, 5, 30, 500, Int.max] {
                    let expected = try reference.latestSamples(ofType: SampleType.steps.identifier, overlapping: window, limit: limit)
                    let listed = try store.latestSamples(ofType: SampleType.steps.identifier, overlapping: window, limit: limit)
                    expectEqual(listed.map(\.uuid), expected.map(\.uuid), "limit \(limit)")
                    expectEqual(listed, expected)
                }
            }
        }
    }
}

/// The checks ``JSONFileStoreTests/checks(_:)`` runs.
private let jSONFileStoreTestsChecks: [Check<JSONFileStoreTests>] = [
    Check("firstSaveCreatesAPrivateStore", JSONFileStoreTests.firstSaveCreatesAPrivateStore),
    Check("emptyFolderBecomesAStore", JSONFileStoreTests.emptyFolderBecomesAStore),
    Check("savingNothingCreatesNothing", JSONFileStoreTests.savingNothingCreatesNothing),
    Check("samplesArePartitionedByTheUTCMonthOfTheirStart",
          JSONFileStoreTests.samplesArePartitionedByTheUTCMonthOfTheirStart),
    Check("monthKeysAreUTCMonths", JSONFileStoreTests.monthKeysAreUTCMonths),
    Check("typeIdentifiersCannotEscapeTheSamplesFolder",
          JSONFileStoreTests.typeIdentifiersCannotEscapeTheSamplesFolder),
    Check("typeFoldersMatchTheirDefinition", JSONFileStoreTests.typeFoldersMatchTheirDefinition),
    Check("samplesLongerThanTwoDaysGoToLongJsonlAndAreFound",
          JSONFileStoreTests.samplesLongerThanTwoDaysGoToLongJsonlAndAreFound),
    Check("aSampleStartingInThePreviousMonthIsFound", JSONFileStoreTests.aSampleStartingInThePreviousMonthIsFound),
    Check("partitionsComeInMonthOrderWhateverTheFolderListing",
          JSONFileStoreTests.partitionsComeInMonthOrderWhateverTheFolderListing),
    Check("queriesReadOnlyThePartitionsTheyCanTouch", JSONFileStoreTests.queriesReadOnlyThePartitionsTheyCanTouch),
    Check("appendsNeverRewriteExistingBytes", JSONFileStoreTests.appendsNeverRewriteExistingBytes),
    Check("roundTripKeepsEveryField", JSONFileStoreTests.roundTripKeepsEveryField),
    Check("tornTrailingLineIsIgnoredThenMovedAside", JSONFileStoreTests.tornTrailingLineIsIgnoredThenMovedAside),
    Check("garbageLastLineIsTreatedAsTorn", JSONFileStoreTests.garbageLastLineIsTreatedAsTorn),
    Check("everyRecoveryKeepsItsOwnFile", JSONFileStoreTests.everyRecoveryKeepsItsOwnFile),
    Check("garbageOnlyLineIsMovedAsideWhole", JSONFileStoreTests.garbageOnlyLineIsMovedAsideWhole),
    Check("corruptLineInTheMiddleThrowsWithItsLineNumber",
          JSONFileStoreTests.corruptLineInTheMiddleThrowsWithItsLineNumber),
    Check("blankLinesAreNotCorruption", JSONFileStoreTests.blankLinesAreNotCorruption),
    Check("batchSaveAcrossPartitionsIsAllVisible", JSONFileStoreTests.batchSaveAcrossPartitionsIsAllVisible),
    Check("interruptedBatchIsInvisibleThenCompletedExactlyOnce",
          JSONFileStoreTests.interruptedBatchIsInvisibleThenCompletedExactlyOnce),
    Check("interruptedUndoBatchIsInvisibleThenCutBack", JSONFileStoreTests.interruptedUndoBatchIsInvisibleThenCutBack),
    Check("undoJournalWithLinesIsRefused", JSONFileStoreTests.undoJournalWithLinesIsRefused),
    Check("journalVersionsAreCheckedAgainstTheirKind", JSONFileStoreTests.journalVersionsAreCheckedAgainstTheirKind),
    Check("journalForAPartitionNotYetCreatedIsReplayed",
          JSONFileStoreTests.journalForAPartitionNotYetCreatedIsReplayed),
    Check("journalPointingOutsideTheStoreIsRefused", JSONFileStoreTests.journalPointingOutsideTheStoreIsRefused),
    Check("journalWhoseLinesDoNotMatchItsHeaderIsRefused",
          JSONFileStoreTests.journalWhoseLinesDoNotMatchItsHeaderIsRefused),
    Check("folderWithOtherFilesIsNotAStore", JSONFileStoreTests.folderWithOtherFilesIsNotAStore),
    Check("aFileIsNotAStore", JSONFileStoreTests.aFileIsNotAStore),
    Check("newerFormatVersionIsRefused", JSONFileStoreTests.newerFormatVersionIsRefused),
    Check("aMarkerChangedAfterTheFirstLookIsSeen", JSONFileStoreTests.aMarkerChangedAfterTheFirstLookIsSeen),
    Check("anotherInstanceSeesTheMarkerAsItIsNow", JSONFileStoreTests.anotherInstanceSeesTheMarkerAsItIsNow),
    Check("latestSamplesAreNewestFirstAcrossMonths", JSONFileStoreTests.latestSamplesAreNewestFirstAcrossMonths),
    Check("sameTimesAreOrderedByTheUUIDString", JSONFileStoreTests.sameTimesAreOrderedByTheUUIDString),
]
