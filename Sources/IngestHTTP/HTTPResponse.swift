import TextSupport

/// One answer of the server: a status, extra header fields and a JSON body, written as HTTP/1.1 bytes that close the
/// connection (the server answers one request per connection).
package struct HTTPResponse: Sendable, Equatable {
    /// The status.
    package var status: HTTPStatus
    /// Header fields besides Content-Type, Content-Length and Connection (`Allow`, `WWW-Authenticate`, `Retry-After`).
    package var fields: [HeaderField]
    /// The body: JSON text ending with a newline.
    package var body: [UInt8]
    /// What the server's log line says of this answer beyond its status (added and replaced counts); never sent.
    package var logNote = ""
    /// Who the answer was for, for the log line (the pushing program's name once its token is known); never sent.
    package var logSource = "-"
    /// Whether the log must show this answer even when it shows only failures: a success that refused part of what
    /// was sent.
    package var logEvenWhenQuiet = false

    package init(status: HTTPStatus, fields: [HeaderField] = [], json: String) {
        self.status = status
        self.fields = fields
        self.body = Array((json + "\n").utf8)
    }

    /// An error answer: `{"error":"message"}`, whose log note is the message.
    package static func error(_ status: HTTPStatus, _ message: String, fields: [HeaderField] = []) -> HTTPResponse {
        var response = HTTPResponse(status: status, fields: fields, json: "{\"error\":" + JSONText.quoted(message) + "}")
        response.logNote = message
        return response
    }

    /// The whole answer as bytes: status line, header fields, blank line, body.
    package var bytes: [UInt8] {
        var head = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        head += "Content-Type: application/json; charset=utf-8\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "Cache-Control: no-store\r\n"
        head += "Connection: close\r\n"
        for field in fields {
            // Names and values are the server's own; a line break in one would split the head.
            precondition(!(field.name + field.value).contains(where: { $0 == "\r" || $0 == "\n" }), "a line break in a header field")
            head += field.name + ": " + field.value + "\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + body
    }
}
