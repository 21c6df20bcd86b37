import Synchronization
import WayfinderCore

/// The sample app's outgoing mail: each message one line of JSON in a file the app owns (or in
/// memory only). What the profile's "email me my to-dos" effect asks of.
///
/// A message is sent once per key — the effect's ``EffectCall/key`` — so a call repeated after
/// a restart (an effect in flight when the server died runs again) sends nothing twice.
public final class Mailer: Sendable {
    /// One message as sent.
    struct Message: Codable, Sendable, Equatable {
        var key: String
        var to: String
        var subject: String
        var body: String
    }

    /// What sending came to: both mean the message is on its way.
    enum Receipt: String, Codable, Sendable, Hashable {
        case sent, alreadySent
    }

    /// The keys of the messages sent, oldest first: the last ``remembered`` of them.
    private struct Sent {
        var keys: Set<String> = []
        var order: [String] = []

        mutating func insert(_ key: String) {
            keys.insert(key)
            order.append(key)
            // Forget the oldest half at once: a repeat comes soon after its first call, not later.
            guard order.count > 2 * Mailer.remembered else { return }
            for old in order.prefix(Mailer.remembered) { keys.remove(old) }
            order.removeFirst(Mailer.remembered)
        }
    }

    /// How many recent keys a mailer remembers (at least), so its memory stays bounded.
    static let remembered = 10_000

    private let sent: Mutex<Sent>
    private let path: String?

    /// Mail kept in memory only.
    public convenience init() { self.init(loading: nil) }

    /// - Parameter path: the mail file (created on the first message); its messages are loaded.
    public convenience init(path: String) { self.init(loading: path) }

    private init(loading path: String?) {
        self.path = path
        var sent = Sent()
        for message in path.map({ JSONLinesFile.decode(Message.self, from: $0) }) ?? [] { sent.insert(message.key) }
        self.sent = Mutex(sent)
    }

    /// Sends `message` unless one with its key was sent; durable before it returns.
    func send(_ message: Message) throws -> Receipt {
        try sent.withLock { sent in
            if sent.keys.contains(message.key) { return .alreadySent }
            if let path { try JSONLinesFile.append(message, to: path) }
            sent.insert(message.key)
            return .sent
        }
    }
}
