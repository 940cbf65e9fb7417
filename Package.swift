// swift-tools-version: 6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let nio: [Target.Dependency] = [
    .product(name: "NIOCore", package: "swift-nio"),
    .product(name: "NIOPosix", package: "swift-nio"),
]
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

// ARCHITECTURE.md draws this map; Scripts/check_modules.py checks every import against it.
let package = Package(
    name: "Earshot",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "earshot", targets: ["earshot"]),
        .executable(name: "earshotd", targets: ["earshotd"]),
        .executable(name: "earshot-bench", targets: ["earshot-bench"]),
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
        // MARK: Pure: no C library, no I/O, tested without audio hardware.

        // JSON, TOML and the lock threads share: what every other module stands on.
        .target(name: "EarshotBase", swiftSettings: strict),
        // The turn machine: phases, controls, barge-in, replies.
        .target(name: "EarshotTurns", swiftSettings: strict),
        // 10 ms frames, WAV, the detector, the echo gate, the endpointer and the pipeline that
        // feeds them to the turn machine.
        .target(name: "EarshotAudio", dependencies: ["EarshotBase", "EarshotTurns"], swiftSettings: strict),
        // The socket API: every command, response and event, and their one encoding.
        .target(name: "EarshotProtocol", dependencies: ["EarshotBase"], swiftSettings: strict),
        // What a transcriber and a synthesizer are, voices, and the Wyoming and OpenAI audio
        // protocols' messages (`CMalloc`: glibc's malloc_trim, for engines released when idle).
        .target(name: "EarshotSpeech", dependencies: ["EarshotBase", "EarshotAudio", "CMalloc"], swiftSettings: strict),
        // The conversation: the pipeline's events in the protocol's terms, replay, the
        // transcription queue and the responder.
        .target(
            name: "EarshotConversation",
            dependencies: ["EarshotBase", "EarshotTurns", "EarshotAudio", "EarshotProtocol", "EarshotSpeech"],
            swiftSettings: strict
        ),

        // MARK: C libraries and the network, each wrapped once.

        // Speech engines: pocketsphinx, flite and espeak-ng in process; Wyoming and
        // OpenAI-compatible servers over the network; the configured pair made from their names.
        .target(
            name: "EarshotEngines",
            dependencies: [
                "EarshotBase", "EarshotAudio", "EarshotSpeech", "CPocketSphinx", "CFlite", "CEspeak", logging,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ] + nio,
            swiftSettings: strict
        ),
        // The sound server through libpulse (PulseAudio and PipeWire): session, streams,
        // devices, echo canceller.
        .target(name: "EarshotPulse", dependencies: ["EarshotBase", "EarshotAudio", "CPulse", logging], swiftSettings: strict),
        // Ogg Opus files (libopusfile, libopusenc) and the daemon's debug recordings on disk.
        .target(name: "EarshotRecordings", dependencies: ["EarshotBase", "EarshotAudio", "COpus"], swiftSettings: strict),
        // The Unix-socket and loopback WebSocket server (SwiftNIO).
        .target(
            name: "EarshotServer",
            dependencies: [
                "EarshotBase", "EarshotProtocol", logging,
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ] + nio,
            swiftSettings: strict
        ),
        // The front ends' side of the socket: connection, `status` and `watch` rendering.
        .target(name: "EarshotClient", dependencies: ["EarshotBase", "EarshotProtocol"], swiftSettings: strict),

        // MARK: The daemon and the commands.

        // earshotd's services, session, speaking, settings, systemd and logging.
        .target(
            name: "EarshotDaemon",
            dependencies: [
                "EarshotBase", "EarshotTurns", "EarshotAudio", "EarshotProtocol", "EarshotSpeech", "EarshotConversation",
                "EarshotEngines", "EarshotPulse", "EarshotRecordings", "EarshotServer", "CSystemd", logging, argumentParser,
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "earshotd",
            dependencies: ["EarshotAudio", "EarshotProtocol", "EarshotEngines", "EarshotDaemon", "CMalloc", logging, argumentParser],
            swiftSettings: strict,
            // Relative relocations packed (DT_RELR, glibc 2.36): the table the loader reads shrinks
            // from 1.2 MB to 0.3 MB, and with it the daemon's resident memory.
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
        ),
        .executableTarget(
            name: "earshot",
            dependencies: [
                "EarshotBase", "EarshotAudio", "EarshotProtocol", "EarshotSpeech", "EarshotConversation", "EarshotEngines",
                "EarshotPulse", "EarshotRecordings", "EarshotClient", "EarshotDaemon", logging, argumentParser,
            ],
            swiftSettings: strict
        ),
        // Private sound servers, speech-server peers, child processes and socket load, for the
        // benchmarks, `make demo` and the tests; linked into neither earshotd nor earshot.
        .target(name: "EarshotHarness", dependencies: ["EarshotBase", "EarshotProtocol"], swiftSettings: strict),
        // Benchmarks and `make demo`, on the harness's private sound servers.
        .executableTarget(
            name: "earshot-bench",
            dependencies: [
                "EarshotBase", "EarshotAudio", "EarshotSpeech", "EarshotConversation", "EarshotEngines", "EarshotHarness",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // MARK: C libraries: a module map each, wrapped only by the module named beside it.

        .systemLibrary(name: "CMalloc"),  // EarshotSpeech, earshotd
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "earshot-pocketsphinx"),  // EarshotEngines
        .systemLibrary(name: "CFlite", providers: [.apt(["flite1-dev"])]),  // EarshotEngines
        .systemLibrary(name: "CEspeak", providers: [.apt(["libespeak-ng-dev"])]),  // EarshotEngines
        // No pkgConfig: libpulse's flags (-D_REENTRANT -pthread) are refused by SwiftPM with a
        // warning, and its headers sit on the default include path.
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),  // EarshotPulse
        .systemLibrary(name: "COpus", pkgConfig: "opusfile", providers: [.apt(["libopusfile-dev", "libopusenc-dev"])]),  // EarshotRecordings
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),  // EarshotDaemon

        // MARK: Tests: one target per module, and the support they share (the harness, which
        // peers must be there, the fixtures).

        .target(
            name: "EarshotTestSupport", dependencies: ["EarshotHarness"], path: "Tests/EarshotTestSupport",
            swiftSettings: strict
        ),
        .testTarget(name: "EarshotBaseTests", dependencies: ["EarshotBase"], swiftSettings: strict),
        .testTarget(
            name: "EarshotTurnsTests",
            dependencies: ["EarshotBase", "EarshotTurns", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotAudioTests",
            dependencies: ["EarshotBase", "EarshotTurns", "EarshotAudio", "EarshotProtocol", "EarshotConversation", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(name: "EarshotProtocolTests", dependencies: ["EarshotBase", "EarshotProtocol", "EarshotTestSupport"], swiftSettings: strict),
        .testTarget(name: "EarshotSpeechTests", dependencies: ["EarshotSpeech"], swiftSettings: strict),
        .testTarget(
            name: "EarshotConversationTests",
            dependencies: ["EarshotBase", "EarshotAudio", "EarshotSpeech", "EarshotConversation", "EarshotEngines", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotEnginesTests",
            dependencies: [
                "EarshotBase", "EarshotAudio", "EarshotProtocol", "EarshotSpeech", "EarshotConversation", "EarshotEngines",
                "EarshotTestSupport",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotPulseTests",
            dependencies: ["EarshotBase", "EarshotAudio", "EarshotPulse", "EarshotTestSupport", logging],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotRecordingsTests", dependencies: ["EarshotAudio", "EarshotRecordings", "EarshotTestSupport"], swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotServerTests",
            dependencies: [
                "EarshotBase", "EarshotTurns", "EarshotProtocol", "EarshotConversation", "EarshotServer", "EarshotTestSupport",
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotClientTests", dependencies: ["EarshotBase", "EarshotAudio", "EarshotProtocol", "EarshotClient", "EarshotTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotDaemonTests",
            dependencies: [
                "EarshotBase", "EarshotAudio", "EarshotProtocol", "EarshotSpeech", "EarshotConversation", "EarshotEngines",
                "EarshotPulse", "EarshotRecordings", "EarshotDaemon", "EarshotTestSupport", logging,
            ],
            swiftSettings: strict
        ),
    ]
)

// libFuzzer targets (`make fuzz`), one per parser. They have no `main` (libFuzzer brings it), so
// they link only with `-sanitize=fuzzer` and are declared only when EARSHOT_FUZZ=1.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("RequestFuzzer", ["EarshotProtocol", "EarshotBase"]),
    ("JSONFuzzer", ["EarshotBase"]),
    ("WAVFuzzer", ["EarshotAudio"]),
    ("OpusFuzzer", ["EarshotRecordings", "EarshotAudio"]),
    ("SettingsFuzzer", ["EarshotDaemon"]),
    ("VoiceFuzzer", ["EarshotSpeech"]),
    ("ScriptFuzzer", ["EarshotConversation", "EarshotSpeech"]),
    ("WyomingFuzzer", ["EarshotSpeech"]),
    ("ServerSentEventsFuzzer", ["EarshotSpeech"]),
    ("OpenAIChatStreamFuzzer", ["EarshotSpeech"]),
]
if Context.environment["EARSHOT_FUZZ"] == "1" {
    for target in fuzzTargets {
        package.products.append(.executable(name: target.name, targets: [target.name]))
        package.targets.append(
            .executableTarget(name: target.name, dependencies: target.dependencies, path: "Fuzz/\(target.name)", swiftSettings: strict)
        )
    }
}
