/// The binary form of an `IdempotencyRecord` in its Redis string `wf:i:{id}:{key}`.
///
/// Layout (integers big-endian): version byte 1; status (4 bytes); createdAt (8 bytes);
/// fingerprint, headers and body, each as a 4-byte length and its bytes — the headers in the
/// `HeaderCoding` form the SQLite store uses. The session id and key are in the Redis key name.
/// A record whose answer the byte budget dropped (the save script cuts it) has version byte 2
/// and ends after the fingerprint.
enum RedisRecordCoding {
    private static let version: UInt8 = 1
    private static let withoutAnswer: UInt8 = 2

    static func encode(_ record: IdempotencyRecord) -> [UInt8] {
        let headers = HeaderCoding.encode(record.headers)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(25 + record.fingerprint.count + headers.count + record.body.count)
        bytes.append(version)
        append(UInt64(UInt32(truncatingIfNeeded: record.status)), width: 4, to: &bytes)
        append(UInt64(bitPattern: record.createdAt), width: 8, to: &bytes)
        for part in [record.fingerprint, headers, record.body] {
            append(UInt64(part.count), width: 4, to: &bytes)
            bytes.append(contentsOf: part)
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8], sessionID: String, key: String) throws -> IdempotencyRecord {
        var offset = 0
        guard let first = bytes.first, first == version || first == withoutAnswer else { throw corrupt }
        offset = 1
        let status = Int(Int32(bitPattern: UInt32(try read(bytes, &offset, width: 4))))
        let createdAt = Int64(bitPattern: try read(bytes, &offset, width: 8))
        var parts: [[UInt8]] = []
        for _ in 0..<(first == version ? 3 : 1) {
            let count = Int(try read(bytes, &offset, width: 4))
            guard bytes.count - offset >= count else { throw corrupt }
            parts.append(Array(bytes[offset..<(offset + count)]))
            offset += count
        }
        guard offset == bytes.count else { throw corrupt }
        if first == withoutAnswer {
            return IdempotencyRecord(
                sessionID: sessionID, key: key, fingerprint: parts[0], status: status, headers: [], body: [], createdAt: createdAt,
                answerDropped: true)
        }
        return IdempotencyRecord(
            sessionID: sessionID, key: key, fingerprint: parts[0], status: status,
            headers: try HeaderCoding.decode(parts[1]), body: parts[2], createdAt: createdAt)
    }

    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    private static func read(_ bytes: [UInt8], _ offset: inout Int, width: Int) throws -> UInt64 {
        guard bytes.count - offset >= width else { throw corrupt }
        var value: UInt64 = 0
        for index in offset..<(offset + width) {
            value = value << 8 | UInt64(bytes[index])
        }
        offset += width
        return value
    }

    private static let corrupt = StoreError.unavailable("redis: corrupt idempotency record")
}
