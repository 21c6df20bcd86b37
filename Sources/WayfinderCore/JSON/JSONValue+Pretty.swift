extension JSONValue {
    /// The value as indented JSON (two spaces, keys sorted, one member or item per line, a final
    /// newline): for files people keep in a repository and compare line by line.
    public var prettyText: String {
        var out = ""
        writePretty(to: &out, indent: "")
        return out + "\n"
    }

    private func writePretty(to out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                item.writePretty(to: &out, indent: inner)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            let names = members.keys.sorted()
            for (index, name) in names.enumerated() {
                out += inner + JSONValue.string(name).canonicalString + ": "
                members[name]!.writePretty(to: &out, indent: inner)
                out += index == names.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        default:
            out += canonicalString
        }
    }
}
