@testable import EarshotPulse
import Foundation
import Testing

/// The client configuration the daemon hands libpulse: which files libpulse would have read, and
/// shared memory off around them. No sound server needed.
@Suite struct PulseClientConfigurationTests {
    /// A scratch tree: a home, a global file with its `.d` directory, and the paths of each.
    struct Tree {
        let root = NSTemporaryDirectory() + "earshot-pulse-conf-" + UUID().uuidString.prefix(8)
        var global: String { root + "/etc/client.conf" }
        var home: String { root + "/home" }

        init() throws {
            for directory in ["/etc/client.conf.d", "/home/.config/pulse"] {
                try FileManager.default.createDirectory(atPath: root + directory, withIntermediateDirectories: true)
            }
            for file in [global, global + ".d/10-b.conf", global + ".d/01-a.conf", global + ".d/notes.txt"] {
                try "autospawn = no\n".write(toFile: file, atomically: true, encoding: .utf8)
            }
            // A dangling link, as Debian's 01-enable-autospawn.conf is while its target is absent.
            try FileManager.default.createSymbolicLink(atPath: global + ".d/05-gone.conf", withDestinationPath: root + "/nowhere")
        }

        func write(_ path: String) throws {
            try "default-server = unix:/elsewhere\n".write(toFile: path, atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func withoutAFileOfTheUsersTheGlobalOneAndItsReadableDotDFilesInNameOrder() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = PulseClientConfiguration.filesLibpulseReads(environment: ["HOME": tree.home], globalFile: tree.global)
        #expect(files == [tree.global, tree.global + ".d/01-a.conf", tree.global + ".d/10-b.conf"])
    }

    @Test func theUsersOwnFileComesFirstAndStandsAlone() throws {
        let tree = try Tree()
        defer { tree.remove() }
        try tree.write(tree.home + "/.config/pulse/client.conf")
        #expect(PulseClientConfiguration.filesLibpulseReads(environment: ["HOME": tree.home], globalFile: tree.global)
            == [tree.home + "/.config/pulse/client.conf"])
        try FileManager.default.createDirectory(atPath: tree.home + "/.pulse", withIntermediateDirectories: true)
        try tree.write(tree.home + "/.pulse/client.conf")
        #expect(PulseClientConfiguration.filesLibpulseReads(environment: ["HOME": tree.home], globalFile: tree.global)
            == [tree.home + "/.pulse/client.conf"], "libpulse looks in ~/.pulse first")
    }

    @Test func theVariablesNameTheFileOrItsDirectory() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let named = tree.root + "/named.conf"
        try tree.write(named)
        #expect(PulseClientConfiguration.filesLibpulseReads(
            environment: ["PULSE_CLIENTCONFIG": named, "HOME": tree.home], globalFile: tree.global) == [named])
        #expect(PulseClientConfiguration.filesLibpulseReads(
            environment: ["PULSE_CLIENTCONFIG": tree.root + "/missing.conf"], globalFile: tree.global) == [],
            "libpulse reads nothing else when the named file is missing")
        try tree.write(tree.root + "/client.conf")
        #expect(PulseClientConfiguration.filesLibpulseReads(
            environment: ["PULSE_CONFIG_PATH": tree.root, "HOME": tree.home], globalFile: tree.global) == [tree.root + "/client.conf"])
    }

    @Test func sharedMemoryIsOffBeforeAndAfterTheIncludedFiles() {
        let text = PulseClientConfiguration.text(including: ["/etc/pulse/client.conf", "/odd;name.conf", "/home/a b/client.conf"])
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["enable-shm = no", ".include /etc/pulse/client.conf", ".include /home/a b/client.conf", "enable-shm = no"],
                "a path libpulse would cut at a comment sign is left out")
    }

    @Test func installingWritesTheFileAndNamesItForLibpulse() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let previous = getenv("PULSE_CLIENTCONFIG").map { String(cString: $0) }
        defer {
            if let previous { setenv("PULSE_CLIENTCONFIG", previous, 1) } else { unsetenv("PULSE_CLIENTCONFIG") }
        }
        let directory = tree.root + "/runtime/earshot"
        try FileManager.default.createDirectory(atPath: tree.root + "/runtime", withIntermediateDirectories: true)
        let path = try PulseClientConfiguration.install(in: directory)
        #expect(path == directory + "/" + PulseClientConfiguration.fileName)
        #expect(getenv("PULSE_CLIENTCONFIG").map { String(cString: $0) } == path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("enable-shm = no\n"))
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
        #expect(try PulseClientConfiguration.install(in: directory) == path, "installed again, it does not include itself")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(throws: PulseClientConfiguration.WriteError.self) {
            try PulseClientConfiguration.install(in: tree.global + "/not-a-directory")
        }
    }
}
