import CHiredis

/// One reply from Redis, copied out of hiredis' `redisReply` (which is freed at once).
enum RedisValue: Equatable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisValue])
    case null
    /// An error reply (`-ERR ...`, `-NOSCRIPT ...`); the connection stays usable.
    case error(String)

    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        func bytes() -> [UInt8] {
            guard value.len > 0, let text = value.str else { return [] }
            return UnsafeRawBufferPointer(start: text, count: value.len).map { $0 }
        }
        switch value.type {
        case REDIS_REPLY_STRING: self = .string(bytes())
        case REDIS_REPLY_STATUS: self = .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: self = .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: self = .integer(Int(value.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisValue] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                if let element = value.element[index] {
                    elements.append(RedisValue(element))
                } else {
                    elements.append(.null)
                }
            }
            self = .array(elements)
        default: self = .null
        }
    }

    var bytes: [UInt8]? {
        if case .string(let bytes) = self { return bytes }
        return nil
    }

    var text: String? {
        switch self {
        case .string(let bytes): String(decoding: bytes, as: UTF8.self)
        case .status(let text): text
        default: nil
        }
    }

    /// An integer reply, or a bulk string holding a decimal integer.
    var integer: Int? {
        switch self {
        case .integer(let value): value
        case .string(let bytes): Int(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }
}

/// A command's arguments, binary-safe.
struct RedisCommand {
    private(set) var arguments: [[UInt8]] = []

    init(_ name: String) {
        arguments.append(Array(name.utf8))
    }

    mutating func add(_ text: String) { arguments.append(Array(text.utf8)) }
    mutating func add(_ bytes: [UInt8]) { arguments.append(bytes) }
    mutating func add(_ number: Int) { add(String(number)) }
    mutating func add(_ number: Int64) { add(String(number)) }

    /// Calls `body` with hiredis' `argc`, `argv` and `argvlen` for these arguments (nil only if
    /// a buffer had no address, which a command with its name in it never has).
    func withArgv<R>(
        _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
    ) -> R? {
        var blob: [UInt8] = []
        blob.reserveCapacity(arguments.reduce(1) { $0 + $1.count })
        var offsets: [Int] = []
        var lengths: [Int] = []
        for argument in arguments {
            offsets.append(blob.count)
            lengths.append(argument.count)
            blob.append(contentsOf: argument)
        }
        blob.append(0)  // never empty, so the base address exists
        return blob.withUnsafeBytes { raw in
            guard let start = raw.baseAddress else { return nil }
            let base = start.assumingMemoryBound(to: CChar.self)
            var argv: [UnsafePointer<CChar>?] = offsets.map { UnsafePointer(base + $0) }
            return argv.withUnsafeMutableBufferPointer { argvBuffer in
                lengths.withUnsafeBufferPointer { lengthBuffer in
                    guard let argvBase = argvBuffer.baseAddress, let lengthBase = lengthBuffer.baseAddress else { return nil }
                    return body(Int32(arguments.count), argvBase, lengthBase)
                }
            }
        }
    }
}

/// One blocking hiredis connection with connect, read and write timeouts.
///
/// After an IO error (refused, reset, timeout, EOF) hiredis cannot use the context again: the
/// connection is marked broken and its owner discards it.
///
/// - Important: Not thread-safe. `@unchecked Sendable` only so that the pool can hand it from
///   thread to thread; it is used by one thread at a time (the pool's checkout is exclusive).
final class RedisConnection: @unchecked Sendable {
    private let context: UnsafeMutablePointer<redisContext>
    private let endpoint: RedisEndpoint
    private(set) var isBroken = false

    /// Connects, authenticates and selects the database.
    /// - Throws: `.unavailable` if any step fails.
    init(endpoint: RedisEndpoint, timeoutMillis: Int) throws {
        guard let context = wf_redis_connect(endpoint.host, Int32(endpoint.port), timeoutMillis) else {
            throw StoreError.unavailable("redis \(endpoint): out of memory")
        }
        if wf_redis_err(context) != 0 {
            let message = String(cString: wf_redis_errstr(context))
            redisFree(context)
            throw StoreError.unavailable("redis \(endpoint): cannot connect: \(message)")
        }
        self.context = context
        self.endpoint = endpoint
        if let password = endpoint.password {
            var auth = RedisCommand("AUTH")
            if let user = endpoint.user { auth.add(user) }
            auth.add(password)
            try expectOK(run(auth), "AUTH")
        }
        if endpoint.database != 0 {
            var select = RedisCommand("SELECT")
            select.add(endpoint.database)
            try expectOK(run(select), "SELECT \(endpoint.database)")
        }
    }

    deinit {
        redisFree(context)
    }

    /// True if the connection is broken or, idle, was closed by the server (checked with a
    /// zero-timeout `poll`, so a pooled connection left over from before a Redis restart is not
    /// used for a command whose outcome would then be unknown).
    var isUnusable: Bool {
        isBroken || wf_redis_idle_connection_is_dead(context) != 0
    }

    /// Sends a command and waits for its reply (at most the timeout).
    /// - Returns: the reply; an error reply is returned as `.error`, not thrown.
    /// - Throws: `.unavailable` on an IO error or timeout (the connection is then broken).
    func run(_ command: RedisCommand) throws -> RedisValue {
        guard !isBroken else { throw StoreError.unavailable("redis \(endpoint): connection broken") }
        let raw = command.withArgv { argc, argv, lengths in
            redisCommandArgv(context, argc, argv, lengths)
        } ?? nil
        guard let raw else { throw failure() }
        defer { freeReplyObject(raw) }
        return RedisValue(raw.assumingMemoryBound(to: redisReply.self))
    }

    // MARK: Streaming (the pub/sub listener)

    /// Queues a command and writes it out without waiting for a reply.
    func send(_ command: RedisCommand) throws {
        guard !isBroken else { throw StoreError.unavailable("redis \(endpoint): connection broken") }
        let status = command.withArgv { argc, argv, lengths in
            redisAppendCommandArgv(context, argc, argv, lengths)
        }
        guard status == REDIS_OK, wf_redis_flush(context) == REDIS_OK else { throw failure() }
    }

    /// A reply already read into hiredis' buffer, if any (never blocks).
    func bufferedReply() throws -> RedisValue? {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw failure() }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return RedisValue(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Waits up to `timeoutMillis` for data and reads what arrived into hiredis' buffer.
    /// - Returns: false on timeout.
    /// - Throws: `.unavailable` on EOF or an IO error.
    func readAvailable(timeoutMillis: Int32) throws -> Bool {
        switch wf_redis_wait_readable(context, timeoutMillis) {
        case 0: return false
        case 1...: break
        default:
            isBroken = true
            throw StoreError.unavailable("redis \(endpoint): connection failed")
        }
        guard redisBufferRead(context) == REDIS_OK else { throw failure() }
        return true
    }

    // MARK: Internals

    private func failure() -> StoreError {
        isBroken = true
        let message = wf_redis_err(context) != 0 ? String(cString: wf_redis_errstr(context)) : "no reply"
        return StoreError.unavailable("redis \(endpoint): \(message)")
    }

    private func expectOK(_ reply: RedisValue, _ what: String) throws {
        if case .error(let message) = reply {
            isBroken = true
            throw StoreError.unavailable("redis \(endpoint): \(what) failed: \(message)")
        }
    }
}
