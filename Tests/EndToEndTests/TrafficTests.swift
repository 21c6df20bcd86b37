import Foundation
import Testing

/// Issue 17: traffic per onboarding variant, in /metrics and on the flow graph.
@Suite struct TrafficTests {
    @Test func trafficIsCountedPerVariantInMetricsAndOnTheGraph() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        // Variant A: three pages; two users finish the walkthrough, one leaves on page 2.
        for pages in [3, 3, 1] {
            let s = try c.createSession(#"{"context": {"variant": "A"}}"#)
            for _ in 0..<pages { #expect(try c.route(s, "next").status == 200) }
        }
        // Variant B: one page; the user signs up through a deep link kept until onboarding ends.
        let b = try c.createSession(#"{"context": {"variant": "B"}, "deepLink": "wayfinder://todos"}"#)
        #expect(try c.route(b, "next").status == 200)
        #expect(try c.deepLink(b, "wayfinder://signup").status == 200)

        let metrics = try c.call("GET", "/metrics").text
        let lines = Set(metrics.split(separator: "\n").map(String.init))
        for expected in [
            #"wayfinder_flows_started_total{flow="onboarding",variant="A"} 3"#,
            #"wayfinder_flows_finished_total{flow="onboarding",variant="A"} 2"#,
            #"wayfinder_flows_started_total{flow="onboarding",variant="B"} 1"#,
            #"wayfinder_flows_finished_total{flow="onboarding",variant="B"} 1"#,
            #"wayfinder_routes_taken_total{from="onboarding.walkthrough",route="next",to="onboarding.walkthrough",variant="A"} 5"#,
            #"wayfinder_routes_taken_total{from="onboarding.walkthrough",route="next",to="auth.login",variant="A"} 2"#,
            #"wayfinder_routes_taken_total{from="onboarding.walkthrough",route="next",to="auth.login",variant="B"} 1"#,
            #"wayfinder_screens_shown_total{screen="auth.login",variant="A"} 2"#,
            #"wayfinder_screens_shown_total{screen="auth.register",variant="B"} 1"#,
            #"wayfinder_deeplinks_deferred_total{pattern="wayfinder://todos",variant="B"} 1"#,
            #"wayfinder_deeplinks_opened_total{pattern="wayfinder://signup",variant="B"} 1"#,
        ] {
            #expect(lines.contains(expected), "missing: \(expected)")
        }

        let dot = try c.call("GET", "/v1/flows?format=dot&traffic=1")
        #expect(dot.status == 200)
        #expect(dot.contentType == "text/vnd.graphviz")
        #expect(dot.text.contains(#""onboarding" [label="onboarding\nA: 2/3 finished (67%)\nB: 1/1 finished (100%)"];"#), "\(dot.text)")
        #expect(dot.text.contains(#""app" -> "onboarding" [label="4", penwidth="#))
        #expect(dot.text.contains(#""onboarding.walkthrough" -> "onboarding.walkthrough" [label="next ×5", penwidth=5.0"#))
        #expect(dot.text.contains(#""wayfinder://signup" -> "auth" [style=dashed, label="1""#))
        #expect(try c.call("GET", "/v1/flows?format=dot").text.contains("×") == false)
        #expect(try c.call("GET", "/v1/flows?traffic=1").status == 422)
        #expect(try c.call("GET", "/v1/flows?format=dot&traffic=yes").status == 422)
    }
}
