/// `-q, --quiet`, taken by every command that writes (the store, or a file it names), for scripts and cron: on success
/// nothing is printed on standard output and informational lines ("Deleted 3 samples.", import progress) are dropped
/// from standard error; errors, real warnings and confirmation questions still go to standard error, and the exit
/// status is unchanged. Read-only commands do not take it (their output is the point).
enum QuietOption {
    static let spec = OptionSpec(name: "quiet", valueName: nil,
                                 help: "Print nothing on success: no output, no progress or informational lines; errors and warnings still go to standard error.",
                                 short: "q")
}
