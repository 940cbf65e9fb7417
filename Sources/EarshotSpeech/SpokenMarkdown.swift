/// Turns a chat model's markdown into what a voice should say, one sentence at a time (the
/// pieces ``SentenceSplitter`` cuts, each within one line): emphasis, heading and list marks,
/// table bars and backquotes are dropped, a link is said by its text, a bare URL by its host
/// ("example.com"), and a fenced code block is not read out at all, only announced once
/// ("There is code in the text.").
///
/// It keeps whether a code block is open between pieces, so feed it every piece of a reply in
/// order; ``reset()`` starts a new reply.
public struct SpokenMarkdown: Sendable {
    /// What is said in place of a code block.
    public static let codeNotice = "There is code in the text."

    private var inCodeBlock = false

    public init() {}

    /// What to say for `piece`, or nil when nothing of it is spoken.
    public mutating func speakable(_ piece: String) -> String? {
        let trimmed = piece.trimmingWhitespace
        if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
            inCodeBlock.toggle()
            return inCodeBlock ? Self.codeNotice : nil
        }
        if inCodeBlock { return nil }
        let spoken = Self.inline(Self.withoutLineMarks(trimmed)).trimmingWhitespace
        return spoken.contains(where: { $0.isLetter || $0.isNumber }) ? spoken : nil
    }

    /// Starts over, for a new reply.
    public mutating func reset() {
        inCodeBlock = false
    }

    /// Without a heading's `#`s, a quote's `>`, a bullet's `-`, `*` or `+`, or a table's bars.
    static func withoutLineMarks(_ line: String) -> String {
        var text = Substring(line)
        while text.first == ">" { text = text.dropFirst().drop { $0 == " " } }
        if text.first == "#" {
            let marks = text.prefix { $0 == "#" }
            if marks.count <= 6, text.dropFirst(marks.count).first == " " { text = text.dropFirst(marks.count + 1) }
        }
        if let first = text.first, "-*+".contains(first), text.dropFirst().first == " " { text = text.dropFirst(2) }
        if text.first == "|" {
            // A table row: its cells, separated by commas; a separator row (|---|:--:|) says nothing.
            let cells = text.split(separator: "|").map { String($0).trimmingWhitespace }.filter { !$0.isEmpty }
            if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { return "" }
            return cells.joined(separator: ", ")
        }
        return String(text)
    }

    /// Links by their text, URLs by their host, without emphasis marks and backquotes.
    static func inline(_ text: String) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            let rest = text[index...]
            if rest.first == "[", let link = markdownLink(rest) {
                out += link.text
                index = link.end
            } else if rest.first == "!", rest.dropFirst().first == "[", let image = markdownLink(rest.dropFirst()) {
                out += image.text
                index = image.end
            } else if rest.hasPrefix("http://") || rest.hasPrefix("https://") || rest.hasPrefix("www.") {
                let url = rest.prefix { !$0.isWhitespace && $0 != ")" && $0 != ">" }
                out += host(of: url)
                index = url.endIndex
                // A period that ends the sentence after the URL was taken as part of it.
                if url.last == "." || url.last == "," { out.append(url.last!) }
                // The `>` closing an autolink (`<https://…>`).
                if index < text.endIndex, text[index] == ">" { index = text.index(after: index) }
            } else if rest.hasPrefix("<http") {
                index = text.index(after: index)
            } else if let character = rest.first, "*_`~".contains(character), isMark(at: index, in: text) {
                index = text.index(after: index)
            } else {
                out.append(rest.first!)
                index = text.index(after: index)
            }
        }
        return out
    }

    /// `[text](target)` at the start of `text`: its text and where it ends.
    private static func markdownLink(_ text: Substring) -> (text: String, end: String.Index)? {
        guard let close = text.firstIndex(of: "]") else { return nil }
        let afterClose = text.index(after: close)
        guard afterClose < text.endIndex, text[afterClose] == "(", let end = text[afterClose...].firstIndex(of: ")") else { return nil }
        return (String(text[text.index(after: text.startIndex)..<close]), text.index(after: end))
    }

    /// `example.com` of `https://www.example.com/a/b?c`.
    static func host(of url: Substring) -> String {
        var rest = url
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        var host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != ":" }
        if host.hasPrefix("www.") { host = host.dropFirst(4) }
        while let last = host.last, last == "." || last == "," { host = host.dropLast() }
        return String(host)
    }

    /// Whether the mark at `index` is markdown rather than part of a word ("snake_case") or a
    /// sum ("2 * 3"): emphasis touches a word on one side only.
    private static func isMark(at index: String.Index, in text: String) -> Bool {
        let character = text[index]
        if character == "`" { return true }
        let before = index > text.startIndex ? text[text.index(before: index)] : " "
        let afterIndex = text.index(after: index)
        let after = afterIndex < text.endIndex ? text[afterIndex] : " "
        let wordBefore = before.isLetter || before.isNumber
        let wordAfter = after.isLetter || after.isNumber
        if character == "_" { return !(wordBefore && wordAfter) }
        return !(before.isWhitespace && after.isWhitespace)
    }
}
