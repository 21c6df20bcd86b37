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

    private let sent: Mutex<[Message]>
    private let path: String?

    /// Mail kept in memory only.
    public convenience init() { self.init(loading: nil) }

    /// - Parameter path: the mail file (created on the first message); its messages are loaded.
    public convenience init(path: String) { self.init(loading: path) }

    private init(loading path: String?) {
        self.path = path
        sent = Mutex(path.map { JSONLinesFile.decode(Message.self, from: $0) } ?? [])
    }

    /// Every message sent, oldest first.
    var messages: [Message] { sent.withLock { $0 } }

    /// Sends `message` unless one with its key was sent; durable before it returns.
    func send(_ message: Message) throws -> Receipt {
        try sent.withLock { sent in
            if sent.contains(where: { $0.key == message.key }) { return .alreadySent }
            if let path { try JSONLinesFile.append(message, to: path) }
            sent.append(message)
            return .sent
        }
    }
}
