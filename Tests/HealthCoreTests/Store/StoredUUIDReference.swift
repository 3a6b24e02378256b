#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import HealthCore

/// The whole-buffer search the store used before ``UUIDLineScanner``, kept as the tests' reference for it.
extension JSONFileStore {
    /// Whether a whole line (one that ends in a newline) of `bytes` starts with `{"uuid":"<uuid>"`.
    static func hasLine(startingWith uuid: UUID, in bytes: [UInt8]) -> Bool {
        let prefix = Array("{\"uuid\":\"\(uuid.lowercasedText)\"".utf8)
        return bytes.withUnsafeBufferPointer { haystack in
            prefix.withUnsafeBufferPointer { pattern in
                guard let base = haystack.baseAddress, let wanted = pattern.baseAddress else { return false }
                var start = 0
                while haystack.count - start >= pattern.count {
                    // The next newline ends this line; a last line without one is a torn write no reader sees.
                    guard let newline = memchr(base + start, 0x0A, haystack.count - start) else { return false }
                    if ByteComparison.equal(base + start, wanted, pattern.count) { return true }
                    start = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                }
                return false
            }
        }
    }
}
