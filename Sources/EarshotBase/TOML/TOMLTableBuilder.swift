/// The tables of a document while it is parsed, and TOML's rules for defining them: a table is
/// defined once, by its `[header]`, by dotted keys or inline, and later lines may add to it only
/// as those rules allow. Errors name what is already there and the line that made it.
struct TOMLTableBuilder {
    /// How a table came to be, which decides what may add to it later.
    enum Origin {
        case root
        /// Named on the way to a table below it (`a` of `[a.b]`): its own header may still define it.
        case implied
        /// Defined by its own `[header]`, or an element of an array of tables (`[[name]]`).
        case header
        /// Made by a dotted key (`a` of `a.b = 1`): more dotted keys beside it may add to it, and
        /// headers may add tables below it, but no header may define it.
        case dotted
        /// An inline table (`{ }`) while it is read: complete once its `}` is reached.
        case inline
    }

    enum Slot {
        /// A value written after `=`, an inline table included.
        case value(TOMLValue)
        case table(Int)
        /// An array of tables: its elements and the place of its first `[[header]]`.
        case tableArray([Int], TOMLPosition)
    }

    struct Node {
        var origin: Origin
        var path: [String]
        var position: TOMLPosition
        var keys: [String] = []
        var slots: [String: (position: TOMLPosition, slot: Slot)] = [:]
    }

    static let root = 0
    private var nodes = [Node(origin: .root, path: [], position: TOMLPosition(line: 1, column: 1))]

    func path(of node: Int) -> [String] { nodes[node].path }

    /// `[path]`: the table it defines, made now or named before only on the way to another.
    mutating func defineTable(_ path: [String], at position: TOMLPosition) throws(TOMLError) -> Int {
        let parent = try parentForHeader(path, at: position)
        let key = path[path.count - 1]
        guard let (place, slot) = nodes[parent].slots[key] else {
            return try add(key, in: parent, origin: .header, at: position)
        }
        let name = "[\(TOMLWriter.key(path))]"
        switch slot {
        case .table(let node) where nodes[node].origin == .implied:
            nodes[node].origin = .header
            nodes[node].position = position
            nodes[parent].slots[key]?.position = position
            return node
        case .table(let node) where nodes[node].origin == .dotted:
            throw TOMLError("the table \(name) is already defined by dotted keys on line \(place.line); a table is defined once", at: position)
        case .table:
            throw TOMLError("the table \(name) is already defined on line \(place.line); a table is defined once", at: position)
        case .tableArray:
            throw TOMLError(
                "`\(TOMLWriter.key(path))` is an array of tables (line \(place.line)): [[\(TOMLWriter.key(path))]] adds a table to it, \(name) cannot define it",
                at: position)
        case .value(let value):
            throw TOMLError("\(Self.already(path, value, place)), so \(name) cannot define it as a table", at: position)
        }
    }

    /// `[[path]]`: a new table at the end of the array of tables there, which it begins if need be.
    mutating func appendTable(to path: [String], at position: TOMLPosition) throws(TOMLError) -> Int {
        let parent = try parentForHeader(path, at: position)
        let key = path[path.count - 1]
        let element = try node(origin: .header, path: path, at: position)
        switch nodes[parent].slots[key] {
        case nil:
            nodes[parent].keys.append(key)
            nodes[parent].slots[key] = (position, .tableArray([element], position))
        case (let place, .tableArray(let elements, let first))?:
            nodes[parent].slots[key] = (place, .tableArray(elements + [element], first))
        case (let place, .table)?:
            throw TOMLError("`\(TOMLWriter.key(path))` is already a table (line \(place.line)), not an array of tables", at: position)
        case (let place, .value(let value))? where value.array != nil:
            throw TOMLError(
                "`\(TOMLWriter.key(path))` is an array written with [ ] on line \(place.line); [[\(TOMLWriter.key(path))]] adds only to an array of tables begun by [[\(TOMLWriter.key(path))]]",
                at: position)
        case (let place, .value(let value))?:
            throw TOMLError("\(Self.already(path, value, place)), not an array of tables", at: position)
        }
        return element
    }

