/// Copies of tags, kept after the scanner's buffer has moved on, to be handed over again later as ``XMLTag``s.
///
/// The export reader keeps the tags of a record it is encoding directly, so that it can still read the record the
/// general way when a later child calls for it. Its memory is reused from record to record.
struct XMLTagCopy {
    private struct Span {
        var name: Range<Int>
        var value: Range<Int>
        var needsDecoding: Bool
    }

    private struct Tag {
        var kind: XMLTag.Kind
        var name: Range<Int>
        var attributes: Range<Int>
        var line: Int
        var hasInvalidUTF8: Bool
    }

    private var bytes: [UInt8] = []
    private var spans: [Span] = []
    private var tags: [Tag] = []

    /// Whether no tag is kept.
    var isEmpty: Bool { tags.isEmpty }

    /// Forgets the tags kept, keeping the memory.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
    }

    /// Keeps a copy of `tag`: the bytes from its name to its last value in one piece, and where each part lies.
    mutating func append(_ tag: XMLTag) {
        let base = tag.name.baseAddress!
        var end = base + tag.name.count
        if let last = tag.attributes.last, let value = last.rawValue.baseAddress { end = max(end, value + last.rawValue.count) }
        let offset = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: end - base))
        func range(_ part: UnsafeBufferPointer<UInt8>) -> Range<Int> {
            guard let start = part.baseAddress else { return offset..<offset }
            let from = offset + (start - base)
            return from..<(from + part.count)
        }
        let first = spans.count
        for attribute in tag.attributes {
            spans.append(Span(name: range(attribute.name), value: range(attribute.rawValue), needsDecoding: attribute.needsDecoding))
        }
        tags.append(Tag(kind: tag.kind, name: range(tag.name), attributes: first..<spans.count, line: tag.line,
                        hasInvalidUTF8: tag.hasInvalidUTF8))
    }

    /// Calls `body` with each tag kept, in order, as it was first seen.
    func replay(_ body: (XMLTag) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { all in
            let base = all.baseAddress ?? UnsafePointer(bitPattern: 1)!
            func span(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
            }
            var attributes: [XMLAttribute] = []
            for tag in tags {
                attributes.removeAll(keepingCapacity: true)
                for item in spans[tag.attributes] {
                    attributes.append(XMLAttribute(name: span(item.name), rawValue: span(item.value), needsDecoding: item.needsDecoding))
                }
                try attributes.withUnsafeBufferPointer { list in
                    try body(XMLTag(kind: tag.kind, name: span(tag.name), attributes: list, line: tag.line,
                                    hasInvalidUTF8: tag.hasInvalidUTF8))
                }
            }
        }
    }
}
