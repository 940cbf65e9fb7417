// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Earshot",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "earshot", targets: ["EarshotCLI"]),
        .executable(name: "earshotd", targets: ["EarshotDaemonMain"]),
        .executable(name: "earshot-bench", targets: ["EarshotBench"]),
        .executable(name: "earshot-demo", targets: ["EarshotDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // Pure logic: no C dependency, no audio hardware. Dependencies run one way:
        // Audio <- Detection <- Pipeline -> Turns. The pipeline knows nothing of JSON or the wire:
        // EarshotPipelineWire (below) puts its events in the protocol's terms.
        // State that threads share, behind a lock the thread sanitizer understands.
        .target(name: "EarshotLocking", swiftSettings: strict),
        .target(name: "EarshotAudio", swiftSettings: strict),
        .target(name: "EarshotDetection", dependencies: ["EarshotAudio", "EarshotJSON"], swiftSettings: strict),
        .target(name: "EarshotTurns", swiftSettings: strict),
        .target(
            name: "EarshotPipeline",
            dependencies: ["EarshotAudio", "EarshotDetection", "EarshotTurns"],
            swiftSettings: strict
        ),
        // Speech backends' common ground: the transcriber and synthesizer protocols, voices.
        .target(name: "EarshotSpeech", dependencies: ["EarshotLocking", "CMalloc"], swiftSettings: strict),
        // malloc_trim, to give a released engine's memory back to the system.
        .systemLibrary(name: "CMalloc"),
        // Conversation plumbing shared by replay and the daemon: transcription queue, speaking,
        // conversation scripts (TOML) for replay.
        .target(
            name: "EarshotConversation",
            dependencies: [
                "EarshotLocking", "EarshotAudio", "EarshotPipeline", "EarshotPipelineWire", "EarshotTurns", "EarshotProtocol", "EarshotSpeech",
                "EarshotVoices", "EarshotJSON", "EarshotTOML",
            ],
            swiftSettings: strict
        ),
        // Voices: the files in voices/ and the user's own, read from TOML.
        .target(
            name: "EarshotVoices",
            dependencies: ["EarshotSpeech", "EarshotTOML"],
            swiftSettings: strict
        ),
        // The configuration file (TOML): every setting with its default, checked with line numbers (pure).
        .target(
            name: "EarshotSettings",
            dependencies: ["EarshotDetection", "EarshotSpeech", "EarshotTOML", "EarshotOpenAI", "EarshotProtocol"],
            swiftSettings: strict
        ),
        // Log lines for journald or a terminal (swift-log handler).
        .target(name: "EarshotLogging", dependencies: [.product(name: "Logging", package: "swift-log")], swiftSettings: strict),
        // The Wyoming protocol: its events (pure) and a client for its ASR and TTS servers.
        .target(name: "EarshotWyoming", dependencies: ["EarshotJSON"], swiftSettings: strict),
        .target(
            name: "EarshotWyomingClient",
            dependencies: [
                "EarshotLocking", "EarshotWyoming", "EarshotSpeech",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The OpenAI audio API (whisper.cpp's server, speaches, Kokoro-FastAPI, OpenAI): its
        // addresses, requests, event stream and failures (pure), and a client on AsyncHTTPClient.
        .target(name: "EarshotOpenAI", dependencies: ["EarshotAudio", "EarshotJSON", "EarshotSpeech"], swiftSettings: strict),
        .target(
            name: "EarshotOpenAIClient",
            dependencies: [
                "EarshotLocking", "EarshotOpenAI", "EarshotSpeech",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Embedded speech engines from Debian: pocketsphinx (STT), flite and espeak-ng (TTS).
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "earshot-pocketsphinx"),
        .target(
            name: "EarshotPocketSphinx",
            dependencies: ["EarshotLocking", "CPocketSphinx", "EarshotSpeech"],
            exclude: ["Model/top_words.py"],
            swiftSettings: strict
        ),
        .systemLibrary(name: "CFlite", providers: [.apt(["flite1-dev"])]),
        .target(name: "EarshotFlite", dependencies: ["CFlite", "EarshotSpeech"], swiftSettings: strict),
        .systemLibrary(name: "CEspeak", providers: [.apt(["libespeak-ng-dev"])]),
        .target(name: "EarshotEspeak", dependencies: ["CEspeak", "EarshotSpeech"], swiftSettings: strict),
        // The configured speech backends, made from their names.
        .target(
            name: "EarshotBackends",
            dependencies: [
                "EarshotSpeech", "EarshotPocketSphinx", "EarshotFlite", "EarshotEspeak", "EarshotWyomingClient",
                "EarshotOpenAI", "EarshotOpenAIClient",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // C libraries: one system-library target and one thin Swift wrapper each.
        .systemLibrary(
            name: "CPulse",
            // No pkgConfig: libpulse's flags (-D_REENTRANT -pthread) are refused by SwiftPM with a
            // warning, and its headers sit on the default include path.
            providers: [.apt(["libpulse-dev"])]
        ),
        .target(
            name: "EarshotPulse",
            dependencies: ["EarshotLocking", "CPulse", "EarshotAudio", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Ogg Opus files through Xiph's libopusfile (reading) and libopusenc (writing).
        .systemLibrary(name: "COpus", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev", "libopusenc-dev"])]),
        .target(name: "EarshotOpus", dependencies: ["COpus", "EarshotAudio"], swiftSettings: strict),
        // systemd's service-manager protocol (readiness, status, watchdog, socket activation) via libsystemd.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(name: "EarshotSystemd", dependencies: ["CSystemd", "EarshotUnixSocket"], swiftSettings: strict),
        // When earshotd tells systemd it is ready, what its status line says, when keep-alives stop (pure).
        .target(name: "EarshotSupervision", swiftSettings: strict),
        // A Unix socket's address (`sockaddr_un`), built and read back in one place (Glibc only).
        .target(name: "EarshotUnixSocket", swiftSettings: strict),
        // JSON, once: the value type, the parser (with its UTF-8 check) and the deterministic
        // line writer of events (pure, depends on nothing).
        .target(name: "EarshotJSON", swiftSettings: strict),
        // TOML 1.0, read with the place of every key and value, and written (pure, depends on
        // nothing): the configuration file, voices and conversation scripts.
        .target(name: "EarshotTOML", swiftSettings: strict),
        // The socket API: the wire format (pure), the server (SwiftNIO), the client (CLI side).
        // The protocol owns every command, response and event and their one encoding; it knows
        // nothing of the pipeline or the turn machine.
        .target(name: "EarshotProtocol", dependencies: ["EarshotJSON"], swiftSettings: strict),
        // The pipeline's events, the turn machine's state and refusals in the protocol's wire
        // types, and `Replay` (a recording's events as JSON lines): the one place that knows both
        // sides, used by the daemon, `earshot replay` and the scripted replay.
        .target(
            name: "EarshotPipelineWire",
            dependencies: ["EarshotAudio", "EarshotDetection", "EarshotTurns", "EarshotPipeline", "EarshotProtocol", "EarshotJSON"],
            swiftSettings: strict
        ),
        .target(
            name: "EarshotServer",
            dependencies: [
                "EarshotLocking", "EarshotProtocol", "EarshotJSON", "EarshotUnixSocket",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "EarshotClient", dependencies: ["EarshotProtocol", "EarshotJSON", "EarshotUnixSocket"], swiftSettings: strict),
        // The daemon's debug recordings on disk: names, retention, writing, forgetting.
        .target(name: "EarshotRecordings", dependencies: ["EarshotOpus", "EarshotJSON"], swiftSettings: strict),
        .target(
            name: "EarshotDaemon",
            dependencies: [
                "EarshotLocking", "EarshotAudio", "EarshotDetection", "EarshotTurns", "EarshotPipeline", "EarshotPipelineWire",
                "EarshotPulse", "EarshotProtocol", "EarshotServer", "EarshotConversation", "EarshotBackends",
                "EarshotSpeech", "EarshotVoices", "EarshotSystemd", "EarshotSupervision", "EarshotSettings",
                "EarshotRecordings", "EarshotJSON",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // Command-line options shared by `earshot` and `earshotd`.
        .target(
            name: "EarshotCommandLine",
            dependencies: ["EarshotDetection", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EarshotDaemonMain",
            dependencies: [
                "EarshotDaemon", "EarshotCommandLine", "EarshotBackends", "EarshotSettings", "EarshotLogging", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EarshotCLI",
            dependencies: [
                "EarshotAudio", "EarshotDetection", "EarshotPipeline", "EarshotPipelineWire", "EarshotClient",
                "EarshotProtocol", "EarshotCommandLine", "EarshotJSON",
                "EarshotBackends", "EarshotConversation", "EarshotPulse", "EarshotOpus", "EarshotSettings",
                "EarshotVoices",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EarshotBench",
            dependencies: [
                "EarshotLocking", "EarshotAudio", "EarshotDetection", "EarshotPipeline", "EarshotPipelineWire", "EarshotPocketSphinx", "EarshotJSON",
                "EarshotTestSupport",
            ],
            swiftSettings: strict
        ),
        // `make demo`: a whole conversation through a private PulseAudio, narrated.
        .executableTarget(name: "EarshotDemo", dependencies: ["EarshotTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "EarshotAudioTests",
            dependencies: ["EarshotLocking", "EarshotAudio"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotDetectionTests",
            dependencies: ["EarshotAudio", "EarshotDetection", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotTurnsTests",
            dependencies: [
                "EarshotLocking", "EarshotTurns",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotPulseTests",
            dependencies: ["EarshotLocking", "EarshotPulse", "EarshotAudio", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotJSONTests",
            dependencies: ["EarshotJSON"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotTOMLTests",
            dependencies: ["EarshotTOML"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotProtocolTests",
            dependencies: ["EarshotProtocol", "EarshotJSON", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotServerTests",
            dependencies: [
                "EarshotLocking", "EarshotProtocol", "EarshotServer", "EarshotPipelineWire", "EarshotTurns", "EarshotJSON", "EarshotTestSupport",
                "EarshotUnixSocket",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotClientTests",
            dependencies: ["EarshotLocking", "EarshotClient", "EarshotProtocol", "EarshotJSON", "EarshotTestSupport", "EarshotUnixSocket"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotDaemonTests",
            dependencies: [
                "EarshotDaemon", "EarshotClient", "EarshotProtocol", "EarshotTestSupport",
                "EarshotAudio", "EarshotDetection", "EarshotPipeline", "EarshotPipelineWire", "EarshotRecordings", "EarshotOpus",
                "EarshotUnixSocket",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotPocketSphinxTests",
            dependencies: ["EarshotLocking", "EarshotPocketSphinx", "EarshotFlite", "EarshotSpeech", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotSynthesisTests",
            dependencies: ["EarshotLocking", "EarshotFlite", "EarshotEspeak", "EarshotSpeech", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotWyomingTests",
            dependencies: ["EarshotLocking", "EarshotWyoming", "EarshotWyomingClient", "EarshotSpeech", "EarshotProtocol", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotOpenAITests",
            dependencies: [
                "EarshotLocking", "EarshotOpenAI", "EarshotOpenAIClient", "EarshotSpeech", "EarshotAudio", "EarshotJSON", "EarshotConversation",
                "EarshotTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotSettingsTests",
            dependencies: ["EarshotSettings", "EarshotDetection", "EarshotBackends", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotLoggingTests",
            dependencies: ["EarshotLocking", "EarshotLogging", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotVoicesTests",
            dependencies: ["EarshotVoices", "EarshotSpeech"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotConversationTests",
            dependencies: [
                "EarshotLocking", "EarshotConversation", "EarshotSpeech", "EarshotPipeline", "EarshotPipelineWire", "EarshotAudio", "EarshotDetection",
                "EarshotWyomingClient", "EarshotOpenAI", "EarshotOpenAIClient", "EarshotTestSupport", "EarshotBackends", "EarshotVoices",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotSupervisionTests",
            dependencies: ["EarshotSupervision", "EarshotSystemd", "EarshotUnixSocket"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotOpusTests",
            dependencies: ["EarshotOpus", "EarshotAudio", "EarshotDetection", "EarshotPipeline", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        // Test-only helpers shared by test targets: the private headless PulseAudio server.
        .target(
            name: "EarshotTestSupport", dependencies: ["EarshotLocking", "EarshotUnixSocket", "EarshotJSON"], path: "Tests/EarshotTestSupport", swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotPipelineTests",
            dependencies: [
                "EarshotAudio", "EarshotDetection", "EarshotTurns", "EarshotPipeline", "EarshotPipelineWire", "EarshotProtocol",
                "EarshotTestSupport",
            ],
            swiftSettings: strict
        ),
    ]
)

// libFuzzer targets (`make fuzz`), one per parser. They have no `main` (libFuzzer brings it), so
// they link only with `-sanitize=fuzzer` and are declared only when EARSHOT_FUZZ=1.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("RequestFuzzer", ["EarshotProtocol", "EarshotJSON"]),
    ("JSONFuzzer", ["EarshotJSON"]),
    ("WAVFuzzer", ["EarshotAudio"]),
    ("OpusFuzzer", ["EarshotOpus", "EarshotAudio"]),
    ("SettingsFuzzer", ["EarshotSettings"]),
    ("VoiceFuzzer", ["EarshotVoices", "EarshotSpeech"]),
    ("ScriptFuzzer", ["EarshotConversation", "EarshotVoices", "EarshotSpeech"]),
    ("WyomingFuzzer", ["EarshotWyoming"]),
    ("ServerSentEventsFuzzer", ["EarshotOpenAI"]),
]
if Context.environment["EARSHOT_FUZZ"] == "1" {
    for target in fuzzTargets {
        package.products.append(.executable(name: target.name, targets: [target.name]))
        package.targets.append(
            .executableTarget(name: target.name, dependencies: target.dependencies, path: "Fuzz/\(target.name)", swiftSettings: strict)
        )
    }
}
