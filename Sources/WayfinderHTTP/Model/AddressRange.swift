/// A range of IP addresses in CIDR notation (`10.0.0.0/8`, `fd00::/8`, or one address):
/// the peers trusted as proxies.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The range's first address.
    public let base: IPAddress
    /// How many leading bits an address shares with `base` to be in the range.
    public let prefixLength: Int

    /// The range `text` names (an address alone is a range of one); nil if it names none, or if
    /// the address has bits set past the prefix (`10.0.0.1/8` is a typing error, not a range).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let base = IPAddress(parts[0]), !parts[0].contains("[") else { return nil }
        let bits = base.bytes.count * 8
        var length = bits
        if parts.count == 2 {
            guard let given = Int(parts[1]), (0...bits).contains(given), parts[1].allSatisfy(\.isNumber) else { return nil }
            length = given
        }
        self.base = base
        self.prefixLength = length
        guard Self.prefix(base.bytes, length) == base.bytes else { return nil }
    }

    /// Whether `address` is in the range (an IPv4 address is never in an IPv6 range, nor the
    /// other way round, but an IPv4-mapped IPv6 peer reads as IPv4).
    public func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == base.bytes.count && Self.prefix(address.bytes, prefixLength) == base.bytes
    }

    /// `base/prefixLength`.
    public var description: String { "\(base)/\(prefixLength)" }

    /// `bytes` with every bit past the first `length` cleared.
    private static func prefix(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.indices.map { index in
            let kept = min(8, max(0, length - index * 8))
            return kept == 8 ? bytes[index] : bytes[index] & ~(0xFF >> UInt8(kept))
        }
    }
}

extension [AddressRange] {
    /// Whether any range of the list holds `address`.
    public func contains(_ address: IPAddress) -> Bool { contains { $0.contains(address) } }
}
