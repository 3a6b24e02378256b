import TextSupport

/// Writes the store line of a sample kept as a ``HAEDirectPoints/Row``: byte for byte the line
/// ``SampleLineWriter/appendBody(of:adding:to:)`` writes for the sample ``HAESampleBuilder`` makes of the point, with
/// sync version 1 (its metadata keys in String order: `HAEAggregation`, `HAEAvg`, `HAEMax`, `HAEMin`,
/// `HAEReceivedThrough`, `HKMetadataKeySyncIdentifier`, `HKMetadataKeySyncVersion`).
struct HAEDirectLines {
    /// `,"HAEReceivedThrough":"…"` when the payload came through a program, else empty.
    private let receivedThrough: [UInt8]
    /// Each period's `,"metadata":{"HAEAggregation":"…"`.
    private var aggregations: [[UInt8]?] = Array(repeating: nil, count: 5)
    /// `,"HKMetadataKeySyncIdentifier":`, before the identifier.
    private static let identifierKey = Array((",\"" + MetadataKeySyncIdentifier + "\":").utf8)
    /// `,"HKMetadataKeySyncVersion":1}`: the sync version every line gets, as a metadata number is written, and the
    /// metadata's end.
    private static let versionEntry = Array((",\"" + MetadataKeySyncVersion + "\":" + NumberFormatting.json(1) + "}").utf8)

    init(receivedThrough: String?) {
        let buffer = ByteBuffer(capacity: 128)
        if let receivedThrough {
            buffer.append(",\"" + HAESampleBuilder.receivedThroughKey + "\":")
            JSONBytes.appendQuoted(receivedThrough, to: buffer)
        }
        self.receivedThrough = Array(buffer.bytes)
    }

    /// Appends `row`'s line without its `,"seq":N}` ending.
    /// `type` and `unit` are the metric's (``HAEDirectPoints/Metric``).
    mutating func append(_ row: HAEDirectPoints.Row, type: String, unit: String, quotedPrefix: [UInt8], created: Date,
                         writer: inout SampleLineWriter, to out: ByteBuffer) {
        writer.appendHead(uuid: row.uuid, type: type, start: row.start, end: row.end, to: out)
        writer.appendQuantity(row.amount, unit: unit, to: out)
        writer.appendTail(source: row.source, sourceVersion: nil, device: nil, created: created, to: out)
        aggregation(row.period).withUnsafeBufferPointer { out.append($0) }
        if let figures = row.figures {
            out.append(",\"HAEAvg\":" as StaticString)
            JSONBytes.appendNumber(figures.avg, to: out)
            out.append(",\"HAEMax\":" as StaticString)
            JSONBytes.appendNumber(figures.high, to: out)
            out.append(",\"HAEMin\":" as StaticString)
            JSONBytes.appendNumber(figures.low, to: out)
        }
        receivedThrough.withUnsafeBufferPointer { out.append($0) }
        HAEDirectLines.identifierKey.withUnsafeBufferPointer { out.append($0) }
        quotedPrefix.withUnsafeBufferPointer { out.append($0) }
        var stamp = row.stamp.bytes
        withUnsafeBytes(of: &stamp) { out.append(UnsafeBufferPointer(rebasing: $0.bindMemory(to: UInt8.self)[..<row.stamp.count])) }
        out.append(HAEDirectPoints.suffix(row.period))
        out.append(row.part.suffix)
        out.append(UInt8(ascii: "\""))
        HAEDirectLines.versionEntry.withUnsafeBufferPointer { out.append($0) }
    }

    private mutating func aggregation(_ period: HAEPeriod) -> [UInt8] {
        if let known = aggregations[period.rawValue] { return known }
        let buffer = ByteBuffer(capacity: 64)
        buffer.append(",\"metadata\":{\"" + HAESampleBuilder.aggregationKey + "\":")
        JSONBytes.appendQuoted(period.name, to: buffer)
        let bytes = Array(buffer.bytes)
        aggregations[period.rawValue] = bytes
        return bytes
    }
}
