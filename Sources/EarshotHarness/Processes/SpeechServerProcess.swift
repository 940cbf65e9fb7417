import EarshotBase
public import Foundation
import Synchronization

/// A real speech server from the private venv (`make peers`), started for a test on a free
/// loopback port or a Unix socket of its own, and killed when the test is done with it.
///
/// - `.speechToText`: the Wyoming server wyoming-ovos-stt with pocketsphinx (decodes after `audio-stop`).
/// - `.textToSpeech`: the Wyoming server wyoming-ovos-tts with espeak-ng (22050 Hz), launched
///   with the workaround for its missing `TtsVoice` version.
/// - `.openAI(options)`: `Tests/Peers/openai_speech_server.py`, an OpenAI-compatible server
///   (pocketsphinx and espeak-ng), with its fault options (`--api-key K`, `--stall-seconds S`…).
/// - `.openAIChat(options)`: `Tests/Peers/openai_chat_server.py`, an OpenAI-compatible chat
///   server with scripted replies, its pace and its faults (`--first-token-ms`, `--cut-after-tokens`…).
public final class SpeechServerProcess: Sendable {
    public enum Kind: Sendable {
        case speechToText
        case textToSpeech
        case openAI([String])
        case openAIChat([String])

        /// Whether it speaks the OpenAI API (over TCP only).
        var isOpenAI: Bool {
            switch self {
            case .openAI, .openAIChat: true
            case .speechToText, .textToSpeech: false
            }
        }
    }

    public enum Transport: Sendable {
        case tcp
        case unixSocket
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The package's own venv.
    public static let venvPath: String = RepositoryDirectory.path(".venv")

    /// The OpenAI-compatible test server's script.
    public static let openAIServerScript: String = RepositoryDirectory.path("Tests/Peers/openai_speech_server.py")

    /// The OpenAI-compatible chat test server's script.
    public static let openAIChatServerScript: String = RepositoryDirectory.path("Tests/Peers/openai_chat_server.py")

