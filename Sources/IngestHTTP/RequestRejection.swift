/// Why a request is refused before its handler sees it: the status to answer with and one sentence for the client.
///
/// ``clientGone`` is the one rejection that gets no answer: the client closed the connection (or it failed) before
/// its request was whole, so there is nobody to answer.
package struct RequestRejection: Error, Equatable, Sendable {
    /// The status of the answer.
    package var status: HTTPStatus
    /// What was wrong and how to fix it, as one sentence.
    package var message: String
    /// Whether an answer is sent at all.
    package var answers = true

    package init(_ status: HTTPStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// The client went away before its request was whole: nothing to answer.
    package static let clientGone: RequestRejection = {
        var rejection = RequestRejection(.badRequest, "The client closed the connection before the request was whole.")
        rejection.answers = false
        return rejection
    }()

    /// The answer to send: the status with `{"error": message}`.
    package var response: HTTPResponse { HTTPResponse.error(status, message) }
}
