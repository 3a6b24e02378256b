import Testing
import TestKit
@testable import IngestHTTP

/// A channel that hands out scripted chunks; `nil` in the script is a stall (the receive times out), its end is the
/// client closing. What the server sends is kept.
struct ScriptedChannel: ByteChannel {
    var chunks: [[UInt8]?]
    var sent: [UInt8] = []
    var receives = 0

    init(_ chunks: [String?]) { self.chunks = chunks.map { $0.map { Array($0.utf8) } } }

    mutating func receive(into buffer: inout [UInt8], limit: Int, timeout: Double) -> ReceiveResult {
        receives += 1
        guard !chunks.isEmpty else { return .closed }
        guard let chunk = chunks.removeFirst() else { return .timedOut }
        let part = chunk.prefix(limit)
        if part.count < chunk.count { chunks.insert(Array(chunk.dropFirst(limit)), at: 0) }
        buffer.append(contentsOf: part)
        return .received(part.count)
    }

    mutating func send(_ bytes: [UInt8], timeout: Double) -> Bool {
        sent += bytes
        return true
    }

    var sentText: String { String(decoding: sent, as: UTF8.self) }
}

/// A handler that serves `POST /echo` (its body back, as a JSON string) and `GET /health`, and counts answers.
final class EchoHandler: RequestHandling, @unchecked Sendable {
    var bodies: [[UInt8]] = []

    func screen(_ head: RequestHead) -> Screening {
        switch (head.method, head.path) {
        case ("POST", "/echo"): return .withBody
        case ("GET", "/health"): return .withoutBody
        default: return .reject(.error(.notFound, "No such path."))
        }
    }

    func respond(to head: RequestHead, body: [UInt8]) -> HTTPResponse {
        bodies.append(body)
        return HTTPResponse(status: .ok, json: "{\"length\":\(body.count)}")
    }
}

/// Reading a whole request from a channel: bodies split anywhere, stalls and early closes, each refusal answered
/// once, and the handler called only for a whole request.
struct ExchangeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: exchangeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func exchange(_ chunks: [String?], limits: ServerLimits = ServerLimits()) -> (ScriptedChannel, EchoHandler, HTTPResponse?) {
        var channel = ScriptedChannel(chunks)
        let handler = EchoHandler()
        let (response, _) = handler.exchange(on: &channel, reader: RequestReader(limits: limits))
        return (channel, handler, response)
    }

    func readsABodySplitAcrossManyReads() {
        let request = "POST /echo HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world"
        // Every split point, the head's end included.
        for split in 1..<request.utf8.count {
            let bytes = Array(request.utf8)
            let (channel, handler, response) = exchange([String(decoding: bytes[..<split], as: UTF8.self),
                                                         String(decoding: bytes[split...], as: UTF8.self)])
            #expect(response?.status == .ok, "split at \(split)")
            #expect(handler.bodies == [Array("hello world".utf8)], "split at \(split)")
            #expect(channel.sentText.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    func ignoresBytesAfterTheBody() {
        let (_, handler, response) = exchange(["POST /echo HTTP/1.1\r\nContent-Length: 2\r\n\r\nabGET / HTTP/1.1\r\n\r\n"])
        #expect(response?.status == .ok)
        #expect(handler.bodies == [Array("ab".utf8)])
    }

    func aStalledHeadOrBodyTimesOutWithoutCallingTheHandler() {
        let (headChannel, headHandler, headResponse) = exchange(["POST /echo HTTP/1.1\r\nContent-"] + [nil])
        #expect(headResponse?.status == .requestTimeout)
        #expect(headHandler.bodies.isEmpty)
        #expect(headChannel.sentText.contains("408 Request Timeout"))
        let (_, bodyHandler, bodyResponse) = exchange(["POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", nil])
        #expect(bodyResponse?.status == .requestTimeout)
        #expect(bodyHandler.bodies.isEmpty)
    }

    func theHeadDeadlineCountsFromTheStartNotPerRead() {
        // A client that sends a byte at a time, each in time, still runs out of the head's whole allowance.
        var clock = 0.0
        var limits = ServerLimits()
        limits.headerTimeout = 5
        let handler = EchoHandler()
        var channel = ScriptedChannel(Array(repeating: "a", count: 100))
        let reader = RequestReader(limits: limits, now: { clock += 1; return clock })
        let (response, _) = handler.exchange(on: &channel, reader: reader)
        #expect(response?.status == .requestTimeout)
        #expect(channel.receives < 10)
    }

    func aClientThatClosesEarlyGetsNoAnswerAndStoresNothing() {
        let (channel, handler, response) = exchange(["POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"])
        #expect(response == nil)
        #expect(handler.bodies.isEmpty)
        #expect(channel.sent.isEmpty)
        let (silent, _, nothing) = exchange([nil])
        #expect(nothing == nil)
        #expect(silent.sent.isEmpty)
    }

    func aBodyOverTheLimitIsRefusedBeforeAnyOfItIsRead() {
        var limits = ServerLimits()
        limits.maxBodyBytes = 10
        let (channel, handler, response) = exchange(["POST /echo HTTP/1.1\r\nContent-Length: 11\r\n\r\n", "0123456789A"], limits: limits)
        #expect(response?.status == .contentTooLarge)
        #expect(handler.bodies.isEmpty)
        #expect(channel.chunks.count == 1, "the body was read")
    }

    func aRejectedHeadIsAnsweredOnce() {
        let (channel, handler, response) = exchange(["POST /other HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"])
        #expect(response?.status == .notFound)
        #expect(handler.bodies.isEmpty)
        #expect(channel.sentText.components(separatedBy: "HTTP/1.1 ").count == 2)
        #expect(channel.sentText.hasSuffix("{\"error\":\"No such path.\"}\n"))
    }

    func anAnswerHasItsLengthAndClosesTheConnection() {
        let response = HTTPResponse.error(.unauthorized, "No \"token\".", fields: [HeaderField(name: "WWW-Authenticate", value: "Bearer")])
        let text = String(decoding: response.bytes, as: UTF8.self)
        #expect(text == "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 26\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\nWWW-Authenticate: Bearer\r\n\r\n{\"error\":\"No \\\"token\\\".\"}\n")
    }

    @Test(arguments: [("127.0.0.1:8787", "127.0.0.1:8787"), ("localhost:0", "127.0.0.1:0"), ("[::1]:80", "[::1]:80"),
                      ("0.0.0.0:65535", "0.0.0.0:65535")])
    func parsesListenAddresses(_ text: String, _ expected: String) {
        #expect(ListenAddress(parsing: text)?.description == expected)
    }

    @Test(arguments: ["8787", "host:8787", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "::1:80", "[::1]80", "1.2.3.4:8a"])
    func refusesBadListenAddresses(_ text: String) {
        #expect(ListenAddress(parsing: text) == nil)
    }
}

