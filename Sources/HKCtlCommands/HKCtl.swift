#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// The whole command line as one function: (arguments, environment, clock, console) → exit status.
enum HKCtl {
    static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        AddCommand.self, ListCommand.self, StatsCommand.self, TrendCommand.self, SourcesCommand.self, TypesCommand.self, ImportCommand.self, ExportCommand.self,
        DeleteCommand.self, EditCommand.self, UndoCommand.self, ChangesCommand.self, WatchCommand.self, CompactCommand.self, DoctorCommand.self, AuthCommand.self,
        MeCommand.self, ConfigCommand.self, UnitsCommand.self,
        ServeCommand.self,
        TodayCommand.self, ChartCommand.self, GoalCommand.self, CompletionsCommand.self, ManCommand.self,
    ]

    /// Runs one invocation. It never exits the process; it returns the exit status.
    ///
    /// The environment is read only by a command that runs (`--version` and help never build it).
    static func run(arguments: [String], environment: () -> [String: String], clock: Date, console: Console) -> Int32 {
        var commandIndex: Int?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { break }
            if ArgumentParser.looksLikeOption(argument) {
                if argument == "--version" && commandIndex == nil {
                    console.line("hkctl \(version)")
                    return ExitStatus.ok.rawValue
                }
                if argument == "-h" || argument == "--help" { index += 1; continue }
                let name = String(argument.dropFirst(2).prefix { $0 != "=" })
                guard let spec = GlobalOptions.specs.first(where: { $0.name == name }) else {
                    let hasCommand = arguments.contains { word in commands.contains { $0.name == word } || word == "help" }
                    if !hasCommand {
                        // No subcommand at all: the options are the dashboard's (`hkctl --color never`).
                        if TodayCommand.options.contains(where: { $0.name == name }) {
                            return run(arguments: [TodayCommand.name] + arguments, environment: environment, clock: clock,
                                       console: console)
                        }
                        let hint = ["-v", "-V", "--v", "-version"].contains(argument) ? "; did you mean '--version'?"
                            : "; see 'hkctl --help' for the options and subcommands"
                        return fail(UsageError(message: "Unknown option '\(argument)'" + hint, command: nil), console: console)
                    }
                    return fail(UsageError(message: "Unknown option '\(argument)' before the subcommand; a subcommand's own options go after it", command: nil), console: console)
                }
                if spec.valueName != nil && !argument.contains("=") { index += 1 }
                index += 1
                continue
            }
            commandIndex = index
            break
        }
        guard let commandIndex else {
            let rest = arguments.filter { $0 != "-h" && $0 != "--help" }
            if rest.count < arguments.count {
                console.line(HelpText.root(commands: commands, version: version).dropLastNewline())
                return ExitStatus.ok.rawValue
            }
            if arguments.contains("--") { return fail(UsageError(message: "Missing subcommand", command: nil), console: console) }
            // No subcommand: today's dashboard, with any global options given.
            return run(arguments: arguments + [TodayCommand.name], environment: environment, clock: clock, console: console)
        }
        let name = arguments[commandIndex]
        var rest = arguments
        rest.remove(at: commandIndex)
        if name == "help" {
            if rest.contains("--man") {
                console.line(ManPage.render(commands: commands, version: version).dropLastNewline())
                return ExitStatus.ok.rawValue
            }
            let topic = rest.first { !ArgumentParser.looksLikeOption($0) }
            guard let topic else {
                console.line(HelpText.root(commands: commands, version: version).dropLastNewline())
                return ExitStatus.ok.rawValue
            }
            if let page = ["periods": HelpTopics.periods, "period": HelpTopics.periods, "help": HelpTopics.help][topic] {
                console.line(HelpText.reflow(page))
                return ExitStatus.ok.rawValue
            }
            guard let command = commands.first(where: { $0.name == topic }) else {
                return fail(unknownCommand(topic), console: console)
            }
            console.line(HelpText.page(for: command).dropLastNewline())
            return ExitStatus.ok.rawValue
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            return fail(unknownCommand(name), console: console)
        }
        do {
            let parsed = try ArgumentParser.parse(rest, options: command.options + GlobalOptions.specs, command: name)
            if parsed.wantsHelp {
                console.line(HelpText.page(for: command).dropLastNewline())
                return ExitStatus.ok.rawValue
            }
            console.quiet = parsed.flags.contains(QuietOption.spec.name)
            let environment = environment()
            let globals = try GlobalOptions.resolve(parsed, environment: environment, clock: clock, command: name,
                                                    formats: command.formats)
            var context = CommandContext(globals: globals, console: console, catalogue: .standard, environment: environment)
            // The store's `tz` setting is read only where times are printed (not for `add -q` in a cron line).
            if command.showsSampleTimes && !console.quiet { context = context.applyingZoneSetting() }
            try command.run(parsed, context: context)
            return finishOutput(console)
        } catch {
            return fail(error, console: console)
        }
    }

    /// Writes what the console still holds; exit 74 when standard output could not be written (the output is
    /// incomplete), 0 when it was written or its reader went away (`hkctl list | head -1`).
    static func finishOutput(_ console: Console) -> Int32 {
        console.flush()
        guard case let .failed(error) = console.outputFailure else { return ExitStatus.ok.rawValue }
        console.error("Error: Cannot write to standard output: \(String(cString: strerror(error))); the output is incomplete "
            + "(the command itself finished: anything it saved is saved); free some space or write elsewhere.")
        return ExitStatus.ioError.rawValue
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        var message = "Unknown subcommand '\(name)'"
        if let suggestion = ArgumentParser.closest(name, among: commands.map { $0.name }) {
            message += "; did you mean '\(suggestion)'?"
        }
        return UsageError(message: message, command: nil)
    }

    /// Prints an error the one way hkctl prints errors, and returns its exit status.
    static func fail(_ error: Error, console: Console) -> Int32 {
        let status = ExitStatus.of(error)
        if let usage = error as? UsageError {
            // One line, as every error: what was wrong, then where the usage is.
            let ending = usage.message.last.map { ".?!".contains($0) } ?? false
            let help = usage.command.flatMap { name in commands.first(where: { $0.name == name }).map { _ in "hkctl \(name) --help" } }
                ?? "hkctl --help"
            console.error("Error: " + ErrorLine.clean("\(usage.message)\(ending ? "" : ".")") + " See '\(help)' for its usage.")
        } else {
            console.error("Error: " + ErrorLine.clean(CLIErrorWording.message(for: error)))
        }
        return status.rawValue
    }
}

