/// An event loop a store may do its IO on, so that a caller on that loop never waits for it: the
/// HTTP server's loops (through the API) or a store's own IO thread.
///
/// A store's non-blocking methods (`SessionStore.load(id:key:now:on:_:)` and the others) take the
/// caller's loop: a networked store keeps its connections there and is told, through
/// ``watch(_:writing:_:)``, when their replies arrive; a store that writes in batches commits at
/// ``atEndOfRound(_:)``.
///
/// - Important: Every method is called on the loop's thread, and every block runs there.
public protocol StoreLoop: AnyObject, Sendable {
    /// Calls `handler` whenever `fd` is readable (or hung up or failed: the next read says which)
    /// and, while `writing` is set, writable. The caller owns `fd` and unwatches it before closing.
    /// - Returns: false if the loop refused the descriptor.
    @discardableResult
    func watch(_ fd: Int32, writing: Bool, _ handler: @escaping (_ readable: Bool, _ writable: Bool) -> Void) -> Bool

    /// Turns the interest in `fd`'s writability on or off.
    func update(_ fd: Int32, writing: Bool)

    /// Stops watching `fd`.
    func unwatch(_ fd: Int32)

    /// Runs `body` once when the loop has handled the events of the current round (every request
    /// it read), before the answers given meanwhile are sent.
    func atEndOfRound(_ body: @escaping () -> Void)

    /// Runs `body` once, `milliseconds` from now.
    func schedule(afterMilliseconds milliseconds: Int, _ body: @escaping () -> Void)

    /// Runs `body` when the loop stops, to close what the store keeps on it.
    func onStop(_ body: @escaping () -> Void)
}
