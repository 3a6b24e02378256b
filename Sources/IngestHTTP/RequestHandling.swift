/// What a handler decides from a request's head alone, before any of its body is read.
package enum Screening: Sendable, Equatable {
    /// Answer now and read nothing more (wrong path or method, no or wrong credentials, wrong content type).
    case reject(HTTPResponse)
    /// Answer from the head alone (`GET /health`).
    case withoutBody
    /// Read the body (within ``ServerLimits/maxBodyBytes``), then answer.
    case withBody
}

/// The application behind the server: it screens each request's head, then answers the whole request.
///
/// ``respond(to:body:)`` runs only once the body has arrived whole, so whatever it locks (a store) is never held
/// while the server waits on a client.
package protocol RequestHandling: Sendable {
    /// Decides from the head whether to read a body, answer at once, or refuse.
    func screen(_ head: RequestHead) -> Screening
    /// Answers a request whose body (empty for ``Screening/withoutBody``) arrived whole.
    func respond(to head: RequestHead, body: [UInt8]) -> HTTPResponse
}

extension RequestHandling {
    /// Serves one request on `channel`: reads the head, screens it, reads the body if wanted, answers. Returns the
    /// answer sent (nil when the client went away and nothing could be answered) and the head when it was read.
    package func exchange<Channel: ByteChannel>(on channel: inout Channel, reader: RequestReader) -> (response: HTTPResponse?, head: RequestHead?) {
        var buffer: [UInt8] = []
        var head: RequestHead?
        let response: HTTPResponse?
        do throws(RequestRejection) {
            let parsed = try reader.readHead(from: &channel, buffer: &buffer)
            head = parsed
            switch screen(parsed) {
            case let .reject(answer):
                response = answer
            case .withoutBody:
                response = respond(to: parsed, body: [])
            case .withBody:
                let length = try parsed.bodyLength(maximum: reader.limits.maxBodyBytes)
                // A client that asks first (curl does for bodies over 1 KB) is told to go on, rather than left to
                // wait a second before it sends the body anyway.
                if parsed.value("Expect")?.lowercased() == "100-continue" && buffer.isEmpty && length > 0 {
                    _ = channel.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), timeout: reader.limits.sendTimeout)
                }
                let body = try reader.readBody(length: length, from: &channel, buffer: buffer)
                response = respond(to: parsed, body: body)
            }
        } catch {
            response = error.answers ? error.response : nil
        }
        if let response { _ = channel.send(response.bytes, timeout: reader.limits.sendTimeout) }
        return (response, head)
    }
}
