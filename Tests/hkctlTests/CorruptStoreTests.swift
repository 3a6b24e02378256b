import Foundation
import Testing
import TestKit
import TextSupport

/// A way to damage a store by hand, and what every command touching the damage must then say.
struct StoreDamage: Sendable, CustomTestStringConvertible {
    let name: String
    /// The exit code every command gives.
    let status: Int32
    /// Text every error message must contain ({water} is the water partition's path).
    let fragments: [String]
    /// The commands that touch it (nil: all of ``CorruptStoreTests/commands``).
    var commands: [[String]]? = nil
    let apply: @Sendable (_ store: String) throws -> Void

    var testDescription: String { name }
}

private let waterFolder = "samples/HKQuantityTypeIdentifierDietaryWater"
private let waterPartition = waterFolder + "/2024-06.jsonl"

/// Replaces line `number` (1-based) of a file by what `change` makes of it.
private func editLine(_ path: String, _ number: Int, _ change: (String) -> String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[number - 1] = change(lines[number - 1])
    try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
}

struct CorruptStoreTests {
    static let damages: [StoreDamage] = [
        StoreDamage(name: "a line cut short in the middle of the file", status: 65, fragments: [waterPartition, "line 1"]) { store in
            try editLine(store + "/" + waterPartition, 1) { String($0.prefix(60)) }
        },
        StoreDamage(name: "garbage bytes in the middle of a line", status: 65,
                    fragments: [waterPartition, "line 1", "invalid UTF-8"]) { store in
            let path = store + "/" + waterPartition
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let source = try #require(bytes.firstRange(of: Array("\"hkctl\"".utf8)))
            bytes.replaceSubrange(source.lowerBound + 2..<source.lowerBound + 4, with: [0xFF, 0xFE])
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        },
        StoreDamage(name: "a binary blob between two lines", status: 65, fragments: [waterPartition, "line 2"]) { store in
            try editLine(store + "/" + waterPartition, 2) { "\u{1}\u{2}PK\u{3}\u{4}" + "\n" + $0 }
        },
        StoreDamage(name: "a line with a wrong field", status: 65, fragments: [waterPartition, "line 2", "value"]) { store in
            try editLine(store + "/" + waterPartition, 2) { $0.replacingOccurrences(of: "\"value\":300", with: "\"value\":\"lots\"") }
        },
        StoreDamage(name: "a line whose uuid is not a UUID", status: 65, fragments: [waterPartition, "line 1"]) { store in
            try editLine(store + "/" + waterPartition, 1) { line in
                line.replacingOccurrences(of: "\"uuid\":\"", with: "\"uuid\":\"zz")
            }
        },
        StoreDamage(name: "an unknown format version", status: 65, fragments: ["hkctl-store.json", "version 0"]) { store in
            try Data("{\"format\":\"hkctl-store\",\"version\":0}\n".utf8).write(to: URL(fileURLWithPath: store + "/hkctl-store.json"))
        },
        StoreDamage(name: "another format in the marker", status: 65, fragments: ["hkctl-store.json", "'other'", "reads only format 'hkctl-store' version 1"]) { store in
            try Data("{\"format\":\"other\",\"version\":1}\n".utf8).write(to: URL(fileURLWithPath: store + "/hkctl-store.json"))
        },
        StoreDamage(name: "a marker without its format", status: 65, fragments: ["hkctl-store.json", "names no format"]) { store in
            try Data("{\"version\":1}\n".utf8).write(to: URL(fileURLWithPath: store + "/hkctl-store.json"))
        },
        StoreDamage(name: "a newer format version", status: 65, fragments: ["hkctl-store.json", "version 7"]) { store in
            try Data("{\"format\":\"hkctl-store\",\"version\":7}\n".utf8).write(to: URL(fileURLWithPath: store + "/hkctl-store.json"))
        },
        StoreDamage(name: "a partition replaced by a dangling link", status: 77, fragments: [waterPartition, "symbolic link"]) { store in
            try FileManager.default.removeItem(atPath: store + "/" + waterPartition)
            try FileManager.default.createSymbolicLink(atPath: store + "/" + waterPartition, withDestinationPath: "gone.jsonl")
        },
        StoreDamage(name: "a partition replaced by a folder", status: 65, fragments: [waterPartition]) { store in
            try FileManager.default.removeItem(atPath: store + "/" + waterPartition)
            try FileManager.default.createDirectory(atPath: store + "/" + waterPartition, withIntermediateDirectories: false)
        },
        StoreDamage(name: "an unreadable change counter", status: 65, fragments: ["sequence", "line 1"],
                    commands: [["add", "water", "1L", "--at", "10:00"], ["add", "steps", "5"], ["changes"],
                               ["delete", "water", "--today", "--yes"], ["doctor"]]) { store in
            try Data("12x\n".utf8).write(to: URL(fileURLWithPath: store + "/sequence"))
        },
    ]

