import WayfinderCore
import WayfinderStore

/// Decoded states and their rendered bodies by session and revision, so reading or changing
/// a session that was just used skips decoding and rendering.
///
/// Not a second source of truth: an entry is used only for the exact revision it holds, and a
/// revision's state and rendering never change (the store's compare-and-set guarantees a
/// revision names one state, and the API records a revision only once the store answered that
/// it is stored). The session's last stored revision as this instance knows it (`known`) is a
/// hint for a mutation, which the store's compare-and-set checks. Bounded: a full shard is
/// simply cleared.
final class SessionCache: Sendable {
    /// A class, so a lookup retains one reference instead of copying every field out of the
    /// table. `@unchecked Sendable`: entries are read and written only under their shard's lock.
    final class Entry: @unchecked Sendable {
        var revision: Int
        var state: SessionState?
        var body: [UInt8]?
        /// The screens of the session's last rendering, whatever its revision (a memo checks
        /// itself against the state it is used for).
        var memo: RenderMemo?
        /// The start of the session's last stored encoding, whatever its revision.
        var storedMemo: StateCodec.Memo?
        /// The last bearer token that matched the session's stored hash, with that hash: the
        /// same token again needs no SHA-256 (see `tokenWasVerified`).
        var verifiedToken: String?
        var verifiedHash: [UInt8]?
        /// The session as this instance last read or stored it, without its state's bytes.
        var known: StoredSession?

        init(revision: Int, state: SessionState?, body: [UInt8]?, memo: RenderMemo?) {
            self.revision = revision
            self.state = state
            self.body = body
            self.memo = memo
        }

        func merge(revision: Int, state: SessionState?, body: [UInt8]?, memo: RenderMemo?) {
            if self.revision != revision {
                self.revision = revision
                self.state = nil
                self.body = nil
            }
            if let state { self.state = state }
            if let body { self.body = body }
            if let memo { self.memo = memo }
        }
    }

    private static let shardCount = 32
    private let shards: [Locked<[SessionKey: Entry]>]
    private let perShard: Int

    init(capacity: Int) {
        perShard = max(0, capacity / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Locked([:]) }
    }

    private func shard(_ key: SessionKey) -> Locked<[SessionKey: Entry]> {
        shards[Int(key.shardHint % UInt(Self.shardCount))]
    }

    /// The decoded state of `revision`, if cached.
    func state(_ key: SessionKey, revision: Int) -> SessionState? {
        lookup(key, revision: revision) { $0.state }
    }

    /// The rendered body of `revision`, if cached.
    func body(_ key: SessionKey, revision: Int) -> [UInt8]? {
        lookup(key, revision: revision) { $0.body }
    }

    /// The session's render memo, from any revision.
    func memo(_ key: SessionKey) -> RenderMemo? {
        lookup(key, revision: nil) { $0.memo }
    }

    /// The memo of the session's last stored encoding, from any revision.
    func storedMemo(_ key: SessionKey) -> StateCodec.Memo? {
        lookup(key, revision: nil) { $0.storedMemo }
    }

    /// Reads one field of an entry under the lock (copying only what is asked for); with a
    /// revision, only from an entry of that revision.
    private func lookup<T: Sendable>(_ key: SessionKey, revision: Int?, _ field: (Entry) -> T?) -> T? {
        guard perShard > 0 else { return nil }
        return shard(key).withLock { table in
            guard let entry = table[key], revision == nil || entry.revision == revision else { return nil }
            return field(entry)
        }
    }

    /// Whether `token` is the token last verified for the session against `tokenHash` (the
    /// stored hash must still be that one). Compared in constant time, like the hashes.
    ///
    /// - Note: This keeps the raw token of sessions in use in memory (never on disk: the store
    ///   has only hashes), which the server's request buffers hold anyway; it spares every
    ///   request of a session after its first one a SHA-256 (an eighth of a GET's instructions).
    func tokenWasVerified(_ key: SessionKey, token: Substring, tokenHash: [UInt8]) -> Bool {
        guard let (known, hash) = lookup(key, revision: nil, { entry in
            entry.verifiedToken.flatMap { token in entry.verifiedHash.map { (token, $0) } }
        }) else { return false }
        return hash == tokenHash && Credentials.constantTimeEqual(known, token)
    }

    /// Remembers that `token` matched `tokenHash` (if the session has an entry).
    func noteVerified(_ key: SessionKey, token: Substring, tokenHash: [UInt8]) {
        guard perShard > 0 else { return }
        shard(key).withLock { table in
            guard let entry = table[key] else { return }
            entry.verifiedToken = String(token)
            entry.verifiedHash = tokenHash
        }
    }

    /// The session as this instance last read or stored it (its `state` bytes left out): another
    /// instance may have changed it since.
    func known(_ key: SessionKey) -> StoredSession? {
        lookup(key, revision: nil) { $0.known }
    }

    /// Remembers `session` (read from or stored in the store) as the last known (if the session has
    /// an entry, or there is room for one).
    func noteKnown(_ key: SessionKey, _ session: StoredSession) {
        guard perShard > 0 else { return }
        var meta = session
        meta.state = []
        let limit = perShard
        shard(key).withLock { table in
            if let entry = table[key] {
                entry.known = meta
            } else if table.count < limit {
                let entry = Entry(revision: session.revision, state: nil, body: nil, memo: nil)
                entry.known = meta
                table[key] = entry
            }
        }
    }

    /// Keeps the memo of the session's last stored encoding (if the session has an entry).
    func putStoredMemo(_ key: SessionKey, _ memo: StateCodec.Memo) {
        guard perShard > 0 else { return }
        shard(key).withLock { table in table[key]?.storedMemo = memo }
    }

    /// Records what is known of `revision`; keeps the other half of an entry of the same revision,
    /// and the memo of any revision unless a new one is given. With `evicting: false` a new entry
    /// only takes a free place: a burst of new sessions then cannot push out the ones in use.
    func put(
        _ key: SessionKey, revision: Int, state: SessionState? = nil, body: [UInt8]? = nil, memo: RenderMemo? = nil,
        evicting: Bool = true
    ) {
        guard perShard > 0 else { return }
        let limit = perShard
        shard(key).withLock { table in
            if let entry = table[key] {
                entry.merge(revision: revision, state: state, body: body, memo: memo)
                return
            }
            if table.count >= limit {
                guard evicting else { return }
                table.removeAll(keepingCapacity: true)
            }
            table[key] = Entry(revision: revision, state: state, body: body, memo: memo)
        }
    }

    func remove(_ key: SessionKey) {
        _ = shard(key).withLock { $0.removeValue(forKey: key) }
    }

}

