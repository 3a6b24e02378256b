import Testing
import TestKit
@testable import IngestHTTP

/// The request-head parser: what it accepts, and one clear 4xx for each kind of malformed head.
struct RequestHeadParsingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: requestHeadParsingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func parse(_ text: String, limits: ServerLimits = ServerLimits()) throws(RequestRejection) -> RequestHead {
        let bytes = Array(text.utf8)
        return try RequestHead.parse(bytes[...], limits: limits)
    }

    private func status(_ text: String, limits: ServerLimits = ServerLimits()) -> HTTPStatus? {
        do throws(RequestRejection) {
            _ = try parse(text, limits: limits)
            return nil
        } catch {
            return error.status
        }
    }

    func parsesARequestLineAndFields() throws {
        let head = try parse("POST /ingest?x=1 HTTP/1.1\r\nHost: a\r\nContent-Type:  application/json \r\nauthorization: Bearer abc\r\n\r\n")
        #expect(head.method == "POST")
        #expect(head.target == "/ingest?x=1")
        #expect(head.path == "/ingest")
        #expect(head.version == "HTTP/1.1")
        #expect(head.value("content-type") == "application/json")
        #expect(head.value("Authorization") == "Bearer abc")
        #expect(head.fields.count == 3)
    }

    @Test(arguments: [
        "GET /health HTTP/1.1\r\n\r\n",
        "GET /health HTTP/1.0\r\nA: b\r\n\r\n",
    ]) func acceptsWellFormedHeads(_ text: String) throws {
        _ = try parse(text)
    }

    @Test(arguments: [
        ("GET /health HTTP/1.1\n\n", HTTPStatus.badRequest),                       // bare LF
        ("GET /health HTTP/1.1\r\nA: b\rc\r\n\r\n", .badRequest),                    // bare CR
        ("GET  /health HTTP/1.1\r\n\r\n", .badRequest),                              // two spaces
        ("GET /health\r\n\r\n", .badRequest),                                        // HTTP/0.9
        ("GET /health HTTP/2.0\r\n\r\n", .badRequest),
        ("GET /health HTTP/1.1 x\r\n\r\n", .badRequest),
        ("G(T /health HTTP/1.1\r\n\r\n", .badRequest),                               // not a token
        ("GET /he\u{7F}lth HTTP/1.1\r\n\r\n", .badRequest),
        ("GET /health HTTP/1.1\r\nA : b\r\n\r\n", .badRequest),                      // space before colon
        ("GET /health HTTP/1.1\r\nA: b\r\n c\r\n\r\n", .badRequest),                 // obsolete folding
        ("GET /health HTTP/1.1\r\nNoColon\r\n\r\n", .badRequest),
        ("GET /health HTTP/1.1\r\n: empty\r\n\r\n", .badRequest),
        ("GET /health HTTP/1.1\r\nA: b\u{01}\r\n\r\n", .badRequest),                 // control character
        ("GET /health HTTP/1.1\r\nA: b\r\n", .badRequest),                           // no blank line
        ("\r\n\r\n", .badRequest),
    ]) func refusesMalformedHeads(_ text: String, _ expected: HTTPStatus) {
        #expect(status(text) == expected, "\(text.debugDescription)")
    }

    func refusesTooLongTargetsAndTooManyFields() {
        #expect(status("GET /" + String(repeating: "a", count: 3000) + " HTTP/1.1\r\n\r\n") == .uriTooLong)
        let fields = (0..<65).map { "F\($0): v\r\n" }.joined()
        #expect(status("GET / HTTP/1.1\r\n" + fields + "\r\n") == .headerFieldsTooLarge)
        var small = ServerLimits()
        small.maxHeadBytes = 32
        #expect(status("GET / HTTP/1.1\r\nA: " + String(repeating: "b", count: 40) + "\r\n\r\n", limits: small) == .headerFieldsTooLarge)
    }

    func findsTheEndOfAHeadSplitAcrossReads() {
        let bytes = Array("GET / HTTP/1.1\r\nA: b\r\n\r\nBODY".utf8)
        #expect(RequestHead.endOfHead(in: bytes) == 24)
        #expect(RequestHead.endOfHead(in: bytes, from: 22) == 24)
        #expect(RequestHead.endOfHead(in: Array(bytes.prefix(23))) == nil)
    }

    // MARK: - Body framing

    private func length(_ fields: String, maximum: Int = 100) -> Result<Int, RequestRejection> {
        do throws(RequestRejection) {
            let head = try parse("POST /ingest HTTP/1.1\r\n" + fields + "\r\n")
            return .success(try head.bodyLength(maximum: maximum))
        } catch {
            return .failure(error)
        }
    }

    func readsTheContentLength() {
        #expect(length("Content-Length: 42\r\n") == .success(42))
        #expect(length("Content-Length: 0\r\n") == .success(0))
        #expect(length("Content-Length: 007\r\n") == .success(7))
        #expect(length("Content-Length: 5\r\ncontent-length: 5\r\n") == .success(5))
        #expect(length("Content-Length: 5, 5\r\n") == .success(5))
    }

    @Test(arguments: [
        ("", HTTPStatus.lengthRequired),
        ("Transfer-Encoding: chunked\r\n", .lengthRequired),
        ("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", .lengthRequired),
        ("Content-Length: -1\r\n", .badRequest),
        ("Content-Length: 1e3\r\n", .badRequest),
        ("Content-Length: \r\n", .badRequest),
        ("Content-Length: 5\r\nContent-Length: 6\r\n", .badRequest),
        ("Content-Length: 5, 6\r\n", .badRequest),
        ("Content-Length: 101\r\n", .contentTooLarge),
        ("Content-Length: 99999999999999999999999999\r\n", .contentTooLarge),
    ]) func refusesBadFraming(_ fields: String, _ expected: HTTPStatus) {
        guard case let .failure(rejection) = length(fields) else {
            Issue.record("accepted \(fields.debugDescription)")
            return
        }
        #expect(rejection.status == expected)
    }
}

/// The checks ``RequestHeadParsingTests/checks(_:)`` runs.
private let requestHeadParsingTestsChecks: [Check<RequestHeadParsingTests>] = [
    Check("parsesARequestLineAndFields", RequestHeadParsingTests.parsesARequestLineAndFields),
    Check("refusesTooLongTargetsAndTooManyFields", RequestHeadParsingTests.refusesTooLongTargetsAndTooManyFields),
    Check("findsTheEndOfAHeadSplitAcrossReads", RequestHeadParsingTests.findsTheEndOfAHeadSplitAcrossReads),
    Check("readsTheContentLength", RequestHeadParsingTests.readsTheContentLength),
]
