import Synchronization
import WayfinderCore

/// The sample app's outgoing mail: each message one line of JSON in a file the app owns (or in
/// memory only). What the profile's "email me my to-dos" effect and the account codes ask of.
///
/// A message is sent once per key — the effect's ``EffectCall/key`` — so a call repeated after
/// a restart (an effect in flight when the server died runs again) sends nothing twice. An
/// address gets at most ``perAddressPerDay`` messages a day and a session asks for at most
/// ``perSession``: no one can make the app flood a mailbox.
public final class Mailer: Sendable {
    /// One message as sent.
    public struct Message: Codable, Sendable, Equatable {
        /// Sent once per key.
        public var key: String
        /// The address it went to.
        public var to: String
        /// Its subject.
        public var subject: String
        /// Its text.
        public var body: String
    }

    /// What sending came to: `sent` and `alreadySent` mean the message is on its way.
    enum Receipt: String, Codable, Sendable, Hashable {
        case sent, alreadySent, limited
    }

    /// Messages an address gets in a day at most.
    static let perAddressPerDay = 20
    /// Messages one session asks for at most.
    static let perSession = 10
    /// How many recent keys a mailer remembers (at least), so its memory stays bounded.
    static let remembered = 10_000
    /// Messages kept for ``outbox`` (the newest).
    static let kept = 100

    /// The keys of the messages sent and who got how many, bounded.
    private struct Sent {
        var keys: Set<String> = []
        var order: [String] = []
        /// When each address got its messages of the last day.
        var times: [String: [Duration]] = [:]
        var perSession: [String: Int] = [:]
        var outbox: [Message] = []

        mutating func insert(_ key: String) {
            keys.insert(key)
            order.append(key)
            // Forget the oldest half at once: a repeat comes soon after its first call, not later.
            guard order.count > 2 * Mailer.remembered else { return }
            for old in order.prefix(Mailer.remembered) { keys.remove(old) }
            order.removeFirst(Mailer.remembered)
            perSession = [:]
        }
    }

    private let sent: Mutex<Sent>
    private let path: String?
    private let clock: DemoClock

    /// Mail kept in memory only.
    public convenience init(clock: DemoClock = .system) { self.init(loading: nil, clock: clock) }

    /// - Parameter path: the mail file (created on the first message); its messages are loaded.
    public convenience init(path: String, clock: DemoClock = .system) { self.init(loading: path, clock: clock) }

    private init(loading path: String?, clock: DemoClock) {
        self.path = path
        self.clock = clock
        var sent = Sent()
        for message in path.map({ JSONLinesFile.decode(Message.self, from: $0) }) ?? [] { sent.insert(message.key) }
        self.sent = Mutex(sent)
    }

    /// The newest messages sent (at most ``kept``), oldest first: what tests read codes from.
    public var outbox: [Message] { sent.withLock { $0.outbox } }

    /// The six-digit code in the newest message to `address` (sign-up, reset, unlock), if any.
    public func code(to address: String) -> String? {
        outbox.last { $0.to == address }?.body.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }.map(String.init)
    }

    /// Sends `message` unless one with its key was sent or a limit is reached (the limit of
    /// `session` too, when given); durable before it returns.
    func send(_ message: Message, session: String? = nil) throws -> Receipt {
        let now = clock.now()
        return try sent.withLock { sent in
            if sent.keys.contains(message.key) { return .alreadySent }
            let today = (sent.times[message.to] ?? []).filter { now - $0 < .seconds(24 * 3600) }
            if today.count >= Self.perAddressPerDay { return .limited }
            if let session, sent.perSession[session, default: 0] >= Self.perSession { return .limited }
            if let path { try JSONLinesFile.append(message, to: path) }
            sent.insert(message.key)
            sent.times[message.to] = today + [now]
            if sent.times.count > Self.remembered { sent.times = sent.times.filter { now - ($0.value.last ?? .zero) < .seconds(24 * 3600) } }
            if let session { sent.perSession[session, default: 0] += 1 }
            sent.outbox.append(message)
            if sent.outbox.count > Self.kept { sent.outbox.removeFirst() }
            return .sent
        }
    }

    /// Sends a one-time code: "`why`, enter this code: 123456". `key` nil is a key of its own.
    func send(code: String, to address: String, subject: String, why: String, key: String?) throws -> Receipt {
        let key = key ?? "code/" + String(UInt64.random(in: .min ... .max), radix: 16)
        return try send(Message(key: key, to: address, subject: subject, body: "\(why), enter this code: \(code). It is valid for 15 minutes."))
    }
}
