/// How far an import has read its input: bytes read so far and the total, when known. For a plain file that is the
/// file; for a zip with a central directory, the export member uncompressed (the directory gives its size), so a
/// progress display compares like with like.
protocol ImportMeter: AnyObject {
    /// Bytes read so far.
    var bytesRead: Int { get }
    /// All the bytes there are to read, when known (not for standard input).
    var totalBytes: Int? { get }
}

extension FileByteReader: ImportMeter {
    var totalBytes: Int? { size }
}

/// A stream that counts the bytes passing through it: a zip member's uncompressed bytes, against the size its
/// central-directory entry gives.
final class CountingByteReader: ByteReader, ImportMeter {
    private let source: ByteReader
    let totalBytes: Int?
    private(set) var bytesRead = 0

    /// Counts what is read from `source`, which holds `totalBytes` bytes.
    init(_ source: ByteReader, totalBytes: Int?) {
        self.source = source
        self.totalBytes = totalBytes
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try source.read(into: buffer)
        bytesRead += count
        return count
    }
}
