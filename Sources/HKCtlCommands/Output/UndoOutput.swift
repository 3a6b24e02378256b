import HealthCore
import TextSupport

/// How `hkctl undo` shows what it will undo, and what it undid: a sentence for people, one object for scripts.
struct UndoOutput {
    let context: CommandContext

    /// `Undo import of 12,345 samples (2024-06-01 05:40): deletes them`.
    func sentence(_ plan: UndoPlan) -> String {
        if plan.kind == .replace { return replaceSentence(plan) }
        var text = "Undo \(plan.kind.rawValue) of \(count(plan.recorded, plan.types)) (\(Display.time(plan.date, in: context.globals.time.timeZone))): "
        let them = plan.recorded == 1 ? "it" : "them"
        if plan.kind == .delete {
            var parts = [plan.total == plan.recorded ? "restores \(them) as new samples (new uuids)"
                : plan.total == 0 ? "nothing is left to restore" : "restores \(number(plan.total)) as new samples (new uuids)"]
            if plan.alreadyPresent > 0 { parts.append("\(number(plan.alreadyPresent)) \(are(plan.alreadyPresent)) back already") }
            if plan.compactedAway > 0 {
                parts.append("\(number(plan.compactedAway)) \(are(plan.compactedAway, "was", "were")) removed from disk by "
                    + "'hkctl compact' and cannot be restored")
            }
            if plan.undoneSince > 0 { parts.append(undoneSince(plan)) }
            if !plan.rewritten.isEmpty { parts.append(rewritten(plan)) }
            text += parts.joined(separator: "; ")
        } else {
            text += plan.total == plan.recorded ? "deletes \(them)"
                : plan.total == 0 ? "nothing is left to delete" : "deletes the \(number(plan.total)) still there"
            if plan.alreadyDeleted > 0 {
                text += "; \(number(plan.alreadyDeleted)) \(are(plan.alreadyDeleted, "was", "were")) deleted since"
            }
        }
        return text
    }

    /// `Undo replace (2024-06-01 12:00): deletes 1 weight sample it saved and restores 1 it replaced ...`.
    private func replaceSentence(_ plan: UndoPlan) -> String {
        // A replace records its tombstones and its new samples: say what each side does.
        let deleted = plan.total - plan.restored
        var text = "Undo replace (\(Display.time(plan.date, in: context.globals.time.timeZone))): deletes "
            + "\(count(deleted, plan.types)) it saved and restores \(number(plan.restored)) it replaced as new samples (new uuids)"
        if plan.alreadyDeleted > 0 { text += "; \(number(plan.alreadyDeleted)) \(are(plan.alreadyDeleted, "was", "were")) deleted since" }
        if plan.compactedAway > 0 {
            text += "; \(number(plan.compactedAway)) \(are(plan.compactedAway, "was", "were")) removed from disk by 'hkctl compact'"
        }
        if plan.undoneSince > 0 { text += "; " + undoneSince(plan) }
        if plan.replacedWithin > 0 {
            text += "; \(number(plan.replacedWithin)) it saved and took out again \(are(plan.replacedWithin, "stays", "stay")) out"
        }
        if !plan.rewritten.isEmpty { text += "; " + rewritten(plan) }
        return text
    }

    /// `rewrites 1 workout entry that names a restored sample to name its copy`.
    private func rewritten(_ plan: UndoPlan) -> String {
        let total = plan.rewritten.values.reduce(0, +)
        let names = plan.rewritten.keys.sorted().map { identifier in
            identifier == Workout.typeIdentifier ? "workout" : CorrelationType.identified(identifier)?.name ?? identifier
        }
        return "rewrites \(number(total)) \(names.joined(separator: " or ")) \(total == 1 ? "entry that names" : "entries that name") "
            + "a restored sample to name its copy"
    }

    /// `1 stays deleted: the add or import that saved it was undone`.
    private func undoneSince(_ plan: UndoPlan) -> String {
        "\(number(plan.undoneSince)) \(are(plan.undoneSince, "stays", "stay")) deleted: the add or import that saved "
            + "\(plan.undoneSince == 1 ? "it" : "them") was undone"
    }

    /// `Undone: deleted 12,345 samples.`
    func outcome(_ plan: UndoPlan) -> String {
        if plan.kind == .replace {
            return "Undone: deleted \(number(plan.total - plan.restored)) and restored \(number(plan.restored)) "
                + "(the replace is marked undone)."
        }
        let verb = plan.kind == .delete ? "restored" : "deleted"
        return "Undone: \(verb) \(count(plan.total, Array(plan.changes.keys))) (the \(plan.kind.rawValue) is marked undone)."
    }

    /// The plan as one JSON object; `done` says whether it was carried out.
    func json(_ plan: UndoPlan, done: Bool) -> String {
        let changes = plan.changes.sorted { $0.key < $1.key }.map { "\(JSONText.quoted($0.key)):\($0.value)" }
        return "{\"undo\":\"\(plan.kind.rawValue)\",\"operation\":\(plan.operation),\"source\":\(JSONText.quoted(plan.source)),"
            + "\"date\":\"\(ISODate.format(plan.date, in: context.globals.time.timeZone))\",\"recorded\":\(plan.recorded),"
            + "\"action\":\"\(plan.kind == .delete ? "restore" : plan.kind == .replace ? "replace" : "delete")\",\"count\":\(plan.total),"
            + "\"types\":{\(changes.joined(separator: ","))},\"alreadyDeleted\":\(plan.alreadyDeleted),"
            + "\"alreadyPresent\":\(plan.alreadyPresent),\"compactedAway\":\(plan.compactedAway),\"undoneSince\":\(plan.undoneSince),\"replacedWithin\":\(plan.replacedWithin),\"restored\":\(plan.restored),"
            + "\"rewritten\":{\(plan.rewritten.sorted { $0.key < $1.key }.map { "\(JSONText.quoted($0.key)):\($0.value)" }.joined(separator: ","))},\"done\":\(done)}"
    }

    /// `3 water samples`, `12,345 samples`, `1 sample`.
    private func count(_ value: Int, _ types: [String]) -> String {
        let name = types.count == 1 ? (context.catalogue.type(identifier: types[0])?.name).map { $0 + " " } ?? "" : ""
        return "\(number(value)) \(name)sample\(value == 1 ? "" : "s")"
    }

    private func number(_ value: Int) -> String { NumberFormatting.human(Double(value), fractionDigits: 0) }

    private func are(_ value: Int, _ singular: String = "is", _ plural: String = "are") -> String { value == 1 ? singular : plural }
}
