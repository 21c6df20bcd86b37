import Foundation
import Testing
import WayfinderHTTP
import WayfinderLiveTesting

/// Files from a folder: types, validators, 304, index.html, and no way out of the folder.
@Suite struct StaticFilesTests {
    let base: String
    let root: String

    init() throws {
        base = NSTemporaryDirectory() + "wf-static-\(UUID().uuidString)"
        root = base + "/public"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/docs", withIntermediateDirectories: true)
        try Data("<h1>home</h1>".utf8).write(to: URL(fileURLWithPath: root + "/index.html"))
        try Data("body{}".utf8).write(to: URL(fileURLWithPath: root + "/app.css"))
        try Data("docs index".utf8).write(to: URL(fileURLWithPath: root + "/docs/index.html"))
        try Data("a b".utf8).write(to: URL(fileURLWithPath: root + "/docs/with space.txt"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/secret.txt"))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: root + "/.env"))
        try fm.createSymbolicLink(atPath: root + "/escape.txt", withDestinationPath: base + "/secret.txt")
        try fm.createSymbolicLink(atPath: root + "/escape-dir", withDestinationPath: base)
        try fm.createSymbolicLink(atPath: root + "/inside.css", withDestinationPath: root + "/app.css")
    }

    func get(_ files: StaticFiles, _ target: String, headers: HTTPHeaders = [:], method: String = "GET") -> HTTPResponse? {
        files.response(for: HTTPRequest(method: method, target: target, headers: headers))
    }

    func text(_ r: HTTPResponse?) -> String? {
        guard let r, case .bytes(let b) = r.body else { return nil }
        return String(decoding: b, as: UTF8.self)
    }

    @Test func servesFilesWithTypeAndValidators() throws {
        let files = StaticFiles(root: root)
        let r = try #require(get(files, "/app.css"))
        #expect(r.status == 200)
        #expect(r.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(r.headers["ETag"]?.hasPrefix("\"") == true)
        #expect(r.headers["Last-Modified"].flatMap(HTTPDate.parse) != nil)
        #expect(text(r) == "body{}")
        #expect(text(get(files, "/docs/with%20space.txt")) == "a b")
        #expect(text(get(files, "/inside.css")) == "body{}", "symlinks inside the folder are fine")
    }

    @Test func conditionalRequestsGet304() throws {
        let files = StaticFiles(root: root)
        let r = try #require(get(files, "/app.css"))
        let etag = try #require(r.headers["ETag"])
        let lastModified = try #require(r.headers["Last-Modified"])
        #expect(get(files, "/app.css", headers: ["If-None-Match": etag])?.status == 304)
        #expect(get(files, "/app.css", headers: ["If-None-Match": "\"other\", W/\(etag)"])?.status == 304)
        #expect(get(files, "/app.css", headers: ["If-None-Match": "\"other\""])?.status == 200)
        #expect(get(files, "/app.css", headers: ["If-Modified-Since": lastModified])?.status == 304)
        #expect(get(files, "/app.css", headers: ["If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"])?.status == 200)
        #expect(get(files, "/app.css", headers: ["If-None-Match": "\"other\"", "If-Modified-Since": lastModified])?.status == 200,
                "If-None-Match wins")
    }

    @Test func directoriesServeIndexHtml() throws {
        let files = StaticFiles(root: root)
        #expect(text(get(files, "/")) == "<h1>home</h1>")
        #expect(get(files, "/")?.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(text(get(files, "/docs/")) == "docs index")
        let redirect = try #require(get(files, "/docs?x=1"))
        #expect(redirect.status == 301)
        #expect(redirect.headers["Location"] == "/docs/?x=1")
    }

    @Test(arguments: [("//docs", "/docs/"), ("///docs?x=1", "/docs/?x=1"), ("/docs//", nil), ("//docs//", nil)])
    func aDirectoryRedirectIsNeverProtocolRelative(_ target: String, _ location: String?) throws {
        let answer = try #require(get(StaticFiles(root: root), target))
        if let location {
            #expect(answer.status == 301)
            #expect(answer.headers["Location"] == location, "\(target)")
        } else {
            #expect(answer.status == 200, "\(target): a trailing slash serves the index")
        }
    }

    @Test(arguments: [
        "/../secret.txt", "/docs/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
        "/docs/%2e%2e/%2e%2e/secret.txt", "/..%2fsecret.txt", "/docs%2f..%2f..%2fsecret.txt",
        "/..%5csecret.txt", "/escape.txt", "/escape-dir/secret.txt", "/.env", "/%2eenv", "/app.css%00.txt",
        "/nope.txt", "/docs/%zz", "relative",
    ])
    func nothingOutsideTheFolderIsServed(_ target: String) {
        #expect(get(StaticFiles(root: root), target) == nil, "\(target)")
    }

    @Test func onlyGetAndHead() throws {
        let files = StaticFiles(root: root)
        #expect(get(files, "/app.css", method: "POST") == nil)
        let head = try #require(get(files, "/app.css", method: "HEAD"))
        #expect(head.headers["Content-Length"] == "6")
    }

    @Test func servedThroughTheServerWithHeadAnd304() throws {
        let files = StaticFiles(root: root)
        try withServer(handler: { request in
            files.response(for: request) ?? HTTPError.defaultResponse(.badRequest("not found"))
        }) { _, port in
            let client = CurlClient()
            let get = try client.request("GET", "http://127.0.0.1:\(port)/app.css")
            #expect(get.text == "body{}")
            let head = try client.request("HEAD", "http://127.0.0.1:\(port)/app.css")
            #expect(head.header("Content-Length") == "6")
            #expect(head.body.isEmpty)
            let etag = try #require(get.header("ETag"))
            let notModified = try client.request("GET", "http://127.0.0.1:\(port)/app.css", headers: [("If-None-Match", etag)])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(try client.request("GET", "http://127.0.0.1:\(port)/after").newConnections == 0)
        }
    }
}
