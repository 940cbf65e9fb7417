import EarshotDaemon
import EarshotTestSupport
import Foundation
import Testing

/// `earshot config check | path | example`, the built binary.
@Suite(.tags(.live)) struct ConfigCommandTests {
    static func check(_ text: String) throws -> (path: String, outcome: BuiltProduct.Outcome) {
        let directory = try SettingsScratchDirectory()
        defer { directory.remove() }
        let path = try directory.write("config.toml", text)
        return (path, try BuiltProduct.run("earshot", ["config", "check", path]))
    }

    @Test func aGoodFileIsOKAndItsSettingsArePrinted() throws {
        let (path, run) = try Self.check(SettingsFileCase.valid)
        #expect(run.status == 0)
        let settings = try SettingsFile.parse(SettingsFileCase.valid, file: path)
        #expect(run.stdoutText == "\(path): OK\n\n" + settings.rendered)
        #expect(run.stdoutText.contains("end_silence_ms = 700\n"))
        #expect(run.stdoutText.contains("min_speech_ms = 150\n"))
        #expect(run.stderr.isEmpty)
    }

    @Test func aWrongTypeIsRefusedWithItsLineAndKey() throws {
        let text = SettingsFileCase.valid.replacingOccurrences(of: "end_silence_ms = 700", with: #"end_silence_ms = "700""#)
        let (path, run) = try Self.check(text)
        #expect(run.status == 1)
        #expect(run.stdoutText == #"\#(path):8:1: [listening] end_silence_ms: expected an integer number of milliseconds, got a string ("700")"# + "\n")
    }

    @Test func anUnknownKeyIsRefusedWithASuggestion() throws {
        let text = SettingsFileCase.valid.replacingOccurrences(of: "end_silence_ms = 700", with: "end_silence = 700")
        let (path, run) = try Self.check(text)
        #expect(run.status == 1)
        #expect(run.stdoutText == "\(path):8:1: [listening] end_silence: unknown key; did you mean end_silence_ms?\n")
    }

    @Test func badTOMLIsRefusedWithTheParsersMessage() throws {
        let text = SettingsFileCase.valid.replacingOccurrences(of: "end_silence_ms = 700", with: "end_silence_ms = = 700")
        let (path, run) = try Self.check(text)
        #expect(run.status == 1)
        #expect(run.stdoutText == "\(path):8:18: invalid TOML: expected a value (a quoted string, a number, true or false, a date, an array [ ] or an inline table { }), found \"=\"\n")
    }

    @Test func anOutOfRangeValueIsRefused() throws {
        let text = SettingsFileCase.valid.replacingOccurrences(of: "vad_threshold = 0.6", with: "vad_threshold = 1.5")
        let (path, run) = try Self.check(text)
        #expect(run.status == 1)
        #expect(run.stdoutText == "\(path):7:1: [listening] vad_threshold: expected a number from 0 to 1, got 1.5\n")
    }

    @Test func everyProblemIsPrintedOnItsOwnLine() throws {
        let text = SettingsFileCase.valid
            .replacingOccurrences(of: "cues = true", with: "cues = 1")
            .replacingOccurrences(of: "[speech]", with: "[speach]")
        let (path, run) = try Self.check(text)
        #expect(run.status == 1)
        #expect(run.stdoutText == """
            \(path):4:1: [audio] cues: expected true or false, got an integer (1)
            \(path):14:1: [speach]: unknown section; did you mean [speech]?

            """)
    }

    @Test func withoutAFileAtTheDefaultPlaceTheDefaultsApply() throws {
        let directory = try SettingsScratchDirectory()
        defer { directory.remove() }
        let environment = ["XDG_CONFIG_HOME": directory.path + "/config", "HOME": directory.path]
        let run = try ConfigCommandRun.earshot(["config", "check"], environment: environment, directory: directory)
        let path = directory.path + "/config/earshot/config.toml"
        #expect(run.status == 0)
        #expect(run.stdout == "\(path) does not exist, so the defaults apply (`earshot config example` prints a file to start from):\n\n" + Settings().rendered)
        let where_ = try ConfigCommandRun.earshot(["config", "path"], environment: environment, directory: directory)
        #expect(where_.stdout == path + "\n")
        try directory.write("config/earshot/config.toml", "[speech]\nvoice = \"ember\"\n")
        let found = try ConfigCommandRun.earshot(["config", "check"], environment: environment, directory: directory)
        #expect(found.status == 0)
        #expect(found.stdout.hasPrefix("\(path): OK\n\n[audio]\n"))
        #expect(found.stdout.contains("voice = \"ember\"\n"))
    }

    @Test func aNamedFileThatIsNotThereIsAnError() throws {
        let run = try BuiltProduct.run("earshot", ["config", "check", "/nonexistent/earshot.toml"])
        #expect(run.status == 1)
        #expect(run.stdoutText == "/nonexistent/earshot.toml: no such file\n")
    }

    @Test func theExampleIsPrintedAsShipped() throws {
        let run = try BuiltProduct.run("earshot", ["config", "example"])
        #expect(run.status == 0)
        #expect(run.stdoutText == SettingsExample.text)
    }
}

/// The built `earshot` run to completion in a chosen environment, as a person runs it.
struct ConfigCommandRun {
    var status: Int32
    var stdout: String
    var stderr: String

    struct NotBuilt: Error, CustomStringConvertible {
        var description: String { "earshot is not built next to the tests: run `swift build` first" }
    }

    /// Runs `earshot arguments…` with `environment` (and PATH) only, in `directory`.
    static func earshot(_ arguments: [String], environment: [String: String], directory: SettingsScratchDirectory) throws -> ConfigCommandRun {
        guard let binary = BuiltProduct.url("earshot") else { throw NotBuilt() }
        let out = directory.path + "/stdout-\(UUID().uuidString)", err = directory.path + "/stderr-\(UUID().uuidString)"
        let child = try ChildProcess(binary.path, arguments, environment: environment, outputPath: out, errorPath: err)
        let status = child.wait()
        return ConfigCommandRun(
            status: status,
            stdout: fileText(out),
            stderr: fileText(err)
        )
    }
}
