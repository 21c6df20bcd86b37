/// Each user's sessions: the set `wf:u:{user}` (see "Key layout" on `RedisStore`), exact on a
/// single Redis (the scripts keep it), consistent enough in a cluster, where it is in the user's
/// slot and changed after the session's script; the listing checks every id against its session.
extension RedisStore {
    /// The `user` argument of the create and save scripts: empty for none, else `+` and the user
    /// (so that an empty user is still one).
    static func userArgument(_ user: String?) -> String {
        user.map { "+" + $0 } ?? ""
    }

    /// `SADD wf:u:{user} id` (a cluster, after the script that gave session `id` that user); a
    /// failure fails the write (its script ran: the outcome is unknown, as on any failure).
    func fileUnderUser(
        _ id: String, _ user: String, on client: RedisLoopClient, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        var command = RedisCommand("SADD")
        command.add(userKey(user))
        command.add(id)
        command.writes = true
        send(command, to: .key(userKey(user)), on: client) { [self] result in
            done(Result {
                let reply = try result.get()
                guard reply.integer != nil else { throw unexpected(reply, "SADD") }
            })
        }
    }

    /// `SREM wf:u:{user} id` for each pair (a cluster, after the sessions were deleted), then
    /// `then`. Failures are ignored: a listing removes what is left.
    func unfileFromUsers(_ pairs: [(id: String, user: String)], on client: RedisLoopClient, _ then: @escaping () -> Void) {
        let commands = pairs.map { pair -> (RedisCommand, Target) in
            var command = RedisCommand("SREM")
            command.add(userKey(pair.user))
            command.add(pair.id)
            command.writes = true
            return (command, .key(userKey(pair.user)))
        }
        gather(commands, on: client) { _ in then() }
    }

    /// Sends every command at once and gives their results, in order, once all have answered.
    func gather(
        _ commands: [(RedisCommand, Target)], on client: RedisLoopClient,
        _ then: @escaping ([Result<RedisValue, StoreError>]) -> Void
    ) {
        guard !commands.isEmpty else { return then([]) }
        var results = [Result<RedisValue, StoreError>?](repeating: nil, count: commands.count)
        var waiting = commands.count
        for (index, (command, target)) in commands.enumerated() {
            send(command, to: target, on: client) { result in
                results[index] = result
                waiting -= 1
                if waiting == 0 { then(results.map { $0! }) }
            }
        }
    }

    /// The listing of `sessions(ofUser:now:limit:)`, on the store's own thread: `SMEMBERS` of the
    /// user's set, then `HMGET used user` of each session listed; the ids whose session is gone
    /// or has another user are removed from the set and read once more (any that a write gave
    /// this user in between is added back, and listed if live).
    func userSessions(
        _ user: String, now: Int64, limit: Int, _ done: @escaping @Sendable (Result<[String], any Error>) -> Void
    ) {
        let setKey = userKey(user)
        var members = RedisCommand("SMEMBERS")
        members.add(setKey)
        withClient(nil, refused: { done(.failure($0)) }) { [self, members] client in
            send(members, to: .key(setKey), on: client) { [self] result in
                let ids: [String]
                do {
                    let reply = try result.get()
                    guard case .array(let items) = reply else { throw unexpected(reply, "SMEMBERS") }
                    ids = items.compactMap(\.text)
                } catch {
                    return done(.failure(error))
                }
                check(ids, of: user, now: now, on: client) { [self] checked in
                    guard case .success(let found) = checked else { return done(checked.map { _ in [] }) }
                    let live = found.filter { $0.status == .live }.map(\.id)
                    let strays = found.filter { $0.status == .stray }.map(\.id)
                    guard !strays.isEmpty else { return done(.success(Array(live.sorted().prefix(limit)))) }
                    var remove = RedisCommand("SREM")
                    remove.add(setKey)
                    for id in strays { remove.add(id) }
                    remove.writes = true
                    send(remove, to: .key(setKey), on: client) { [self] _ in
                        // Once more: a write may have given a stray this user since it was read.
                        check(strays, of: user, now: now, on: client) { [self] again in
                            guard case .success(let foundAgain) = again else { return done(again.map { _ in [] }) }
                            let back = foundAgain.filter { $0.status != .stray }
                            guard !back.isEmpty else { return done(.success(Array(live.sorted().prefix(limit)))) }
                            var add = RedisCommand("SADD")
                            add.add(setKey)
                            for (id, _) in back { add.add(id) }
                            add.writes = true
                            send(add, to: .key(setKey), on: client) { result in
                                if case .failure(let error) = result { return done(.failure(error)) }
                                let all = live + back.filter { $0.status == .live }.map(\.id)
                                done(.success(Array(all.sorted().prefix(limit))))
                            }
                        }
                    }
                }
            }
        }
    }

    /// What a session listed in a user's set is found to be.
    enum UserSetStatus: Sendable, Equatable {
        /// It has the user and is live at `now`.
        case live
        /// It has the user but expired (the sweeper removes it, and the id with it).
        case expired
        /// It is gone or has another user (or none): the id does not belong in the set.
        case stray
    }

    /// `HMGET wf:s:{id} used user` of each id (each on its own node): what each is for `user` at `now`.
    private func check(
        _ ids: [String], of user: String, now: Int64, on client: RedisLoopClient,
        _ then: @escaping (Result<[(id: String, status: UserSetStatus)], any Error>) -> Void
    ) {
        let commands = ids.map { id -> (RedisCommand, Target) in
            var command = RedisCommand("HMGET")
            command.add(sessionKey(id))
            command.add("used")
            command.add("user")
            return (command, .session(id))
        }
        gather(commands, on: client) { [self] results in
            then(Result {
                try zip(ids, results).map { id, result in
                    let reply = try result.get()
                    guard case .array(let fields) = reply, fields.count == 2 else { throw unexpected(reply, "HMGET") }
                    guard let used = fields[0].integer, let owner = fields[1].bytes,
                        String(decoding: owner, as: UTF8.self) == user
                    else { return (id, .stray) }
                    return (id, configuration.isExpired(lastUsed: Int64(used), now: now) ? .expired : .live)
                }
            })
        }
    }
}
