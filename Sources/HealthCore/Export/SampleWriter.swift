import TextSupport

/// Writes samples in one export format.
protocol SampleWriter {
    /// Writes what comes before the first sample.
    mutating func begin(to output: any ExportDestination) throws
    /// Writes one sample.
    mutating func write(_ sample: Sample, to output: any ExportDestination) throws
    /// Writes what comes after the last sample.
    mutating func end(to output: any ExportDestination) throws
}

/// `jsonl`: the store's own line per sample (without its change number); `json`: the same objects as an array. The
/// lines are spelled as bytes by the store's own line writer (``SampleLineWriter``, which spells what
/// ``SampleLineCodec/encode(_:sequence:)`` does) and handed over some 64 KiB at a time.
struct JSONSampleWriter: SampleWriter {
    private var lines: SampleLineWriter
    /// Whether to write a JSON array rather than JSON Lines.
    let array: Bool
    private var first = true
    private let pending = ByteBuffer()

    init(catalogue: SampleTypeCatalogue, timeZone: ZoneRules, array: Bool) {
        lines = SampleLineWriter(catalogue: catalogue, timeZone: timeZone)
        self.array = array
    }

    mutating func begin(to output: any ExportDestination) throws {
        if array { try output.write("[") }
    }

    mutating func write(_ sample: Sample, to output: any ExportDestination) throws {
        if array { pending.append(first ? StaticString("\n") : StaticString(",\n")) }
        first = false
        lines.appendBody(of: sample, to: pending)
        pending.append(array ? StaticString("}") : StaticString("}\n"))
        if pending.count >= 1 << 16 { try flush(to: output) }
    }

    mutating func end(to output: any ExportDestination) throws {
        try flush(to: output)
        if array { try output.write(first ? "]\n" : "\n]\n") }
    }

    private func flush(to output: any ExportDestination) throws {
        guard pending.count > 0 else { return }
        try output.write(utf8: UnsafeRawBufferPointer(pending.bytes))
        pending.removeAll()
    }
}

/// `csv`: type, start, end, value, unit, source, device, uuid, metadata (a JSON object), per RFC 4180. A state of mind
/// is written in ``StateOfMindExportForm`` (its kind as the value, valence, labels and associations in the metadata).
struct CSVSampleWriter: SampleWriter {
    static let header = ["type", "start", "end", "value", "unit", "source", "device", "uuid", "metadata"]
    let catalogue: SampleTypeCatalogue
    let timeZone: ZoneRules

    mutating func begin(to output: any ExportDestination) throws {
        try output.write(CSVText.row(CSVSampleWriter.header) + "\n")
    }

    mutating func write(_ sample: Sample, to output: any ExportDestination) throws {
        let sample = StateOfMindExportForm.generic(sample)
        let value: String, unit: String
        switch sample.value {
        case let .quantity(quantity):
            value = NumberFormatting.json(quantity.value)
            unit = quantity.unit.unitString
        case let .category(raw):
            value = catalogue.type(identifier: sample.typeIdentifier)?.categoryValue(raw: raw)?.name ?? String(raw)
            unit = ""
        case let .generic(text, unitText):
            value = text
            unit = unitText ?? ""
        }
        let fields = [sample.typeIdentifier, ISODate.format(sample.start, in: timeZone), ISODate.format(sample.end, in: timeZone),
                      value, unit, sample.source, sample.device ?? "", sample.uuid.lowercasedText,
                      MetadataText.csvField(sample.metadata)]
        try output.write(CSVText.row(fields) + "\n")
    }

    mutating func end(to output: any ExportDestination) throws {}
}
