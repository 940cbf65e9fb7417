import EarshotBase
import Foundation
import Testing

/// The repository's own TOML files read, written out and read back as the same tables; and
/// what the writer writes.
@Suite struct TOMLRoundTripTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `.toml` file of the repository: the example configuration, voices, conversation scripts.
    static var files: [String] {
        let directories = ["", "voices", "Tests/Fixtures/conversation"]
        return directories.flatMap { directory in
            let path = root.appendingPathComponent(directory).path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".toml") }.sorted().map { directory.isEmpty ? $0 : "\(directory)/\($0)" }
        }
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    @Test func theRepositoryHasItsFiles() {
        #expect(Self.files.contains("config.example.toml"))
        #expect(Self.files.filter { $0.hasPrefix("voices/") }.count == 5)
        #expect(Self.files.filter { $0.hasSuffix(".conversation.toml") }.count == 5)
    }

    @Test(arguments: files)
    func readsWritesAndReadsBackTheSame(_ file: String) throws {
        let table = try TOMLParser.parse(Self.text(file))
        let written = TOMLWriter.document(table)
        #expect(try TOMLParser.parse(written) == table, "\(written)")
        #expect(TOMLWriter.document(try TOMLParser.parse(written)) == written)
    }

    /// The example configuration with every setting uncommented: all seven sections, every key.
    @Test func theExampleConfigurationUncommented() throws {
        let lines = try Self.text("config.example.toml").split(separator: "\n", omittingEmptySubsequences: false)
        let uncommented = lines.map { $0.hasPrefix("# ") && $0.contains(" = ") ? $0.dropFirst(2) : $0 }.joined(separator: "\n")
        let table = try TOMLParser.parse(uncommented)
        #expect(table.keys == ["audio", "listening", "transcription", "speech", "replies", "assistant", "wake", "daemon", "web", "privacy"])
        #expect(table["listening"]?.table?["end_silence_ms"]?.integer == 600)
        #expect(table["listening"]?.table?["vad_threshold"]?.float != nil)
        #expect(table["audio"]?.table?["cues"]?.boolean == false)
        #expect(try TOMLParser.parse(TOMLWriter.document(table)) == table)
    }

    @Test func aVoiceFileSaysWhatItSays() throws {
        let table = try TOMLParser.parse(Self.text("voices/sky.toml"))
        #expect(table.keys == ["name", "description", "language", "flite", "espeak-ng", "wyoming", "openai"])
        #expect(table["openai"]?.table?["voice"]?.string == "nova")
        #expect(table["flite"]?.table?["duration_stretch"]?.float == 0.9)
        #expect(table["espeak-ng"]?.table?["rate_wpm"]?.integer == 188)
        #expect(table.position(of: "espeak-ng") == TOMLPosition(line: 11, column: 1))
    }

    @Test func aConversationScriptsRepliesAreAnArrayOfTables() throws {
        let table = try TOMLParser.parse(Self.text("Tests/Fixtures/conversation/barge_in_echo.conversation.toml"))
        let replies = try #require(table["reply"]?.array)
        #expect(replies.compactMap { $0.table?["after_turn"]?.integer } == [1, 2])
        #expect(replies.map(\.position.line) == [8, 13])
        #expect(table["echo_gain"]?.float == 0.3)
    }

    @Test func theWriterPutsTablesUnderHeaders() throws {
        let table = try TOMLParser.parse("""
            title = "x"
            owner = { name = "Tom", dob = 1979-05-27T07:32:00-08:00 }
            [[products]]
            name = "Hammer"
            sku = 738594937
            [[products]]
            [servers.alpha]
            ip = "10.0.0.1"
            "a b" = [1, 2.5, "three", [], {}, nan, -inf]
            """)
        #expect(TOMLWriter.document(table) == """
            title = "x"

            [owner]
            name = "Tom"
            dob = 1979-05-27T07:32:00-08:00

            [[products]]
            name = "Hammer"
            sku = 738594937

            [[products]]

            [servers]

            [servers.alpha]
            ip = "10.0.0.1"
            "a b" = [1, 2.5, "three", [], {}, nan, -inf]

            """)
    }

    @Test func stringsAndKeysAreQuotedWhereTheyMustBe() throws {
        let text = "quote \" backslash \\ newline \n tab \t return \r bell \u{7} delete \u{7F} é"
        #expect(TOMLWriter.quoted(text) == #""quote \" backslash \\ newline \n tab \t return \r bell \u0007 delete \u007F é""#)
        #expect(try TOMLParser.parse("s = " + TOMLWriter.quoted(text))["s"]?.string == text)
        #expect(TOMLWriter.key(["site", "google.com", "", "bare-key_1"]) == #"site."google.com"."".bare-key_1"#)
        #expect(TOMLWriter.float(1e20) == "1e+20")
        #expect(TOMLWriter.float(0.5) == "0.5")
    }
}
