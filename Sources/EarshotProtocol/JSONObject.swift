/// A JSON object's members in the order they were written. Lookups take the last member with a
/// given key, as most JSON parsers do; encoding writes them all, in order.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public var members: [Member]

    public init(_ members: [Member] = []) {
        self.members = members
    }

    public init(_ pairs: [(String, JSONValue)]) {
        self.members = pairs.map { Member(key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    public var isEmpty: Bool {
        members.isEmpty
    }

    /// The value of the last member named `key`; setting replaces it or appends a new member.
    public subscript(key: String) -> JSONValue? {
        get {
            members.last { $0.key == key }?.value
        }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }
}
