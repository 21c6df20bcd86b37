/// Everything the client's calls throw: a refusal from the server, no answer at all, an answer
/// outside the contract, or cancellation.
public enum WayfinderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server refused, with problem details; ``Problem/code`` says why.
    case problem(Problem)
    /// No answer: the server could not be reached or the connection broke, after the retries
    /// ``RetryPolicy`` allows. The change may have been applied: to send it again safely, pass
    /// the same `idempotencyKey:` as the first time (choose one to be able to).
    case transport(TransportFailure)
    /// An answer the contract does not describe (not JSON, or not the expected shape).
    case invalidResponse(status: Int, detail: String)
    /// The request could not be sent as asked (a server URL or a param that cannot be encoded).
    case invalidRequest(String)
    /// The calling task was cancelled.
    case cancelled

    /// The problem, if the server refused.
    public var problem: Problem? { if case .problem(let problem) = self { problem } else { nil } }

    /// The problem's code, if the server refused.
    public var code: ProblemCode? { problem?.code }

    /// Whether the session is gone for good (ended, expired, or the token is not its token): the
    /// app should start a new one.
    public var sessionIsGone: Bool { code == .notFound }

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .problem(let problem):
            "\(problem.status) \(problem.code)" + (problem.detail.map { ": \($0)" } ?? "")
        case .transport(let failure): "no answer: \(failure.message)"
        case .invalidResponse(let status, let detail): "unexpected answer (\(status)): \(detail)"
        case .invalidRequest(let detail): "invalid request: \(detail)"
        case .cancelled: "cancelled"
        }
    }
}

/// Why a request got no answer.
public struct TransportFailure: Sendable, Hashable {
    /// The `URLError` code (`-1004` could not connect, `-1005` connection lost, `-1001` timed
    /// out), or 0 for another error.
    public var code: Int
    /// What the networking stack said.
    public var message: String

    /// A failure with a `URLError` code and a message.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}
