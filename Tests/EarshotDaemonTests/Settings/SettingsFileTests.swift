import EarshotDaemon
import EarshotTestSupport
import Foundation
import Testing

@Suite struct SettingsFileTests {
    @Test func aGoodFileSetsWhatItSaysAndLeavesTheRestAtTheirDefaults() throws {
        let settings = try SettingsFile.parse(SettingsFileCase.valid, file: SettingsFileCase.file)
        var expected = Settings()
        expected.audio.source = "mic"
        expected.audio.cues = true
        expected.listening.vadThreshold = 0.6
        expected.listening.endOfTurnSilenceMilliseconds = 700
        expected.transcription.backend = "tcp://127.0.0.1:10300"
        expected.transcription.language = "de-DE"
        expected.speech.voice = "sky"
        expected.replies.timeoutSeconds = 20
        expected.replies.responder = "cat"
        expected.daemon.listen = true
        #expect(settings == expected)
        #expect(settings.listening.endpointer.endOfTurnSilenceMilliseconds == 700)
        #expect(settings.listening.endpointer.prefixPaddingMilliseconds == 300)
        #expect(settings.listening.detector.threshold == 0.6)
    }

    @Test func eagernessReachesTheEndpointer() throws {
        let settings = try SettingsFile.parse("[listening]\neagerness = \"high\"\n", file: SettingsFileCase.file)
        #expect(settings.listening.eagerness == .high)
        #expect(settings.listening.endpointer.eagerness == .high)
        #expect(Settings().listening.endpointer.eagerness == .medium)
    }

    @Test func enginesAreReleasedAfterFiveIdleMinutesUnlessTheFileSaysOtherwise() throws {
        #expect(Settings().transcription.unloadAfterSeconds == 300)
        #expect(Settings().speech.unloadAfterSeconds == 300)
        #expect(SettingsKey.transcriptionUnloadAfter.defaultValue == .number(300))
        #expect(SettingsKey.speechUnloadAfter.defaultValue == .number(300))
        let settings = try SettingsFile.parse("[transcription]\nunload_after = 0\n[speech]\nunload_after = 12.5\n", file: "c.toml")
        #expect(settings.transcription.unloadAfterSeconds == 0)
        #expect(settings.speech.unloadAfterSeconds == 12.5)
        #expect(settings.changedKeys(since: Settings()) == [.transcriptionUnloadAfter, .speechUnloadAfter])
        #expect(SettingsKey.transcriptionUnloadAfter.reload == .restart)
        #expect(SettingsKey.named("speech.unload_after")?.flag == "--tts-unload-after")
    }

    @Test func anEmptyFileIsAllDefaults() throws {
        #expect(try SettingsFile.parse("", file: "config.toml") == Settings())
        #expect(try SettingsFile.parse("# nothing yet\n\n[listening]\n", file: "config.toml") == Settings())
    }

