/// `hkctl completions bash|zsh|fish`: prints a shell completion script generated from the command registry.
enum CompletionsCommand: Command {
    static let name = "completions"
    static let abstract = "Print a shell completion script for bash, zsh or fish."
    static let usage = "completions (bash | zsh | fish)"
    static let arguments: [(label: String, help: String)] = [("<shell>", "bash, zsh or fish.")]
    static let options: [OptionSpec] = []
    static let formats = ["table"]
    static let discussion = """
        The script completes commands, options, option values (formats, periods,
        units, type names, activities, files), type names and the words for
        workouts, blood pressure and food where a command takes them. What
        depends on earlier words or on the store (activities after 'add workout',
        source names after 'sources priority TYPE' and for --only-source, config
        keys and values, zone names for --tz) it asks hkctl for as you press Tab:
        'hkctl completions candidates -- WORDS' prints them, one a line.

        Examples:
          source <(hkctl completions bash)             # in ~/.bashrc
          hkctl completions zsh > ~/.zfunc/_hkctl      # a folder in $fpath
          hkctl completions fish > ~/.config/fish/completions/hkctl.fish
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let shell = arguments.positionals.first else {
            throw UsageError(message: "Missing expected argument '<shell>'; use bash, zsh or fish", command: name)
        }
        if shell == "candidates" {
            // What the scripts ask at completion time: one candidate a line for the word after the ones given.
            let words = Array(arguments.positionals.dropFirst())
            for word in CompletionCandidates.candidates(after: words, commands: HKCtl.commands, context: context) {
                context.console.line(word)
            }
            return
        }
        if arguments.positionals.count > 1 {
            throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])'", command: name)
        }
        guard let script = CompletionScript.render(shell: shell, commands: HKCtl.commands, catalogue: context.catalogue) else {
            throw UsageError(message: "Unknown shell '\(shell)'; use bash, zsh or fish", command: name)
        }
        context.console.line(script.dropLastNewline())
    }
}
