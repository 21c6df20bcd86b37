/// The base64url alphabet (RFC 4648 §5) as a table: session ids are read with it (`SessionKey`),
/// and so are the JWTs the API verifies.
package enum Base64URLAlphabet {
    /// What `sextets` has for a byte outside the alphabet: a bit no sextet has, so that OR-ing the
    /// values of many characters tells whether any was invalid.
    package static let invalid: UInt8 = 0x40

    /// The value of each base64url character; `invalid` for every other byte.
    package static let sextets: [UInt8] = (0...255).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(byte) - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt8(byte) - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: invalid
        }
    }
}
