import HealthCore
import IngestHTTP
import Testing
import TestKit
@testable import HKCtlCommands

/// A push ingestor that knows one token and records what it stored.
private final class FakeIngestor: PushIngesting, @unchecked Sendable {
    var stored: [(body: [UInt8], source: String)] = []
    var failure: Error?
    var tokenLookups = 0

    func source(forToken token: String) throws -> String? {
        tokenLookups += 1
        return token == "good-token" ? "iphone" : nil
    }

    func store(_ body: [UInt8], through source: String) throws -> PushReceipt {
        if let failure { throw failure }
        stored.append((body, source))
        return PushReceipt(json: "{\"added\":3}", added: 3, replaced: 1)
    }
}

/// The routes, credentials, content type and error answers of `hkctl serve`, without a network or a store.
struct IngestHandlerTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: ingestHandlerTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func head(_ method: String = "POST", _ target: String = "/ingest", _ fields: [(String, String)] = [
        ("Authorization", "Bearer good-token"), ("Content-Type", "application/json"),
    ]) -> RequestHead {
        RequestHead(method: method, target: target, version: "HTTP/1.1", fields: fields.map { HeaderField(name: $0.0, value: $0.1) })
    }

    private func status(_ screening: Screening) -> HTTPStatus? {
        if case let .reject(response) = screening { return response.status }
        return nil
    }

    func routesOnlyIngestAndHealth() {
        let handler = IngestHandler(ingestor: FakeIngestor())
        expectEqual(handler.screen(head()), .withBody)
        expectEqual(handler.screen(head("GET", "/health", [])), .withoutBody)
        expectEqual(handler.respond(to: head("GET", "/health", []), body: []).status, .ok)
        expectEqual(status(handler.screen(head("GET", "/ingest"))), .methodNotAllowed)
        expectEqual(status(handler.screen(head("POST", "/health"))), .methodNotAllowed)
        expectEqual(status(handler.screen(head("HEAD", "/health", []))), .methodNotAllowed)
        expectEqual(status(handler.screen(head("POST", "/ingest/"))), .notFound)
        expectEqual(status(handler.screen(head("GET", "/"))), .notFound)
        // A query string does not change the route.
        expectEqual(handler.screen(head("POST", "/ingest?from=phone")), .withBody)
    }

    @Test(arguments: [
        [("Content-Type", "application/json")],
        [("Authorization", "Bearer bad-token"), ("Content-Type", "application/json")],
        [("Authorization", "Basic Z29vZC10b2tlbg=="), ("Content-Type", "application/json")],
        [("Authorization", "good-token"), ("Content-Type", "application/json")],
        [("Authorization", "Bearer good-token"), ("Authorization", "Bearer good-token"), ("Content-Type", "application/json")],
    ]) func refusesMissingOrWrongTokensWith401(_ fields: [(String, String)]) {
        let ingestor = FakeIngestor()
        let handler = IngestHandler(ingestor: ingestor)
        guard case let .reject(response) = handler.screen(head("POST", "/ingest", fields)) else {
            Issue.record("accepted")
            return
        }
        expectEqual(response.status, .unauthorized)
        #expect(response.fields.contains { $0.name == "WWW-Authenticate" })
        // Whatever was sent as a token appears nowhere in the answer or its log note.
        let text = String(decoding: response.bytes, as: UTF8.self) + response.logNote + response.logSource
        #expect(!text.contains("bad-token") && !text.contains("good-token"))
        #expect(ingestor.stored.isEmpty)
    }

    func theBearerSchemeIsCaseInsensitive() {
        let handler = IngestHandler(ingestor: FakeIngestor())
        expectEqual(handler.screen(head("POST", "/ingest", [("Authorization", "bearer good-token"), ("Content-Type", "application/json")])), .withBody)
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON"])
    func acceptsJSONContentTypes(_ type: String) {
        #expect(IngestHandler.isJSON(type))
    }

    @Test(arguments: [nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"])
    func refusesOtherContentTypesWith415(_ type: String?) {
        let handler = IngestHandler(ingestor: FakeIngestor())
        var fields = [("Authorization", "Bearer good-token")]
        if let type { fields.append(("Content-Type", type)) }
        expectEqual(status(handler.screen(head("POST", "/ingest", fields))), .unsupportedMediaType)
    }

    /// A body with a Content-Encoding is refused (415) before it is read, naming the encoding: gzip would be read as
    /// JSON and refused with a misleading reason, and a plain body labelled compressed would be stored on a guess.
    func aCompressedBodyIsRefusedWith415() {
        let handler = IngestHandler(ingestor: FakeIngestor())
        for encoding in ["gzip", "br", "deflate", "GZIP"] {
            let screening = handler.screen(head("POST", "/ingest", [("Authorization", "Bearer good-token"), ("Content-Type", "application/json"),
                                                                    ("Content-Encoding", encoding)]))
            expectEqual(status(screening), .unsupportedMediaType, "\(encoding)")
        }
        expectEqual(handler.screen(head("POST", "/ingest", [("Authorization", "Bearer good-token"), ("Content-Type", "application/json"),
                                                            ("Content-Encoding", "identity")])), .withBody)
    }

    func storesThroughTheTokensSourceAndAnswersWithTheReceipt() {
        let ingestor = FakeIngestor()
        let handler = IngestHandler(ingestor: ingestor)
        let response = handler.respond(to: head(), body: Array("{}".utf8))
        expectEqual(response.status, .ok)
        expectEqual(String(decoding: response.body, as: UTF8.self), "{\"added\":3}\n")
        expectEqual(response.logSource, "iphone")
        expectEqual(response.logNote, "added 3, replaced 1")
        expectEqual(ingestor.stored.map(\.source), ["iphone"])
    }

    func aTokenRevokedWhileTheBodyArrivedStoresNothing() {
        let ingestor = FakeIngestor()
        let handler = IngestHandler(ingestor: ingestor)
        let response = handler.respond(to: head("POST", "/ingest", [("Authorization", "Bearer revoked"), ("Content-Type", "application/json")]), body: [])
        expectEqual(response.status, .unauthorized)
        #expect(ingestor.stored.isEmpty)
    }

    @Test(arguments: [
        (PushRefusal.badPayload("Not JSON at line 1.") as Error, HTTPStatus.badRequest),
        (PushRefusal.notPermitted("Source 'iphone' may not write steps yet; hkctl auth grant iphone --share steps"), .forbidden),
        (StoreError.busy("/s", waitedSeconds: 10), .serviceUnavailable),
        (StoreError.notMounted("/media/disk/s", mountPoint: "/media/disk"), .serviceUnavailable),
        (StoreError.writeFailed("/s", reason: "disk full"), .internalServerError),
    ]) func mapsRefusalsAndStoreErrorsToStatuses(_ error: Error, _ expected: HTTPStatus) {
        let ingestor = FakeIngestor()
        ingestor.failure = error
        let response = IngestHandler(ingestor: ingestor).respond(to: head(), body: [])
        expectEqual(response.status, expected)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.hasPrefix("{\"error\":"))
        if case let PushRefusal.notPermitted(message) = error { #expect(body.contains(message)) }
    }
}

/// The checks ``IngestHandlerTests/checks(_:)`` runs.
private let ingestHandlerTestsChecks: [Check<IngestHandlerTests>] = [
    Check("routesOnlyIngestAndHealth", IngestHandlerTests.routesOnlyIngestAndHealth),
    Check("theBearerSchemeIsCaseInsensitive", IngestHandlerTests.theBearerSchemeIsCaseInsensitive),
    Check("aCompressedBodyIsRefusedWith415", IngestHandlerTests.aCompressedBodyIsRefusedWith415),
    Check("storesThroughTheTokensSourceAndAnswersWithTheReceipt",
          IngestHandlerTests.storesThroughTheTokensSourceAndAnswersWithTheReceipt),
    Check("aTokenRevokedWhileTheBodyArrivedStoresNothing",
          IngestHandlerTests.aTokenRevokedWhileTheBodyArrivedStoresNothing),
]
