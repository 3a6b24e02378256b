import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The text helpers that replace Foundation's `NSString` and `String` methods give what those gave.
struct TextHelperFoundationTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: textHelperFoundationTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let texts = [
        "", "a", "abc", "a b c", "  ", "a  b", "\"", "say \"hi\"", "\"\"", "it's", "a:b:c", "x/y/z", "TZ", "1−2",
        "A · B – C", "héllo wörld", "e\u{301}", "\u{301}x", "日本 語", "\u{1F600} \u{1F600}", "a\\b'c", "aaa", "aaaa",
    ]
    static let targets = [" ", "\"", "'", ":", "/", "T", "−", " · ", "–", "aa", "\\", "é", ", ", ">, ", "values: "]

    @Test(arguments: texts)
    func replacesAsFoundationDoes(text: String) {
        for target in TextHelperFoundationTests.targets {
            for replacement in ["", "-", "\"\"", "\\:", "_", "'\\''"] {
                expectEqual(text.replacingEvery(target, with: replacement), text.replacingOccurrences(of: target, with: replacement), "\(text) \(target) \(replacement)")
            }
        }
    }

    @Test(arguments: texts)
    func findsAsFoundationDoes(text: String) {
        for target in TextHelperFoundationTests.targets + ["", "abc", "c", "b c"] {
            expectEqual(text.firstRange(ofText: target), text.range(of: target), "\(text) \(target)")
            let sub = text.dropFirst()
            expectEqual(sub.firstRange(ofText: target), sub.range(of: target), "\(sub) \(target)")
        }
    }

    @Test(arguments: ["", "/", "/a", "/a/", "a/b", "a/b/", "/a/b", "/a/b/c.jsonl", "a//b", "//a//b//",
                      "samples/HKQuantityTypeIdentifierStepCount/2024-03.jsonl", "/tmp/store/journal.jsonl", "./x", "../x/y"])
    func pathComponentsAsNSString(path: String) {
        expectEqual(PathText.lastComponent(of: path), (path as NSString).lastPathComponent, "\(path)")
        expectEqual(PathText.parent(of: path), (path as NSString).deletingLastPathComponent, "\(path)")
    }

    /// Paths whose parent is empty, where swift-corelibs-foundation 6.3's `deletingLastPathComponent` crashes (and
    /// gives `""` for `//`): Apple's documented results. The store never asks for these.
    func pathComponentsOfBareNames() {
        expectEqual(PathText.lastComponent(of: "a"), "a")
        expectEqual(PathText.lastComponent(of: "a/"), "a")
        expectEqual(PathText.lastComponent(of: "//"), "/")
        expectEqual(PathText.parent(of: "a"), "")
        expectEqual(PathText.parent(of: "a/"), "")
        expectEqual(PathText.parent(of: "a//"), "")
        expectEqual(PathText.parent(of: "//"), "/")
    }

    @Test(arguments: ["", "abc", "a%20b", "%41%42", "%e9", "%C3%A9", "%c3%a9t%C3%A9", "100%", "%", "%4", "%4G", "%%41",
                      "HKQuantityTypeIdentifier%2FStep", "%FF", "%C3", "%E2%82%AC", "a+b", "%00x", "日本%20"])
    func percentDecodesAsFoundation(text: String) {
        expectEqual(PercentDecoding.decoded(text), text.removingPercentEncoding, "\(text)")
    }

    func typeFoldersDecodeBackToTheirIdentifier() {
        for identifier in ["HKQuantityTypeIdentifierStepCount", "my.custom/type", "é 100%", "a_b-c", "日本"] {
            let folder = String(JSONFileStore.typeFolder(identifier).dropFirst("samples/".count))
            expectEqual(PercentDecoding.decoded(folder), identifier)
        }
    }

    @Test(arguments: ["{}", " {\"a\":1} ", "{\"a\":[1,2,{\"b\":null}],\"c\":\"\\u00e9\"}\n", "{\n  \"x\" : true\n}\n",
                      "[]", "[{}]", "1", "\"text\"", "null", "", " ", "{", "{\"a\":}", "{\"a\":1,}", "{\"a\":1} x",
                      "{\"a\":tru}", "{a:1}", "{\"a\":\"\\q\"}", "{\"a\":01}", "{\"a\":1}{\"b\":2}", "{\"a\":1,\"a\":2}",
                      "{\"a\":-0.5e3,\"b\":[true,false,null]}", "\u{FEFF}{}", "{\"a\":\"\u{1}\"}", "{\"a\":1e999}",
                      "{\"a\":[01]}", "{\"a\":{\"b\":\"\\q\"}}", "{\"a\":[[[[{\"b\":[1.5e-3]}]]]]}", "{\"a\":1.}", "{\"a\":-}",
                      "{\"a\":.5}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\ud83d\\ude00\"}", "{\"a\":[1,2]", "{\"\\q\":1}",
                      "{\"a\":12345678901234567890}", "{\"a\":-0}", "{\"a\":1E+2,\"b\":\"\\/\\b\\f\\n\\r\\t\\u0041\"}", "{\"a\":[,1]}",
                      "{\"a\":nul}", "{\"a\":NaN}", "\t{\"a\":1}\r\n"])
    func recognisesJSONObjectsAsJSONSerialization(text: String) {
        let bytes = Array(text.utf8)
        let expected = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] != nil
        expectEqual(JSONObjectCheck.isObject(bytes), expected, "\(text)")
    }

    func invalidUTF8IsNotAJSONObject() {
        let bytes: [UInt8] = Array("{\"a\":\"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8)
        expectEqual(JSONObjectCheck.isObject(bytes), ((try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] != nil))
    }

    @Test(arguments: ["export.xml", "apple_health_export/export.xml", "Export\u{301}.xml", "cafe\u{301}/e\u{301}.xml",
                      "A\u{30A}ngstro\u{308}m", "\u{1100}\u{1161}\u{11A8}", "already é", "日本/データ.xml"])
    func zipNamesComposeAsFoundation(name: String) {
        #expect(ZipArchive.decodeName(Array(name.utf8)).utf8.elementsEqual(name.precomposedStringWithCanonicalMapping.utf8))
    }
}

/// The checks ``TextHelperFoundationTests/checks(_:)`` runs.
private let textHelperFoundationTestsChecks: [Check<TextHelperFoundationTests>] = [
    Check("pathComponentsOfBareNames", TextHelperFoundationTests.pathComponentsOfBareNames),
    Check("typeFoldersDecodeBackToTheirIdentifier", TextHelperFoundationTests.typeFoldersDecodeBackToTheirIdentifier),
    Check("invalidUTF8IsNotAJSONObject", TextHelperFoundationTests.invalidUTF8IsNotAJSONObject),
]
