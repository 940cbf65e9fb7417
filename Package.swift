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
        .executable(name: "earshot-bench", targets: ["EarshotBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    ],
    targets: [
        // Pure logic: no C dependency, no audio hardware. Dependencies run one way:
        // Audio <- Detection <- Pipeline -> Turns.
        .target(name: "EarshotAudio", swiftSettings: strict),
        .target(name: "EarshotDetection", dependencies: ["EarshotAudio"], swiftSettings: strict),
        .target(name: "EarshotTurns", swiftSettings: strict),
        .target(
            name: "EarshotPipeline",
            dependencies: ["EarshotAudio", "EarshotDetection", "EarshotTurns"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EarshotCLI",
            dependencies: [
                "EarshotAudio", "EarshotDetection", "EarshotPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "EarshotBench",
            dependencies: ["EarshotAudio", "EarshotDetection", "EarshotPipeline"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotAudioTests",
            dependencies: ["EarshotAudio"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotDetectionTests",
            dependencies: ["EarshotAudio", "EarshotDetection"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotTurnsTests",
            dependencies: [
                "EarshotTurns",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EarshotPipelineTests",
            dependencies: ["EarshotAudio", "EarshotDetection", "EarshotTurns", "EarshotPipeline"],
            swiftSettings: strict
        ),
    ]
)
