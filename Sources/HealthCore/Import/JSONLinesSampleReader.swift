#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the store's own `jsonl` (or `json`) export (``ExportFormat/jsonl``) back, losslessly: UUIDs, sources, devices and metadata are kept.
///
/// Each line is one sample in the store's line format. The brackets and trailing commas of the `json` export
/// are tolerated, so both formats read back. A line that does not decode, or is not well-formed UTF-8, is rejected
/// with its number.
final class JSONLinesSampleReader {
    private let reader: ByteReader
    private var codec: SampleLineCodec
    private let catalogue: SampleTypeCatalogue
    /// Lines read so far.
    private(set) var lineNumber = 0

    /// The longest line read (8 MiB; a sample's line is at most a few kilobytes): a longer one is refused, so that a
    /// file without newlines cannot grow memory without bound.
    static let maximumLineLength = 8 << 20
    private let displayName: String
    private let maximumLineLength: Int

    init(reader: ByteReader, catalogue: SampleTypeCatalogue, displayName: String = "standard input",
         maximumLineLength: Int = JSONLinesSampleReader.maximumLineLength) {
        self.reader = reader
        self.displayName = displayName
        self.maximumLineLength = maximumLineLength
        self.catalogue = catalogue
        codec = SampleLineCodec(catalogue: catalogue, timeZone: .gmt)
    }

    private func tooLong(_ offset: Int) -> ImportError {
        .lineTooLong(displayName, line: lineNumber + 1, offset: offset, limit: maximumLineLength)
    }

    /// Reads every line, calling `handle` with what each became.
    ///
    /// - Throws: Errors from the input or from `handle`.
    func read(_ handle: (MappedRecord) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var carried: [UInt8] = []
        lineNumber = 0
        /// The byte offset of the line being read.
        var lineOffset = 0
        var offset = 0
        var typeCache: [String: SampleType?] = [:]
        func line(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            lineNumber += 1
            var start = 0, end = bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0D { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0D { end -= 1 }
            if end > start, bytes[start] == UInt8(ascii: "[") { start += 1 }
            if end > start, bytes[end - 1] == UInt8(ascii: "]") { end -= 1 }
            if end > start, bytes[end - 1] == UInt8(ascii: ",") { end -= 1 }
            guard end > start else { return }
            // Text that is not UTF-8 is refused, never read as U+FFFD (which would make `caf\u{E9}` and `caf\u{E8}` one name).
            if let invalid = UTF8Validation.firstInvalidOffset(bytes.baseAddress! + start, count: end - start) {
                try handle(.rejected(type: "(unreadable line)", line: lineNumber,
                                     reason: "byte \(start + invalid + 1) of the line is not valid UTF-8, which a jsonl export always is; "
                                        + "correct the line or export it again"))
                return
            }
            let sample: Sample
            do {
                sample = try codec.decode(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            } catch {
                try handle(.rejected(type: "(unreadable line)", line: lineNumber, reason: "\(error)"))
                return
            }
            if let problem = TextRules.problem(in: sample) ?? SyncReplacement.problem(in: sample) {
                try handle(.rejected(type: sample.typeIdentifier, line: lineNumber, reason: problem))
                return
            }
            if sample.detail != nil, sample.typeIdentifier == StateOfMind.typeIdentifier {
                // Its detail was read on decoding; its valence must also be in range.
                do {
                    guard let state = StateOfMind(sample) else { throw SampleError.wrongKind(type: "state of mind", expected: "a kind") }
                    try state.validated()
                    try handle(.sample(sample, generic: false))
                } catch let error as SampleError {
                    try handle(.rejected(type: sample.typeIdentifier, line: lineNumber, reason: error.description))
                }
                return
            }
            if sample.detail != nil {
                // A workout or a correlation: its own types are not in the catalogue, its detail was checked on decoding.
                try handle(.sample(sample, generic: false))
                return
            }
            // A type the catalogue does not know is kept as written, unless it names a characteristic.
            func keepGenerically() throws {
                if let characteristic = SampleType.characteristicType(named: sample.typeIdentifier) {
                    try handle(.rejected(type: sample.typeIdentifier, line: lineNumber,
                                         reason: SampleError.characteristicHasNoSamples(type: characteristic.name).description))
                } else {
                    try handle(.sample(sample, generic: true))
                }
            }
            if case .generic = sample.value {
                try keepGenerically()
                return
            }
            let type: SampleType?
            if let cached = typeCache[sample.typeIdentifier] { type = cached } else {
                type = catalogue.type(identifier: sample.typeIdentifier)
                typeCache[sample.typeIdentifier] = type
            }
            guard let type else {
                try keepGenerically()
                return
            }
            do {
                try sample.validated(as: type)
                try handle(.sample(sample, generic: false))
            } catch let error as SampleError {
                try handle(.rejected(type: sample.typeIdentifier, line: lineNumber, reason: error.description))
            } catch let error as UnitError {
                try handle(.rejected(type: sample.typeIdentifier, line: lineNumber, reason: error.description))
            }
        }
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            try buffer.withUnsafeBufferPointer { chunk in
                var lineStart = 0
                while lineStart < count {
                    guard let found = memchr(chunk.baseAddress! + lineStart, 0x0A, count - lineStart) else { break }
                    let newline = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - chunk.baseAddress!
                    if carried.count + newline - lineStart > maximumLineLength { throw tooLong(lineOffset) }
                    if carried.isEmpty {
                        try line(UnsafeBufferPointer(rebasing: chunk[lineStart..<newline]))
                    } else {
                        carried.append(contentsOf: chunk[lineStart..<newline])
                        try carried.withUnsafeBufferPointer { try line($0) }
                        carried.removeAll(keepingCapacity: true)
                    }
                    lineStart = newline + 1
                    lineOffset = offset + lineStart
                }
                if carried.count + count - lineStart > maximumLineLength { throw tooLong(lineOffset) }
                carried.append(contentsOf: chunk[lineStart..<count])
            }
            offset += count
        }
        if !carried.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            try carried.withUnsafeBufferPointer { try line($0) }
        }
    }
}
