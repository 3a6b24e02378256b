/// The formats ``SampleExporter`` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// The store's own lossless format: one store line per sample (UUIDs, sources, devices and metadata kept).
    /// ``HealthImporter`` reads it back.
    case jsonl
    /// Spreadsheet columns: type, start, end, value, unit, source, device, uuid, metadata (as JSON).
    case csv
    /// The jsonl objects as one JSON array; ``HealthImporter`` reads it back too.
    case json
    /// XML shaped like the Health app's `export.xml`, which ``HealthImporter`` (and tools made for Apple's exports)
    /// can read.
    case healthxml
}
