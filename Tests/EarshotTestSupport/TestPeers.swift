import Foundation

/// Whether suites that need a peer (the private PulseAudio, the Wyoming servers, the built
/// executables) run. Where the peer is installed they always do. Where it is missing they are
/// skipped on a developer's machine, but not under `CI=true`: there they run and fail, saying
/// what is missing, so that a run without its peers can never pass by skipping them.
public enum TestPeers {
    /// `CI=true` (or `CI=1`) in the environment, as continuous integration sets it.
    public static var requireAll: Bool {
        ["true", "1"].contains(ProcessInfo.processInfo.environment["CI"]?.lowercased() ?? "")
    }

    /// Whether the private PulseAudio tests run.
    public static var pulseAudio: Bool { PulseTestServer.isAvailable || requireAll }
    /// Whether the live tests that run on every sound server (`SoundServerKind.testable`) run.
    public static var soundServers: Bool { !SoundServerKind.testable.isEmpty }
    /// Whether the tests against the Wyoming servers run.
    public static var wyoming: Bool { SpeechServerProcess.isAvailable || requireAll }
    /// Whether the tests against the OpenAI-compatible test server run.
    public static var openAI: Bool { SpeechServerProcess.isOpenAIAvailable || requireAll }
    /// Whether the tests that drive `earshot mcp` with the official MCP Python SDK run.
    public static var mcp: Bool { SpeechServerProcess.venvHas("mcp") || requireAll }
    /// Whether the tests of the executable `name` run.
    public static func product(_ name: String) -> Bool { BuiltProduct.url(name) != nil || requireAll }
    /// Whether the tests that run the installed program at `path` (one `make deps` installs) run.
    public static func program(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) || requireAll }
}

