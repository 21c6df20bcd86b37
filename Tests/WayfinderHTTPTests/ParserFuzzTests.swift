import Testing
@testable import WayfinderHTTP

/// A small deterministic PRNG (SplitMix64) so the fuzz run is reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Seeded random mutation of valid requests: the parser must never crash, must only produce
/// requests or typed errors, and must consume input consistently however it is split.
@Suite struct ParserFuzzTests {
    static let corpus: [String] = [
        "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET http://h:80/x?y=z HTTP/1.1\r\nHost: h:80\r\nAccept: */*\r\n\r\n",
        "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello",
        "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5;e=1\r\nhello\r\n0\r\nT: v\r\n\r\n",
        "GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc",
        "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
    ]
    static let tokens: [[UInt8]] = [
        "\r", "\n", "\r\n", " ", "\t", ":", ";", ",", "0", "f", "ffffffffffffffffff", "-1", "chunked",
        "Content-Length: 3\r\n", "Transfer-Encoding: chunked\r\n", "Host: x\r\n", "\u{0}", "\u{7f}", "HTTP/1.1", "%",
    ].map { Array($0.utf8) }

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: if !bytes.isEmpty { bytes[at] = UInt8.random(in: 0...255, using: &rng) }
            case 1: if !bytes.isEmpty { bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &rng) }
            case 2: if !bytes.isEmpty { bytes.remove(at: at) }
            case 3: bytes.insert(contentsOf: tokens.randomElement(using: &rng)!, at: at)
            case 4: bytes = Array(bytes.prefix(at))
            default:
                let end = min(bytes.count, at + Int.random(in: 1...16, using: &rng))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            }
        }
        return bytes
    }

    @Test func twentyThousandMutatedInputsNeverCrashTheParser() {
        var rng = SplitMix64(state: 0x5EED_2026)
        let limits = HTTPParserLimits(maxRequestLineBytes: 256, maxHeaderBytes: 512, maxHeaderCount: 10, maxBodyBytes: 1024)
        var requests = 0
        var errors = 0
        for iteration in 0..<20_000 {
            let base = Array(Self.corpus[iteration % Self.corpus.count].utf8)
            let input = Self.mutate(base, &rng)
            // `continueExpected` depends on whether body bytes arrived with the head, so it is
            // the one event allowed to differ between splits.
            let whole = parseAll(input, limits: limits).filter { $0 != .continueExpected }
            let split = parseAll(input, step: Int.random(in: 1...7, using: &rng), limits: limits).filter { $0 != .continueExpected }
            #expect(whole == split, "input \(iteration): \(String(decoding: input, as: UTF8.self).debugDescription)")
            for event in whole {
                switch event {
                case .request(let r, _):
                    requests += 1
                    #expect(r.body.count <= limits.maxBodyBytes)
                    #expect(r.target.first == "/" || r.target == "*")
                case .error(let error):
                    errors += 1
                    #expect([400, 413, 414, 431, 501, 505].contains(error.status))
                case .continueExpected:
                    break
                }
            }
        }
        // The mutations must exercise both outcomes, or the corpus is not doing its job.
        #expect(requests > 1000)
        #expect(errors > 1000)
    }
}
