/// Finds where keys sit in a conversation script's text, since the TOML parser reports lines
/// only for syntax errors: the `[[reply]]` headers and each `key =` line below them.
///
/// It reads lines, not TOML: a key inside a multi-line string could mislead it, in which case a
/// problem points at the reply's header instead, which is still the right place to look.
struct ScriptLines {
    private let lines: [Substring]
    /// 0-based indices of the lines that open a table (`[...]` or `[[...]]`).
    private let headers: [Int]
    /// 0-based indices of the `[[reply]]` headers, in order.
    private let replyHeaders: [Int]

    init(_ text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var headers: [Int] = [], replyHeaders: [Int] = []
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("[") else { continue }
            headers.append(index)
            let name = trimmed.filter { $0 != " " && $0 != "\t" }
            if name.hasPrefix("[[reply]]") { replyHeaders.append(index) }
        }
        self.headers = headers
        self.replyHeaders = replyHeaders
    }

    /// The 1-based line of the `number`th `[[reply]]` header (counting from 1).
    func header(ofReply number: Int) -> Int? {
        replyHeaders.indices.contains(number - 1) ? replyHeaders[number - 1] + 1 : nil
    }

    /// The 1-based line where `key` is set, at the top of the file (`reply` nil) or in the
    /// `reply`th `[[reply]]`; else that reply's header line.
    func line(of key: String?, inReply reply: Int?) -> Int? {
        let start: Int
        if let reply {
            guard replyHeaders.indices.contains(reply - 1) else { return nil }
            start = replyHeaders[reply - 1] + 1
        } else {
            start = 0
        }
        let end = headers.first { $0 >= start } ?? lines.count
        if let key {
            for index in start..<end where Self.sets(lines[index], key: key) { return index + 1 }
            // A table where a value belongs (`[reply]` for `[[reply]]`) is set by its header.
            if reply == nil, let index = headers.first(where: { Self.names(lines[$0], table: key) }) { return index + 1 }
        }
        return reply.flatMap(header(ofReply:))
    }

    /// Whether `line` is the header `[table]` or `[[table]]`.
    private static func names(_ line: Substring, table: String) -> Bool {
        let name = line.filter { $0 != " " && $0 != "\t" }
        return name.hasPrefix("[\(table)]") || name.hasPrefix("[[\(table)]]")
    }

    /// Whether `line` is `key = …` (bare or quoted key).
    private static func sets(_ line: Substring, key: String) -> Bool {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        for form in [key, "\"\(key)\"", "'\(key)'"] where rest.hasPrefix(form) {
            rest = rest.dropFirst(form.count).drop { $0 == " " || $0 == "\t" }
            return rest.hasPrefix("=")
        }
        return false
    }
}
