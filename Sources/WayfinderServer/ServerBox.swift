import Synchronization
import WayfinderHTTP

/// Lets the API read the server's connection count although the server is made after the API.
final class ServerBox: Sendable {
    private let value = Mutex<HTTPServer?>(nil)
    var server: HTTPServer? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
