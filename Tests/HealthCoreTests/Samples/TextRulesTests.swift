import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 20, item 10: invisible and control characters in source names and metadata, one rule everywhere.
struct TextRulesTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: textRulesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    /// The characters the issue names, each of which must be refused.
    static let refused: [UInt32] = Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F) + [0x2028, 0x2029]
        + [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C]
        + [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF]

    func everyNamedCharacterIsRefusedAndNothingElse() {
        let named = Set(Self.refused)
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            expectEqual(TextRules.isRefused(scalar), named.contains(value), "U+\(String(value, radix: 16))")
        }
    }

    /// The import's byte scan gives the same answer as the scalar rule, wherever the character sits; so does
    /// `firstRefused` (which scans the bytes first), naming the scalar.
    func theByteScanAgreesWithTheScalarRule() {
        for value in UInt32(0)...0x10FFFF where value < 0x3000 || (0xFE00...0xFFFF).contains(value) || value % 97 == 0 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            // Short texts, and long ones whose character sits at every place of an eight-byte word.
            let long = (0..<9).map { String(repeating: "a", count: 8 + $0) + "\(Character(scalar))" + String(repeating: "b", count: 17 - $0) }
            for text in ["\(Character(scalar))", "ab\(Character(scalar))", "\(Character(scalar))é", "日\(Character(scalar))本"] + long {
                let expected = text.unicodeScalars.first(where: TextRules.isRefused)
                let scanned = Array(text.utf8).withUnsafeBufferPointer { TextRules.containsRefused(utf8: $0) }
                expectEqual(scanned, (expected != nil), "U+\(String(value, radix: 16)) in \(text.debugDescription)")
                expectEqual(TextRules.firstRefused(in: text), expected, "U+\(String(value, radix: 16)) in \(text.debugDescription)")
            }
        }
    }

    func sourceNamesFromRealExportsAreAccepted() {
        for name in ["Jose’s iPhone", "José’s Apple Watch", "Jose\u{00A0}iPhone", "Zoë's Watch", "王的iPhone", "Health 🫀",
                     "x; touch /tmp/pwned #", String(repeating: "a", count: TextRules.sourceNameLimit),
                     String(repeating: "é", count: TextRules.sourceNameLimit)] {
            expectNil(TextRules.sourceNameProblem(name), "\(name)")
        }
    }

    func emptyLongAndInvisibleSourceNamesAreRefusedNamingTheCharacter() throws {
        expectEqual(TextRules.sourceNameProblem("")?.contains("empty"), true)
        let long = try #require(TextRules.sourceNameProblem(String(repeating: "a", count: TextRules.sourceNameLimit + 1)))
        #expect(long.contains("201 characters") && long.contains("at most 200"))
        let invisible = try #require(TextRules.sourceNameProblem("hkctl\u{200B}"))
        #expect(invisible.contains("U+200B") && invisible.contains("zero-width") && invisible.contains("hkctl\\u{200B}"))
        #expect(!invisible.unicodeScalars.contains { TextRules.isRefused($0) })
        expectEqual(TextRules.sourceNameProblem("a\u{85}b")?.contains("U+0085 (a control character)"), true)
        expectEqual(TextRules.sourceNameProblem("evil\u{202E}gpj.exe")?.contains("bidirectional"), true)
        #expect(throws: TextError.self) { try TextRules.checkSourceName("a\u{2028}b") }
    }

    func metadataKeysAndValuesAreCheckedButHkctlsOwnKeysValuesAreNot() {
        expectNil(TextRules.metadataProblem(key: "drink", value: .string("tea – green, “fresh”")))
        #expect(TextRules.metadataProblem(key: "drink\u{200D}", value: .string("tea")) != nil)
        // A value may hold lines (a note, a food's name as an export writes it); a key may not.
        expectNil(TextRules.metadataProblem(key: "drink", value: .string("tea\nbreak")))
        expectNil(TextRules.metadataProblem(key: "HKFoodType", value: .string("Pasta\r\nwith\tpesto")))
        #expect(TextRules.metadataProblem(key: "drink\nnote", value: .string("tea")) != nil)
        #expect(TextRules.metadataProblem(key: "drink", value: .string("tea\u{0B}break")) != nil)
        #expect(TextRules.metadataProblem(key: "drink", value: .string("tea\u{2028}break")) != nil)
        expectNil(TextRules.metadataProblem(key: "drink", value: .number(1)))
        expectNil(TextRules.metadataProblem(key: "@children", value: .string("[{\"note\":\"a\u{200B}\"}]")))
    }

    /// Joiners shape emoji sequences and Persian and Indic words, where they are accepted; anywhere else they would
    /// hide in a name.
    func joinersAreAcceptedWhereTheyShapeWhatIsShown() {
        for name in ["Alex’s iPhone 🏳️\u{200D}🌈", "👩\u{200D}💻 MacBook", "🙋\u{200D}♀️ Watch", "👨\u{200D}👩\u{200D}👧",
                     "❤️\u{200D}🔥", "👨\u{200D}👨\u{200D}👦", "👩🏽\u{200D}🚀", "می\u{200C}خواهم", "क्\u{200D}ष", "ശ്\u{200C}ശ",
                     // A review: sequences the first lists missed (a family with two girls, Emoji 15.1 and 17).
                     "👨\u{200D}👩\u{200D}👧\u{200D}👧", "⛓️\u{200D}💥", "🙂\u{200D}↔️", "🧑\u{200D}🩰 iPhone"] {
            expectNil(TextRules.sourceNameProblem(name), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
            expectNil(TextRules.firstRefused(in: name), "\(name)")
            // Shown as they are, not escaped.
            expectEqual(TextRules.shown(name), name)
        }
        for name in ["hk\u{200D}ctl", "hk\u{200C}ctl", "日\u{200D}本", "\u{200D}🌈", "🌈\u{200D}", "🏳️\u{200D}\u{200D}🌈", "🌈\u{200D}a",
                     "a\u{200D}🌈", "🌈\u{200C}🌈", "👋🏽\u{200D}x", "می\u{200C}x", "\u{200C}می",
                     // A review: joiners that change nothing on screen, so the name looks like the one without them.
                     "Jane ©\u{200D}®", "Jane ™\u{200D}™", "Jane 💪\u{200D}💪", "Jane ❤️\u{200D}❤️", "👨\u{200D}👨", "ا\u{200D}ب",
                     "د\u{200C}ر", "١\u{200C}٢", "१\u{200C}२", "क\u{200D}ष",
                     // The second review: emoji no sequence joins, joiners where the script shows nothing.
                     "📱\u{200D}👨", "©\u{200D}♀", "🍕\u{200D}💻", "🇫🇷\u{200D}🔥", "☺\u{200D}♂", "👨\u{200D}👨\u{200D}👨\u{200D}👦",
                     "ب\u{200D}ب", "ب\u{200C}ء", "ހ\u{200C}ހ", "ࠀ\u{200C}ࠀ", "ܒ\u{200D}ܒ", "க்\u{200C}க", "क्\u{200C}ক"] {
            let problem = TextRules.sourceNameProblem(name)
            #expect(problem?.contains("zero-width") == true, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(TextRules.firstRefused(in: name) != nil, "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        // Tables and messages show a value's lines escaped.
        expectEqual(TextRules.shown("Pasta\nwith\tpesto"), "Pasta\\u{A}with\\u{9}pesto")
        expectEqual(MetadataText.table(["note": .string("two\nlines")]), "note=two\\u{A}lines")
    }

    /// The library's save refuses such samples before touching the store.
    func theStoreRefusesToSaveThemAndWritesNothing() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
            let good = Kit.steps(10, Kit.utc(2024, 5, 1, 8), source: "Jose’s iPhone")
            let spoof = Kit.steps(10, Kit.utc(2024, 5, 1, 9), source: "hkctl\u{200B}")
            var tagged = Kit.steps(10, Kit.utc(2024, 5, 1, 10))
            tagged.metadata = ["note": .string("\u{202E}olleh")]
            for bad in [spoof, tagged] {
                #expect(throws: TextError.self) { try store.save([good, bad]) }
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/store/samples"))
            try store.save([good])
            let saved = try store.samples(ofType: SampleType.steps.identifier,
                                          overlapping: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd))
            expectEqual(saved.map(\.source), ["Jose’s iPhone"])
        }
    }

    func permissionsAndPrioritiesRefuseThemToo() {
        var state = AuthorizationState()
        #expect(throws: TextError.self) {
            try state.decide(source: "", allow: true, share: [.steps], read: [], at: Kit.utc(2024, 5, 1))
        }
        #expect(throws: TextError.self) {
            try state.request(source: "scale\u{FEFF}", share: [.steps], read: [], at: Kit.utc(2024, 5, 1))
        }
        #expect(throws: TextError.self) { try SourcePriority(["Watch", "Phone\u{200C}"]) }
        #expect(throws: Never.self) { try SourcePriority(["Jose’s Apple Watch", "Jose’s iPhone"]) }
    }
}

