import ArgumentParser
import EarshotAudio
import EarshotCommandLine
import EarshotDetection
import EarshotPipeline
import Foundation

struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a recording through the listening pipeline and print its events as JSON lines.",
        discussion: """
            The pipeline is the one the daemon runs: voice-activity detection, endpointing, the turn \
            machine in hands-free mode, and the level meter. Each line has "event" and "t" (audio \
            time in seconds). The same file and options always print the same bytes. See PROTOCOL.md.
            """
    )

    @Argument(help: "A WAV file (any rate, mono or stereo).")
    var file: String

    @Flag(help: "Also print microphone level events for the voice blob.")
    var levels = false

    @Option(help: "Level events per second of audio, 1 to 60.")
    var levelHz = 30

    @Flag(help: "Pace the replay like a live microphone (one 10 ms frame every 10 ms).")
    var realtime = false

    @OptionGroup var endpointing: EndpointingOptions

    func validate() throws {
        guard (1...60).contains(levelHz) else {
            throw ValidationError("--level-hz must be between 1 and 60 (got \(levelHz)).")
        }
    }

    func run() async throws {
        let clip = try AudioInput.read(file)
        let configuration = VoicePipeline<SpectralVAD>.Configuration(
            endpointer: endpointing.configuration,
            levelMeter: LevelMeter.Configuration(readingsPerSecond: levelHz),
            emitsLevels: levels
        )
        var replay = Replay(detector: SpectralVAD(), configuration: configuration)
        let output = StandardOutput()
        if realtime {
            let clock = ContinuousClock()
            let start = clock.now
            for frame in clip.frames {
                try await clock.sleep(until: start.advanced(by: .milliseconds(10 * (frame.index + 1))))
                replay.feed(frame)
                replay.flush(to: output.write)
            }
            replay.end()
            replay.flush(to: output.write)
        } else {
            replay.run(clip, write: output.write)
        }
    }
}
