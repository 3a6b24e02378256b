import HealthCore
import TextSupport

/// `hkctl auth request|grant|deny|revoke|status|log`: which sources may write and read which types.
enum AuthCommand: Command {
    static let name = "auth"
    static let abstract = "Let other sources (scripts, apps) write and read types, as HealthKit asks for apps."
    static let usage = "auth (request --source <s> | request-status --source <s> | grant <s> | deny <s>) [--share <types>] [--read <types>] | auth revoke <s> [<types>] | auth status [<s>] | auth log"
    static let arguments: [(label: String, help: String)] = [
        ("<s>", "A source name, as given to --source or $HKCTL_SOURCE."),
        ("<types>", "Comma-separated types: water,steps."),
    ]
    static let options: [OptionSpec] = [
        OptionSpec(name: "share", valueName: "types", help: "Types to write (comma-separated)."),
        OptionSpec(name: "read", valueName: "types", help: "Types to read (comma-separated)."),
        OptionSpec(name: "bundle-id", valueName: "id", help: "With request: the source's bundle-like identifier (com.example.scale)."),
        OptionSpec(name: "source-version", valueName: "version", help: "With request: the source's version, stored with its samples."),
        OptionSpec(name: "device", valueName: "text", help: "With request: the device it reads from, stored with its samples."),
        QuietOption.spec,
    ]
    static let discussion = """
        The owner (the default source 'hkctl') may do everything. Any other source must be allowed per type:
        'request' records what a source wants (on a terminal the owner answers each type at once; elsewhere
        it exits 77 and the owner answers later with grant or deny). Writing without permission fails with
        exit 77: 'not determined' if nobody decided, 'denied' if the owner said no. Reading without
        permission is not an error: the source sees only the samples it wrote, as in HealthKit.
        Characteristics (date-of-birth, biological-sex, blood-type, skin-type) can be allowed for --read
        only; until then a source reads them as not set.

        EXAMPLE:
          HKCTL_SOURCE=scale-sync hkctl auth request --share weight --read weight   # exits 77: pending
          hkctl auth grant scale-sync --share weight --read weight                  # the owner says yes
          HKCTL_SOURCE=scale-sync hkctl add weight 72.4kg                           # now allowed
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = arguments.positionals
        guard let action = words.first else {
            throw UsageError(message: "Missing expected argument: request, grant, deny, revoke, status or log", command: name)
        }
        // The owner's view of the decisions: the terminal is the owner's, so the command reads (and, asked at a
        // terminal, answers) as the owner; a source only ever asks.
        let owner = try HealthStore(storage: context.store(), source: AuthorizationState.ownerSource, catalogue: context.catalogue)
        let share = try sampleTypes(arguments.value("share"), context: context)
        let read = try types(arguments.value("read"), readable: true, context: context)
        switch action {
        case "request-status":
            guard words.count == 1 else { throw UsageError(message: "Unexpected argument '\(words[1])'", command: name) }
            guard !share.isEmpty || !read.isEmpty else { throw AuthorizationError.emptyRequest }
            let status = try context.healthStore().statusForAuthorizationRequest(toShare: Set(share), read: Set(read))
            context.console.line(context.globals.format == .json
                ? "{\"requestStatus\":\"\(status.name)\",\"rawValue\":\(status.rawValue)}" : status.name)
        case "request":
            guard words.count == 1 else { throw UsageError(message: "Unexpected argument '\(words[1])'", command: name) }
            let source = context.globals.source
            let identity = AuthorizationState.Identity(bundleIdentifier: arguments.value("bundle-id"),
                                                       version: arguments.value("source-version"),
                                                       device: arguments.value("device"))
            let asking = try context.healthStore()
            let status = try asking.statusForAuthorizationRequest(toShare: Set(share), read: Set(read))
            try asking.requestAuthorization(toShare: Set(share), read: Set(read), identity: identity)
            if status == .unnecessary {
                try showStatus(try owner.authorizationDecisions(), source: source, revealRead: false, context: context)
                return
            }
            guard context.console.inputIsTerminal else {
                throw AuthorizationError.pendingApproval(source: source, share: share.map(\.name), read: read.map(\.name))
            }
            // The owner is at the terminal: ask type by type.
            var allowShare: [SampleType] = [], denyShare: [SampleType] = []
            var allowRead: [ObjectType] = [], denyRead: [ObjectType] = []
            for type in share {
                if ask("Allow '\(source)' to write \(type.name)? [y/N] ", context) { allowShare.append(type) } else { denyShare.append(type) }
            }
            for type in read {
                if ask("Allow '\(source)' to read \(type.name)? [y/N] ", context) { allowRead.append(type) } else { denyRead.append(type) }
            }
            if !allowShare.isEmpty || !allowRead.isEmpty {
                try owner.decideAuthorization(for: source, allow: true, share: Set(allowShare), read: Set(allowRead))
            }
            if !denyShare.isEmpty || !denyRead.isEmpty {
                try owner.decideAuthorization(for: source, allow: false, share: Set(denyShare), read: Set(denyRead))
            }
            try showStatus(try owner.authorizationDecisions(), source: source, revealRead: true, context: context)
        case "grant", "deny":
            try context.requireOwner(to: "change permissions")
            let source = try target(words, context: context)
            try owner.decideAuthorization(for: source, allow: action == "grant", share: Set(share), read: Set(read))
            try showStatus(try owner.authorizationDecisions(), source: source, revealRead: true, context: context)
        case "revoke":
            try context.requireOwner(to: "change permissions")
            guard words.count >= 2 else { throw UsageError(message: "Missing expected argument '<s>'", command: name) }
            let source = words[1]
            guard source != AuthorizationState.ownerSource else {
                throw UsageError(message: "The owner source 'hkctl' is always allowed", command: name)
            }
            let chosen = words.count > 2 ? try types(words[2...].joined(separator: ","), context: context) : nil
            let before = try owner.authorizationDecisions()
            try owner.revokeAuthorization(for: source, types: chosen.map { Set($0) })
            let after = try owner.authorizationDecisions()
            // A table of nothing would read as if nothing had been there: say what the revoke did instead.
            if context.globals.format == .table, Self.typesDecided(for: source, in: after).isEmpty {
                let had = Self.typesDecided(for: source, in: before).count
                context.console.note(had == 0 ? "'\(source)' had no permissions to revoke."
                                     : "Revoked \(had == 1 ? "the permission" : "all \(had) permissions") of '\(source)'; it has none left.")
                return
            }
            try showStatus(after, source: source, revealRead: true, context: context)
        case "status":
            let state = try owner.authorizationDecisions()
            if words.count > 1 {
                try context.requireOwner(to: "see another source's permissions")
                try showStatus(state, source: words[1], revealRead: true, context: context)
            } else if context.globals.source != AuthorizationState.ownerSource {
                try showStatus(state, source: context.globals.source, revealRead: false, context: context)
            } else {
                try showStatus(state, source: nil, revealRead: true, context: context)
            }
        case "log":
            try context.requireOwner(to: "read the permissions log")
            let state = try owner.authorizationDecisions()
            let zone = context.globals.time.timeZone
            for event in state.log {
                if context.globals.format == .json {
                    context.console.line("{\"at\":\"\(ISODate.format(event.at, in: zone))\",\"actor\":\(JSONText.quoted(event.actor)),\"source\":\(JSONText.quoted(event.source)),\"action\":\"\(event.action)\",\"share\":[\(event.share.map(JSONText.quoted).joined(separator: ","))],\"read\":[\(event.read.map(JSONText.quoted).joined(separator: ","))]}")
                } else {
                    context.console.line("\(ISODate.format(event.at, in: zone))  \(event.actor) \(event.action) \(event.source)  share: \(event.share.joined(separator: ",")) read: \(event.read.joined(separator: ","))")
                }
            }
        default:
            throw UsageError(message: "Unknown action '\(action)'; use request, request-status, grant, deny, revoke, status or log", command: name)
        }
    }

    private static func target(_ words: [String], context: CommandContext) throws -> String {
        guard words.count == 2 else {
            throw UsageError(message: words.count < 2 ? "Missing expected argument '<s>'" : "Unexpected argument '\(words[2])'", command: name)
        }
        guard words[1] != AuthorizationState.ownerSource else {
            throw UsageError(message: "The owner source 'hkctl' is always allowed", command: name)
        }
        if let problem = TextRules.sourceNameProblem(words[1]) {
            throw UsageError(message: "The value '\(TextRules.shown(words[1]))' is invalid for '<s>': \(problem)", command: name)
        }
        return words[1]
    }

    /// The types named in `text`; characteristics (`blood-type`, `date-of-birth`, ...) only where they are `readable`.
    private static func types(_ text: String?, readable: Bool = false, context: CommandContext) throws -> [ObjectType] {
        guard let text else { return [] }
        var result: [ObjectType] = []
        for name in text.split(separator: ",").map({ $0.trimmingSpaces() }) where !name.isEmpty {
            if let characteristic = SampleType.characteristicType(named: name) {
                guard readable else { throw AuthorizationError.cannotShare(characteristic.name) }
                result.append(characteristic)
                continue
            }
            if let correlation = CorrelationType.named(name) { throw CompositeNames.correlationPermission(correlation, command: self.name) }
            result.append(try context.type(name))
        }
        return result
    }

    /// The sample types named in `text`: a characteristic is refused, as it cannot be written.
    private static func sampleTypes(_ text: String?, context: CommandContext) throws -> [SampleType] {
        try types(text, context: context).compactMap { $0 as? SampleType }
    }

    private static func ask(_ question: String, _ context: CommandContext) -> Bool {
        context.console.error(question)
        let answer = readLine()?.trimmingSpaces().lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }

    /// The types `source` has a decision or a pending request for.
    private static func typesDecided(for source: String, in state: AuthorizationState) -> Set<String> {
        let permissions = state.sources[source] ?? AuthorizationState.Permissions()
        return Set(permissions.share.keys).union(permissions.read.keys).union(permissions.requested)
    }

    /// Prints share status (HealthKit's names and raw values) and, for the owner, read decisions.
    private static func showStatus(_ state: AuthorizationState, source: String?, revealRead: Bool, context: CommandContext) throws {
        let names = source.map { [$0] } ?? state.sources.keys.sorted()
        var rows: [(source: String, type: String, share: AuthorizationStatus, read: Bool?)] = []
        for name in names {
            let permissions = state.sources[name] ?? AuthorizationState.Permissions()
            for identifier in Set(permissions.share.keys).union(permissions.read.keys).union(permissions.requested).sorted() {
                rows.append((name, identifier, state.shareStatus(source: name, type: identifier),
                             revealRead ? permissions.read[identifier] : nil))
            }
        }
        let typeName = { (identifier: String) in
            (context.catalogue.type(identifier: identifier) ?? SampleType.characteristicType(named: identifier))?.name ?? identifier
        }
        switch context.globals.format {
        case .json:
            let objects = rows.map { row in
                "{\"source\":\(JSONText.quoted(row.source)),\"type\":\(JSONText.quoted(row.type)),\"share\":\"\(row.share.name)\",\"shareRawValue\":\(row.share.rawValue)"
                    + (revealRead ? ",\"read\":\(row.read.map { $0 ? "true" : "false" } ?? "null")" : "") + "}"
            }
            context.console.line("[" + objects.joined(separator: ",") + "]")
        case .csv:
            context.console.line(revealRead ? "source,type,share,read" : "source,type,share")
            for row in rows {
                context.console.line(CSV.row([row.source, row.type, row.share.name] + (revealRead ? [row.read.map { $0 ? "granted" : "denied" } ?? ""] : [])))
            }
        case .table:
            var table = TableWriter(headers: revealRead ? ["SOURCE", "TYPE", "SHARE", "READ"] : ["SOURCE", "TYPE", "SHARE"])
            for row in rows {
                table.add([row.source, typeName(row.type), row.share.name] + (revealRead ? [row.read.map { $0 ? "granted" : "denied" } ?? "-"] : []))
            }
            if rows.isEmpty { context.console.note("No permissions recorded\(source.map { " for '\($0)'" } ?? "").") } else {
                for line in table.lines() { context.console.line(line) }
            }
        }
    }
}
