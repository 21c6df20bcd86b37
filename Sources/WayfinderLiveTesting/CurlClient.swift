import CCurlShim

/// A small, real HTTP/1.1 client for tests, built on one libcurl easy handle.
///
/// Requests made through one `CurlClient` reuse its connection when the server keeps it alive
/// (see `Response.newConnections` and `Response.localPort`). Blocking; not thread-safe: use
/// one client per thread (it is deliberately not `Sendable`).
///
/// ```swift
/// let client = CurlClient()
/// let r = try client.request("POST", "http://127.0.0.1:\(port)/v1/sessions",
///                            headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
/// #expect(r.status == 201)
/// ```
public final class CurlClient {
    /// A finished transfer.
    public struct Response: Sendable {
        /// The final status code (after any `100 Continue`).
        public var status: Int
        /// Header fields of the final response, in order.
        public var headers: [(name: String, value: String)]
        /// The body (libcurl has undone a chunked transfer encoding).
        public var body: [UInt8]
        /// Every status line received, interim ones included (e.g. "HTTP/1.1 100 Continue").
        public var statusLines: [String]
        /// New connections libcurl opened for this transfer (0 when it reused one).
        public var newConnections: Int
        /// The local port of the connection used.
        public var localPort: Int
        /// True when a streaming read was stopped by its callback.
        public var aborted: Bool

        /// The first value of header `name` (case-insensitive).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// How a request body is sent.
    public enum Upload: Sendable {
        /// With Content-Length.
        case bytes([UInt8])
        /// With `Transfer-Encoding: chunked`, one chunk per element.
        case chunked([[UInt8]])
    }

    /// A transfer libcurl could not complete: no connection, a timeout, a broken response.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// libcurl's `CURLcode` (7: could not connect, 28: timed out, …).
        public var code: Int
        /// libcurl's text for the code.
        public var message: String
        public var description: String { "curl error \(code): \(message)" }
    }

    private static let globalInit: Void = { _ = curl_global_init(3) }()

    private let handle: UnsafeMutableRawPointer
    /// Whole-transfer timeout in milliseconds.
    public var timeoutMilliseconds: Int

    /// A client with its own connection; each transfer may take at most `timeoutMilliseconds`.
    public init(timeoutMilliseconds: Int = 15_000) {
        _ = Self.globalInit
        handle = curl_easy_init()
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    deinit { curl_easy_cleanup(handle) }

    /// Sends one request and reads the whole response.
    /// - Parameters:
    ///   - expectContinue: sends `Expect: 100-continue` and waits up to 5 s for `100 Continue` before
    ///     the body; `statusLines` shows whether it came.
    ///   - http10: speak HTTP/1.0 instead of HTTP/1.1.
    ///   - decoding: sends it as `Accept-Encoding` (`"gzip"`) and gives the body decoded, as
    ///     libcurl decodes it; nil sends no such field (one in `headers` goes as it is, and the
    ///     body comes back as sent).
    public func request(
        _ method: String = "GET", _ url: String, headers: [(String, String)] = [],
        upload: Upload? = nil, expectContinue: Bool = false, http10: Bool = false, decoding: String? = nil
    ) throws(Failure) -> Response {
        try perform(
            method, url, headers: headers, upload: upload, expectContinue: expectContinue, http10: http10, decoding: decoding,
            onData: nil)
    }

    /// Convenience for a body sent with Content-Length.
    public func request(
        _ method: String, _ url: String, headers: [(String, String)] = [], body: [UInt8]
    ) throws(Failure) -> Response {
        try perform(method, url, headers: headers, upload: .bytes(body), expectContinue: false, http10: false, decoding: nil, onData: nil)
    }

    /// Reads a response incrementally: `onData` gets each piece as it arrives and returns false
    /// to stop (the transfer then ends with `aborted` set). The returned body is empty.
    /// - Parameter isCancelled: asked about once a second even while nothing arrives (libcurl's
    ///   progress callback); true ends the transfer as `onData` returning false does, so a quiet
    ///   stream can be left without waiting for its next piece.
    public func stream(
        _ url: String, headers: [(String, String)] = [], isCancelled: @escaping () -> Bool = { false },
        onData: @escaping ([UInt8]) -> Bool
    ) throws(Failure) -> Response {
        try perform(
            "GET", url, headers: headers, upload: nil, expectContinue: false, http10: false, decoding: nil, onData: onData,
            isCancelled: isCancelled)
    }

    private final class Transfer {
        var body: [UInt8] = []
        var headers: [(name: String, value: String)] = []
        var statusLines: [String] = []
        var uploadChunks: [[UInt8]] = []
        var chunkIndex = 0
        var chunkOffset = 0
        var onData: (([UInt8]) -> Bool)?
        var isCancelled: (() -> Bool)?
        var aborted = false
    }

    private func perform(
        _ method: String, _ url: String, headers: [(String, String)], upload: Upload?,
        expectContinue: Bool, http10: Bool, decoding: String?, onData: (([UInt8]) -> Bool)?, isCancelled: (() -> Bool)? = nil
    ) throws(Failure) -> Response {
        curl_easy_reset(handle)  // options only; live connections are kept
        let transfer = Transfer()
        transfer.onData = onData
        transfer.isCancelled = isCancelled
        let context = Unmanaged.passRetained(transfer)
        defer { context.release() }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }

        wf_curl_setopt_string(handle, WF_CURLOPT_URL, url)
        wf_curl_setopt_string(handle, WF_CURLOPT_PROXY, "")
        if let decoding { wf_curl_setopt_string(handle, WF_CURLOPT_ACCEPT_ENCODING, decoding) }
        wf_curl_setopt_long(handle, WF_CURLOPT_NOSIGNAL, 1)
        wf_curl_setopt_long(handle, WF_CURLOPT_TIMEOUT_MS, timeoutMilliseconds)
        wf_curl_setopt_long(handle, WF_CURLOPT_HTTP_VERSION, http10 ? WF_CURL_HTTP_VERSION_1_0 : WF_CURL_HTTP_VERSION_1_1)
        wf_curl_setopt_pointer(handle, WF_CURLOPT_WRITEDATA, context.toOpaque())
        wf_curl_setopt_callback(handle, WF_CURLOPT_WRITEFUNCTION, { ptr, size, count, user in
            let t = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            let n = size * count
            let bytes = Array(UnsafeRawBufferPointer(start: ptr, count: n))
            if let onData = t.onData {
                if !onData(bytes) {
                    t.aborted = true
                    return 0
                }
            } else {
                t.body.append(contentsOf: bytes)
            }
            return n
        })
        if isCancelled != nil {
            wf_curl_setopt_progress_callback(handle, { user, _, _, _, _ in
                let t = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
                guard t.isCancelled?() == true else { return 0 }
                t.aborted = true
                return 1
            }, context.toOpaque())
        }
        wf_curl_setopt_pointer(handle, WF_CURLOPT_HEADERDATA, context.toOpaque())
        wf_curl_setopt_callback(handle, WF_CURLOPT_HEADERFUNCTION, { ptr, size, count, user in
            let t = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
            let n = size * count
            var bytes = Array(UnsafeRawBufferPointer(start: ptr, count: n))
            while bytes.last == 10 || bytes.last == 13 { bytes.removeLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                t.statusLines.append(line)
                t.headers = []
            } else if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                t.headers.append((String(line[..<colon]), String(value)))
            }
            return n
        })

