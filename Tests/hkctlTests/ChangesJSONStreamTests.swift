import Foundation
import Testing
import TestKit

/// `hkctl changes --format json` writes its document piece by piece (ten years' changes are 630 MB of JSON, which it
/// built whole in 2.5 GB of memory before): the document must still be exactly the one object, with the very objects
/// `--format jsonl` prints one per line, in the same order, separated by single commas.
struct ChangesJSONStreamTests {
    @Test(arguments: changesJSONStreamTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// The json document that the jsonl lines describe, spelled as the one-object form spells it.
    private static func assembled(fromLines text: String) throws -> String {
        var added: [String] = [], deleted: [String] = [], anchor: String?
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("{\"added\":") {
                added.append(String(line.dropFirst("{\"added\":".count).dropLast()))
            } else if line.hasPrefix("{\"deleted\":") {
                deleted.append(String(line.dropFirst("{\"deleted\":".count).dropLast()))
            } else if line.hasPrefix("{\"anchor\":") {
                anchor = String(line.dropFirst("{\"anchor\":".count).dropLast())
            } else {
                Issue.record("an unexpected line: \(line)")
            }
        }
        let last = try #require(anchor)
        return "{\"added\":[" + added.joined(separator: ",") + "],\"deleted\":[" + deleted.joined(separator: ",")
            + "],\"anchor\":" + last + "}\n"
    }

    func theDocumentHoldsWhatTheLinesHold() throws {
        try TerminalCLITests.withDemo { cli in
            let empty = try cli.run(["changes", "--format", "json", "--since",
                                     try #require(try Self.anchor(of: cli.run(["changes", "--format", "json"]).stdout))])
            expectEqual(empty.status, 0, "\(empty.stderr)")
            #expect(empty.stdout.hasPrefix("{\"added\":[],\"deleted\":[],\"anchor\":\""), "\(empty.stdout)")
            for arguments in [["add", "blood-pressure", "121/79"], ["add", "water", "300mL"], ["add", "sleep", "23:10-06:55"],
                              ["delete", "water", "--today", "--yes"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
            }
            for extra in [[], ["--limit", "7"], ["--limit", "1"]] {
                let json = try cli.run(["changes", "--format", "json"] + extra)
                let lines = try cli.run(["changes", "--format", "jsonl"] + extra)
                expectEqual(json.status, 0, "\(json.stderr)")
                expectEqual(json.stdout, try Self.assembled(fromLines: lines.stdout), "\(extra)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
                #expect(object.keys.sorted() == ["added", "anchor", "deleted"])
            }
            let whole = try #require(try JSONSerialization.jsonObject(
                with: Data(try cli.run(["changes", "--format", "json"]).stdout.utf8)) as? [String: Any])
            #expect(((whole["added"] as? [Any])?.count ?? 0) > 100, "the demo's samples")
            #expect(((whole["deleted"] as? [Any])?.count ?? 0) >= 1, "today's water deleted")
        }
    }

    private static func anchor(of json: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["anchor"] as? String
    }
}

/// The checks ``ChangesJSONStreamTests/checks(_:)`` runs.
private let changesJSONStreamTestsChecks: [Check<ChangesJSONStreamTests>] = [
    Check("theDocumentHoldsWhatTheLinesHold", ChangesJSONStreamTests.theDocumentHoldsWhatTheLinesHold),
]
