import CZlib

/// The gzip content coding (RFC 9110 §8.4.1.3, the format of RFC 1952), through zlib's deflate.
///
/// One call compresses one whole body: no state is kept between answers, so nothing is shared
/// between threads.
public enum Gzip {
    /// `input` gzip-coded at `level` (1 fastest to 9 smallest), or nil if zlib fails (the caller
    /// then sends the body as it is).
    ///
    /// The window is the smallest power of two that holds the input (512 bytes to zlib's 32 KiB),
    /// and the hash table as large as the window (`memLevel` = window bits − 7, zlib's default 8
    /// at 32 KiB): larger ones find no more matches in a short body, and zlib allocates and
    /// clears them on every call. For a 4 KB state that halves the time (measured: 14 µs against
    /// 30 to 50 at zlib's defaults) for 4 bytes more.
    public static func compress(_ input: [UInt8], level: Int) -> [UInt8]? {
        var windowBits: Int32 = 9
        while windowBits < 15 && (1 << windowBits) < input.count { windowBits += 1 }
        var stream = z_stream()
        // + 16: a gzip header and trailer rather than zlib's.
        guard wayfinder_deflate_init2(&stream, Int32(level), windowBits + 16, windowBits - 7) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var finished = false
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            input.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(bound)
                // With room for deflateBound's bytes, one call with Z_FINISH ends the stream.
                finished = deflate(&stream, Z_FINISH) == Z_STREAM_END
            }
            count = finished ? Int(stream.total_out) : 0
        }
        return finished ? output : nil
    }
}
