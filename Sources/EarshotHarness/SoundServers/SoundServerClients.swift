import Foundation
import Synchronization

/// The PulseAudio command-line clients (`pactl`, `paplay`, `parec`) pointed at one test sound
/// server. PulseAudio and pipewire-pulse speak the same protocol, so both servers share these.
public final class SoundServerClients: Sendable {
    struct Tools: Sendable {
        var pactl: String
        var paplay: String
        var parec: String
    }

    /// nil when pulseaudio-utils is not installed.
    static let tools: Tools? = {
        guard let pactl = executable("pactl"), let paplay = executable("paplay"), let parec = executable("parec") else { return nil }
        return Tools(pactl: pactl, paplay: paplay, parec: parec)
    }()

    /// The full path of the program `name` on PATH (or in /usr/bin), nil when there is none.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin"]
        return directories.lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let tools: Tools
    private let directory: String
    private let environment: [String: String]
    private let fileCounter = Atomic<Int>(0)

    /// Clients that write their output files into `directory` and run in `environment`.
    init(directory: String, environment: [String: String]) throws(SoundServerFailure) {
        guard let tools = Self.tools else {
            throw SoundServerFailure(description: "pactl, paplay and parec are needed (pulseaudio-utils; run `make deps`)")
        }
        self.tools = tools
        self.directory = directory
        self.environment = environment
    }

    /// Runs `pactl`; returns its output, or throws it when pactl fails.
    func pactl(_ arguments: [String]) throws -> String {
        let outputPath = uniquePath("output", "txt")
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let status = try ChildProcess(tools.pactl, arguments, environment: environment, outputPath: outputPath).wait()
        let output = fileText(outputPath)
        guard status == 0 else {
            throw SoundServerFailure(description: "pactl \(arguments.joined(separator: " ")) failed (\(status)): \(output)")
        }
        return output
    }

    /// Whether a server answers `pactl info` on the address in the environment.
    var serverAnswers: Bool { (try? pactl(["info"])) != nil }

    /// A file that is not there is refused here: paplay would exit at once, and the microphone
    /// would only hear silence.
    func play(_ path: String, into sink: String) throws -> ChildProcess {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw SoundServerFailure(description: "there is no sound file to play at \(path) (a relative path is from the repository's root)")
        }
        return try ChildProcess(tools.paplay, ["-d", sink, path], environment: environment, outputPath: uniquePath("paplay", "log"))
    }

    /// `sharedMemory` false: the audio comes over the socket, as the daemon takes it (libpulse's
    /// `enable-shm = no`), not through memory shared with the server.
    func record(from source: String, sharedMemory: Bool = true) throws -> PulseTestRecording {
        let path = uniquePath("record", "raw")
        var environment = environment
        if !sharedMemory {
            let configuration = uniquePath("client", "conf")
            try "enable-shm = no\n".write(toFile: configuration, atomically: true, encoding: .utf8)
            environment["PULSE_CLIENTCONFIG"] = configuration
        }
        let process = try ChildProcess(
            tools.parec,
            ["-d", source, "--raw", "--format=s16le", "--rate=16000", "--channels=1", "--latency-msec=10", path],
            environment: environment, outputPath: uniquePath("parec", "log")
        )
        return PulseTestRecording(process: process, path: path)
    }

    private func uniquePath(_ name: String, _ suffix: String) -> String {
        "\(directory)/\(name)-\(fileCounter.add(1, ordering: .relaxed).newValue).\(suffix)"
    }
}