extension ExchangeTests {
    @Test func aBareLineFeedIsRefusedAtOnceNotTimedOut() {
        let (channel, handler, response) = exchange(["GET /health HTTP/1.1\nHost: x\n\n", nil])
        #expect(response?.status == .badRequest)
        #expect(handler.bodies.isEmpty)
        #expect(channel.receives == 1)
    }
}

extension ExchangeTests {
    @Test func aClientThatExpects100ContinueIsToldToGoOn() {
        let (channel, handler, response) = exchange(["POST /echo HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n", "abc"])
        #expect(response?.status == .ok)
        #expect(handler.bodies == [Array("abc".utf8)])
        #expect(channel.sentText.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"))
        // Refused from the head: no 100 first.
        var limits = ServerLimits()
        limits.maxBodyBytes = 2
        let (refused, _, _) = exchange(["POST /echo HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"], limits: limits)
        #expect(refused.sentText.hasPrefix("HTTP/1.1 413 "))
    }
}

/// The checks ``ExchangeTests/checks(_:)`` runs.
private let exchangeTestsChecks: [Check<ExchangeTests>] = [
    Check("readsABodySplitAcrossManyReads", ExchangeTests.readsABodySplitAcrossManyReads),
    Check("ignoresBytesAfterTheBody", ExchangeTests.ignoresBytesAfterTheBody),
    Check("aStalledHeadOrBodyTimesOutWithoutCallingTheHandler",
          ExchangeTests.aStalledHeadOrBodyTimesOutWithoutCallingTheHandler),
    Check("theHeadDeadlineCountsFromTheStartNotPerRead", ExchangeTests.theHeadDeadlineCountsFromTheStartNotPerRead),
    Check("aClientThatClosesEarlyGetsNoAnswerAndStoresNothing",
          ExchangeTests.aClientThatClosesEarlyGetsNoAnswerAndStoresNothing),
    Check("aBodyOverTheLimitIsRefusedBeforeAnyOfItIsRead", ExchangeTests.aBodyOverTheLimitIsRefusedBeforeAnyOfItIsRead),
    Check("aRejectedHeadIsAnsweredOnce", ExchangeTests.aRejectedHeadIsAnsweredOnce),
    Check("anAnswerHasItsLengthAndClosesTheConnection", ExchangeTests.anAnswerHasItsLengthAndClosesTheConnection),
]
