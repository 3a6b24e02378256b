import HealthCore

/// `hkctl changes [--type T ...] [--since ANCHOR] [--limit N]`: what was added and deleted since an anchor.
enum ChangesCommand: Command {
    static let name = "changes"
    static let showsSampleTimes = true
    static let abstract = "Print samples added and deleted since an anchor, and the anchor to use next time."
    static let usage = "changes [--type <type> ...] [--since <anchor>] [--limit <n>] [--format json|jsonl]"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = [
        OptionSpec(name: "type", valueName: "type", repeatable: true, help: "Only this type (repeatable; default: all)."),
        OptionSpec(name: "since", valueName: "anchor", help: "The anchor the last call printed (default: the beginning)."),
        OptionSpec(name: "limit", valueName: "n", help: "At most n changes (added plus deleted); call again with the new anchor for more."),
    ]
    static let formats = ["json", "jsonl"]
    static let discussion = """
        json prints {"added": [samples as in list], "deleted": [{"uuid","type","deletedAt"}], "anchor": "..."};
        jsonl prints one {"added": sample} or {"deleted": tombstone} per line, then {"anchor": "..."}.
        Every change gets a number when it is written, so a sample saved while this runs comes now or next
        time, never twice. Anchors survive restarts and compaction: the anchor printed is always accepted
        by the next call, unless another 'hkctl compact' drops deletions in between (exit 65: start over).
        --limit n holds at most n changes in memory, whatever the store's size.

        EXAMPLE (a sync loop):
          since=$(cat anchor 2>/dev/null)
          hkctl changes ${since:+--since "$since"} --format jsonl > batch
          tail -n 1 batch | jq -r .anchor > anchor
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        let types = try arguments.values["type"].map { try $0.map { try context.type($0).identifier } }
        let anchor = try arguments.value("since").map { try ChangeAnchor(parsing: $0) } ?? .beginning
        var limit: Int?
        if let text = arguments.value("limit") {
            guard let value = Int(text), value > 0 else {
                throw UsageError(message: "The value '\(text)' is invalid for '--limit <n>'; give a whole number above 0", command: name)
            }
            limit = value
        }
        let store = try context.healthStore()
        let changes = try store.changes(since: anchor, types: types, limit: limit)
        try ChangeOutput.print(changes, store: store, context: context, lines: context.globals.formatName == "jsonl")
    }
}
