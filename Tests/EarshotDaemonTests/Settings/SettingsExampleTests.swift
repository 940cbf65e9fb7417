import EarshotDaemon
import Foundation
import Testing

/// `config.example.toml` at the repository root: every key, with its default.
@Suite struct SettingsExampleTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config.example.toml").path

    static func exampleFile() throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The example with every `# key = value` line uncommented.
    static func uncommented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.wholeMatch(of: /# [a-z_]+ = .*/) != nil ? String(line.dropFirst(2)) : String(line)
        }.joined(separator: "\n")
    }

    @Test func theFileInTheRepositoryIsTheExampleEarshotPrints() throws {
        #expect(try Self.exampleFile() == SettingsExample.text, "regenerate it: earshot config example > config.example.toml")
    }

    @Test func asShippedItSaysNothingButTheDefaults() throws {
        #expect(try SettingsFile.parse(Self.exampleFile(), file: "config.example.toml") == Settings())
    }

    @Test func uncommentedEveryLineIsValidAndKeepsEveryDefault() throws {
        let settings = try SettingsFile.parse(Self.uncommented(Self.exampleFile()), file: "config.example.toml")
        for key in SettingsKey.all where key.defaultValue != nil {
            #expect(settings.value(of: key) == key.defaultValue, "\(key)")
        }
        for key in SettingsKey.all where key.defaultValue == nil {
            #expect(settings.value(of: key) == key.example, "\(key)")
        }
    }

    @Test func itHasEveryKeyTheParserKnowsAndNoOther() throws {
        var section = ""
        var found: [String] = []
        for line in try Self.uncommented(Self.exampleFile()).split(separator: "\n") {
            if let header = line.wholeMatch(of: /\[([a-z]+)\]/) {
                section = String(header.1)
            } else if let key = line.firstMatch(of: #/^([a-z_]+) = /#) {
                found.append("\(section).\(key.1)")
            }
        }
        #expect(found == SettingsKey.all.map(\.path))
    }

    @Test func everyKeyIsDocumentedWithItsFlagAndItsDefault() throws {
        let text = try Self.exampleFile()
        for key in SettingsKey.all {
            #expect(text.contains("Option: \(key.flag). Reload: "), "\(key)")
            if let value = key.defaultValue {
                #expect(text.contains("# \(key.name) = \(value)\n"), "\(key)")
            } else {
                #expect(text.contains("# \(key.name) = \(key.example ?? .text(""))\n"), "\(key)")
                #expect(text.contains("Left out: \(key.unsetMeaning ?? "")."), "\(key)")
            }
        }
    }

    @Test func theEffectiveSettingsPrintAsAFileThatReadsBackTheSame() throws {
        var settings = Settings()
        settings.audio.sink = "speaker"
        settings.listening.endOfTurnSilenceMilliseconds = 900
        settings.replies.responder = #"say "hi""#
        let rendered = settings.rendered
        #expect(rendered.contains("end_silence_ms = 900\n"))
        #expect(rendered.contains("# server: not set: libpulse's own choice"))
        #expect(try SettingsFile.parse(rendered, file: "rendered.toml") == settings)
    }
}
