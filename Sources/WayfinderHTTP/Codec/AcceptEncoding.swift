/// What a request's `Accept-Encoding` says of gzip and of no coding at all (RFC 9110 §12.5.3).
///
/// Qualities are kept in thousandths (`q=0.5` is 500). `x-gzip` is gzip (§8.4.1.3); `*` stands
/// for every coding the field does not name, identity included. A value that does not parse
/// as a quality drops its element, as if it were not sent.
public struct AcceptEncoding: Sendable, Equatable {
    /// gzip's quality (0: not acceptable, the value without the field).
    public var gzip: Int
    /// The quality of no coding when the field gives one (`identity;q=…`, or `*;q=…` without
    /// `identity`); nil when it says nothing of it: then no coding is acceptable, and
    /// gzip is not less wanted.
    public var identity: Int?
    /// Whether the request had the field at all.
    public var isPresent: Bool

    /// Reads a request's field (nil: no field, so no coding is asked for).
    public init(_ field: String?) {
        gzip = 0
        identity = nil
        isPresent = field != nil
        guard let field else { return }
        var gzipQuality: Int?, identityQuality: Int?, anyQuality: Int?
        for element in Array(field.utf8).split(separator: UInt8(ascii: ",")) {
            let parts = element.split(separator: UInt8(ascii: ";"))
            guard let name = parts.first.map(Self.trimmed), !name.isEmpty else { continue }
            var quality = 1000
            if let parameter = parts.dropFirst().map(Self.trimmed).first(where: Self.isQuality) {
                guard let q = Self.quality(parameter.dropFirst(2)) else { continue }
                quality = q
            }
            switch String(decoding: name, as: UTF8.self).lowercased() {
            case "gzip", "x-gzip": gzipQuality = quality
            case "identity": identityQuality = quality
            case "*": anyQuality = quality
            default: break
            }
        }
        gzip = gzipQuality ?? anyQuality ?? 0
        identity = identityQuality ?? anyQuality
    }

    /// Whether an answer of `count` bytes goes gzip-coded: gzip acceptable and wanted at least as
    /// much as no coding, and the body `minBytes` long or more — or no coding refused
    /// (`identity;q=0`, `*;q=0`), when even a short body is coded.
    public func prefersGzip(count: Int, minBytes: Int) -> Bool {
        gzip > 0 && gzip >= (identity ?? 0) && (count >= minBytes || identity == 0)
    }

    /// Whether a parameter is `q=…` (the name in either case).
    private static func isQuality(_ parameter: ArraySlice<UInt8>) -> Bool {
        parameter.count > 1 && (parameter[parameter.startIndex] | 0x20) == UInt8(ascii: "q")
            && parameter[parameter.startIndex + 1] == UInt8(ascii: "=")
    }

    /// `0`, `0.5`, `1.000`: a quality in thousandths, or nil (RFC 9110 §12.4.2).
    private static func quality(_ text: ArraySlice<UInt8>) -> Int? {
        guard let first = text.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        let rest = text.dropFirst()
        guard !rest.isEmpty else { return value }
        guard rest.first == UInt8(ascii: "."), rest.count <= 4 else { return nil }
        var scale = 100
        for digit in rest.dropFirst() {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let c = bytes.first, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let c = bytes.last, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { bytes.removeLast() }
        return bytes
    }
}