/// The checks ``TextRulesTests/checks(_:)`` runs.
private let textRulesTestsChecks: [Check<TextRulesTests>] = [
    Check("everyNamedCharacterIsRefusedAndNothingElse", TextRulesTests.everyNamedCharacterIsRefusedAndNothingElse),
    Check("theByteScanAgreesWithTheScalarRule", TextRulesTests.theByteScanAgreesWithTheScalarRule),
    Check("sourceNamesFromRealExportsAreAccepted", TextRulesTests.sourceNamesFromRealExportsAreAccepted),
    Check("emptyLongAndInvisibleSourceNamesAreRefusedNamingTheCharacter",
          TextRulesTests.emptyLongAndInvisibleSourceNamesAreRefusedNamingTheCharacter),
    Check("metadataKeysAndValuesAreCheckedButHkctlsOwnKeysValuesAreNot",
          TextRulesTests.metadataKeysAndValuesAreCheckedButHkctlsOwnKeysValuesAreNot),
    Check("joinersAreAcceptedWhereTheyShapeWhatIsShown", TextRulesTests.joinersAreAcceptedWhereTheyShapeWhatIsShown),
    Check("theStoreRefusesToSaveThemAndWritesNothing", TextRulesTests.theStoreRefusesToSaveThemAndWritesNothing),
    Check("permissionsAndPrioritiesRefuseThemToo", TextRulesTests.permissionsAndPrioritiesRefuseThemToo),
]
