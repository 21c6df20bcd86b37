import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `GET .../events` request, its answer delivered piece by piece as it arrives.
///
/// `URLSession` has no streaming `bytes(for:)` on Linux, so this is a data-task delegate that
/// forwards the response, each piece of body, and the end into an `AsyncStream`.
final class EventConnection: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What happened on the connection, in order.
    enum Signal: Sendable {
        case response(status: Int, headers: [String: String])
        case bytes(Data)
        /// The transfer ended: cleanly (nil) or with a failure.
        case ended(TransportFailure?)
    }

    /// The connection's signals; ends after ``Signal/ended(_:)``.
    let signals: AsyncStream<Signal>
    private let continuation: AsyncStream<Signal>.Continuation
    private var session: URLSession?
    private var task: URLSessionDataTask?

    /// Starts the request at once.
    init(_ request: URLRequest) {
        (signals, continuation) = AsyncStream.makeStream(of: Signal.self)
        super.init()
        let settings = URLSessionConfiguration.ephemeral
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.timeoutIntervalForRequest = request.timeoutInterval
        // The delegate queue is serial (nil: the session makes one), so signals keep their order.
        let session = URLSession(configuration: settings, delegate: self, delegateQueue: nil)
        let task = session.dataTask(with: request)
        self.session = session
        self.task = task
        task.resume()
    }

    /// Stops the transfer (the signals then end).
    func cancel() { task?.cancel() }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let http = response as? HTTPURLResponse {
            continuation.yield(.response(status: http.statusCode, headers: Transport.headers(of: http)))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.bytes(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let failure = error.map { error in
            TransportFailure(code: (error as? URLError)?.code.rawValue ?? 0, message: error.localizedDescription)
        }
        continuation.yield(.ended(failure))
        continuation.finish()
        // A session keeps its delegate until invalidated: let both go.
        session.finishTasksAndInvalidate()
    }
}
