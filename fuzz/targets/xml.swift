// Fuzz target: the export.xml reader (XML byte scanner, record mapper) over arbitrary bytes.
import Foundation

final class MemoryByteReader: ByteReader {
    private let bytes: [UInt8]
    private var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        if count > 0 { buffer.copyBytes(from: bytes[offset..<offset + count]) }
        offset += count
        return count
    }
}


func fuzzXML(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let reader = HealthExportReader(reader: MemoryByteReader(bytes), displayName: "fuzz.xml", catalogue: .standard)
    _ = try? reader.read { _ in }
    return 0
}
