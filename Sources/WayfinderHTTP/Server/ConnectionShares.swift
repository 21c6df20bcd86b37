import Synchronization

/// Open connections per client address (its ``IPAddress/share``), for every loop of a server:
/// each address may hold `perAddress`, and the last `reserve` places of the global limit go
/// only to addresses that hold few (fewer than a quarter of the reserve, at least none), so a
/// new client always gets a place while others hold their whole share, even when it reconnects
/// before the server has seen its last connection close.
///
/// Counted at accept and given back at close; only addresses with open connections have an
/// entry, so the table is bounded by the connection limit.
final class ConnectionShares: Sendable {
    private let perAddress: Int
    private let reserve: Int
    /// An address holding fewer than this may take a place of the reserve.
    private let reserveShare: Int
    private let maxConnections: Int
    private let held = Mutex<[IPAddress: Int]>([:])

    /// The reserve: a tenth of the global limit (at least one place).
    init(perAddress: Int, maxConnections: Int) {
        self.perAddress = max(1, perAddress)
        self.maxConnections = maxConnections
        self.reserve = max(1, maxConnections / 10)
        self.reserveShare = max(1, reserve / 4)
    }

    /// What `take` gives a connection.
    enum Place: Equatable {
        /// Its address holds its share, or holds more than a few while only the reserve is left: close it.
        case refused
        /// A trusted proxy's connection, or a peer that is no IP address: not counted.
        case uncounted
        /// A place of this share, given back by `release` at close.
        case held(IPAddress)
    }

    /// Takes a place for a connection from `peer` when `open` connections (this one included)
    /// are open.
    func take(peer: String, open: Int, trusted: [AddressRange]) -> Place {
        guard let address = IPAddress(peer), !trusted.contains(address) else { return .uncounted }
        let share = address.share
        return held.withLock { table in
            let count = table[share, default: 0]
            guard count < perAddress, count < reserveShare || open <= maxConnections - reserve else { return .refused }
            table[share] = count + 1
            return .held(share)
        }
    }

    /// Gives back a place taken by `take`.
    func release(_ address: IPAddress) {
        held.withLock { table in
            guard let index = table.index(forKey: address) else { return }
            table.values[index] -= 1
            if table.values[index] <= 0 { table.remove(at: index) }
        }
    }
}
