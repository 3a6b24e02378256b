import Foundation
import Testing
import TestKit
import TextSupport

/// `hkctl completions` loaded by real shells, and the man page against docs/hkctl.1.
struct CompletionAndManTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: completionAndManTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func script(_ shell: String, _ cli: CLIRunner) throws -> String {
        // Beside the temporary store, so that it goes when the store's folder does.
        let folder = URL(fileURLWithPath: cli.storePath).deletingLastPathComponent().path + "/completion"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try cli.run(["completions", shell])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let path = folder + "/hkctl.\(shell)"
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The words bash offers for the command line `line` (the last word is being completed).
    private func bashComplete(_ path: String, _ line: String, environment: [String: String] = [:]) throws -> [String] {
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.last != "" && line.hasSuffix(" ") { words.append("") }
        let array = words.map { "'\($0)'" }.joined(separator: " ")
        let result = try SystemPackages.shell("""
            source '\(path)'
            COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1)
            _hkctl
            printf '%s\\n' "${COMPREPLY[@]}"
            """, environment: environment)
        expectEqual(result.status, 0, "\(result.err)")
        return result.out.split(separator: "\n").map(String.init)
    }

    func bashScriptLoadsAndCompletes() throws {
        try CLIRunner.withTemporaryStore { cli in
            let path = try script("bash", cli)
            let syntax = try SystemPackages.shell("bash -n '\(path)'")
            expectEqual(syntax.status, 0, "\(syntax.err)")
            let registered = try SystemPackages.shell("source '\(path)'; complete -p hkctl")
            expectEqual(registered.out.trimmingCharacters(in: .newlines), "complete -F _hkctl hkctl", "\(registered)")
            try expectEqual(bashComplete(path, "hkctl st"), ["stats"])
            try expectEqual(bashComplete(path, "hkctl ch").sorted(), ["changes", "chart"])
            try expectEqual(bashComplete(path, "hkctl --store /tmp/x cha"), ["changes", "chart"])
            try expectEqual(bashComplete(path, "hkctl stats --un"), ["--unit"])
            // --unit after a type: that type's units only (issue 22); before any type, every unit.
            let weight = try bashComplete(path, "hkctl list weight --unit ")
            #expect(Set(["kg", "lb", "st", "g", "lbs", "stone"]).isSubset(of: Set(weight)), "\(weight)")
            #expect(!weight.contains("mL") && !weight.contains("L") && !weight.contains("fl_oz_us"), "\(weight)")
            let water = try bashComplete(path, "hkctl stats water --week --unit ")
            #expect(water.contains("mL") && water.contains("fl_oz_us") && water.contains("oz") && !water.contains("kg"), "\(water)")
            try expectEqual(bashComplete(path, "hkctl --store /tmp/x chart HKQuantityTypeIdentifierBodyMass --unit "), weight)
            try expectEqual(bashComplete(path, "hkctl list stepCount --from 2024-05-01 --unit ").sorted(), ["count", "step", "steps"])
            try expectEqual(bashComplete(path, "hkctl list weight --unit l").sorted(), ["lb", "lbs"])
            #expect(try bashComplete(path, "hkctl list heart-rate --unit ").contains("bpm"))
            #expect(try bashComplete(path, "hkctl chart sleep --unit ").isEmpty, "sleep takes no unit")
            let units = try bashComplete(path, "hkctl stats --unit ")
            #expect(units.contains("kg") && units.contains("lb") && units.contains("mL"), "\(units)")
            try expectEqual(bashComplete(path, "hkctl chart wei"), ["weight"])
            try expectEqual(bashComplete(path, "hkctl chart steps --by w"), ["week"])
            try expectEqual(bashComplete(path, "hkctl chart steps --color ").sorted(), ["always", "auto", "never"])
            try expectEqual(bashComplete(path, "hkctl completions ").sorted(), ["bash", "fish", "zsh"])
            try expectEqual(bashComplete(path, "hkctl config s").sorted(), ["set"])
            try expectEqual(bashComplete(path, "hkctl help tod"), ["today"])
            try expectEqual(bashComplete(path, "hkctl list water --format ").sorted(), ["csv", "json", "table"])
            // A writing command offers -q beside --quiet; a reading command offers neither.
            #expect(try bashComplete(path, "hkctl add water 1L -").contains("-q"))
            try expectEqual(bashComplete(path, "hkctl delete --qu"), ["--quiet"])
            #expect(!(try bashComplete(path, "hkctl list water -")).contains("-q"))
            // Every command of the registry is offered.
            let commands = try bashComplete(path, "hkctl ")
            let help = try cli.run(["--help"]).stdout
            let listed = help.components(separatedBy: "SUBCOMMANDS:\n").last?.split(separator: "\n")
                .compactMap { line -> String? in
                    guard line.hasPrefix("  "), line.dropFirst(2).first?.isLowercase == true else { return nil }
                    return line.dropFirst(2).split(separator: " ").first.map(String.init)
                } ?? []
            #expect(!listed.isEmpty && Set(listed).isSubset(of: Set(commands)), "\(listed) vs \(commands)")
        }
    }

