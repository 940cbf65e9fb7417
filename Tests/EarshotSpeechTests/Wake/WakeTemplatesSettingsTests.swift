import EarshotAudio
import EarshotSpeech
import Foundation
import Testing

/// `wake.json` beside the enrolled takes: the threshold is kept only for the score it was set
/// for; without one for it, the takes' spread sets it.
@Suite struct WakeTemplatesSettingsTests {
    /// Three takes of a tone long enough to pass for a phrase.
    static let takes: [[Float]] = (0..<3).map { take in
        (0..<8_000).map { Float(sin(Double($0) * 0.05 * Double(take + 1))) * 0.3 }
    }

    static func directory(writing settings: String?) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try WakeTemplates(takes: takes).save(to: directory.path)
        if let settings { try directory.write(WakeTemplates.settingsFile, settings) }
        return directory
    }

    @Test func savedTemplatesSayTheirScoreAndLoadWithTheirThreshold() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try WakeTemplates(takes: Self.takes, threshold: 0.09).save(to: directory.path)
        let settings = try String(contentsOfFile: directory.path + "/" + WakeTemplates.settingsFile, encoding: .utf8)
        #expect(settings.hasPrefix("{\"score\":2,"), "\(settings)")
        let loaded = try WakeTemplates.load(from: directory.path)
        #expect(loaded.threshold == 0.09)
        #expect(loaded.takes.count == 3)
    }

    @Test func aThresholdSetForThePlainDistanceGivesWayToTheTakesSpread() throws {
        let directory = try Self.directory(writing: "{\"threshold\": 0.3}\n")
        defer { directory.remove() }
        let loaded = try WakeTemplates.load(from: directory.path)
        #expect(loaded.threshold == PhraseTemplateMatcher.threshold(for: loaded.takes))
        #expect(loaded.threshold != 0.3)
    }

    @Test func withoutSettingsTheTakesSpreadSetsTheThreshold() throws {
        let directory = try Self.directory(writing: nil)
        defer { directory.remove() }
        try FileManager.default.removeItem(atPath: directory.path + "/" + WakeTemplates.settingsFile)
        let loaded = try WakeTemplates.load(from: directory.path)
        #expect(loaded.threshold == PhraseTemplateMatcher.threshold(for: loaded.takes))
    }

    @Test func anUnknownScoreIsRefusedInWords() throws {
        let directory = try Self.directory(writing: "{\"score\": 3, \"threshold\": 0.1}\n")
        defer { directory.remove() }
        let error = try #require(throws: SpeechError.self) { _ = try WakeTemplates.load(from: directory.path) }
        #expect(error.message.contains("this Earshot knows only score 2"), "\(error.message)")
    }
}
