public import Foundation

/// The package's executables as the tests and benchmarks run them: the ones the same build put
/// beside the running test bundle (or benchmark), never an older build's.
public enum BuiltProduct {
    public struct NotBuilt: Error, CustomStringConvertible {
        public var name: String
        public var description: String { "\(name) is not built next to the tests: run `swift build --build-tests` (make test does)" }
    }

    /// What a finished run printed, and how it ended.
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String

        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The executable `name` (e.g. `earshot`, `earshotd`), if built.
    public static func url(_ name: String) -> URL? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name)
        return FileManager.default.isExecutableFile(atPath: beside.path) ? beside : nil
    }

    /// Runs `name` with `arguments` to completion, capturing its output.
    public static func run(_ name: String, _ arguments: [String]) throws -> Outcome {
        guard let binary = url(name) else { throw NotBuilt(name: name) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, stdout: stdout, stderr: String(decoding: stderr, as: UTF8.self))
    }
}
