/// Byte classes from RFC 9110 §5.6 used by the parser.
enum ASCII {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let sp: UInt8 = 32
    static let htab: UInt8 = 9
    static let colon: UInt8 = 58

    /// tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    static let tokenTable: [Bool] = {
        var t = [Bool](repeating: false, count: 256)
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") { t[Int(c)] = true }
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") { t[Int(c)] = true }
        for c in UInt8(ascii: "A")...UInt8(ascii: "Z") { t[Int(c)] = true }
        for c in "!#$%&'*+-.^_`|~".utf8 { t[Int(c)] = true }
        return t
    }()

    @inline(__always) static func isToken(_ b: UInt8) -> Bool { tokenTable[Int(b)] }

    /// field-vchar / SP / HTAB / obs-text: anything but CTLs (HTAB allowed) and DEL.
    @inline(__always) static func isFieldValue(_ b: UInt8) -> Bool {
        b >= 0x20 ? b != 0x7F : b == htab
    }

    /// Visible ASCII, the only bytes allowed in a request-target (RFC 3986 plus leniency for
    /// characters some clients leave unencoded, such as '"' and '{').
    @inline(__always) static func isTargetByte(_ b: UInt8) -> Bool { b > 0x20 && b < 0x7F }

    @inline(__always) static func lower(_ b: UInt8) -> UInt8 {
        (b >= 65 && b <= 90) ? b | 0x20 : b
    }

    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 48...57: b - 48
        case 65...70: b - 55
        case 97...102: b - 87
        default: nil
        }
    }

    /// Case-insensitive comparison of raw bytes with a lowercase ASCII literal.
    @inline(__always) static func equalsLowercase(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowercase: StaticString
    ) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        let lit = lowercase.utf8Start
        var i = 0
        for p in range {
            if lower(bytes[p]) != lit[i] { return false }
            i += 1
        }
        return true
    }
}