    /// `keys = value` in `table`: the dotted key's tables are made or extended as TOML allows.
    mutating func set(_ keys: [String], to value: TOMLValue, in table: Int, at position: TOMLPosition) throws(TOMLError) {
        var node = table
        for key in keys.dropLast() {
            let path = nodes[node].path + [key]
            switch nodes[node].slots[key] {
            case nil:
                node = try add(key, in: node, origin: .dotted, at: position)
            case (_, .table(let next))? where nodes[next].origin == .dotted:
                node = next
            case (let place, .table(let next))? where nodes[next].origin == .implied:
                throw TOMLError(
                    "the table [\(TOMLWriter.key(path))] is made by a header on line \(place.line); give it its own [\(TOMLWriter.key(path))] header to add keys to it",
                    at: position)
            case (let place, .table)?:
                throw TOMLError(
                    "the table [\(TOMLWriter.key(path))] is defined by its header on line \(place.line); add keys to it there, not with a dotted key",
                    at: position)
            case (let place, .tableArray)?:
                throw TOMLError(
                    "`\(TOMLWriter.key(path))` is an array of tables (line \(place.line)); add keys to its tables under their [[\(TOMLWriter.key(path))]] headers",
                    at: position)
            case (let place, .value(let existing))?:
                throw TOMLError("\(Self.already(path, existing, place)), so it cannot hold the key `\(TOMLWriter.key(keys))`", at: position)
            }
        }
        let key = keys[keys.count - 1]
        if let (place, _) = nodes[node].slots[key] {
            let path = nodes[node].path + [key]
            throw TOMLError("`\(TOMLWriter.key(path))` is already defined on line \(place.line); a key is set once", at: position)
        }
        nodes[node].keys.append(key)
        nodes[node].slots[key] = (position, .value(value))
    }

    /// A new inline table for the value of `path`, to be filled by `set` and closed by `finishInline`.
    mutating func beginInline(_ path: [String], at position: TOMLPosition) throws(TOMLError) -> Int {
        try node(origin: .inline, path: path, at: position)
    }

    func finishInline(_ node: Int) -> TOMLValue {
        TOMLValue(.table(table(node)), at: nodes[node].position)
    }

    /// The finished table of `node`, and every table below it.
    func table(_ node: Int) -> TOMLTable {
        var table = TOMLTable()
        for key in nodes[node].keys {
            guard let (place, slot) = nodes[node].slots[key] else { continue }
            switch slot {
            case .value(let value):
                table.append(key, at: place, value)
            case .table(let child):
                table.append(key, at: place, TOMLValue(.table(self.table(child)), at: nodes[child].position))
            case .tableArray(let elements, let first):
                let tables = elements.map { TOMLValue(.table(self.table($0)), at: nodes[$0].position) }
                table.append(key, at: place, TOMLValue(.array(tables), at: first))
            }
        }
        return table
    }

    /// The table that will hold the last key of a header's `path`, made on the way if need be.
    private mutating func parentForHeader(_ path: [String], at position: TOMLPosition) throws(TOMLError) -> Int {
        var node = Self.root
        for key in path.dropLast() {
            switch nodes[node].slots[key] {
            case nil:
                node = try add(key, in: node, origin: .implied, at: position)
            case (_, .table(let next))?:
                node = next
            case (_, .tableArray(let elements, _))?:
                node = elements[elements.count - 1]
            case (let place, .value(let value))?:
                let name = "[\(TOMLWriter.key(path))]"
                throw TOMLError("\(Self.already(nodes[node].path + [key], value, place)), so \(name) cannot be a table inside it", at: position)
            }
        }
        return node
    }

    private mutating func add(_ key: String, in parent: Int, origin: Origin, at position: TOMLPosition) throws(TOMLError) -> Int {
        let child = try node(origin: origin, path: nodes[parent].path + [key], at: position)
        nodes[parent].keys.append(key)
        nodes[parent].slots[key] = (position, .table(child))
        return child
    }

    private mutating func node(origin: Origin, path: [String], at position: TOMLPosition) throws(TOMLError) -> Int {
        guard path.count <= TOMLParser.maximumDepth else {
            throw TOMLError("tables are nested deeper than \(TOMLParser.maximumDepth) levels", at: position)
        }
        nodes.append(Node(origin: origin, path: path, position: position))
        return nodes.count - 1
    }

    /// "`a.b` is already an integer (line 3)", or for an inline table that it is complete as written.
    private static func already(_ path: [String], _ value: TOMLValue, _ place: TOMLPosition) -> String {
        let name = "`\(TOMLWriter.key(path))`"
        if value.table != nil { return "\(name) is an inline table (line \(place.line)), complete as written" }
        return "\(name) is already \(value.phrase) (line \(place.line))"
    }
}
