/// The differences between two JSON values as readable lines (`$.root.stack.screens[1].name:
/// "todos" → "profile"`), for a replay's report at its first divergence.
public enum JSONDiff {
    /// At most `limit` lines, each a path with the recorded and the computed value; a member
    /// only on one side reads `(absent)` on the other.
    public static func lines(recorded: JSONValue, computed: JSONValue, limit: Int = 20) -> [String] {
        var out: [String] = []
        walk(recorded, computed, "$", &out, limit)
        return out
    }

    private static func walk(_ a: JSONValue?, _ b: JSONValue?, _ path: String, _ out: inout [String], _ limit: Int) {
        guard out.count < limit, a != b else { return }
        switch (a, b) {
        case (.object(let x)?, .object(let y)?):
            for key in Set(x.keys).union(y.keys).sorted() { walk(x[key], y[key], path + "." + key, &out, limit) }
        case (.array(let x)?, .array(let y)?) where x.count == y.count:
            for index in x.indices { walk(x[index], y[index], path + "[\(index)]", &out, limit) }
        default:
            out.append("\(path): \(text(a)) → \(text(b))")
        }
    }

    private static func text(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        let bytes = value.canonicalBytes
        return bytes.count > 120 ? String(decoding: bytes.prefix(117), as: UTF8.self) + "…" : String(decoding: bytes, as: UTF8.self)
    }
}
