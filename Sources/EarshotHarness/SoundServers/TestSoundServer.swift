import EarshotBase
public import Foundation

/// A private, headless sound server for tests that speaks the PulseAudio protocol: a real
/// PulseAudio (`PulseTestServer`) or PipeWire with pipewire-pulse (`PipeWireTestServer`), with
/// the same devices, both at 16 kHz:
///
/// - `micfeed`: a null sink; whatever is played into it comes out of `mic`.
/// - `mic` (the default source): a remap of `micfeed.monitor`, the microphone under test.
/// - `speaker` (the default sink): a null sink; `speaker.monitor` records what was played.
///
/// Samples pass bit-exact with a real-time clock. Every server has a unique directory, so tests
/// can each run their own. `stop()` (or deinit) ends it and removes the directory; servers left
/// behind by a crashed test run are removed by the next one.
public protocol TestSoundServer: AnyObject, Sendable {
    var kind: SoundServerKind { get }
    /// The server's own directory: runtime directory, home, socket, logs.
    var directory: String { get }
    /// The address clients connect to: "unix:<directory>/native".
    var serverAddress: String { get }
    /// The environment for child processes that should talk to this server.
    var environment: [String: String] { get }
    /// The pid of the process that serves the PulseAudio protocol, nil while it is killed.
    var pid: pid_t? { get }
    /// The tail of the server's logs, for failure messages.
    var logTail: String { get }
    var clients: SoundServerClients { get }

    /// Kills the PulseAudio-protocol server (SIGKILL by default: it gets no chance to say
    /// goodbye) and returns once it is reaped and gone from /proc.
    func kill(signal: Int32)
    /// Starts that server again (killing it first if it still runs), at the same address and
    /// with the same devices and defaults.
    func restart() throws
    /// Ends every process of the server and removes its directory. Idempotent.
    func stop()
}

extension TestSoundServer {
    public func kill() { kill(signal: SIGKILL) }

    /// Runs `pactl` against this server; returns its output, or throws it when pactl fails.
    @discardableResult
    public func pactl(_ arguments: String...) throws -> String {
        try clients.pactl(arguments)
    }

    /// Plays a sound file into `sink` (by default the virtual microphone's feed) in real time.
    /// Wait on the returned process to know when it has all been played.
    public func play(_ path: String, into sink: String = "micfeed") throws -> ChildProcess {
        try clients.play(path, into: sink)
    }

    /// Records `source` (by default what the speaker plays) as 16 kHz mono s16le until the
    /// recording is stopped; `sharedMemory` false takes the audio over the socket.
    public func record(from source: String = "speaker.monitor", sharedMemory: Bool = true) throws -> PulseTestRecording {
        try clients.record(from: source, sharedMemory: sharedMemory)
    }
}

/// The process a test server's clients talk to, which tests kill and start again: PulseAudio
/// itself, or pipewire-pulse in front of a PipeWire graph that stays.
struct ServingProcess: Sendable {
    private let process = Locked<ChildProcess?>(nil)

    var pid: pid_t? { process.withLock { $0?.pid } }

    func hold(_ started: ChildProcess) {
        process.withLock { $0 = started }
    }

    /// Kills it with `signal` and returns once it is reaped; nothing when it is not running.
    func kill(signal: Int32) {
        let running = process.withLock { process in
            defer { process = nil }
            return process
        }
        running?.terminate(with: signal)
    }

    /// Kills it and, once no server answers at the address, starts it again with `launch`.
    func restart(_ clients: SoundServerClients, at address: String, launch: () throws -> Void) throws {
        kill(signal: SIGKILL)
        guard !clients.serverAnswers else {
            throw SoundServerFailure(description: "another server already answers on \(address)")
        }
        try launch()
    }
}

/// The last `count` lines of the file at `path`, "" when there is none.
func lastLines(of path: String, _ count: Int = 20) -> String {
    let text = fileText(path)
    return text.split(separator: "\n").suffix(count).joined(separator: "\n")
}
