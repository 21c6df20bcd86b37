import Synchronization
import WayfinderHTTP

/// One request's answer, whenever it comes: at once (the handler returns it), or later (the
/// handler returns `HTTPResponse.later` and the answer goes through the responder).
///
/// The API's operations answer through a completion (their store calls may finish later, on
/// the request's loop); this turns that into what the HTTP layer expects. The first answer wins.
final class PendingAnswer: Sendable {
    private enum State {
        case waiting
        case answered(HTTPResponse)
        case attached(HTTPResponder)
        case done
    }

    private let state = Mutex(State.waiting)
    private let claimed = Atomic<Bool>(false)

    /// True for the first caller only: the one whose answer counts.
    func claim() -> Bool {
        !claimed.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Gives the answer (`.later` ones are started on the responder).
    func give(_ response: HTTPResponse) {
        let responder = state.withLock { state -> HTTPResponder? in
            switch state {
            case .waiting:
                state = .answered(response)
                return nil
            case .attached(let responder):
                state = .done
                return responder
            case .answered, .done:
                return nil
            }
        }
        if let responder { Self.send(response, to: responder) }
    }

    /// What the handler returns: the answer if it was given already, else `.later`.
    func response() -> HTTPResponse {
        let given = state.withLock { state -> HTTPResponse? in
            guard case .answered(let response) = state else { return nil }
            state = .done
            return response
        }
        return given ?? .later { [self] responder in attach(responder) }
    }

    private func attach(_ responder: HTTPResponder) {
        let given = state.withLock { state -> HTTPResponse? in
            if case .answered(let response) = state {
                state = .done
                return response
            }
            state = .attached(responder)
            return nil
        }
        if let given { Self.send(given, to: responder) }
    }

    private static func send(_ response: HTTPResponse, to responder: HTTPResponder) {
        if case .later(let start) = response.body { start(responder) } else { responder.respond(response) }
    }
}