    /// A store where the owner and `José’s iPhone` saved steps, and the environment that makes the scripts' calls to
    /// the built hkctl (the first word of the command line) read it.
    private func withSources<T>(_ body: (CLIRunner, [String: String]) throws -> T) throws -> T {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["auth", "grant", "José’s iPhone", "--share", "steps", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "steps", "100", "--source", "José’s iPhone", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "steps", "200", "-q"]).status, 0)
            return try body(cli, ["HKCTL_STORE": cli.storePath, "TZ": "UTC", "HKCTL_NOW": "2024-06-01T12:00:00Z"])
        }
    }

    /// Issue 31: activities, zones, source names, config keys and goal types, and workouts, blood pressure and food
    /// where they work; what depends on earlier words or the store comes from hkctl itself at completion time.
    func bashCompletesWhatDependsOnEarlierWordsAndTheStore() throws {
        try withSources { cli, environment in
            let path = try script("bash", cli)
            let hkctl = CLIRunner.binaryURL.path
            func complete(_ line: String) throws -> [String] { try bashComplete(path, hkctl + " " + line, environment: environment) }
            let activities = try complete("add workout ")
            #expect(activities.contains("running") && activities.contains("run") && !activities.contains("water"), "\(activities)")
            try expectEqual(complete("add workout ru").sorted(), ["rugby", "run", "running"])
            try expectEqual(complete("stats workouts --activity cyc").sorted(), ["cycle", "cycling"])
            try expectEqual(complete("sources priority steps "), ["José’s iPhone", "hkctl"])
            try expectEqual(complete("sources priority steps hkctl "), ["José’s iPhone"])
            try expectEqual(complete("stats steps --only-source J"), ["José’s iPhone"])
            try expectEqual(complete("list water --tz rec"), ["recorded"])
            try expectEqual(complete("--tz Europe/Par"), ["Europe/Paris"])
            try expectEqual(complete("config set t"), ["tz"])
            try expectEqual(complete("config get s"), ["store"])
            try expectEqual(complete("config set tz "), ["recorded"])
            try expectEqual(complete("config set unit.weight l").sorted(), ["lb", "lbs"])
            let goals = try complete("goal ")
            #expect(goals.contains("water") && goals.contains("steps") && goals.contains("sleep") && !goals.contains("weight"), "\(goals)")
            // The catalogue has types starting alike (blood-alcohol, bloating, folate): the composites come with them.
            #expect(try complete("add blo").contains("blood-pressure"))
            try expectEqual(complete("add blood-p"), ["blood-pressure"])
            #expect(try complete("add fo").contains("food"))
            try expectEqual(complete("add foo"), ["food"])
            try expectEqual(complete("list work"), ["workouts"])
            try expectEqual(complete("stats blood-p"), ["blood-pressure"])
            #expect(!(try complete("stats fo")).contains("food"), "stats of food is refused")
            try expectEqual(complete("delete foo"), ["food"])
            // Without a store to read, nothing breaks: no names, and the static words still come.
            let none = try bashComplete(path, hkctl + " sources priority steps ", environment: ["HKCTL_STORE": cli.storePath + "-none"])
            #expect(!none.contains("hkctl") && none.contains("water"), "\(none)")
        }
    }

    @Test(.enabled(if: SystemPackages.zsh == nil, "zsh cannot be installed here, so the zsh script's syntax is not checked"))
    func zshScriptIsValid() throws {
        try CLIRunner.withTemporaryStore { cli in
            let path = try script("zsh", cli)
            let syntax = try SystemPackages.shell("zsh -n '\(path)'")
            expectEqual(syntax.status, 0, "\(syntax.err)")
            let loaded = try SystemPackages.shell("zsh -f -c 'autoload -U compinit && compinit -u -D && source \(path) && print ${_comps[hkctl]}'")
            expectEqual(loaded.out.trimmingCharacters(in: .whitespacesAndNewlines), "_hkctl", "\(loaded)")
            // The --unit branch of _hkctl, with compadd standing in for the completion system: what it would offer.
            func units(_ words: [String]) throws -> [String] {
                let array = words.map { "'\($0)'" }.joined(separator: " ")
                let script = "autoload -U compinit && compinit -u -D && source \(path) && compadd() { [[ $1 == -a ]] && print -rl -- ${(P)2} }; "
                    + "words=(\(array)); CURRENT=\(words.count); _hkctl"
                let result = try SystemPackages.shell("zsh -f -c \"\(script.replacingOccurrences(of: "$", with: "\\$"))\"")
                expectEqual(result.status, 0, "\(result.err)")
                return result.out.split(separator: "\n").map(String.init)
            }
            let weight = try units(["hkctl", "list", "weight", "--unit", ""])
            #expect(weight.contains("kg") && weight.contains("st") && !weight.contains("mL"), "\(weight)")
            let water = try units(["hkctl", "--store", "/tmp/x", "chart", "water", "--week", "--unit", ""])
            #expect(water.contains("mL") && !water.contains("kg"), "\(water)")
            let all = try units(["hkctl", "stats", "--unit", ""])
            #expect(all.contains("mL") && all.contains("kg"), "\(all)")
            // What hkctl answers at completion time (issue 31), the built binary as the command.
            let hkctl = CLIRunner.binaryURL.path
            #expect(try units([hkctl, "add", "workout", ""]).contains("running"))
            #expect(try units([hkctl, "--tz", ""]).contains("Europe/Paris"))
            try expectEqual(units([hkctl, "config", "set", "tz", ""]), ["recorded"])
        }
    }

    @Test(.enabled(if: SystemPackages.fish == nil, "fish cannot be installed here, so the fish script is not checked"))
    func fishScriptIsValidAndCompletes() throws {
        try CLIRunner.withTemporaryStore { cli in
            let path = try script("fish", cli)
            let syntax = try SystemPackages.shell("fish --no-execute '\(path)'")
            expectEqual(syntax.status, 0, "\(syntax.err)")
            func complete(_ line: String) throws -> [String] {
                let result = try SystemPackages.shell("HOME=$(mktemp -d) fish -N -c 'source \(path); complete -C \"\(line)\"'")
                return result.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
            }
            #expect(try complete("hkctl sta").contains("stats"))
            #expect(try complete("hkctl chart wei").contains("weight"))
            #expect(try complete("hkctl chart steps --co").contains("--color"))
            let weight = try complete("hkctl list weight --unit ")
            #expect(weight.contains("kg") && weight.contains("st") && !weight.contains("mL"), "\(weight)")
            let water = try complete("hkctl stats water --unit ")
            #expect(water.contains("mL") && !water.contains("kg"), "\(water)")
            let all = try complete("hkctl stats --unit ")
            #expect(all.contains("mL") && all.contains("kg"), "\(all)")
        }
    }

    /// Issue 31 in fish: hkctl's own answers (the built binary first on PATH) and the composite names.
    @Test(.enabled(if: SystemPackages.fish == nil, "fish cannot be installed here, so the fish script is not checked"))
    func fishCompletesWhatDependsOnEarlierWordsAndTheStore() throws {
        try withSources { cli, environment in
            let path = try script("fish", cli)
            var env = environment
            env["PATH"] = CLIRunner.binaryURL.deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin"
            func complete(_ line: String) throws -> [String] {
                let result = try SystemPackages.shell("HOME=$(mktemp -d) fish -N -c 'source \(path); complete -C \"\(line)\"'", environment: env)
                return result.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
            }
            let activities = try complete("hkctl add workout ")
            #expect(activities.contains("running") && !activities.contains("water"), "\(activities)")
            #expect(try complete("hkctl add fo").contains("food"))
            #expect(try complete("hkctl sources priority steps ").contains("José’s iPhone"))
            #expect(try complete("hkctl list water --tz Europe/Par").contains("Europe/Paris"))
            let goals = try complete("hkctl goal ")
            #expect(goals.contains("steps") && !goals.contains("weight"), "\(goals)")
        }
    }

    func manPageIsGeneratedFromTheHelpAndCommitted() throws {
        try CLIRunner.withTemporaryStore { cli in
            let man = try cli.run(["man"])
            expectEqual(man.status, 0)
            #expect(man.stdout == (try cli.run(["help", "--man"])).stdout)
            let committed = try String(contentsOf: Self.root.appendingPathComponent("docs/hkctl.1"), encoding: .utf8)
            expectEqual(man.stdout, committed, "docs/hkctl.1 is stale: run 'swift run hkctl man > docs/hkctl.1'")
            for command in ["add", "stats", "chart", "today", "goal", "completions"] {
                #expect(man.stdout.contains("\n.SS \(command)\n"), "no section for \(command)")
            }
            let groff = try SystemPackages.shell("command -v groff >/dev/null || exit 3; groff -man -Tutf8 -ww -z '\(Self.root.path)/docs/hkctl.1'")
            if groff.status != 3 {
                #expect(groff.status == 0 && groff.err.isEmpty, "groff warnings: \(groff.err)")
            }
        }
    }
}

/// The checks ``CompletionAndManTests/checks(_:)`` runs.
private let completionAndManTestsChecks: [Check<CompletionAndManTests>] = [
    Check("bashScriptLoadsAndCompletes", CompletionAndManTests.bashScriptLoadsAndCompletes),
    Check("bashCompletesWhatDependsOnEarlierWordsAndTheStore",
          CompletionAndManTests.bashCompletesWhatDependsOnEarlierWordsAndTheStore),
    Check("manPageIsGeneratedFromTheHelpAndCommitted", CompletionAndManTests.manPageIsGeneratedFromTheHelpAndCommitted),
]
