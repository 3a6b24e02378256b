extension RequestHead {
    /// The offset just past the blank line that ends a request head in `bytes` (`\r\n\r\n`), or nil while it has
    /// not arrived.
    ///
    /// - Parameter from: Where to start looking (bytes before it were searched already); the search backs up three
    ///   bytes, so a separator split across two reads is found.
    package static func endOfHead(in bytes: [UInt8], from start: Int = 0) -> Int? {
        var index = max(0, start - 3)
        while index + 3 < bytes.count {
            if bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D && bytes[index + 3] == 0x0A {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// Parses a request head: the request line and the header fields, each line ending with CRLF, up to and
    /// including the blank line.
    ///
    /// Strict by design (a client that sends anything else is not the app this server is for): one space between
    /// the three parts of the request line, `HTTP/1.1` or `HTTP/1.0`, no line folding, no space before a field's
    /// colon, no control characters, no bare CR or LF.
    ///
    /// - Throws: 400 for malformed syntax, 414 for a target longer than ``ServerLimits/maxTargetBytes``, 431 for
    ///   more than ``ServerLimits/maxFields`` fields or a head longer than ``ServerLimits/maxHeadBytes``.
    package static func parse(_ bytes: ArraySlice<UInt8>, limits: ServerLimits = ServerLimits()) throws(RequestRejection) -> RequestHead {
        guard bytes.count <= limits.maxHeadBytes else {
            throw RequestRejection(.headerFieldsTooLarge, "The request head is longer than \(limits.maxHeadBytes) bytes.")
        }
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0D {
                guard index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A else {
                    throw RequestRejection(.badRequest, "The request has a carriage return that does not end a line; lines end with CRLF.")
                }
                lines.append(bytes[start..<index])
                index += 2
                start = index
                continue
            }
            if byte == 0x0A {
                throw RequestRejection(.badRequest, "The request has a line feed without a carriage return; lines end with CRLF.")
            }
            index += 1
        }
        guard start == bytes.endIndex else {
            throw RequestRejection(.badRequest, "The request head does not end with a line break.")
        }
        guard lines.count >= 2, lines[lines.count - 1].isEmpty else {
            throw RequestRejection(.badRequest, "The request head does not end with a blank line.")
        }
        lines.removeLast()
        var head = try parseRequestLine(lines[0], limits: limits)
        guard lines.count - 1 <= limits.maxFields else {
            throw RequestRejection(.headerFieldsTooLarge, "The request has more than \(limits.maxFields) header fields.")
        }
        for line in lines.dropFirst() { head.fields.append(try parseField(line)) }
        return head
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>, limits: ServerLimits) throws(RequestRejection) -> RequestHead {
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw RequestRejection(.badRequest, "The request line must be 'METHOD /path HTTP/1.1'.")
        }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard !method.isEmpty, method.count <= 32, method.allSatisfy(isTokenByte) else {
            throw RequestRejection(.badRequest, "The request method is not a valid token.")
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw RequestRejection(.badRequest, "The request target must be a path of visible ASCII characters.")
        }
        guard target.count <= limits.maxTargetBytes else {
            throw RequestRejection(.uriTooLong, "The request target is longer than \(limits.maxTargetBytes) bytes.")
        }
        let versionText = String(decoding: version, as: UTF8.self)
        guard versionText == "HTTP/1.1" || versionText == "HTTP/1.0" else {
            throw RequestRejection(.badRequest, "Only HTTP/1.1 (and HTTP/1.0) requests are served.")
        }
        return RequestHead(method: String(decoding: method, as: UTF8.self), target: String(decoding: target, as: UTF8.self),
                           version: versionText, fields: [])
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(RequestRejection) -> HeaderField {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            throw RequestRejection(.badRequest, "A header line starts with a space (obsolete line folding is not accepted).")
        }
        guard let colon = line.firstIndex(of: 0x3A) else {
            throw RequestRejection(.badRequest, "A header line has no colon; fields are 'Name: value'.")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
            throw RequestRejection(.badRequest, "A header field name is empty or has characters a name cannot have (a space before the colon?).")
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == 0x20 || byte == 0x09 { value = value.dropFirst() }
        while let byte = value.last, byte == 0x20 || byte == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 >= 0x20 || $0 == 0x09 }), !value.contains(0x7F) else {
            throw RequestRejection(.badRequest, "A header field value has a control character.")
        }
        return HeaderField(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    /// Whether `byte` may appear in a token (a method or a field name): RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
