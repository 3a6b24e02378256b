import HealthCore

/// The last column of a table of samples, `METADATA` (`note=after the run; mood=good`, ``MetadataText/table(_:)``):
/// present only when at least one listed sample has metadata a table shows.
struct MetadataColumn {
    /// Whether the table has the column.
    let shown: Bool

    /// The column for a table listing samples with these metadata.
    init(_ metadata: [[String: MetadataValue]]) {
        shown = metadata.contains(where: MetadataText.hasShownEntries)
    }

    /// `headers`, with `METADATA` when the column is shown.
    func headers(_ headers: [String]) -> [String] { shown ? headers + ["METADATA"] : headers }

    /// `cells`, with the metadata's cell when the column is shown.
    func row(_ cells: [String], _ metadata: [String: MetadataValue]) -> [String] {
        shown ? cells + [MetadataText.table(metadata)] : cells
    }
}
