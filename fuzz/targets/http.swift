// Fuzz target: the HTTP request-head parser and a whole request read through the server's reader, with the input cut
// into chunks of a size the input chooses.
import Foundation
import IngestHTTP

private struct FuzzChannel: ByteChannel {
    var bytes: ArraySlice<UInt8>
    let chunk: Int
    var sent = 0

    mutating func receive(into buffer: inout [UInt8], limit: Int, timeout: Double) -> ReceiveResult {
        guard !bytes.isEmpty else { return .closed }
        let part = bytes.prefix(min(chunk, limit))
        bytes = bytes.dropFirst(part.count)
        buffer.append(contentsOf: part)
        return .received(part.count)
    }

    mutating func send(_ bytes: [UInt8], timeout: Double) -> Bool {
        sent += 1
        return true
    }
}

private final class FuzzHandler: RequestHandling, @unchecked Sendable {
    var bodies: [Int] = []
    func screen(_ head: RequestHead) -> Screening { head.method == "GET" ? .withoutBody : .withBody }
    func respond(to head: RequestHead, body: [UInt8]) -> HTTPResponse {
        bodies.append(body.count)
        return HTTPResponse(status: .ok, json: "{}")
    }
}

func fuzzHTTP(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    var limits = ServerLimits()
    limits.maxBodyBytes = 4096
    limits.maxHeadBytes = 2048
    if let head = try? RequestHead.parse(bytes[...], limits: limits) {
        // A parsed head, written out again, parses to the same head.
        var text = "\(head.method) \(head.target) \(head.version)\r\n"
        for field in head.fields { text += "\(field.name): \(field.value)\r\n" }
        guard let again = try? RequestHead.parse(Array((text + "\r\n").utf8)[...], limits: ServerLimits()), again == head else {
            fatalError("a parsed head does not parse back the same: \(head)")
        }
        if let length = try? head.bodyLength(maximum: limits.maxBodyBytes), !(0...limits.maxBodyBytes).contains(length) {
            fatalError("body length \(length) outside 0...\(limits.maxBodyBytes)")
        }
    }
    // The whole reader: the first byte picks the chunk size; the clock advances a second a read, so the head's
    // deadline is reached without waiting.
    var channel = FuzzChannel(bytes: bytes.dropFirst(), chunk: Int(bytes.first ?? 0) % 64 + 1)
    let handler = FuzzHandler()
    var clock = 0.0
    let reader = RequestReader(limits: limits, now: { clock += 1; return clock })
    let (response, head) = handler.exchange(on: &channel, reader: reader)
    guard channel.sent == (response == nil ? 0 : 1) else { fatalError("\(channel.sent) answers sent") }
    guard handler.bodies.count <= 1 else { fatalError("the handler ran twice") }
    if let length = handler.bodies.first, let head, head.method != "GET" {
        guard length == (try? head.bodyLength(maximum: limits.maxBodyBytes)) else { fatalError("a body of \(length) bytes for \(head)") }
    }
    return 0
}
