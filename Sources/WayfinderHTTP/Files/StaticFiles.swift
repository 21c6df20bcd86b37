import Glibc

/// Serves files from one folder (the web client in `Public/`) for GET and HEAD.
///
/// `Content-Type` by extension, a strong `ETag` (size and modification time) and `Last-Modified`
/// with `304` for `If-None-Match` / `If-Modified-Since` (RFC 9110 §13), `index.html` for
/// directories (a directory path without a trailing slash is redirected to one).
/// - Important: nothing outside the folder is ever served: `.` and `..` segments (raw or
///   percent-encoded), encoded slashes or backslashes, NUL bytes and dot-files give nil, and the
///   resolved path (symlinks followed) must lie inside the folder's resolved path.
public struct StaticFiles: Sendable {
    /// The folder, resolved (symlinks followed); nil when it does not exist.
    public let root: String?
    /// Files larger than this are not served (nil).
    public var maxFileBytes = 64 << 20

    /// Serves the files under `root` (resolved once, here).
    public init(root: String) {
        self.root = Self.resolve(root)
    }

    /// The answer for `request`, or nil when no file here matches (the caller answers 404).
    public func response(for request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "GET" || request.method == "HEAD", let root else { return nil }
        guard let segments = Self.safeSegments(request.path) else { return nil }
        let candidate = segments.isEmpty ? root : root + "/" + segments.joined(separator: "/")
        guard var resolved = Self.resolve(candidate), Self.isInside(resolved, root) else { return nil }
        var info = stat()
        guard stat(resolved, &info) == 0 else { return nil }
        if info.st_mode & S_IFMT == S_IFDIR {
            if !request.path.hasSuffix("/") {
                return HTTPResponse(status: 301, headers: ["Location": Self.directoryLocation(request)])
            }
            guard let index = Self.resolve(resolved + "/index.html"), Self.isInside(index, root),
                stat(index, &info) == 0
            else { return nil }
            resolved = index
        }
        guard info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) <= maxFileBytes else { return nil }

        let mtime = Int(info.st_mtim.tv_sec)
        let mtimeNanos = mtime * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
        let etag = "\"\(String(Int(info.st_size), radix: 16))-\(String(mtimeNanos, radix: 16))\""
        var headers: HTTPHeaders = ["ETag": etag, "Last-Modified": HTTPDate.format(mtime)]
        if Self.notModified(request.headers, etag: etag, mtime: mtime) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.add("Content-Type", MediaTypes.type(forPath: resolved))
        if request.method == "HEAD" {
            headers.add("Content-Length", String(Int(info.st_size)))
            return HTTPResponse(status: 200, headers: headers)
        }
        guard let body = Self.readFile(resolved, limit: maxFileBytes) else { return nil }
        return HTTPResponse(status: 200, headers: headers, body: body)
    }

    /// The redirect target of a directory path without its trailing slash: the path's segments,
    /// as sent, joined by single slashes, then `/` and the query. Empty segments are dropped, so
    /// the value never starts with `//`: `//images` gives `/images/`, not `//images/`, which a
    /// browser would read as a protocol-relative URL naming the host `images`.
    static func directoryLocation(_ request: HTTPRequest) -> String {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true)
        return "/" + segments.joined(separator: "/") + "/" + (request.query.map { "?" + $0 } ?? "")
    }

    /// RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since.
    static func notModified(_ headers: HTTPHeaders, etag: String, mtime: Int) -> Bool {
        if let inm = headers["If-None-Match"] {
            for part in inm.split(separator: ",") {
                var tag = part.drop { $0 == " " || $0 == "\t" }
                while tag.last == " " || tag.last == "\t" { tag.removeLast() }
                if tag == "*" { return true }
                if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
                if tag == etag { return true }
            }
            return false
        }
        if let ims = headers["If-Modified-Since"], let since = HTTPDate.parse(ims) {
            return mtime <= since
        }
        return false
    }

    /// Decoded path segments, or nil for anything that could step outside the folder.
    static func safeSegments(_ path: String) -> [String]? {
        guard path.hasPrefix("/") else { return nil }
        var segments: [String] = []
        for raw in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            var decoded: [UInt8] = []
            var i = raw.startIndex
            while i < raw.endIndex {
                let b = raw[i]
                if b == UInt8(ascii: "%") {
                    let h = raw.index(after: i)
                    guard h < raw.endIndex, raw.index(after: h) < raw.endIndex,
                        let hi = ASCII.hexValue(raw[h]), let lo = ASCII.hexValue(raw[raw.index(after: h)])
                    else { return nil }
                    decoded.append(hi << 4 | lo)
                    i = raw.index(i, offsetBy: 3)
                } else {
                    decoded.append(b)
                    i = raw.index(after: i)
                }
            }
            if decoded.contains(where: { $0 == 0 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) { return nil }
            if decoded.first == UInt8(ascii: ".") { return nil }  // ".", "..", and dot-files
            segments.append(String(decoding: decoded, as: UTF8.self))
        }
        return segments
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    /// realpath(3): the absolute path with symlinks resolved, or nil if it does not exist.
    static func resolve(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(validatingCString: p)
    }

    static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        guard let fd = try? systemCallBlocking("open", { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { closeDescriptor(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { buf -> Int? in
                guard let base = buf.baseAddress else { return nil }
                return try? systemCallBlocking("read") { Glibc.read(fd, base + filled, buf.count - filled) }
            }
            guard let n, n > 0 else { break }
            filled += n
        }
        return filled == bytes.count ? bytes : nil
    }
}
