/// A command line that does not follow a command's usage; printed with the usage line, exit 64.
struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, as one sentence.
    let message: String
    /// The command whose usage to show (`add`), or nil for the root.
    let command: String?

    var description: String { message }
}
