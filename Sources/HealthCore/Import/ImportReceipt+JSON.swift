import TextSupport

extension ImportReceipt {
    /// The receipt as one JSON object, for a program's machine-readable output and for a server's answer to a push:
    /// `{"input", "dryRun", "complete", "totals", "types": {TYPE: counts}, "problemCount", "problems": [{"line",
    /// "type", "reason"}], "skippedElements", "skippedAttributes", "characteristics", "characteristicResults", "supersededHealthAutoExport"}` plus
    /// `archiveMember`, `exportDate` and `locale` when known, `unreadFiles` when a folder import read none of its files, and `missingRouteFileCount` and `missingRouteFiles` (the first few paths) when workouts' route files could not be read. Counts are `{"added", "alreadyPresent",
    /// "keptGenerically", "rejected", "replaced", "covered", "sentAgain"}` (``Counts``). Keys are sorted, so equal receipts give
    /// equal text.
    public var json: String {
        func counts(_ counts: Counts) -> String {
            "{\"added\":\(counts.added),\"alreadyPresent\":\(counts.alreadyPresent),"
                + "\"keptGenerically\":\(counts.keptGenerically),\"rejected\":\(counts.rejected),"
                + "\"replaced\":\(counts.replaced),\"covered\":\(counts.covered),\"sentAgain\":\(counts.sentAgain)}"
        }
        func object(_ entries: [String: String]) -> String {
            "{" + entries.sorted { $0.key < $1.key }.map { JSONText.quoted($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
        }
        let characteristicResults = "[" + self.characteristicResults.map { entry in
            "{\"key\":\(JSONText.quoted(entry.key)),\"store\":\(entry.stored.map(JSONText.quoted) ?? "null"),"
                + "\"export\":\(JSONText.quoted(entry.imported)),\"result\":\"\(entry.outcome.rawValue)\"}"
        }.joined(separator: ",") + "]"
        var fields: [String: String] = [
            "input": JSONText.quoted(inputKind.rawValue),
            "dryRun": dryRun ? "true" : "false",
            "complete": complete ? "true" : "false",
            "totals": counts(totals),
            "types": object(self.counts.mapValues(counts)),
            "problemCount": String(problemCount),
            "problems": "[" + problems.map { problem in
                "{\"line\":\(problem.line),\"type\":\(problem.type.map(JSONText.quoted) ?? "null"),\"reason\":\(JSONText.quoted(problem.reason))}"
            }.joined(separator: ",") + "]",
            "skippedElements": object(skippedElements.mapValues { String($0) }),
            "skippedAttributes": object(skippedAttributes.mapValues { String($0) }),
            "characteristics": object(characteristics.mapValues(JSONText.quoted)),
            "characteristicResults": characteristicResults,
            "supersededHealthAutoExport": String(supersededHealthAutoExport),
        ]
        if unreadFiles > 0 { fields["unreadFiles"] = String(unreadFiles) }
        if missingRouteFileCount > 0 {
            fields["missingRouteFileCount"] = String(missingRouteFileCount)
            fields["missingRouteFiles"] = "[" + missingRouteFiles.map(JSONText.quoted).joined(separator: ",") + "]"
        }
        if let archiveMember { fields["archiveMember"] = JSONText.quoted(archiveMember) }
        if let exportDate { fields["exportDate"] = JSONText.quoted(ISODate.format(exportDate, in: .gmt)) }
        if let locale { fields["locale"] = JSONText.quoted(locale) }
        return object(fields)
    }
}
