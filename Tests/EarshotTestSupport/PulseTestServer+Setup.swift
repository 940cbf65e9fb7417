import Foundation

extension PulseTestServer {
    struct Tools: Sendable {
        var pulseaudio: String
        var pactl: String
        var paplay: String
        var parec: String
    }

    static let tools: Tools? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin"]
        func find(_ name: String) -> String? {
            directories.lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        guard let pulseaudio = find("pulseaudio"), let pactl = find("pactl"), let paplay = find("paplay"),
              let parec = find("parec") else { return nil }
        return Tools(pulseaudio: pulseaudio, pactl: pactl, paplay: paplay, parec: parec)
    }()

    static let directoryPrefix = "earshot-pa-"

    /// `norewinds=1` matters: without it the monitors lose their first 10 ms, drop leading silence
    /// and lag by about a second.
    static func configuration(socket: String) -> String {
        """
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(socket)
        load-module module-null-sink sink_name=speaker rate=16000 channels=1 norewinds=1
        load-module module-null-sink sink_name=micfeed rate=16000 channels=1 norewinds=1
        load-module module-remap-source source_name=mic master=micfeed.monitor
        set-default-sink speaker
        set-default-source mic

        """
    }

    /// Kills servers whose test process died without stopping them, and removes their
    /// directories. A server counts as abandoned only when the pid in its directory's name is
    /// gone and its own pid still runs with that directory on its command line.
    static func removeAbandonedServers() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/tmp") else { return }
        for name in names where name.hasPrefix(directoryPrefix) {
            let owner = name.dropFirst(directoryPrefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            guard let owner, !ProcessTable.exists(owner) else { continue }
            let directory = "/tmp/\(name)"
            if let text = try? String(contentsOfFile: directory + "/pulseaudio.pid", encoding: .utf8),
               let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
               let commandLine = ProcessTable.readSmallFile("/proc/\(pid)/cmdline"),
               commandLine.contains(directory + "/default.pa") {
                Foundation.kill(pid, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
