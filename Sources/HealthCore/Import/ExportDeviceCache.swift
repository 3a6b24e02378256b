#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The stored form of export `device` attributes (``DeviceDescription/normalized``), made once per device.
///
/// The `<<HKDevice: 0x…>, ` address changes from row to row, so it is cut from the raw bytes before the lookup and
/// repeats of one device are found whatever their address.
struct ExportDeviceCache {
    private var devices = ByteStringCache(capacity: 4096)

    /// The normalized device (nil when it says nothing) and its id in this cache, nil when not cached.
    mutating func device(_ attribute: XMLAttribute) -> (id: Int?, text: String?) {
        let raw = attribute.rawValue
        let prefix: StaticString = "&lt;&lt;HKDevice: 0x"
        let prefixLength = prefix.utf8CodeUnitCount
        if raw.count > prefixLength + 6, memcmp(raw.baseAddress!, prefix.utf8Start, prefixLength) == 0 {
            var index = prefixLength
            while index < raw.count, ExportDeviceCache.isHexDigit(raw[index]) { index += 1 }
            let separator: StaticString = "&gt;, "
            if index + separator.utf8CodeUnitCount <= raw.count,
               memcmp(raw.baseAddress! + index, separator.utf8Start, separator.utf8CodeUnitCount) == 0 {
                let rest = UnsafeBufferPointer(rebasing: raw[(index + separator.utf8CodeUnitCount)...])
                let (id, text) = devices.lookup(rest) { bytes in
                    DeviceDescription(exportText: "<<HKDevice: 0x0>, " + XMLText.decode(bytes)).normalized
                }
                return (id, text.isEmpty ? nil : text)
            }
        }
        let text = DeviceDescription(exportText: attribute.value).normalized
        return (nil, text.isEmpty ? nil : text)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 97 && byte <= 102) || (byte >= 65 && byte <= 70)
    }
}
