/// Chunked transfer coding (RFC 9112 §7.1): sizes, extensions, data and trailers.
extension HTTPRequestParser {
    /// The longest chunk-size line (size plus extensions) accepted.
    static var maxChunkLineBytes: Int { 4096 }

    /// Reads `chunk-size [chunk-ext] CRLF`; returns false when the line is incomplete.
    mutating func readChunkSizeLine() throws(HTTPError) -> Bool {
        guard let lf = findLF(from: start + lineScan) else {
            lineScan = buffer.count - start
            if lineScan > Self.maxChunkLineBytes { throw .badRequest("The chunk-size line is too long.") }
            return false
        }
        lineScan = 0
        guard lf > start, buffer[lf - 1] == ASCII.cr else { throw .badRequest("Chunk-size line ends in a bare LF.") }
        let size = try buffer.withUnsafeBufferPointer { buf throws(HTTPError) in
            try Self.parseChunkSize(buf, start..<(lf - 1))
        }
        start = lf + 1
        if size == 0 {
            state = .trailers
        } else {
            if size > limits.maxBodyBytes - body.count {
                oversizedHead = pending
                throw .payloadTooLarge
            }
            state = .chunkData(remaining: size)
        }
        return true
    }

    /// chunk-size = 1*HEXDIG (at most 16 digits); chunk-ext = *( BWS ";" BWS name [ BWS "=" BWS value ] ).
    static func parseChunkSize(_ buf: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) throws(HTTPError) -> Int {
        var i = r.lowerBound
        var value: UInt64 = 0
        while i < r.upperBound, let h = ASCII.hexValue(buf[i]) {
            if i - r.lowerBound >= 16 || value > (UInt64(Int.max) >> 4) {
                throw .badRequest("The chunk size overflows.")
            }
            value = value << 4 | UInt64(h)
            i += 1
        }
        guard i > r.lowerBound else { throw .badRequest("The chunk size is not hexadecimal.") }
        while i < r.upperBound, buf[i] == ASCII.sp || buf[i] == ASCII.htab { i += 1 }
        if i < r.upperBound {
            guard buf[i] == UInt8(ascii: ";") else { throw .badRequest("The chunk size is not hexadecimal.") }
            for k in (i + 1)..<r.upperBound where !ASCII.isFieldValue(buf[k]) {
                throw .badRequest("A control character in a chunk extension.")
            }
        }
        return Int(value)
    }

    /// Reads one trailer line; at the empty line the message is complete and `state` returns to `.head`.
    mutating func readTrailerLine() throws(HTTPError) -> Bool {
        guard let lf = findLF(from: start + lineScan) else {
            lineScan = buffer.count - start
            if trailerBytes + lineScan > limits.maxHeaderBytes { throw .headersTooLarge }
            return false
        }
        lineScan = 0
        guard lf > start, buffer[lf - 1] == ASCII.cr else { throw .badRequest("Trailer line ends in a bare LF.") }
        let lineEnd = lf - 1
        if lineEnd == start {
            start = lf + 1
            state = .head
            return true
        }
        trailerBytes += lf + 1 - start
        trailerCount += 1
        if trailerBytes > limits.maxHeaderBytes || trailerCount > limits.maxHeaderCount { throw .headersTooLarge }
        _ = try buffer.withUnsafeBufferPointer { buf throws(HTTPError) in
            try Self.parseField(buf, start..<lineEnd)
        }
        start = lf + 1
        return true
    }
}
