import HealthCore
import IngestHTTP
import TextSupport

/// The routes of `hkctl serve`: `POST /ingest` stores a Health Auto Export body pushed with a token, `GET /health`
/// says the server runs. Nothing else is served, and no data is ever read back: the server is write-only.
struct IngestHandler: RequestHandling {
    /// The paths served (the only ones the log names).
    static let paths: Set<String> = ["/ingest", "/health"]

    let ingestor: any PushIngesting

    func screen(_ head: RequestHead) -> Screening {
        switch head.path {
        case "/health":
            guard head.method == "GET" else { return .reject(Self.methodNotAllowed(head, allow: "GET")) }
            return .withoutBody
        case "/ingest":
            guard head.method == "POST" else { return .reject(Self.methodNotAllowed(head, allow: "POST")) }
            let source: String
            switch authenticate(head) {
            case let .refused(response): return .reject(response)
            case let .source(name): source = name
            }
            guard Self.isJSON(head.value("Content-Type")) else {
                var response = HTTPResponse.error(.unsupportedMediaType, "The body must be JSON, sent with 'Content-Type: application/json' (Health Auto Export: Export Format JSON).")
                response.logSource = source
                return .reject(response)
            }
            // A compressed body would be read as JSON and refused with a misleading reason, and a body labelled
            // compressed that is not would be stored on a guess: only an unencoded body is taken.
            if let encoding = head.value("Content-Encoding"), encoding.lowercased() != "identity" {
                var response = HTTPResponse.error(.unsupportedMediaType, "The body is sent with 'Content-Encoding: \(encoding)'; "
                                                  + "send it uncompressed (no Content-Encoding).")
                response.logSource = source
                return .reject(response)
            }
            return .withBody
        default:
            return .reject(.error(.notFound, "This server serves only POST /ingest (and GET /health)."))
        }
    }

    func respond(to head: RequestHead, body: [UInt8]) -> HTTPResponse {
        guard head.path == "/ingest" else { return HTTPResponse(status: .ok, json: "{\"status\":\"ok\"}") }
        // Screened already; the token is looked up again in case it was revoked while the body arrived.
        let source: String
        switch authenticate(head) {
        case let .refused(response): return response
        case let .source(name): source = name
        }
        var response: HTTPResponse
        do {
            let receipt = try ingestor.store(body, through: source)
            response = HTTPResponse(status: .ok, json: receipt.json)
            response.logNote = "added \(receipt.added), replaced \(receipt.replaced)" + (receipt.refused > 0 ? ", refused \(receipt.refused)" : "")
            response.logEvenWhenQuiet = receipt.refused > 0
        } catch let PushRefusal.badPayload(reason) {
            response = .error(.badRequest, reason + " Nothing was stored.")
            response.logNote = "invalid payload"
        } catch let PushRefusal.notPermitted(message) {
            response = .error(.forbidden, message + " Nothing was stored.")
            response.logNote = "not permitted"
        } catch let error as StoreError {
            switch error {
            case .busy, .notMounted:
                response = Self.retryLater(error)
            default:
                response = .error(.internalServerError, "The store could not be written: \(CLIErrorWording.message(for: error)) Nothing more was stored.")
            }
            response.logNote = "\(CLIErrorWording.message(for: error))"
        } catch {
            response = .error(.internalServerError, "The push could not be stored: \(CLIErrorWording.message(for: error))")
            response.logNote = "\(CLIErrorWording.message(for: error))"
        }
        response.logSource = source
        return response
    }

    /// The source whose token the request carries, or the 401 (or, when the token store cannot be read, 500) answer.
    private func authenticate(_ head: RequestHead) -> Authentication {
        let challenge = [HeaderField(name: "WWW-Authenticate", value: "Bearer realm=\"hkctl\"")]
        let values = head.values("Authorization")
        guard values.count == 1, let value = values.first else {
            return .refused(.error(.unauthorized, values.isEmpty
                ? "The request has no 'Authorization: Bearer TOKEN' header; make a token with 'hkctl serve token create NAME' and add the header in the app."
                : "The request has more than one Authorization header; send one.", fields: challenge))
        }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .refused(.error(.unauthorized, "The Authorization header must be 'Bearer TOKEN'.", fields: challenge))
        }
        let token = String(parts[1]).trimmingSpaces()
        do {
            guard let source = try ingestor.source(forToken: token) else {
                return .refused(.error(.unauthorized, "The token is not valid (revoked, or mistyped); 'hkctl serve token list' shows the names that have one.", fields: challenge))
            }
            return .source(source)
        } catch StoreError.notMounted(let path, let mountPoint) {
            // The store's disk is not mounted: its tokens are there, and it may come back. The client is not known
            // yet, so the answer names no path; the log line does.
            var response = HTTPResponse.error(.serviceUnavailable, "The store is not available now (the disk it is on is not "
                                              + "mounted); nothing was stored; send it again later.",
                                              fields: [HeaderField(name: "Retry-After", value: "10")])
            response.logNote = CLIErrorWording.message(for: StoreError.notMounted(path, mountPoint: mountPoint))
            return .refused(response)
        } catch {
            var response = HTTPResponse.error(.internalServerError, "The tokens cannot be read: \(CLIErrorWording.message(for: error))")
            response.logNote = "\(CLIErrorWording.message(for: error))"
            return .refused(response)
        }
    }

    /// Who a request's token stands for, or the answer that refuses it.
    private enum Authentication {
        case source(String)
        case refused(HTTPResponse)
    }

    /// 503 with Retry-After, for what passes: another writer holding the store, the store's disk not mounted now.
    private static func retryLater(_ error: StoreError) -> HTTPResponse {
        .error(.serviceUnavailable, "\(CLIErrorWording.message(for: error)) Nothing was stored; send it again.",
               fields: [HeaderField(name: "Retry-After", value: "10")])
    }

    private static func methodNotAllowed(_ head: RequestHead, allow: String) -> HTTPResponse {
        .error(.methodNotAllowed, "\(head.path) answers \(allow) only, not \(head.method).", fields: [HeaderField(name: "Allow", value: allow)])
    }

    /// Whether a Content-Type is JSON: `application/json`, with parameters (`; charset=utf-8`) or not.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces() } ?? ""
        return mediaType.lowercased() == "application/json"
    }
}
