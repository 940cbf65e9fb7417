import EarshotSpeech
import Testing

@Suite struct SpokenMarkdownTests {
    /// What a voice says of a markdown reply, split as the assistant splits it.
    static func spoken(_ markdown: String) -> [String] {
        var spoken = SpokenMarkdown()
        return SentenceSplitter.split(markdown).compactMap { spoken.speakable($0) }
    }

    @Test func emphasisHeadingsAndBulletsAreNotReadOut() {
        #expect(Self.spoken("## Steps\n- **Preheat** the oven.\n* Mix _gently_.\n1. Bake it.") == ["Steps", "Preheat the oven.", "Mix gently.", "1. Bake it."])
    }

    @Test func aCodeBlockIsAnnouncedOnceAndNotRead() {
        let reply = "Try this:\n```swift\nlet x = [1, 2].map { $0 * 2 }\nprint(x)\n```\nThat doubles them."
        #expect(Self.spoken(reply) == ["Try this:", SpokenMarkdown.codeNotice, "That doubles them."])
    }

    @Test func linksAreSaidByTheirTextAndURLsByTheirHost() {
        #expect(Self.spoken("See [the docs](https://swift.org/docs/a.html) or https://www.example.com/a/b?c=1.")
            == ["See the docs or example.com."])
        #expect(Self.spoken("Go to <https://ollama.com/library>.") == ["Go to ollama.com."])
    }

    @Test func inlineCodeKeepsItsWordsAndWordsKeepTheirUnderscores() {
        #expect(Self.spoken("Run `make test` on snake_case names, 2 * 3 times.") == ["Run make test on snake_case names, 2 * 3 times."])
    }

    @Test func tablesAreReadAsCellsAndRulesSayNothing() {
        #expect(Self.spoken("| Day | Rain |\n|---|:--:|\n| Mon | 2 mm |") == ["Day, Rain", "Mon, 2 mm"])
    }

    @Test func aPieceOfMarksAloneSaysNothing() {
        var spoken = SpokenMarkdown()
        #expect(spoken.speakable("---") == nil)
        #expect(spoken.speakable("**") == nil)
    }
}
