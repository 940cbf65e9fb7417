import EarshotTestSupport
import Foundation
import Testing

/// `make install` and `make uninstall` into a scratch prefix, with the binaries the tests run.
@Suite(.serialized, .enabled(if: TestPeers.product("earshotd"), "earshotd is not built"), .tags(.live))
struct InstallTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Ran {
        var status: Int32
        var output: String
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Ran {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = repository
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Ran(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// make with the build and apt steps left out: the binaries are the ones already built.
    static func make(_ target: String, prefix: String) throws -> Ran {
        let binaries = BuiltProduct.url("earshotd")!.deletingLastPathComponent().path
        return try run("/usr/bin/make", ["-s", "-o", "release", "-o", "deps", target, "PREFIX=\(prefix)", "RELEASE_BIN=\(binaries)"])
    }

    @Test func installPutsEverythingInPlaceAndUninstallRemovesIt() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-install-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let prefix = scratch.appendingPathComponent("usr").path
        let installed = try Self.make("install", prefix: prefix)
        #expect(installed.status == 0, "\(installed.output)")
        #expect(installed.output.contains("systemctl --user enable --now earshotd.socket"), "\(installed.output)")

        let files = [
            "bin/earshot", "bin/earshotd",
            "share/earshot/config.example.toml",
            "share/earshot/voices/breeze.toml", "share/earshot/voices/cove.toml", "share/earshot/voices/sky.toml",
            "share/earshot/voices/juniper.toml", "share/earshot/voices/ember.toml",
            "share/earshot/web/index.html",
            "lib/systemd/user/earshotd.service", "lib/systemd/user/earshotd.socket",
        ].map { prefix + "/" + $0 }
        for file in files {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) was not installed")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/earshotd"))
        let unit = try String(contentsOfFile: prefix + "/lib/systemd/user/earshotd.service", encoding: .utf8)
        #expect(unit.split(separator: "\n").contains("ExecStart=\(prefix)/bin/earshotd"), "\(unit)")

        // The installed daemon reads the installed voices (../share/earshot/voices), not the
        // checkout's: with one removed, it is unknown.
        try FileManager.default.removeItem(atPath: prefix + "/share/earshot/voices/sky.toml")
        let home = scratch.appendingPathComponent("home").path
        let refused = try Self.run(
            prefix + "/bin/earshotd", ["--voice", "sky", "--stt", "none", "--tts", "none", "--socket", scratch.path + "/earshot.sock"],
            environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "PATH": "/usr/bin:/bin", "PULSE_SERVER": "unix:" + scratch.path + "/no-server"]
        )
        #expect(refused.status != 0)
        #expect(refused.output.contains("There is no voice called \"sky\". Voices: breeze, cove, ember, juniper."), "\(refused.output)")

        let removed = try Self.make("uninstall", prefix: prefix)
        #expect(removed.status == 0, "\(removed.output)")
        for file in files {
            #expect(!FileManager.default.fileExists(atPath: file), "\(file) is still there after uninstall")
        }
        #expect(!FileManager.default.fileExists(atPath: prefix + "/share/earshot"), "share/earshot is left behind")
    }
}
