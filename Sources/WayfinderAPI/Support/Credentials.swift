import Glibc
import WayfinderHTTP
import WayfinderStore

/// Session ids and bearer tokens: random, URL-safe, and only ever stored as hashes.
enum Credentials {
    /// 128 random bits, base64url (22 characters).
    static func newSessionID() throws(SystemError) -> String { base64URL(try randomBytes(16)) }
    /// 256 random bits, base64url (43 characters).
    static func newToken() throws(SystemError) -> String { base64URL(try randomBytes(32)) }

    static func hash(_ token: some StringProtocol) -> [UInt8] { SHA256.hash(Array(token.utf8)) }

    /// Compares two hashes in time independent of where they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in constantTimeEqual(a, b) } }
    }

    /// Compares two tokens' bytes in time independent of where they differ (without copying them).
    static func constantTimeEqual(_ a: String, _ b: Substring) -> Bool {
        var a = a, b = b
        return a.withUTF8 { a in b.withUTF8 { b in constantTimeEqual(a, b) } }
    }

    private static func constantTimeEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// The token of `Authorization: Bearer <token>` (scheme case-insensitive), or, for event
    /// streams, `?access_token=`; the header wins when both are present. A slice of the header's
    /// value: no copy of the token is made for a request.
    static func bearerToken(_ request: HTTPRequest, allowQuery: Bool) throws(APIError) -> Substring {
        if var header = request.headers["Authorization"] {
            enum Parsed { case token(Range<Int>), badScheme, malformed }
            // Bytes at integer offsets: this runs on every request.
            let parsed = header.withUTF8 { bytes -> Parsed in
                let space = UInt8(ascii: " ")
                var start = 0, end = bytes.count
                while start < end, bytes[start] == space { start += 1 }
                let scheme = start
                while start < end, bytes[start] != space { start += 1 }
                // "Bearer", any case: OR-ing 0x20 lowercases a letter, and maps no other byte
                // onto one ('B' | 0x20 == 'b', but nothing but 'B' and 'b' gives 'b').
                guard start - scheme == 6,
                    bytes[scheme] | 0x20 == UInt8(ascii: "b"), bytes[scheme + 1] | 0x20 == UInt8(ascii: "e"),
                    bytes[scheme + 2] | 0x20 == UInt8(ascii: "a"), bytes[scheme + 3] | 0x20 == UInt8(ascii: "r"),
                    bytes[scheme + 4] | 0x20 == UInt8(ascii: "e"), bytes[scheme + 5] | 0x20 == UInt8(ascii: "r")
                else { return .badScheme }
                while start < end, bytes[start] == space { start += 1 }
                while end > start, bytes[end - 1] == space { end -= 1 }
                guard end > start else { return .badScheme }
                for index in start..<end where !isTokenByte(bytes[index]) { return .malformed }
                return .token(start..<end)
            }
            switch parsed {
            case .token(let range):
                // Offsets into the UTF-8 of an ASCII run: valid string indices.
                let utf8 = header.utf8
                return header[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
            case .badScheme: throw .unauthorized("Authorization must be 'Bearer <token>'.")
            case .malformed: throw .unauthorized("The bearer token is malformed.")
            }
        }
        if allowQuery, let token = QueryString.value("access_token", in: request.query), !token.isEmpty {
            return token[...]
        }
        throw .unauthorized("This call needs Authorization: Bearer <token>.")
    }

    /// RFC 6750 b64token characters.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }

    /// `count` bytes from the kernel's CSPRNG, drawn from a 4 KiB buffer so a
    /// new session costs no system call of its own.
    /// - Throws: what `getrandom(2)` reports (it opens no descriptor, so a process that has used
    ///   up its descriptors still gets random bytes).
    static func randomBytes(_ count: Int) throws(SystemError) -> [UInt8] {
        try entropy.withLock { pool in Result { () throws(SystemError) in try pool.take(count) } }.get()
    }

    private static let entropy = Locked(EntropyPool())

    /// Bytes from the kernel's CSPRNG, handed out once each; refilled when used up.
    struct EntropyPool: Sendable {
        private var bytes = [UInt8](repeating: 0, count: 4096)
        private var next = 4096

        mutating func take(_ count: Int) throws(SystemError) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(count)
            while out.count < count {
                if next == bytes.count { try refill() }
                let n = min(count - out.count, bytes.count - next)
                out.append(contentsOf: bytes[next..<(next + n)])
                // Zero what was handed out: the pool never holds a secret it already gave away.
                for index in next..<(next + n) { bytes[index] = 0 }
                next += n
            }
            return out
        }

        /// One `getrandom(2)` per 4 KiB, about 85 new sessions.
        private mutating func refill() throws(SystemError) {
            try bytes.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try SystemRandom.fill(buffer) } }.get()
            next = 0
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((n >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var n = UInt32(bytes[index]) << 16
            if rest == 2 { n |= UInt32(bytes[index + 1]) << 8 }
            out.append(alphabet[Int((n >> 18) & 63)])
            out.append(alphabet[Int((n >> 12) & 63)])
            if rest == 2 { out.append(alphabet[Int((n >> 6) & 63)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// `application/x-www-form-urlencoded` query parameters.
enum QueryString {
    static func value(_ name: String, in query: String?) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if percentDecode(parts[0]) == name { return parts.count == 2 ? percentDecode(parts[1]) : "" }
        }
        return nil
    }

    /// `s` with `%XX` escapes decoded; `+` reads as a space in a query (`plusIsSpace`), never in
    /// a path, where it is itself (`ada+test@example.com`).
    static func percentDecode(_ s: Substring, plusIsSpace: Bool = true) -> String {
        var bytes: [UInt8] = []
        var iterator = s.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "+"), plusIsSpace {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