    /// Commands that read or write the water partition (the store also holds a deleted water sample, so
    /// compaction reads it too).
    static let commands: [[String]] = [
        ["add", "water", "1L", "--at", "10:00"],
        ["list", "water"],
        ["stats", "water", "--today"],
        ["trend", "water"],
        ["export"],
        ["changes"],
        ["compact"],
        ["delete", "water", "--today", "--yes"],
        ["doctor"],
    ]

    /// A store with two water samples, a deleted third one and a steps sample.
    static func seed(_ cli: CLIRunner) throws {
        for arguments in [["add", "water", "250mL", "--at", "08:00"], ["add", "water", "300mL", "--at", "09:00"],
                          ["add", "steps", "100", "--at", "07:00"]] {
            let result = try cli.run(arguments)
            try #require(result.status == 0, "\(result.stderr)")
        }
        let third = try cli.run(["add", "water", "50mL", "--at", "2024-05-20T07:00", "--format", "json"])
        let uuid = try #require(third.stdout.firstMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/)).output
        let deleted = try cli.run(["delete", String(uuid), "--yes"])
        try #require(deleted.status == 0, "\(deleted.stderr)")
    }

    @Test(arguments: CorruptStoreTests.damages)
    func everyCommandTouchingTheDamageFailsNamingItAndWritesNothing(_ damage: StoreDamage) throws {
        try CLIRunner.withTemporaryStore { cli in
            try Self.seed(cli)
            try damage.apply(cli.storePath)
            let before = cli.snapshot()
            for arguments in damage.commands ?? Self.commands {
                let result = try cli.run(arguments)
                let label = "hkctl \(arguments.joined(separator: " ")) on \(damage.name)"
                // doctor reports every damage it can read past as errors: 65.
                expectEqual(result.status, (arguments == ["doctor"] ? 65 : damage.status), "\(label): exit \(result.status); \(result.stderr)")
                let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("Error: ") }
                expectEqual(errorLines.count, 1, "\(label): stderr \(result.stderr)")
                // doctor lists its findings on stdout; the one error line sums them up.
                let text = arguments == ["doctor"] ? result.stdout + result.stderr : result.stderr
                for fragment in damage.fragments {
                    // doctor prints file:line.
                    let wanted = arguments == ["doctor"] && fragment.hasPrefix("line ") ? ":" + fragment.dropFirst(5) + ":" : fragment
                    #expect(text.contains(wanted), "\(label): no '\(wanted)' in \(text)")
                }
                expectEqual(cli.snapshot(), before, "\(label) changed the store")
            }
        }
    }

    @Test func commandsThatDoNotTouchTheDamageStillWork() throws {
        try CLIRunner.withTemporaryStore { cli in
            try Self.seed(cli)
            try Self.damages[0].apply(cli.storePath)
            let steps = try cli.run(["list", "steps", "--format", "json"])
            expectEqual(steps.status, 0, "\(steps.stderr)")
            #expect(steps.stdout.contains("\"value\":100"))
            let added = try cli.run(["add", "steps", "200", "--at", "09:30"])
            expectEqual(added.status, 0, "\(added.stderr)")
        }
    }
}