    /// Whether `make peers` has installed the servers.
    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: venvPath + "/bin/wyoming-ovos-stt")
            && FileManager.default.isExecutableFile(atPath: venvPath + "/bin/wyoming-ovos-tts")
    }

    /// Whether `make peers` has installed what the OpenAI-compatible test server and its
    /// checker need (pocketsphinx and the `openai` client).
    public static var isOpenAIAvailable: Bool { venvHas("openai") }

    /// Whether the venv's Python has the package `name` installed.
    public static func venvHas(_ name: String) -> Bool {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: venvPath + "/lib")) ?? []
        return versions.contains { FileManager.default.fileExists(atPath: "\(venvPath)/lib/\($0)/site-packages/\(name)") }
    }

    public let kind: Kind
    /// What a client connects to: "tcp://127.0.0.1:PORT", "unix:///…/wyoming.sock", or for
    /// `.openAI`, "openai+http://127.0.0.1:PORT/v1".
    public let uri: String
    /// Its own directory: the log, and the socket when there is one.
    public let directory: String
    public var logPath: String { directory + "/server.log" }

    private let server = Locked<ChildProcess?>(nil)
    private let address: SocketProbe.Address
    private let isStopped = Atomic<Bool>(false)

    /// Starts the server and returns once it accepts connections (a cold start takes a few
    /// seconds: Python imports its plugin first).
    public init(_ kind: Kind, transport: Transport = .tcp, readyWithin patience: Duration = .seconds(90)) throws {
        if kind.isOpenAI {
            guard Self.isOpenAIAvailable else {
                throw Failure(description: "the OpenAI-compatible test server's packages are not installed in \(Self.venvPath): run `make peers`")
            }
        } else {
            guard Self.isAvailable else {
                throw Failure(description: "the Wyoming servers are not installed in \(Self.venvPath): run `make peers`")
            }
        }
        self.kind = kind
        Self.removeAbandonedServers()
        var template = Array("/tmp/\(Self.directoryPrefix)\(getpid())-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else {
            throw Failure(description: "cannot create a directory for the server: \(String(cString: strerror(errno)))")
        }
        directory = String(cString: created)
        switch transport {
        case .tcp:
            let port = try SocketProbe.freeLoopbackPort()
            if kind.isOpenAI {
                uri = "openai+http://127.0.0.1:\(port)/v1"
            } else {
                uri = "tcp://127.0.0.1:\(port)"
            }
            address = .tcp(port: port)
        case .unixSocket:
            precondition(!kind.isOpenAI, "the OpenAI-compatible server listens on TCP only")
            uri = "unix://\(directory)/wyoming.sock"
            address = .unix(path: directory + "/wyoming.sock")
        }
        do {
            try launch(probing: address, patience: patience)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    public var pid: pid_t? { server.withLock { $0?.pid } }

    /// Kills the server (SIGKILL by default: it gets no chance to say goodbye) and returns once it
    /// is gone.
    public func kill(signal: Int32 = SIGKILL) {
        let process = server.withLock { process in
            defer { process = nil }
            return process
        }
        process?.terminate(with: signal)
    }

    /// Starts the server again on the same address, after `kill`, and returns once it accepts
    /// connections.
    public func restart(readyWithin patience: Duration = .seconds(90)) throws {
        try launch(probing: address, patience: patience)
    }

    /// Ends the server and removes its directory. Idempotent.
    public func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        kill(signal: SIGTERM)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The end of the server's log, for failure messages.
    public var logTail: String {
        let log = fileText(logPath)
        return log.split(separator: "\n").suffix(20).joined(separator: "\n")
    }

    private func launch(probing address: SocketProbe.Address, patience: Duration) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        let (executable, arguments) = command()
        let process = try ChildProcess(executable, arguments, environment: environment, outputPath: logPath)
        server.withLock { $0 = process }
        try? "\(process.pid)".write(toFile: directory + "/server.pid", atomically: true, encoding: .utf8)
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            if SocketProbe.accepts(address) { return }
            guard process.isRunning else {
                throw Failure(description: "the speech server exited at start; its log:\n\(logTail)")
            }
            usleep(20_000)
        }
        throw Failure(description: "the speech server did not accept connections within \(patience); its log:\n\(logTail)")
    }

    private func command() -> (String, [String]) {
        switch kind {
        case .speechToText:
            return (Self.venvPath + "/bin/wyoming-ovos-stt", ["--plugin-name", "ovos-stt-plugin-pocketsphinx", "--uri", uri])
        case .textToSpeech:
            // wyoming-ovos-tts 0.2.0 builds its TtsVoice without the `version` wyoming 1.10 requires.
            let workaround = "import functools, wyoming_ovos_tts.__main__ as m; "
                + "m.TtsVoice = functools.partial(m.TtsVoice, version=None); m.run()"
            return (Self.venvPath + "/bin/python", ["-c", workaround, "--plugin-name", "ovos_tts_plugin_espeakng", "--uri", uri])
        case .openAI(let options):
            guard case .tcp(let port) = address else { preconditionFailure("the OpenAI-compatible server listens on TCP only") }
            return (Self.venvPath + "/bin/python", [Self.openAIServerScript, "--port", "\(port)"] + options)
        case .openAIChat(let options):
            guard case .tcp(let port) = address else { preconditionFailure("the OpenAI-compatible server listens on TCP only") }
            return (Self.venvPath + "/bin/python", [Self.openAIChatServerScript, "--port", "\(port)"] + options)
        }
    }

    static let directoryPrefix = "earshot-speech-server-"

    /// Kills servers whose test process died without stopping them, and removes their directories.
    static func removeAbandonedServers() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/tmp") else { return }
        for name in names where name.hasPrefix(directoryPrefix) {
            let owner = name.dropFirst(directoryPrefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            guard let owner, !ProcessTable.exists(owner) else { continue }
            let directory = "/tmp/\(name)"
            if let text = try? String(contentsOfFile: directory + "/server.pid", encoding: .utf8),
               let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
               let commandLine = ProcessTable.readSmallFile("/proc/\(pid)/cmdline"),
               commandLine.contains("wyoming") || commandLine.contains("openai_speech_server")
                || commandLine.contains("openai_chat_server") {
                Foundation.kill(pid, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
