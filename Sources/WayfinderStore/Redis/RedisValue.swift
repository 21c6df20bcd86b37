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

    /// A command named `name`, with room for `capacity` bytes of arguments.
    init(_ name: String, capacity: Int = 128) {
        body.reserveCapacity(capacity)
        add(name)
    }

    /// The same arguments after the first `dropping`, with `replacements` before them (a script
    /// sent by its source instead of its digest), without encoding them again.
    func replacing(first dropping: Int, with replacements: [String]) -> RedisCommand {
        var offset = 0
        body.withUnsafeBytes { bytes in
            for _ in 0..<dropping {
                // `$len\r\n` then len bytes and `\r\n`.
                var length = 0
                offset += 1
                while bytes[offset] != 13 {
                    length = length * 10 + Int(bytes[offset] - UInt8(ascii: "0"))
                    offset += 1
                }
                offset += 2 + length + 2
            }
        }
        var command = RedisCommand(replacements[0], capacity: body.count - offset + 64 + replacements.reduce(0) { $0 + $1.utf8.count })
        for replacement in replacements.dropFirst() { command.add(replacement) }
        command.body.append(contentsOf: body[offset...])
        command.count += count - dropping
        command.writes = writes
        return command
    }

    mutating func add(_ text: String) {
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ add(UnsafeRawBufferPointer($0)) }) { return done }
        add(Array(text.utf8))
    }

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    /// One argument `{first} {second} ` followed by `parts`, without an intermediate buffer
    /// (non-negative numbers: a journal entry's revision and record length).
    mutating func add(_ first: Int, _ second: Int, then parts: [UInt8]...) {
        count += 1
        body.append(UInt8(ascii: "$"))
        Self.appendDecimal(Self.digits(first) + Self.digits(second) + 2 + parts.reduce(0) { $0 + $1.count }, to: &body)
        Self.appendLineEnd(to: &body)
        Self.appendDecimal(first, to: &body)
        body.append(UInt8(ascii: " "))
        Self.appendDecimal(second, to: &body)
        body.append(UInt8(ascii: " "))
        for part in parts { body.append(contentsOf: part) }
        Self.appendLineEnd(to: &body)
    }

    mutating func add(_ number: Int) { add(Int64(number)) }

    mutating func add(_ number: Int64) {
        count += 1
        let negative = number < 0
        var magnitude = number.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let length = digits + (negative ? 1 : 0)
        body.append(UInt8(ascii: "$"))
        Self.appendDecimal(length, to: &body)
        Self.appendLineEnd(to: &body)
        if negative { body.append(UInt8(ascii: "-")) }
        let start = body.count
        body.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var index = start + digits - 1
        repeat {
            body[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        Self.appendLineEnd(to: &body)
    }

    private mutating func add(_ bytes: UnsafeRawBufferPointer) {
        count += 1
        body.append(UInt8(ascii: "$"))
        Self.appendDecimal(bytes.count, to: &body)
        Self.appendLineEnd(to: &body)
        body.append(contentsOf: bytes)
        Self.appendLineEnd(to: &body)
    }

    /// Appends the whole command (`*count\r\n` and the arguments) to `output`.
    func encode(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "*"))
        Self.appendDecimal(count, to: &output)
        Self.appendLineEnd(to: &output)
        output.append(contentsOf: body)
    }

    /// Appends `\r\n` (two appends: an array literal would be a buffer of its own).
    private static func appendLineEnd(to bytes: inout [UInt8]) {
        bytes.append(13)
        bytes.append(10)
    }

    /// How many decimal digits a non-negative `value` has.
    private static func digits(_ value: Int) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }

    /// Appends a non-negative `value` in decimal, without allocating.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / divisor))
            rest %= divisor
            divisor /= 10
        } while divisor > 0
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
