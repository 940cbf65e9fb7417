import Testing

/// One row of the sentence-splitting table: a text and the pieces it must give.
struct SentenceSplitterCase: CustomTestStringConvertible, Sendable {
    let name: String
    let text: String
    let pieces: [String]

    init(_ name: String, _ text: String, _ pieces: [String]) {
        self.name = name
        self.text = text
        self.pieces = pieces
    }

    var testDescription: String { name }

    static let table: [SentenceSplitterCase] = [
        .init("one sentence", "Hello there.", ["Hello there."]),
        .init("no final period", "Hello there", ["Hello there"]),
        .init("three ends", "It rains. Does it? Yes!", ["It rains.", "Does it?", "Yes!"]),
        .init("runs of marks", "Really?! No way!!! Fine.", ["Really?!", "No way!!!", "Fine."]),
        .init("titles", "Mr. Smith met Dr. Jones. They talked.", ["Mr. Smith met Dr. Jones.", "They talked."]),
        .init("e.g. and i.e.", "Use a fruit, e.g. Apples. Or i.e. Pears.", ["Use a fruit, e.g. Apples.", "Or i.e. Pears."]),
        .init("etc. before a capital ends", "Pens, paper, etc. Then we left.", ["Pens, paper, etc.", "Then we left."]),
        .init("etc. before lower case does not", "Pens, paper, etc. and more.", ["Pens, paper, etc. and more."]),
        .init("initials", "J. R. R. Tolkien wrote it. Read it.", ["J. R. R. Tolkien wrote it.", "Read it."]),
        .init("decimals", "Pi is 3.14 or so. It is 2.5 times that.", ["Pi is 3.14 or so.", "It is 2.5 times that."]),
        .init("versions and domains", "Get v1.2.3 from example.com today.", ["Get v1.2.3 from example.com today."]),
        .init("mid-sentence ellipsis", "Well... maybe not. Let me see.", ["Well... maybe not.", "Let me see."]),
        .init("ellipsis before a capital", "Wait… What was that?", ["Wait…", "What was that?"]),
        .init("closing quote", "He said \"Stop.\" Then he left.", ["He said \"Stop.\"", "Then he left."]),
        .init("closing brackets", "It works (mostly.) Try it.", ["It works (mostly.)", "Try it."]),
        .init("question inside a quote", "\"Ready?\" she asked. We were.", ["\"Ready?\" she asked.", "We were."]),
        .init("curly quotes", "She wrote “done.” Good.", ["She wrote “done.”", "Good."]),
        .init("CJK", "今日は晴れです。明日は雨ですか？はい！", ["今日は晴れです。", "明日は雨ですか？", "はい！"]),
        .init("CJK with closer", "「行こう。」と言った。", ["「行こう。」", "と言った。"]),
        .init("line breaks", "First line\nSecond line\n\n\nThird", ["First line", "Second line", "Third"]),
        .init("CRLF", "One\r\nTwo", ["One", "Two"]),
        .init("whitespace trimmed", "   Spaced out.    Next one.   ", ["Spaced out.", "Next one."]),
        .init("empty", "", []),
        .init("only whitespace", "  \n\t \n ", []),
        .init("punctuation-only pieces dropped", "Intro.\n---\n* * *\nOutro.", ["Intro.", "Outro."]),
        .init("digit after a period ends", "It was 2023. 5 people came.", ["It was 2023.", "5 people came."]),
        .init("numbered list", "Steps:\n1. Install it.\n2. Run it. Done.", ["Steps:", "1. Install it.", "2. Run it.", "Done."]),
        .init("a number ending a sentence", "We need 2. Then go.", ["We need 2.", "Then go."]),
        .init("Mrs. and Prof.", "Ask Mrs. Lee or Prof. Chan. Soon.", ["Ask Mrs. Lee or Prof. Chan.", "Soon."]),
        .init(
            "long sentence cut at the comma nearest the middle",
            "This sentence goes on for quite a while, because it has many clauses to share, "
                + "and it keeps on adding more and more words that nobody asked for, so that it is longer than "
                + "two hundred characters, which is the limit.",
            [
                "This sentence goes on for quite a while, because it has many clauses to share,",
                "and it keeps on adding more and more words that nobody asked for, so that it is longer than two hundred characters, which is the limit.",
            ]
        ),
        .init(
            "long sentence cut at a dash",
            String(repeating: "word ", count: 25) + "— " + String(repeating: "more ", count: 25) + "end.",
            [
                String(repeating: "word ", count: 25) + "—",
                String(repeating: "more ", count: 25) + "end.",
            ]
        ),
        .init(
            "long sentence without breaks cut at a space",
            String(repeating: "abcd ", count: 60) + "stop.",
            [
                String(repeating: "abcd ", count: 31).trimmingTrailingSpace,
                String(repeating: "abcd ", count: 29) + "stop.",
            ]
        ),
        .init("numbers keep their commas", "We counted 1,000,000 stars.", ["We counted 1,000,000 stars."]),
    ]
}

extension String {
    fileprivate var trimmingTrailingSpace: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
