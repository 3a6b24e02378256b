/// `hkctl man`: prints the manual page hkctl(1) in roff, generated from the help text (as `hkctl help --man`).
enum ManCommand: Command {
    static let name = "man"
    static let abstract = "Print the manual page hkctl(1) in roff."
    static let usage = "man"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = []
    static let formats = ["table"]
    static let discussion = """
        The page is generated from the same text as 'hkctl help'; docs/hkctl.1 in the
        repository is its output.

        Examples:
          hkctl man > hkctl.1 && man -l hkctl.1
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        context.console.line(ManPage.render(commands: HKCtl.commands, version: HKCtl.version).dropLastNewline())
    }
}
