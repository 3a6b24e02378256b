/// The HTTP status codes the server answers with, and their reason phrases.
package enum HTTPStatus: Int, Sendable, Equatable {
    case ok = 200
    case badRequest = 400
    case unauthorized = 401
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case lengthRequired = 411
    case contentTooLarge = 413
    case uriTooLong = 414
    case unsupportedMediaType = 415
    case unprocessableContent = 422
    case headerFieldsTooLarge = 431
    case internalServerError = 500
    case serviceUnavailable = 503

    /// The reason phrase of the status line (RFC 9110).
    package var reason: String {
        switch self {
        case .ok: return "OK"
        case .badRequest: return "Bad Request"
        case .unauthorized: return "Unauthorized"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .lengthRequired: return "Length Required"
        case .contentTooLarge: return "Content Too Large"
        case .uriTooLong: return "URI Too Long"
        case .unsupportedMediaType: return "Unsupported Media Type"
        case .unprocessableContent: return "Unprocessable Content"
        case .headerFieldsTooLarge: return "Request Header Fields Too Large"
        case .internalServerError: return "Internal Server Error"
        case .serviceUnavailable: return "Service Unavailable"
        }
    }
}
