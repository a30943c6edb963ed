// The error body is the contract's (StorekeeperContract's ServerErrorBody); how a client treats a status is the runtime's.
extension ServerResponse {
    /// The longest server message a failure quotes, in characters; a longer
    /// one is cut, so that a failure stays a sentence.
    static let quotedMessageLimit = 300

    /// The answer's error body, when it is one (the documented shape, with
    /// string members); `nil` for any other body.
    package var errorBody: ServerErrorBody? {
        ServerErrorBody(json: body)
    }

    /// Whether the status says trying again later may succeed: 401 (no or an
    /// expired credential: the app gets a new one), 408, 429 and 5xx.
    package var isTransientStatus: Bool {
        switch status {
        case 401, 408, 429, 500..<600: true
        default: false
        }
    }

    /// The failure this answer to `request` is, or `nil` for a 2xx status.
    /// Its reason names the request's method and path, the status, and the
    /// server's error code and message when the body has them; `action` says
    /// what the request was for ("keep the record of transaction '42'").
    public func failure(for request: ServerRequest, doing action: String) -> StepFailure? {
        if (200..<300).contains(status) { return nil }
        var detail = "HTTP \(status)"
        if let error = errorBody {
            let message = error.message.count > Self.quotedMessageLimit
                ? String(error.message.prefix(Self.quotedMessageLimit)) + "…" : error.message
            detail += ", \(error.code): \(message)"
        } else if status == 401 {
            detail += ": no credential, or an expired one"
        }
        let request = "\(request.method) \(request.path)"
        return isTransientStatus
            ? .transient("\(request): the server could not \(action) now (\(detail))")
            : .permanent("\(request): the server refused to \(action) (\(detail))")
    }

    /// Returns when the status is 2xx, else throws ``failure(for:doing:)``.
    public func check(_ request: ServerRequest, doing action: String) throws(StepFailure) {
        if let failure = failure(for: request, doing: action) { throw failure }
    }
}
