/// The binary form of `[HeaderPair]` in the `idempotency.headers` column.
///
/// Layout: for each pair, the name's UTF-8 length (4 bytes, big-endian), the name, the value's
/// length, the value. Compact, ordered, and independent of Foundation.
enum HeaderCoding {
    /// The column of a record whose answer the byte budget dropped: one byte, shorter than any
    /// field's encoding (so never the encoding of fields).
    static let dropped: [UInt8] = [0]

    static func encode(_ headers: [HeaderPair]) -> [UInt8] {
        var bytes: [UInt8] = []
        for header in headers {
            append(header.name, to: &bytes)
            append(header.value, to: &bytes)
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> [HeaderPair] {
        var headers: [HeaderPair] = []
        var offset = 0
        while offset < bytes.count {
            let name = try readString(bytes, &offset)
            let value = try readString(bytes, &offset)
            headers.append(HeaderPair(name: name, value: value))
        }
        return headers
    }

    private static func append(_ string: String, to bytes: inout [UInt8]) {
        let utf8 = Array(string.utf8)
        let count = UInt32(utf8.count)
        bytes.append(contentsOf: [
            UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
            UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count),
        ])
        bytes.append(contentsOf: utf8)
    }

    private static func readString(_ bytes: [UInt8], _ offset: inout Int) throws -> String {
        guard bytes.count - offset >= 4 else { throw corrupt }
        let count = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16
            | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        offset += 4
        guard bytes.count - offset >= count else { throw corrupt }
        let string = String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
        offset += count
        return string
    }

    private static let corrupt = StoreError.unavailable("corrupt idempotency headers column")
}
