import TextSupport

/// One header field of a request or an answer.
package struct HeaderField: Sendable, Equatable {
    /// The field name as sent; compare it case-insensitively.
    package var name: String
    /// The value without surrounding spaces.
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The head of an HTTP/1.1 request: its request line and header fields.
///
/// Built by ``parse(_:limits:)`` from the bytes before the blank line. Invariants: `method` is a token, `target`
/// holds only visible ASCII, `version` is `HTTP/1.1` or `HTTP/1.0`, and every field name is a token.
package struct RequestHead: Sendable, Equatable {
    /// The method, case-sensitive (`POST`).
    package var method: String
    /// The request target as sent (`/ingest?x=1`).
    package var target: String
    /// `HTTP/1.1` or `HTTP/1.0`.
    package var version: String
    /// The header fields in order.
    package var fields: [HeaderField]

    package init(method: String, target: String, version: String, fields: [HeaderField]) {
        self.method = method
        self.target = target
        self.version = version
        self.fields = fields
    }

    /// The target's path: the target up to its query.
    package var path: Substring { target.prefix { $0 != "?" } }

    /// The values of every field named `name` (case-insensitive), in order.
    package func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// The value of the first field named `name` (case-insensitive).
    package func value(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// The length of the body, from `Content-Length`, for a request that must have one.
    ///
    /// - Throws: 411 when the body is sent chunked (any `Transfer-Encoding`) or without `Content-Length`; 400 when
    ///   `Content-Length` is not a number or says two different lengths; 413 when it is larger than `maximum`.
    package func bodyLength(maximum: Int) throws(RequestRejection) -> Int {
        if !values("Transfer-Encoding").isEmpty {
            throw RequestRejection(.lengthRequired, "Transfer-Encoding (chunked) is not accepted; send the body whole, with a Content-Length header.")
        }
        let lengths = values("Content-Length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingSpaces() }
        guard let first = lengths.first else {
            throw RequestRejection(.lengthRequired, "The request has no Content-Length header; send the body whole, with its length.")
        }
        guard !first.isEmpty, first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), lengths.allSatisfy({ $0 == first }) else {
            throw RequestRejection(.badRequest, "The Content-Length header must be one whole number of bytes.")
        }
        let digits = first.drop { $0 == "0" }
        guard digits.count <= 18, let length = Int(digits.isEmpty ? "0" : String(digits)), length <= maximum else {
            throw RequestRejection(.contentTooLarge, "The body of \(first) bytes is larger than this server's limit of \(maximum) bytes; send a shorter period, or start the server with a larger --max-body.")
        }
        return length
    }
}

extension String {
    /// ASCII case-insensitive equality (header names are ASCII tokens).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let (a, b) = (utf8, other.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A) }
    }
}
