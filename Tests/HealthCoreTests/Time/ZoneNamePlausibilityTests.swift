import Testing
@testable import HealthCore

/// `ZoneDatabase.isPlausibleName` checks a zone name's components byte by byte (issue 32) with the rule it had: a
/// relative path of printable ASCII, no empty, `.` or `..` component.
struct ZoneNamePlausibilityTests {
    private static func reference(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 255, name.first != "/", !name.hasSuffix("/") else { return false }
        guard name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        return !name.split(separator: "/", omittingEmptySubsequences: false)
            .contains { $0 == ".." || $0 == "." || $0.isEmpty }
    }

    @Test func everyShortNameMatchesTheRule() {
        let alphabet: [Character] = ["a", "/", ".", " "]
        var names = [""]
        for _ in 0..<7 {
            names = names + names.flatMap { name in alphabet.map { name + String($0) } }.filter { $0.count <= 7 }
        }
        // One expectation for all of them: an expectation per case is slow in a debug build.
        let all = Set(names) + ["Europe/Paris", "America/Argentina/Buenos_Aires", "...", "a/.../b", "Etc/GMT+2", "é"]
        let wrong = all.filter { name in ZoneDatabase.isPlausibleName(name) != Self.reference(name) }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }
}
