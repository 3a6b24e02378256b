import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Push tokens: random, URL-safe, kept only as digests in a private 0600 document, one per source name, matched in
/// full, revocable.
struct PushTokenTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: pushTokenTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-02T12:00:00Z")

    func sha256MatchesTheStandardVectors() {
        func hex(_ text: String) -> String { PushTokens.digest(of: text) }
        expectEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        expectEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        expectEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        expectEqual(hex(String(repeating: "a", count: 1000)), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    func aTokenIsRandomURLSafeAndKeptOnlyAsADigest() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let token = try store.createPushToken(for: "iphone", now: Self.now)
            let other = try store.createPushToken(for: "ipad", now: Self.now)
            #expect(token != other)
            #expect(token.hasPrefix("hkp_"))
            // 256 random bits in 43 URL-safe characters.
            expectEqual(token.dropFirst(4).count, 43)
            #expect(token.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            let file = folder + "/store/" + PushTokens.fileName
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(!text.contains(token.dropFirst(4)))
            #expect(text.contains(PushTokens.digest(of: token)))
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
            expectEqual(mode, 0o600)
            try expectEqual(store.source(forPushToken: token), "iphone")
            try expectEqual(store.source(forPushToken: other), "ipad")
            try expectEqual(store.pushTokens(), [PushTokenRecord(name: "ipad", created: Self.now), PushTokenRecord(name: "iphone", created: Self.now)])
        }
    }

    func aWrongTokenMatchesNothing() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            try expectNil(store.source(forPushToken: "anything"))
            let token = try store.createPushToken(for: "iphone", now: Self.now)
            for wrong in ["", token + "x", String(token.dropLast()), token.uppercased(), " " + token, PushTokens.digest(of: token)] {
                try expectNil(store.source(forPushToken: wrong), "\(wrong)")
            }
        }
    }

    func oneTokenPerNameAndRevokedTokensStopWorking() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let token = try store.createPushToken(for: "iphone", now: Self.now)
            let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/store/" + PushTokens.fileName))
            #expect(throws: PushTokenError.exists("iphone")) { try store.createPushToken(for: "iphone", now: Self.now) }
            #expect(throws: PushTokenError.ownerName("hkctl")) { try store.createPushToken(for: "hkctl", now: Self.now) }
            #expect(throws: PushTokenError.notFound("ipad")) { try store.revokePushToken(for: "ipad") }
            #expect(throws: TextError.self) { try store.createPushToken(for: "bad\nname", now: Self.now) }
            try expectEqual(Data(contentsOf: URL(fileURLWithPath: folder + "/store/" + PushTokens.fileName)), before)
            try store.revokePushToken(for: "iphone")
            try expectNil(store.source(forPushToken: token))
            #expect(try store.pushTokens().isEmpty)
            // A new token for the name after revoking is a different one.
            let again = try store.createPushToken(for: "iphone", now: Self.now)
            #expect(again != token)
            try expectEqual(store.source(forPushToken: again), "iphone")
        }
    }

    func theTokenDocumentIsNotAPlainDocument() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            _ = try store.createPushToken(for: "iphone", now: Self.now)
            #expect(throws: StoreError.notADocument(PushTokens.fileName)) {
                try store.updateDocument(PushTokens.fileName, initial: PushTokens()) { $0.tokens = [] }
            }
            #expect(throws: StoreError.notADocument(PushTokens.fileName)) {
                _ = try store.document(PushTokens.fileName, default: PushTokens())
            }
        }
    }

    func aDamagedTokenDocumentIsReportedNotIgnored() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            _ = try store.createPushToken(for: "iphone", now: Self.now)
            let file = folder + "/store/" + PushTokens.fileName
            let text = try String(contentsOfFile: file, encoding: .utf8)
            try text.replacingOccurrences(of: "\"sha256\" : \"", with: "\"sha256\" : \"zz").write(toFile: file, atomically: false, encoding: .utf8)
            #expect(throws: StoreError.self) { _ = try store.source(forPushToken: "x") }
            let report = try StoreDoctor(store: store).check(now: Self.now)
            #expect(report.findings.contains { $0.file == PushTokens.fileName })
        }
    }
}

/// The checks ``PushTokenTests/checks(_:)`` runs.
private let pushTokenTestsChecks: [Check<PushTokenTests>] = [
    Check("sha256MatchesTheStandardVectors", PushTokenTests.sha256MatchesTheStandardVectors),
    Check("aTokenIsRandomURLSafeAndKeptOnlyAsADigest", PushTokenTests.aTokenIsRandomURLSafeAndKeptOnlyAsADigest),
    Check("aWrongTokenMatchesNothing", PushTokenTests.aWrongTokenMatchesNothing),
    Check("oneTokenPerNameAndRevokedTokensStopWorking", PushTokenTests.oneTokenPerNameAndRevokedTokensStopWorking),
    Check("theTokenDocumentIsNotAPlainDocument", PushTokenTests.theTokenDocumentIsNotAPlainDocument),
    Check("aDamagedTokenDocumentIsReportedNotIgnored", PushTokenTests.aDamagedTokenDocumentIsReportedNotIgnored),
]
