#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// Issue 29, items 6 and 7: an output file named as one of hkctl's own descriptors (`/dev/stdout`, `/dev/stderr`,
/// `/dev/fd/N`, `/proc/self/fd/N`) is written in place through that descriptor, as the shell would, so a redirected
/// file keeps what is before and after; an output path inside the store being read is refused (exit 73), however it
/// is spelled, and the store is unchanged.
struct OutputInPlaceTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: outputInPlaceTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func contents(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// `export --out NAME >> log` appends to log, whatever name the descriptor is given.
    @Test(arguments: ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "//dev/./stdout"])
    func anAppendedRedirectionKeepsWhatWasThere(name: String) throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            let log = folder + "/log"
            let result = try runShell("echo old > '\(log)'; \"$HKCTL\" export --out '\(name)' >> '\(log)'", cli)
            expectEqual(result.status, 0, "\(result.stderr)")
            let text = contents(log)
            #expect(text.hasPrefix("old\n{\"uuid\":") && text.contains("DietaryWater"), "\(name): \(text)")
            try expectEqual(FileManager.default.contentsOfDirectory(atPath: folder), ["log"], "no temporary file is left")
        }
    }

    /// A group's redirection keeps the lines before and after, for export and for chart --svg, through stdout,
    /// stderr or another descriptor.
    func aGroupRedirectionKeepsHeaderAndFooter() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            let cases = [("export --out /dev/stdout", "> f"), ("chart water --svg /dev/stdout", "> f"),
                         ("export --out /dev/stderr", "2> f"), ("chart water --svg /dev/fd/3", "3> f"),
                         ("export --format csv --out /proc/self/fd/4", "4>> f")]
            for (command, redirection) in cases {
                let file = folder + "/f"
                try? FileManager.default.removeItem(atPath: file)
                let descriptor = redirection.hasPrefix(">") ? "" : String(redirection.prefix(1))
                let echo = descriptor.isEmpty ? "" : " >&\(descriptor)"
                let script = "cd '\(folder)'; { echo header\(echo); \"$HKCTL\" \(command); echo footer\(echo); } \(redirection)"
                let result = try runShell(script, cli)
                expectEqual(result.status, 0, "\(command): \(result.stderr)")
                let lines = contents(file).split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.first == "header" && lines.dropLast().last == "footer" && lines.count > 3,
                        "\(command) \(redirection): \(contents(file))")
                #expect(contents(file).contains(command.hasPrefix("chart") ? "<svg" : "DietaryWater"), "\(command)")
            }
        }
    }

    /// A descriptor that is not open, or open only for reading, is refused before anything is written.
    func aClosedOrReadOnlyDescriptorIsRefused() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            let closed = try runShell("\"$HKCTL\" export --out /dev/fd/7", cli)
            expectEqual(closed.status, 73, "\(closed.stderr)")
            #expect(closed.stderr.contains("/dev/fd/7") && closed.stderr.contains("not open"), "\(closed.stderr)")
            let input = folder + "/input"
            try "keep\n".write(toFile: input, atomically: false, encoding: .utf8)
            let readOnly = try runShell("\"$HKCTL\" export --out /dev/stdin < '\(input)'", cli)
            expectEqual(readOnly.status, 73, "\(readOnly.stderr)")
            #expect(readOnly.stderr.contains("reading"), "\(readOnly.stderr)")
            expectEqual(contents(input), "keep\n", "the file behind standard input was replaced")
        }
    }

    /// Every spelling of a path inside the store is refused (exit 73) for export and chart, and nothing changes.
    func anOutputPathInsideTheStoreIsRefused() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            try expectEqual(cli.run(["delete", "water", "--today", "--yes"]).status, 0)
            try expectEqual(cli.run(["add", "water", "1L", "--at", "09:00"]).status, 0)
            let store = cli.storePath
            let storeName = (store as NSString).lastPathComponent
            // Another name for the store folder, and a link inside the store's parent.
            try FileManager.default.createSymbolicLink(atPath: folder + "/alias", withDestinationPath: store)
            try FileManager.default.createSymbolicLink(atPath: store + "/../link-to-log",
                                                       withDestinationPath: store + "/operations.jsonl")
            let paths = [store + "/operations.jsonl", store + "/samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl",
                         store + "/new.jsonl", store + "/samples/new.svg", folder + "/alias/operations.jsonl",
                         folder + "/alias/sequence", folder + "/../\(storeName)/settings.json",
                         store + "/samples/../hkctl-store.json", (store as NSString).deletingLastPathComponent + "/link-to-log",
                         store, store + "/samples"]
            let before = cli.snapshot()
            for path in paths {
                for arguments in [["export", "--out", path], ["chart", "water", "--svg", path],
                                  ["export", "--format", "healthxml", "--out", path]] {
                    let result = try cli.run(arguments)
                    expectEqual(result.status, 73, "\(arguments): \(result.status) \(result.stderr)")
                    #expect(result.stderr.contains("inside the store"), "\(arguments): \(result.stderr)")
                    #expect(result.stdout.isEmpty)
                }
            }
            // Relative to the working folder too.
            let relative = try runShell("cd '\(store)/samples' && \"$HKCTL\" export --out ../operations.jsonl", cli)
            expectEqual(relative.status, 73, "\(relative.stderr)")
            expectEqual(cli.snapshot(), before, "the store changed")
            try expectEqual(cli.run(["undo", "--yes"]).status, 0, "the undo log still works")
            // A file beside the store, whose name starts like the store's, is fine.
            let beside = store + "-backup.jsonl"
            try expectEqual(cli.run(["export", "--out", beside]).status, 0)
        }
    }
}

/// The checks ``OutputInPlaceTests/checks(_:)`` runs.
private let outputInPlaceTestsChecks: [Check<OutputInPlaceTests>] = [
    Check("aGroupRedirectionKeepsHeaderAndFooter", OutputInPlaceTests.aGroupRedirectionKeepsHeaderAndFooter),
    Check("aClosedOrReadOnlyDescriptorIsRefused", OutputInPlaceTests.aClosedOrReadOnlyDescriptorIsRefused),
    Check("anOutputPathInsideTheStoreIsRefused", OutputInPlaceTests.anOutputPathInsideTheStoreIsRefused),
]
