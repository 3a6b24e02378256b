#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the server listens: an IP address and a port, written `HOST:PORT` (`127.0.0.1:8787`, `[::1]:8787`,
/// `0.0.0.0:8787`; `localhost` means 127.0.0.1; port 0 lets the system choose one).
package struct ListenAddress: Sendable, Equatable {
    /// The address as written, without brackets.
    package var host: String
    /// The port.
    package var port: UInt16
    /// Whether `host` is an IPv6 address.
    package var isIPv6: Bool

    /// The default: the loopback address, port 8787 (reachable from this machine only).
    package static let standard = ListenAddress(host: "127.0.0.1", port: 8787, isIPv6: false)

    package init(host: String, port: UInt16, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// Parses `HOST:PORT`; nil when it is not an IP address (or `localhost`) and a port from 0 to 65535.
    package init?(parsing text: String) {
        var host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            // An IPv6 address goes in brackets, so that its last colon is not taken for the port's.
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = UInt16(portText) else { return nil }
        if host == "localhost" { host = "127.0.0.1" }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, String(host), &v4) == 1 {
            self.init(host: String(host), port: port, isIPv6: false)
        } else if inet_pton(AF_INET6, String(host), &v6) == 1 {
            self.init(host: String(host), port: port, isIPv6: true)
        } else {
            return nil
        }
    }

    /// `HOST:PORT` with brackets around an IPv6 address.
    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
