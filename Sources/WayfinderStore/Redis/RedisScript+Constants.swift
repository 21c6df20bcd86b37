/// What a store writes into its scripts' source (see `RedisScript`).
extension RedisScript {
    /// The values a store's scripts hold as Lua constants.
    struct Constants: Sendable {
        /// The start of every key name.
        var prefix: String
        /// The change feed's channel.
        var channel: String
        /// The Redis TTL (ms) of a session's keys and of an idempotency record.
        var sessionKeyTTL: Int64, recordKeyTTL: Int64
        /// The bounds of a session's journal and how many idempotency records it keeps.
        var journalEntries: Int, journalBytes: Int, recordsKept: Int
        /// The bytes of records a session keeps with their answers (newest first).
        var answerBytes: Int
        /// Whether the store is a cluster: then `save` is given its slot's index keys in `KEYS`;
        /// a single Redis has one triple, named in the source.
        var isCluster: Bool
    }

    /// `text` as a Lua string literal (every byte but letters, digits and `:_-.` escaped).
    static func literal(_ text: String) -> String {
        var out = "'"
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = String(byte)  // `\ddd`: three digits, so a digit after it is not read into it
                out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            }
        }
        return out + "'"
    }
}
