import Testing
import WayfinderHTTP

/// Issue 47: one client address cannot hold every connection. Each address holds at most its
/// share, and the last tenth of `maxConnections` goes only to addresses that hold none, so a new
/// client is served while others hold all they may. Loopback addresses stand for clients.
@Suite struct ConnectionShareTests {
    /// A client whose connection is served: a request on it is answered.
    private func served(_ port: Int, from source: String) throws -> RawClient {
        let client = try RawClient(port: port, source: source)
        client.send("GET /\(source) HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().text == "GET /\(source)", "\(source) is served")
        return client
    }

    private func refused(_ port: Int, from source: String) throws -> Bool {
        try RawClient(port: port, source: source).isClosedByPeer()
    }

    @Test func oneAddressHoldingItsWholeShareLeavesASecondClientServed() throws {
        try withServer(configure: { $0.maxConnections = 10; $0.maxConnectionsPerAddress = 4 }, handler: echoHandler) { server, port in
            let first = try (0..<4).map { _ in try served(port, from: "127.0.0.1") }
            for _ in 0..<3 { #expect(try refused(port, from: "127.0.0.1"), "past its share of 4") }
            let second = try served(port, from: "127.0.0.2")
            #expect(server.openConnections == 5)
            // The first address's connections still answer.
            first[0].send("GET /again HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try first[0].readResponse().text == "GET /again")
            withExtendedLifetime((first, second)) {}
        }
    }

    @Test func theLastTenthOfTheConnectionsGoesToAddressesThatHoldNone() throws {
        try withServer(configure: { $0.maxConnections = 10; $0.maxConnectionsPerAddress = 4 }, handler: echoHandler) { server, port in
            // Two addresses hold their whole shares, a third one: 9 open, the reserve of 1 left.
            var held = try (0..<4).map { _ in try served(port, from: "127.0.0.1") }
            held += try (0..<4).map { _ in try served(port, from: "127.0.0.2") }
            held.append(try served(port, from: "127.0.0.3"))
            #expect(try refused(port, from: "127.0.0.3"), "an address holding one may not take the reserve")
            held.append(try served(port, from: "127.0.0.4"))
            #expect(server.openConnections == 10)
            #expect(try refused(port, from: "127.0.0.5"), "the global limit still holds")
            withExtendedLifetime(held) {}
        }
    }

    @Test func aTrustedProxyIsNotCountedAsOneClient() throws {
        let loopback = try #require(AddressRange("127.0.0.0/8"))
        try withServer(configure: { $0.maxConnectionsPerAddress = 2; $0.trustedProxies = [loopback] }, handler: echoHandler) { server, port in
            let clients = try (0..<5).map { _ in try served(port, from: "127.0.0.1") }
            #expect(server.openConnections == 5)
            withExtendedLifetime(clients) {}
        }
    }

    @Test func addressesAndRangesParse() throws {
        #expect(IPAddress("192.0.2.7:443")?.description == "192.0.2.7")
        #expect(IPAddress("[::ffff:192.0.2.7]:80")?.description == "192.0.2.7")
        #expect(IPAddress("[2001:db8::1]:80")?.share == IPAddress("2001:db8::ffff")?.share)
        #expect(IPAddress("2001:db8:0:1::1")?.share != IPAddress("2001:db8::1")?.share)
        #expect(IPAddress("not an address") == nil)
        let range = try #require(AddressRange("10.0.0.0/8"))
        #expect(range.contains(try #require(IPAddress("10.200.3.4:1"))))
        #expect(!range.contains(try #require(IPAddress("11.0.0.1"))))
        #expect(AddressRange("10.0.0.1/8") == nil, "bits past the prefix")
        #expect(AddressRange("10.0.0.0/33") == nil)
        #expect(AddressRange("fd00::/8")?.contains(try #require(IPAddress("fd12::1"))) == true)
        #expect(AddressRange("::1")?.contains(try #require(IPAddress("[::1]:9"))) == true)
        #expect(AddressRange("127.0.0.1")?.contains(try #require(IPAddress("127.0.0.2"))) == false)
    }
}
