// Fuzz target: the export.xml reader (XML byte scanner, record mapper) over arbitrary bytes.
import Foundation
#if !HKCTL_FUZZ_ONE_MODULE
// The test suite's smoke (fuzz/smoke) compiles this harness in a test target of its own; `fuzz/run` compiles it
// inside HealthCore's module (-D HKCTL_FUZZ_ONE_MODULE), where these modules are the module itself.
@testable import HealthCore
#endif

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
