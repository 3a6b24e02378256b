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
    /// The sync version every line gets, 1, as a metadata number is written.
    private static let version = NumberFormatting.json(1)

    init(receivedThrough: String?) {
        let buffer = ByteBuffer(capacity: 128)
        if let receivedThrough {
            buffer.append(",\"" + HAESampleBuilder.receivedThroughKey + "\":")
            JSONBytes.appendQuoted(receivedThrough, to: buffer)
        }
        self.receivedThrough = Array(buffer.bytes)
    }

    /// Appends `row`'s line without its `,"seq":N}` ending.
    mutating func append(_ row: HAEDirectPoints.Row, metric: HAEDirectPoints.Metric, created: Date,
                         writer: inout SampleLineWriter, to out: ByteBuffer) {
        writer.appendHead(uuid: row.uuid, type: metric.type.identifier, start: row.start, end: row.end, to: out)
        writer.appendQuantity(row.amount, unit: metric.unitText, to: out)
        writer.appendTail(source: row.source, sourceVersion: nil, device: nil, created: created, to: out)
        aggregation(row.period).withUnsafeBufferPointer { out.append($0) }
        if let figures = row.figures {
            out.append(",\"HAEAvg\":" as StaticString)
            out.append(NumberFormatting.json(figures.avg))
            out.append(",\"HAEMax\":" as StaticString)
            out.append(NumberFormatting.json(figures.high))
            out.append(",\"HAEMin\":" as StaticString)
            out.append(NumberFormatting.json(figures.low))
        }
        receivedThrough.withUnsafeBufferPointer { out.append($0) }
        out.append(",\"" as StaticString)
        out.append(MetadataKeySyncIdentifier)
        out.append("\":" as StaticString)
        JSONBytes.appendQuoted(row.identifier, to: out)
        out.append(",\"" as StaticString)
        out.append(MetadataKeySyncVersion)
        out.append("\":" as StaticString)
        out.append(HAEDirectLines.version)
        out.append(UInt8(ascii: "}"))
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
