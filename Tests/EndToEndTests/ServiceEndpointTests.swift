import Foundation
import Testing

/// Issue 4, test 10: the flow catalog, the contract, health and metrics.
@Suite struct ServiceEndpointTests {
    @Test func flowCatalog() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let r = try c.call("GET", "/v1/flows")
        #expect(r.status == 200)
        #expect(r.contentType?.hasPrefix("application/json") == true)
        let catalog = r.json
        #expect(catalog.keys == ["version", "flows", "deepLinks"])
        #expect(catalog["version"].string == "1")
        let flows = catalog["flows"].array
        let names = flows.compactMap { $0["name"].string }
        #expect(Set(names) == ["app", "onboarding", "auth", "changePassword", "main", "home", "todos", "profile"])
        for flow in flows {
            #expect(flow.keys.isSuperset(of: ["name", "screens", "routes", "children"]), "\(flow)")
            #expect(flow["screens"].array.allSatisfy { $0.string != nil })
            #expect(flow["children"].array.allSatisfy { $0.string.map(names.contains) == true })
            for route in flow["routes"].array {
                #expect(route["name"].string != nil)
                for param in route["params"].array {
                    #expect(param["name"].string != nil)
                    #expect(["string", "boolean", "integer"].contains(param["type"].string ?? ""), "\(param)")
                    #expect(param["required"].bool != nil, "\(param)")
                }
            }
        }
        let auth = try #require(flows.first { $0["name"].string == "auth" })
        #expect(auth["screens"].array.compactMap(\.string) == ["login", "register", "confirmSignUp", "unlock"])
        #expect(auth["children"].array.compactMap(\.string) == ["changePassword"])
        let login = try #require(auth["routes"].array.first { $0["name"].string == "login" })
        #expect(login["params"].canonical == #"[{"name":"email","required":true,"type":"string"},{"name":"password","required":true,"secret":true,"type":"string"}]"#)
        let todos = try #require(flows.first { $0["name"].string == "todos" })
        let update = try #require(todos["routes"].array.first { $0["name"].string == "updateTodo" })
        #expect(update["params"].array.map { "\($0["name"].string ?? ""):\($0["type"].string ?? ""):\($0["required"].bool ?? true)" }
            == ["title:string:true", "description:string:false", "completed:boolean:false"])
        let patterns = Set(catalog["deepLinks"].array.compactMap { $0["pattern"].string })
        #expect(patterns == Set(["todos", "todos/{id}", "todos/new", "profile", "profile/password", "signup"].map { "wayfinder://" + $0 }))
        #expect(catalog["deepLinks"].array.allSatisfy { $0["description"].string?.isEmpty == false })

        let dot = try c.call("GET", "/v1/flows?format=dot")
        #expect(dot.status == 200)
        #expect(dot.contentType?.hasPrefix("text/vnd.graphviz") == true)
        #expect(dot.text.contains("digraph"))
        #expect(dot.text.contains("changePassword"))
        let json = try c.call("GET", "/v1/flows?format=json")
        #expect(json.body == r.body)
        let unknown = try c.call("GET", "/v1/flows?format=xml")
        #expect(unknown.status == 422)
        #expect(unknown.code == "invalid_params")
        #expect(unknown.json["param"].string == "format")
        #expect(unknown.json["instance"].string == "/v1/flows", "instance is the path, never the query")
        #expect(unknown.contentType?.hasPrefix("application/problem+json") == true)
    }

    @Test func contractHealthAndMetrics() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let openapi = try c.call("GET", "/openapi.yaml")
        #expect(openapi.status == 200)
        #expect(openapi.text.hasPrefix("openapi: 3.1") || openapi.text.contains("\nopenapi: 3.1"))
        #expect(openapi.text.contains("/v1/sessions/{id}/events"))
        for path in ["/healthz", "/readyz"] {
            let r = try c.call("GET", path)
            #expect(r.status == 200, "\(path)")
        }
        let s = try c.createSession()
        _ = try c.route(s, "next")
        _ = try c.call("GET", s.path + "/events?access_token=\(s.token)&x=1", headers: [("Authorization", "Bearer wrong")])
        let metrics = try c.call("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.contentType?.hasPrefix("text/plain") == true)
        let text = metrics.text
        #expect(text.contains("# TYPE wayfinder_http_requests_total counter"))
        #expect(text.contains(#"wayfinder_http_requests_total{route="/v1/sessions",method="POST",status="201"} 1"#), "\(text.prefix(2000))")
        #expect(text.contains(#"wayfinder_http_requests_total{route="/v1/sessions/{id}/routes",method="POST",status="200"} 1"#))
        #expect(text.contains("wayfinder_sessions_active 1"))
        // Ids and tokens never show up in metrics.
        #expect(!text.contains(s.id))
        #expect(!text.contains(s.token))
        // The web client is served at /.
        let index = try c.call("GET", "/")
        #expect(index.status == 200)
        #expect(index.contentType?.hasPrefix("text/html") == true)
    }

    @Test func theWebClientIsServedUnderAStrictPolicyAndNothingIsSniffed() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let policy =
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        let index = try c.call("GET", "/")
        for path in ["/", "/index.html", "/gallery.html", "/app.js", "/gallery.js", "/style.css", "/favicon.svg", "/images/walkthrough-1.svg"] {
            for method in ["GET", "HEAD"] {
                let r = try c.call(method, path)
                #expect(r.status == 200, "\(method) \(path): \(r)")
                #expect(r.header("Content-Security-Policy") == policy, "\(method) \(path): \(r)")
                #expect(r.header("X-Content-Type-Options") == "nosniff", "\(method) \(path)")
                #expect(r.header("Referrer-Policy") == "no-referrer", "\(method) \(path)")
            }
        }
        let unchanged = try c.call("GET", "/", headers: [("If-None-Match", index.header("ETag") ?? "")])
        #expect(unchanged.status == 304)
        #expect(unchanged.header("Content-Security-Policy") == policy)
        // The pages need no inline script, style or handler, which the policy would block.
        let folder = URL(fileURLWithPath: InProcessServer.packageRoot + "/Public")
        for page in try FileManager.default.contentsOfDirectory(atPath: folder.path) where page.hasSuffix(".html") {
            let html = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            #expect(html.components(separatedBy: "<script").dropFirst().allSatisfy { $0.prefix { $0 != ">" }.contains(" src=") }, "\(page)")
            #expect(!html.contains("<style"), "\(page)")
            #expect(html.range(of: #"\s(style|on[a-z]+)="#, options: .regularExpression) == nil, "\(page)")
        }
        // Every other answer is nosniff too: JSON, problems (of the HTTP layer as well), the rest.
        let s = try c.createSession()
        for r in [
            s.created, try c.get(s), try c.route(s, "next"), try c.route(s, "nowhere"), try c.call("GET", "/nothing-here"),
            try c.call("GET", "/healthz"), try c.call("GET", "/v1/flows"), try c.call("GET", "/metrics"),
            try c.call("GET", "/openapi.yaml"), try server.client().call("GET", "/healthz", headers: [("Bad Header", "x")]),
        ] {
            #expect(r.header("X-Content-Type-Options") == "nosniff", "\(r)")
            #expect(r.header("Content-Security-Policy") == nil, "\(r)")
        }
    }

    @Test func metricsCountInterleavedRequestsExactlyAndMadeUpMethodsAsOther() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        // Alternating routes and statuses: each request's row differs from the one before.
        for _ in 0..<3 {
            #expect(try c.call("GET", "/healthz").status == 200)
            #expect(try c.call("GET", "/readyz").status == 200)
            #expect(try c.call("POST", "/healthz").status == 405)
        }
        for method in ["FROB", "BREW", "PROPFIND"] {
            #expect(try c.call(method, "/healthz").status == 405)
        }
        let text = try c.call("GET", "/metrics").text
        #expect(text.contains(#"wayfinder_http_requests_total{route="/healthz",method="GET",status="200"} 3"#), "\(text.prefix(3000))")
        #expect(text.contains(#"wayfinder_http_requests_total{route="/readyz",method="GET",status="200"} 3"#))
        #expect(text.contains(#"wayfinder_http_requests_total{route="/healthz",method="POST",status="405"} 3"#))
        #expect(text.contains(#"wayfinder_http_requests_total{route="/healthz",method="other",status="405"} 3"#))
        #expect(!text.contains("FROB") && !text.contains("PROPFIND"))
        // Latency: every request of a route in its count, and in the +Inf bucket.
        #expect(text.contains(#"wayfinder_http_request_duration_seconds_count{route="/healthz"} 9"#))
        #expect(text.contains(#"wayfinder_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"} 9"#))
        #expect(text.contains(#"wayfinder_http_request_duration_seconds_bucket{route="/healthz",le="1.0"} 9"#))
    }
}
