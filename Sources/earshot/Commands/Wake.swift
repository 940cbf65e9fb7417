import ArgumentParser
import EarshotAudio
import EarshotPulse
import EarshotSpeech
import Foundation

struct WakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake",
        abstract: "Enrol a wake phrase in your own voice, any language.",
        subcommands: [WakeEnrollCommand.self]
    )
}

struct WakeEnrollCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Turn three or more takes of the wake phrase into templates the daemon listens for.",
        discussion: """
            Each take is a recording of the phrase alone, said as you will say it to wake Earshot \
            (WAV or Ogg Opus), or, with --record, three takes said into the microphone. Each is \
            trimmed to its speech and checked: one phrase's worth of speech (0.3 to 3 s), and \
            sounding like the other takes. Then set `[wake] templates = DIR` in the configuration \
            (and `phrase` to name it in events), or try it with `earshot replay --wake-templates DIR FILE`. \
            The takes stay on this machine.
            """
    )

    @Argument(help: ArgumentHelp("Recordings of the phrase, one take each (at least 3).", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("Where to write the templates (default: $XDG_DATA_HOME/earshot/wake, ~/.local/share/earshot/wake).", valueName: "dir"))
    var to: String?

    @Flag(help: "Record three takes from the microphone instead of reading files.")
    var record = false

    @Option(help: "Source (microphone) to record from with --record (default: the server's default).")
    var source: String?

    @Option(help: "Sound server for --record (default: libpulse's own choice).")
    var server: String?

    func validate() throws {
        if record, !files.isEmpty { throw ValidationError("Give recordings of the phrase or --record, not both.") }
        if !record, files.count < WakeEnrolment.minimumTakes {
            throw ValidationError("Give at least \(WakeEnrolment.minimumTakes) recordings of the phrase, a take each (got \(files.count)), or --record to say them now.")
        }
    }

    func run() async throws {
        guard let directory = to ?? WakeTemplates.defaultDirectory() else {
            throw ValidationError("Neither XDG_DATA_HOME nor HOME is set: give the directory with --to.")
        }
        let takes: [(name: String, clip: AudioClip)]
        if record {
            takes = try await recordTakes()
        } else {
            takes = try files.map { (name: $0, clip: try AudioInput.read($0)) }
        }
        let enrolled: WakeEnrolment.Enrolled
        do {
            enrolled = try WakeEnrolment.enrol(takes)
        } catch {
            FileHandle.standardError.write(Data("earshot wake enroll: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
        do {
            try WakeTemplates(takes: enrolled.takes, threshold: enrolled.threshold).save(to: directory)
        } catch {
            FileHandle.standardError.write(Data("earshot wake enroll: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
        for (index, take) in enrolled.takes.enumerated() {
            ConsoleOutput.line("\(takes[index].name): \(String(format: "%.2f", Double(take.count) / Double(AudioFrame.sampleRate))) s of speech, "
                + "\(String(format: "%.2f", enrolled.disagreement[index])) from the other takes")
        }
        ConsoleOutput.line("enrolled \(enrolled.takes.count) takes in \(directory) (they wake under a score of \(String(format: "%.3f", enrolled.threshold))): "
            + "set [wake] templates = \"\(directory)\" in the configuration")
    }

    /// Three takes said into the microphone, 3 s each after a prompt.
    private func recordTakes() async throws -> [(name: String, clip: AudioClip)] {
        let engine = try PulseAudioEngine(configuration: .init(server: server, source: source))
        try engine.start()
        defer { engine.stop() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !engine.status.isConnected, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard engine.status.isConnected else {
            throw RecordingError(description: "No sound server answered within 5 s: is PulseAudio or PipeWire running (see `pactl info`)?")
        }
        var takes: [(name: String, clip: AudioClip)] = []
        for number in 1...WakeEnrolment.minimumTakes {
            ConsoleOutput.line("take \(number) of \(WakeEnrolment.minimumTakes): say the wake phrase now (3 s)")
            while engine.popFrame() != nil {}
            var samples: [Float] = []
            while samples.count < 3 * AudioFrame.sampleRate {
                guard engine.waitForFrames(timeout: .milliseconds(200)) else { continue }
                while let frame = engine.popFrame() {
                    for index in 0..<AudioFrame.sampleCount { samples.append(frame.samples[index]) }
                }
            }
            takes.append((name: "take \(number)", clip: AudioClip(samples: samples)))
        }
        return takes
    }
}