        switch method {
        case "GET": wf_curl_setopt_long(handle, WF_CURLOPT_HTTPGET, 1)
        case "HEAD": wf_curl_setopt_long(handle, WF_CURLOPT_NOBODY, 1)
        default: wf_curl_setopt_string(handle, WF_CURLOPT_CUSTOMREQUEST, method)
        }

        var allHeaders = headers
        if let upload {
            switch upload {
            case .bytes(let bytes):
                transfer.uploadChunks = [bytes]
                wf_curl_setopt_off(handle, WF_CURLOPT_INFILESIZE_LARGE, curl_off_t(bytes.count))
            case .chunked(let chunks):
                transfer.uploadChunks = chunks.filter { !$0.isEmpty }
                allHeaders.append(("Transfer-Encoding", "chunked"))
            }
            wf_curl_setopt_long(handle, WF_CURLOPT_UPLOAD, 1)
            if method == "GET" || method == "HEAD" { wf_curl_setopt_string(handle, WF_CURLOPT_CUSTOMREQUEST, method) }
            wf_curl_setopt_pointer(handle, WF_CURLOPT_READDATA, context.toOpaque())
            wf_curl_setopt_callback(handle, WF_CURLOPT_READFUNCTION, { ptr, size, count, user in
                let t = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
                guard t.chunkIndex < t.uploadChunks.count else { return 0 }
                let chunk = t.uploadChunks[t.chunkIndex]
                let n = min(size * count, chunk.count - t.chunkOffset)
                chunk.withUnsafeBytes { src in
                    UnsafeMutableRawPointer(ptr!).copyMemory(from: src.baseAddress! + t.chunkOffset, byteCount: n)
                }
                t.chunkOffset += n
                if t.chunkOffset == chunk.count {
                    t.chunkIndex += 1
                    t.chunkOffset = 0
                }
                return n
            })
        }
        if expectContinue {
            allHeaders.append(("Expect", "100-continue"))
            wf_curl_setopt_long(handle, WF_CURLOPT_EXPECT_100_TIMEOUT_MS, 5000)
        } else if upload != nil {
            allHeaders.append(("Expect", ""))  // an empty value stops libcurl adding one
        }
        for (name, value) in allHeaders {
            list = curl_slist_append(list, value.isEmpty ? "\(name):" : "\(name): \(value)")
        }
        if list != nil { wf_curl_setopt_pointer(handle, WF_CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)) }

        let code = curl_easy_perform(handle)
        if code != CURLE_OK && !((code == CURLE_WRITE_ERROR || code == CURLE_ABORTED_BY_CALLBACK) && transfer.aborted) {
            throw Failure(code: Int(code.rawValue), message: String(validatingCString: curl_easy_strerror(code)) ?? "")
        }
        var status = 0
        var connects = 0
        var port = 0
        wf_curl_getinfo_long(handle, WF_CURLINFO_RESPONSE_CODE, &status)
        wf_curl_getinfo_long(handle, WF_CURLINFO_NUM_CONNECTS, &connects)
        wf_curl_getinfo_long(handle, WF_CURLINFO_LOCAL_PORT, &port)
        return Response(
            status: status, headers: transfer.headers, body: transfer.body, statusLines: transfer.statusLines,
            newConnections: connects, localPort: port, aborted: transfer.aborted)
    }
}
