import ArgumentParser
import EarshotAudio
import EarshotPulse
import EarshotRecordings
import Foundation

struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the microphone to an Ogg Opus file (16 kHz mono), for fixtures and bug reports.",
        discussion: """
            Records through the sound server (PulseAudio or PipeWire) from the default source, or \
            --source. Replay the file with `earshot replay FILE.opus`. Nothing is recorded unless \
            you ask: the daemon itself never writes audio to disk.
            """
    )

    @Argument(help: "Where to write the recording (.opus).")
    var file: String

    @Option(help: "How many seconds to record.")
    var seconds: Double = 10

    @Option(help: "Source (microphone) to record from (default: the server's default).")
    var source: String?

    @Option(help: "Sound server, e.g. unix:/run/user/1000/pulse/native (default: libpulse's own choice).")
    var server: String?

    func validate() throws {
        guard seconds > 0, seconds <= 3600 else {
            throw ValidationError("--seconds must be more than 0 and at most 3600 (got \(seconds)).")
        }
    }

    func run() async throws {
        let engine = try PulseAudioEngine(configuration: .init(server: server, source: source))
        try engine.start()
        defer { engine.stop() }
        guard await Self.connected(engine, within: .seconds(5)) else {
            throw RecordingError(description: "No sound server answered within 5 s: is PulseAudio or PipeWire running (see `pactl info`)?")
        }
        var writer = try OpusFileWriter(path: file)
        let wanted = Int((seconds * 100).rounded())
        var buffer = [Float](repeating: 0, count: AudioFrame.sampleCount)
        var recorded = 0
        while recorded < wanted {
            guard engine.waitForFrames(timeout: .milliseconds(200)) else { continue }
            while recorded < wanted, let frame = engine.popFrame() {
                for index in 0..<AudioFrame.sampleCount { buffer[index] = frame.samples[index] }
                try writer.append(buffer)
                recorded += 1
            }
        }
        try writer.finish()
        ConsoleOutput.line("recorded \(String(format: "%.2f", Double(recorded) / 100)) s from \(engine.status.source ?? "the default source") to \(file)")
    }

    private static func connected(_ engine: PulseAudioEngine, within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            if engine.status.isConnected { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return engine.status.isConnected
    }
}

/// Why `earshot record` could not record, in words.
struct RecordingError: Error, CustomStringConvertible {
    var description: String
}