    @Test(arguments: SettingsFileCase.table)
    func refusesWithTheExactLines(_ row: SettingsFileCase) throws {
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.parse(row.text, file: SettingsFileCase.file) }
        #expect(error.problems.map(\.description) == row.messages)
    }

    @Test func aProblemNamesItsKeyPathAndPlace() throws {
        let text = SettingsFileCase.valid.replacingOccurrences(of: "end_silence_ms = 700", with: #"end_silence_ms = "700""#)
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.parse(text, file: "config.toml") }
        #expect(error.problems == [SettingsProblem(
            file: "config.toml", position: SourcePosition(line: 8, column: 1), keyPath: "listening.end_silence_ms",
            subject: "[listening] end_silence_ms",
            message: #"expected an integer number of milliseconds, got a string ("700")"#
        )])
    }

    @Test func badTOMLIsReportedWithTheParsersLineAndColumn() throws {
        let text = SettingsFileCase.valid.replacingOccurrences(of: "end_silence_ms = 700", with: "end_silence_ms = = 700")
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.parse(text, file: "config.toml") }
        #expect(error.problems.map(\.description) == [
            "config.toml:8:18: invalid TOML: expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found \"=\"",
        ])
    }

    @Test func anUnclosedSectionHeaderIsBadTOML() throws {
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.parse("[listening\nend_silence_ms = 700\n", file: "c.toml") }
        let problem = try #require(error.problems.first)
        #expect(problem.line == 1)
        #expect(problem.description.hasPrefix("c.toml:1:"))
        #expect(problem.message.hasPrefix("invalid TOML: "))
    }

    @Test func aDuplicateKeyIsBadTOML() throws {
        let text = SettingsFileCase.valid.replacingOccurrences(of: "end_silence_ms = 700", with: "end_silence_ms = 700\nend_silence_ms = 800")
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.parse(text, file: "config.toml") }
        #expect(error.problems.count == 1)
        #expect(error.problems.first?.line == 9)
    }

    @Test func integersAreAcceptedWhereFractionsAre() throws {
        let settings = try SettingsFile.parse("[listening]\nvad_threshold = 1\n[replies]\nresponder_timeout = 2.5\n", file: "c.toml")
        #expect(settings.listening.vadThreshold == 1)
        #expect(settings.replies.responderTimeoutSeconds == 2.5)
    }

    @Test func dottedKeysAndInlineTablesAreFoundToo() throws {
        let text = """
            listening.end_silence_ms = "soon"
            audio = { cues = "loud", source = "mic" }
            """
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.parse(text, file: "c.toml") }
        #expect(error.problems.map(\.description) == [
            #"c.toml:1:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("soon")"#,
            #"c.toml:2:11: [audio] cues: expected true or false, got a string ("loud")"#,
        ])
    }

    @Test func aFileThatIsNotThereIsNoSettings() throws {
        #expect(try SettingsFile.read(path: "/nonexistent/earshot/config.toml") == nil)
    }

    @Test func aDirectoryIsNotAFile() throws {
        let directory = try SettingsScratchDirectory()
        defer { directory.remove() }
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.read(path: directory.path) }
        #expect(error.description == "\(directory.path): cannot read the configuration file: it is a directory, not a file")
    }

    @Test func readingAFileNamesItAsGiven() throws {
        let directory = try SettingsScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("config.toml", "[speech]\nvoice = \"cove\"\n")
        #expect(try SettingsFile.read(path: path)?.speech.voice == "cove")
        try directory.write("config.toml", "[speech]\nvoise = \"cove\"\n")
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.read(path: path) }
        #expect(error.description == "\(path):2:1: [speech] voise: unknown key; did you mean voice?")
        try directory.write("config.toml", "")
        #expect(try SettingsFile.read(path: path) == Settings())
    }
}

/// The file replaced by something that is not a configuration file: each is refused at once, in
/// words, without reading more than the limit.
@Suite struct SettingsFileReplacedTests {
    let directory: String = {
        let path = NSTemporaryDirectory() + "earshot-settings-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    func problem(_ path: String) throws -> String {
        let error = try #require(throws: SettingsFileError.self) { try SettingsFile.read(path: path) }
        return error.problems.map(\.description).joined(separator: "\n")
    }

    @Test func aDirectoryJunkAndAHugeFileAreRefusedQuickly() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = directory + "/folder.toml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try problem(folder) == "\(folder): cannot read the configuration file: it is a directory, not a file")

        let junk = directory + "/junk.toml"
        var generator = SeededGenerator(seed: 14)
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0xFF, 0xFE]).write(to: URL(fileURLWithPath: junk))
        #expect(try problem(junk) == "\(junk): cannot read the configuration file: it is not UTF-8 text")

        let huge = directory + "/huge.toml"
        try Data(repeating: UInt8(ascii: "a"), count: 100_000_000).write(to: URL(fileURLWithPath: huge))
        #expect(try problem(huge) == "\(huge): cannot read the configuration file: it is 97656 KiB, and a configuration file is at most 1024 KiB: is it the right file?")
    }
}
