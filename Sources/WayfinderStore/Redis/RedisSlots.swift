/// Redis Cluster's key slots: `CRC16(key) mod 16384`, where a key holding `{tag}` (a non-empty
/// tag between its first `{` and the next `}`) hashes only its tag.
///
/// Every key of one session carries the session's id as its tag (`wf:s:{id}`), so one script
/// touches them together on one node. The cluster's indexes (sessions by last use, idempotency
/// records by age) are kept per slot, under a tag of their own that falls in that slot
/// (`slotTags`): a session's index entries live in its slot, so the same script updates them.
enum RedisSlots {
    static let count = 16_384

    /// The slot of `key`.
    static func slot(_ key: some Collection<UInt8>) -> Int {
        if let open = key.firstIndex(of: UInt8(ascii: "{")) {
            let afterOpen = key.index(after: open)
            if let close = key[afterOpen...].firstIndex(of: UInt8(ascii: "}")), close != afterOpen {
                return Int(crc16(key[afterOpen..<close]) % UInt16(count))
            }
        }
        return Int(crc16(key) % UInt16(count))
    }

    /// The slot of the keys of session `id` (tagged `{id}`).
    static func slot(session id: String) -> Int {
        Int(crc16(id.utf8) % UInt16(count))
    }

    /// For every slot, a short tag that hashes to it (base 36 numbers, the first found per slot).
    static let slotTags: [String] = {
        var tags = [String?](repeating: nil, count: count)
        var missing = count
        var number = 0
        while missing > 0 {
            let tag = String(number, radix: 36)
            let slot = Int(crc16(tag.utf8) % UInt16(count))
            if tags[slot] == nil {
                tags[slot] = tag
                missing -= 1
            }
            number += 1
        }
        return tags.map { $0! }
    }()

    /// CRC16-CCITT (XMODEM: polynomial 0x1021, initial value 0), the checksum Redis Cluster uses.
    static func crc16(_ bytes: some Sequence<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }
}
