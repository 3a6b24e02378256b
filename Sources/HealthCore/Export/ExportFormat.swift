/// The formats ``SampleExporter`` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// hkctl's own lossless format: one store line per sample (UUIDs, sources, devices and metadata kept).
    /// `hkctl import` reads it back.
    case jsonl
    /// Spreadsheet columns: type, start, end, value, unit, source, device, uuid, metadata (as JSON).
    case csv
    /// The jsonl objects as one JSON array; `hkctl import` reads it back too.
    case json
    /// XML shaped like the Health app's `export.xml`, which `hkctl import` (and tools made for Apple's exports)
    /// can read.
    case healthxml
}
