import HealthCore
import TextSupport

/// The characteristics part of an import's summary: for each characteristic of the export, the store's value, the
/// export's, and whether it was added, kept, replaced or unchanged (``CharacteristicsMerge``).
enum CharacteristicsReceiptText {
    /// A table of the characteristics, and a hint when the store kept values the export differs on.
    static func table(_ receipt: ImportReceipt, console: Console) {
        guard !receipt.characteristicResults.isEmpty else {
            // Another source's import does not write characteristics: only what the export holds is shown.
            guard !receipt.characteristics.isEmpty else { return }
            let pairs = receipt.characteristics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            console.line("Characteristics: " + pairs.joined(separator: ", "))
            return
        }
        var table = TableWriter(headers: ["CHARACTERISTIC", "STORE", "EXPORT", "RESULT"])
        for entry in receipt.characteristicResults {
            table.add([entry.key, entry.stored ?? "-", entry.imported, result(entry.outcome, dryRun: receipt.dryRun)])
        }
        for line in table.lines() { console.line(line) }
        let kept = receipt.characteristicResults.filter { $0.outcome == .kept }.map(\.key)
        if !kept.isEmpty {
            console.line((receipt.dryRun ? "The store's \(kept.joined(separator: ", ")) would be kept" : "Kept the store's \(kept.joined(separator: ", "))")
                         + "; import with --replace-characteristics to take the export's.")
        }
    }

    private static func result(_ outcome: CharacteristicsMerge.Outcome, dryRun: Bool) -> String {
        guard dryRun else { return outcome.rawValue }
        switch outcome {
        case .added: return "would be added"
        case .kept: return "would be kept"
        case .replaced: return "would be replaced"
        case .unchanged: return "unchanged"
        }
    }
}
