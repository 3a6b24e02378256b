import Foundation
import Testing
import TestKit

/// hkctl is HealthCore's first client and proves its public API: HealthCore declares nothing at `package` level (the
/// helpers both share live in the TextSupport target, which is not a product), and hkctl never imports HealthCore
/// with `@testable` or any other way into its internals.
struct LibraryBoundaryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: libraryBoundaryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources").standardizedFileURL.path

    /// `(file, line)` for each line of the Swift files under `folder` (at least `minimumFiles` of them) that `matches`.
    private static func lines(in folder: String, minimumFiles: Int = 20, where matches: (String) -> Bool) throws -> [String] {
        let files = try #require(FileManager.default.enumerator(atPath: sources + "/" + folder)?.allObjects as? [String])
        #expect(files.filter { $0.hasSuffix(".swift") }.count >= minimumFiles, "too few sources found in \(folder)")
        var found: [String] = []
        for file in files.sorted() where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + folder + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where matches(String(line)) {
                found.append("\(folder)/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    func healthCoreDeclaresNothingAtPackageLevel() throws {
        let declarations = try Self.lines(in: "HealthCore") { line in
            let words = line.split(separator: " ").map(String.init)
            return words.first(where: { !$0.hasPrefix("@") }) == "package"
        }
        #expect(declarations.isEmpty, "public API or internal, or move it to TextSupport: \(declarations)")
    }

    /// The commands (HKCtlCommands) and the executable that starts them (hkctl, one file).
    func hkctlReachesHealthCoreOnlyThroughItsPublicAPI() throws {
        let reachesInside = { (line: String) in line.contains("import HealthCore") && !line.hasPrefix("import HealthCore") }
        let imports = try Self.lines(in: "HKCtlCommands", where: reachesInside)
            + Self.lines(in: "hkctl", minimumFiles: 1, where: reachesInside)
        #expect(imports.isEmpty, "hkctl imports HealthCore only with a plain `import HealthCore`: \(imports)")
    }
}

/// The checks ``LibraryBoundaryTests/checks(_:)`` runs.
private let libraryBoundaryTestsChecks: [Check<LibraryBoundaryTests>] = [
    Check("healthCoreDeclaresNothingAtPackageLevel", LibraryBoundaryTests.healthCoreDeclaresNothingAtPackageLevel),
    Check("hkctlReachesHealthCoreOnlyThroughItsPublicAPI",
          LibraryBoundaryTests.hkctlReachesHealthCoreOnlyThroughItsPublicAPI),
]
