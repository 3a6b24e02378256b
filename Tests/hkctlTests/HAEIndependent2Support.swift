import Foundation
import Testing
import TestKit

/// Helpers of the second independent Health Auto Export tests (fixtures in Tests/Fixtures/hae-independent2; every
/// figure is worked out by hand in the test that uses it). Builds on ``HAEIndependent``.
enum HAEIndependent2 {
    typealias H = HAEIndependent

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hae-independent2").path

    /// A fixture of this round.
    static func path(_ name: String) -> String { folder + "/" + name }

    /// A fixture of the first round (Tests/Fixtures/hae-independent).
    static func first(_ name: String) -> String { H.path(name) }

    /// The real payloads of ../shared/fixtures/health-auto-export, nil when ../shared is absent.
    static let sharedFolder: String? = {
        // Tests/hkctlTests/this file → the repository; ../shared beside it.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("../shared/fixtures/health-auto-export").standardized.path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    /// `hkctl import FILE -q` in Berlin (or `environment`), expecting exit 0.
    static func importQuietly(_ cli: CLIRunner, _ file: String, environment: [String: String] = H.berlin) throws {
        let result = try cli.run(["import", file, "-q"], environment: environment)
        expectEqual(result.status, 0, "import \(file): \(result.stderr)")
    }

    /// `hkctl undo --yes` in Berlin, expecting exit 0.
    static func undo(_ cli: CLIRunner) throws {
        let result = try cli.run(["undo", "--yes"], environment: H.berlin)
        expectEqual(result.status, 0, "undo: \(result.stderr)")
    }

    /// The one day's steps, merged and with `--no-merge`.
    static func daySteps(_ cli: CLIRunner, _ day: String) throws -> (merged: Double, unmerged: Double) {
        let days = ["steps", "--by", "day", "--from", day, "--to", day]
        return (try H.sums(cli, days).reduce(0, +), try H.sums(cli, days + ["--no-merge"]).reduce(0, +))
    }

    /// `stats sleep --by night` for one night in Berlin: the night's figures (seconds).
    static func night(_ cli: CLIRunner, _ date: String, merged: Bool = true) throws -> [String: Any] {
        let result = try cli.run(["stats", "sleep", "--by", "night", "--from", date, "--to", date, "--format", "json"]
                                 + (merged ? [] : ["--no-merge"]), environment: H.berlin)
        expectEqual(result.status, 0, "\(result.stderr)")
        let nights = try #require(try H.object(result.stdout)["nights"] as? [[String: Any]], "\(result.stdout)")
        return nights.first { $0["date"] as? String == date } ?? [:]
    }

    /// One figure of `stats TYPE --from DAY --to DAY OPTIONS --format json` (`sum`, `minimum`, ...).
    static func figure(_ cli: CLIRunner, _ type: String, _ key: String, from: String, to: String, options: [String] = [],
                       environment: [String: String] = H.berlin) throws -> Double? {
        let result = try cli.run(["stats", type, "--from", from, "--to", to, "--format", "json"] + options,
                                 environment: environment)
        expectEqual(result.status, 0, "stats \(type): \(result.stderr)")
        return H.number(try H.object(result.stdout)[key])
    }

    /// `hkctl changes --since ANCHOR --format json`: the uuids added and deleted, and the next anchor.
    static func changes(_ cli: CLIRunner, since anchor: String?) throws -> (added: [[String: Any]], deleted: [String], anchor: String) {
        let result = try cli.run(["changes", "--format", "json"] + (anchor.map { ["--since", $0] } ?? []), environment: H.berlin)
        expectEqual(result.status, 0, "changes: \(result.stderr)")
        let object = try H.object(result.stdout)
        let added = object["added"] as? [[String: Any]] ?? []
        let deleted = (object["deleted"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
        return (added, deleted, object["anchor"] as? String ?? "")
    }

}
