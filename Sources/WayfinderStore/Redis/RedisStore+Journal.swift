/// The journal of a session in Redis: a list `wf:j:{id}` in the session's slot, appended by the
/// create and save scripts in the same step as the state (see `RedisScript`), read with `LRANGE`.
extension RedisStore {
    /// The script arguments of a journal entry: `{revision} {record length} {record}{state}` (one
    /// argument, written into the command without an intermediate copy), then its size (the
    /// bounds are in the scripts' source).
    func addJournal(_ journal: JournalEntry, to command: inout RedisCommand) {
        command.add(journal.revision, journal.record.count, then: journal.record, journal.state)
        command.add(journal.size)
    }

    /// The session's journal entries from revision `since`, oldest first, from any thread.
    func journal(id: String, since: Int, _ done: @escaping @Sendable (Result<[JournalEntry], any Error>) -> Void) {
        var command = RedisCommand("LRANGE")
        command.add(keyPrefix + "j:{" + id + "}")
        command.add("0")
        command.add("-1")
        withClient(nil, refused: { done(.failure($0)) }) { [self, command] client in
            send(command, to: .session(id), on: client) { [self] result in
                done(Result {
                    let reply = try result.get()
                    guard case .array(let items) = reply else { throw unexpected(reply, "journal") }
                    return try items.compactMap { item in
                        guard let entry = Self.journalEntry(item.bytes) else { throw StoreError.unavailable("redis: corrupt journal entry of \(id)") }
                        return entry.revision >= since ? entry : nil
                    }
                })
            }
        }
    }

    /// An entry as the scripts store it; nil if it is not one.
    private static func journalEntry(_ bytes: [UInt8]?) -> JournalEntry? {
        guard let fields = bytes?.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false),
            fields.count == 3, let revision = Int(String(decoding: fields[0], as: UTF8.self)),
            let length = Int(String(decoding: fields[1], as: UTF8.self)), length >= 0, length <= fields[2].count
        else { return nil }
        let rest = fields[2]
        return JournalEntry(revision: revision, record: Array(rest.prefix(length)), state: Array(rest.dropFirst(length)))
    }
}
