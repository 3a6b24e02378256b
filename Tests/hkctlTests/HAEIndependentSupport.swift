import Foundation
import Testing
import TestKit

/// Helpers of the independent Health Auto Export tests (fixtures in Tests/Fixtures/hae-independent, every figure
/// worked out by hand in the test that uses it).
enum HAEIndependent {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hae-independent").path
    static let berlin = ["TZ": "Europe/Berlin", "HKCTL_NOW": "2024-11-02T12:00:00Z"]

    static func path(_ name: String) -> String { folder + "/" + name }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try json(text) as? [String: Any], "not a JSON object: \(text)")
    }

    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    /// `hkctl import ARGS --format json` in Berlin; returns the receipt's totals.
    @discardableResult
    static func importTotals(_ cli: CLIRunner, _ arguments: [String], stdin: String? = nil,
                             status: Int32 = 0) throws -> [String: Int] {
        let result = try cli.run(["import"] + arguments + ["--format", "json"], stdin: stdin, environment: berlin)
        expectEqual(result.status, status, "import \(arguments): \(result.stderr)")
        return try #require(try object(result.stdout)["totals"] as? [String: Int], "\(result.stdout)")
    }

    /// Imports quietly (any input kind), expecting exit 0.
    static func importQuietly(_ cli: CLIRunner, _ file: String) throws {
        let result = try cli.run(["import", path(file), "-q"], environment: berlin)
        expectEqual(result.status, 0, "import \(file): \(result.stderr)")
    }

    /// The bucket sums of `stats TYPE ARGS --format json` in Berlin.
    static func sums(_ cli: CLIRunner, _ arguments: [String]) throws -> [Double] {
        let result = try cli.run(["stats"] + arguments + ["--format", "json"], environment: berlin)
        expectEqual(result.status, 0, "stats \(arguments): \(result.stderr)")
        let buckets = try #require(try object(result.stdout)["buckets"] as? [[String: Any]], "\(result.stdout)")
        return buckets.map { number($0["sum"]) ?? 0 }
    }

    /// The hourly sums of one Berlin day that are not zero, keyed by the bucket's start hour ("08").
    static func hours(_ cli: CLIRunner, _ type: String, day: String, extra: [String] = []) throws -> [String: Double] {
        let result = try cli.run(["stats", type, "--by", "hour", "--from", day, "--to", day, "--format", "json"] + extra,
                                 environment: berlin)
        expectEqual(result.status, 0, "\(result.stderr)")
        let buckets = try #require(try object(result.stdout)["buckets"] as? [[String: Any]])
        var out: [String: Double] = [:]
        for bucket in buckets {
            guard let sum = number(bucket["sum"]), sum != 0, let start = bucket["start"] as? String else { continue }
            out[String(start.dropFirst(11).prefix(2))] = sum
        }
        return out
    }

    /// `hkctl list TYPE --format json` in Berlin, as objects.
    static func list(_ cli: CLIRunner, _ type: String, _ extra: [String] = []) throws -> [[String: Any]] {
        let result = try cli.run(["list", type, "--format", "json", "--from", "2000-01-01", "--to", "2030-01-01"] + extra,
                                 environment: berlin)
        expectEqual(result.status, 0, "list \(type): \(result.stderr)")
        return try #require(try json(result.stdout) as? [[String: Any]], "\(result.stdout)")
    }

    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * max(1, abs(b))
    }
}
