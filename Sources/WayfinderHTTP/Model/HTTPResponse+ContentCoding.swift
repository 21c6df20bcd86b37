/// The gzip content coding of answers: which are coded, and what that changes in their fields.
extension HTTPResponse {
    /// Codes the body with gzip when `accept` prefers it for a body of its size (at least
    /// `minBytes`; `level` 1 to 9, 0: never coded), and marks what varies with the request.
    ///
    /// - Important: Only bodies of bytes of a textual type are coded, never an event stream (its
    ///   messages and heartbeats go as they are written) nor a partial one (`206`). A
    ///   coded answer says `Content-Encoding: gzip`, and its strong `ETag` becomes weak
    ///   (`W/"7"`, RFC 9110 §8.8.1: the bytes differ, the meaning does not); a `304` to a request
    ///   that accepts gzip carries the weak form too, as its `200` would. To a request with an
    ///   `Accept-Encoding`, every answer of a type that could be coded, and every `304`, says
    ///   `Vary: Accept-Encoding`. A request without one gets its answer as it is, fields and bytes
    ///   (an uncoded answer is acceptable to every client, so a cache that keeps it errs in no one's
    ///   favour).
    public mutating func applyContentCoding(_ accept: AcceptEncoding, minBytes: Int, level: Int) {
        guard accept.isPresent else { return }
        if status == 304 {
            headers.add("Vary", "Accept-Encoding")
            if level > 0, accept.prefersGzip(count: .max, minBytes: minBytes) { weakenETag() }
            return
        }
        guard case .bytes(let bytes) = body, status != 206, let type = headers["Content-Type"], Self.isTextual(type) else { return }
        headers.add("Vary", "Accept-Encoding")
        guard level > 0, accept.prefersGzip(count: bytes.count, minBytes: minBytes),
            let coded = Gzip.compress(bytes, level: level), coded.count < bytes.count || accept.identity == 0
        else { return }
        body = .bytes(coded)
        headers.add("Content-Encoding", "gzip")
        weakenETag()
    }

    /// `"7"` to `W/"7"`; a weak tag stays as it is.
    private mutating func weakenETag() {
        guard let tag = headers["ETag"], tag.hasPrefix("\"") else { return }
        headers.set("ETag", "W/" + tag)
    }

    /// JSON, text, YAML, XML, SVG and the like: types that gzip makes smaller (images, fonts and
    /// archives are compressed already).
    static func isTextual(_ type: String) -> Bool {
        type.hasPrefix("application/json") || type.hasPrefix("application/problem+json") || type.hasPrefix("text/")
            || type.hasPrefix("application/yaml") || type.hasPrefix("application/xml") || type.hasPrefix("image/svg+xml")
            || type.hasPrefix("application/manifest+json") || type.hasPrefix("application/javascript")
    }
}