extension String {
    func dropLastNewline() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}

/// The process around ``HKCtl/run(arguments:environment:clock:console:)``: signals, the real console, the real
/// environment and clock, and the exit. The `hkctl` executable's whole `main.swift` is a call to ``main()``.
package enum ProcessEntry {
    /// Runs hkctl with the process's arguments and exits with its status.
    package static func main() -> Never {
        // A write past the file-size limit (`ulimit -f`) is an error the store takes back (exit 74), not a signal
        // that kills hkctl with a line half written.
        signal(SIGXFSZ, SIG_IGN)
        // A reader that goes away (`hkctl list | head -1`) makes writes fail with EPIPE, which ends the output
        // quietly, instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        let console = Console(
            writeOut: { bytes in writeAll(1, bytes) },
            writeErr: { text in _ = writeAll(2, Array(text.utf8)) },
            inputIsTerminal: isatty(0) != 0)
        let status = HKCtl.run(arguments: Array(CommandLine.arguments.dropFirst()),
                               environment: processEnvironment, clock: Date(), console: console)
        exit(status == ExitStatus.ok.rawValue ? HKCtl.finishOutput(console) : status)
    }

    /// The variables of the process's environment that hkctl reads (``EnvironmentNames``), each looked up with
    /// `getenv` (the first definition of a name, as before).
    private static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in EnvironmentNames.all {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// Writes all of `bytes` to `fd`, again after an interruption; returns 0, or the errno of a failed write.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return 0
    }
}
