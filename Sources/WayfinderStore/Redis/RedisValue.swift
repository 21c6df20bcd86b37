import CHiredis

/// One reply from Redis, copied out of hiredis' `redisReply` (which is freed at once).
enum RedisValue: Equatable, Sendable {
    case string([UInt8])
    case status(String)
    case integer(Int)
    case array([RedisValue])
    case null
    /// An error reply (`-ERR ...`, `-MOVED ...`); the connection stays usable.
    case error(String)

    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        func bytes() -> [UInt8] {
            guard value.len > 0, let text = value.str else { return [] }
            return Array(UnsafeRawBufferPointer(start: text, count: value.len))
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

/// A command in Redis' wire format (RESP), built argument by argument, binary-safe.
struct RedisCommand: Sendable {
    /// The encoded arguments (`$len\r\nbytes\r\n` each), without the array header.
    private(set) var body: [UInt8] = []
    private(set) var count = 0
    /// Whether it changes data (then `WAIT` follows it when the store waits for replicas).
    var writes = false

    init(_ name: String) {
        body.reserveCapacity(128)
        add(name)
    }

    /// No arguments yet (the tail of a command, appended with `add(arguments:)`).
    init() {}

    /// Appends every argument of `other`.
    mutating func add(arguments other: RedisCommand) {
        body.append(contentsOf: other.body)
        count += other.count
    }

    mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(UnsafeRawBufferPointer($0)) }
    }

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    mutating func add(_ number: Int) { add(String(number)) }
    mutating func add(_ number: Int64) { add(String(number)) }

    private mutating func add(_ bytes: UnsafeRawBufferPointer) {
        count += 1
        body.append(UInt8(ascii: "$"))
        Self.appendDecimal(bytes.count, to: &body)
        body.append(contentsOf: [13, 10])
        body.append(contentsOf: bytes)
        body.append(contentsOf: [13, 10])
    }

    /// Appends the whole command (`*count\r\n` and the arguments) to `output`.
    func encode(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "*"))
        Self.appendDecimal(count, to: &output)
        output.append(contentsOf: [13, 10])
        output.append(contentsOf: body)
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: [UInt8] = []
        var rest = value
        while rest > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        bytes.append(contentsOf: digits.reversed())
    }
}

/// hiredis' reply parser: bytes in, whole replies out.
///
/// - Important: not thread-safe; one per connection, used by the connection's loop thread.
final class RedisReplyReader {
    private let reader: UnsafeMutablePointer<redisReader>

    init?() {
        guard let reader = redisReaderCreate() else { return nil }
        self.reader = reader
    }

    deinit { redisReaderFree(reader) }

    /// Hands `bytes` to the parser.
    func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = redisReaderFeed(reader, base.assumingMemoryBound(to: CChar.self), bytes.count)
    }

    /// The next whole reply, nil if more bytes are needed.
    /// - Throws: `.unavailable` on a protocol error (the connection is then unusable).
    func next() throws -> RedisValue? {
        var raw: UnsafeMutableRawPointer?
        guard redisReaderGetReply(reader, &raw) == REDIS_OK else {
            throw StoreError.unavailable("redis: protocol error: \(String(cString: wf_reader_errstr(reader)))")
        }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return RedisValue(raw.assumingMemoryBound(to: redisReply.self))
    }
}
