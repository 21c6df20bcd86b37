/// An ordered list of header fields with case-insensitive name lookup.
///
/// Order and duplicates are kept as received (RFC 9110 §5.3); lookups compare names
/// ASCII-case-insensitively without allocating.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Element = (name: String, value: String)

    @usableFromInline var fields: [Element]

    /// No fields.
    public init() { fields = [] }

    /// The fields `(name, value)`, in this order.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        // Room for the fields added on the way out (the API's X-Request-Id, Vary and
        // Content-Encoding), so adding them does not move the array.
        fields = []
        fields.reserveCapacity(elements.count + 3)
        for (name, value) in elements { fields.append((name: name, value: value)) }
    }

    /// Every field, in order (shares the storage: no copy).
    public var all: [Element] { fields }

    /// Makes room for `count` fields in all.
    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    /// The number of fields, duplicates included.
    public var count: Int { fields.count }
    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value of `name`, or nil.
    public subscript(_ name: String) -> String? {
        for field in fields where field.name.asciiCaseInsensitiveEquals(name) { return field.value }
        return nil
    }

    /// The first values of `a` and of `b`, found in one pass over the fields (two lookups for
    /// the price of one, on a request path that reads several fields).
    public func first(_ a: String, _ b: String) -> (String?, String?) {
        var first: String?, second: String?
        let aCount = a.utf8.count, bCount = b.utf8.count
        // Through a pointer: reading a field's name length copies nothing.
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                let count = fields[index].name.utf8.count
                if count == aCount, first == nil, fields[index].name.asciiCaseInsensitiveEquals(a) {
                    first = fields[index].value
                } else if count == bCount, second == nil, fields[index].name.asciiCaseInsensitiveEquals(b) {
                    second = fields[index].value
                }
            }
        }
        return (first, second)
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.compactMap { $0.name.asciiCaseInsensitiveEquals(name) ? $0.value : nil }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Appends a field, keeping existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        if fields.contains(where: { $0.name.asciiCaseInsensitiveEquals(name) }) { remove(name) }
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.asciiCaseInsensitiveEquals(name) }
    }

    public func makeIterator() -> IndexingIterator<[Element]> { fields.makeIterator() }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive comparison (header names and tokens are ASCII).
    func asciiCaseInsensitiveEquals(_ other: String) -> Bool {
        // Native strings know their UTF-8 length: unequal lengths cost no byte comparison.
        if utf8.count != other.utf8.count { return false }
        // Both contiguous (native strings are): compare the bytes in place.
        if let equal = utf8.withContiguousStorageIfAvailable({ a in
            other.utf8.withContiguousStorageIfAvailable { b in Self.asciiCaseInsensitiveEquals(a, b) }
        }), let equal {
            return equal
        }
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case let (x?, y?): if ASCII.lower(x) != ASCII.lower(y) { return false }
            default: return false
            }
        }
    }

    /// Two byte runs of the same length, equal but for the case of ASCII letters.
    private static func asciiCaseInsensitiveEquals(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<a.count {
            let x = a[index], y = b[index]
            if x == y { continue }
            // Differ only in bit 0x20, and that bit makes a lowercase letter: the same letter.
            let lower = x | 0x20
            guard x ^ y == 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }
}
