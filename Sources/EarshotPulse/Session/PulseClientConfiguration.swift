#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// libpulse's client configuration for the daemon: the files libpulse would read, with shared
/// memory off.
///
/// libpulse (16.1, and 17.0 alike) spins forever in `pa_pstream_unlink` when the connection dies
/// while the server's shared ring buffer (its "srbchannel") is being switched in, just after the
/// handshake: the loop asks to drop a channel that is not active yet, so nothing changes. A sound
/// server killed at that moment left the engine's thread at 100 % of a core with the mainloop
/// lock held, and the daemon stuck (`LiveSoundServerFaultTests` found it). The server offers the
/// ring buffer only to clients that use shared memory; without it the engine's audio, 16 kHz
/// mono, travels over the socket.
///
/// libpulse has no call for this: a context reads `client.conf` (or the file `PULSE_CLIENTCONFIG`
/// names) when it is made. So the daemon writes a file that includes what libpulse would have
/// read and turns shared memory off, and names it in `PULSE_CLIENTCONFIG` at start.
public enum PulseClientConfiguration {
    public static let fileName = "libpulse-client.conf"

    /// The files libpulse reads for a process with `environment`, in order: the one
    /// `PULSE_CLIENTCONFIG` names, else `$PULSE_CONFIG_PATH/client.conf`, else the first of
    /// `~/.pulse/client.conf` and `~/.config/pulse/client.conf`, else `/etc/pulse/client.conf`;
    /// then the `*.conf` files of the chosen file's `.d` directory, by name. Only readable files.
    static func filesLibpulseReads(environment: [String: String], globalFile: String = "/etc/pulse/client.conf") -> [String] {
        let candidates: [String]
        if let named = environment["PULSE_CLIENTCONFIG"], !named.isEmpty {
            candidates = [named]
        } else if let directory = environment["PULSE_CONFIG_PATH"], !directory.isEmpty {
            candidates = [directory + "/client.conf", globalFile]
        } else if let home = environment["HOME"], !home.isEmpty {
            candidates = [home + "/.pulse/client.conf", home + "/.config/pulse/client.conf", globalFile]
        } else {
            candidates = [globalFile]
        }
        guard let main = candidates.first(where: isReadable) else { return [] }
        return [main] + confFiles(in: main + ".d").filter(isReadable)
    }

    /// Shared memory off before the included files (a file that fails to parse ends the parsing
    /// there) and again after them (the last word wins).
    static func text(including files: [String]) -> String {
        let includes = files.filter { !$0.contains(where: { "#;\n".contains($0) }) }.map { ".include \($0)" }
        return (
            ["# Written by earshotd at each start: libpulse's own configuration, with shared memory off",
             "# (see PulseClientConfiguration.swift).", "enable-shm = no"]
            + includes + ["enable-shm = no"]
        ).joined(separator: "\n") + "\n"
    }

    /// A file or directory the configuration could not be written to.
    public struct WriteError: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
    }

    /// Writes the file into `directory` (made if missing) for this process's environment and
    /// names it in `PULSE_CLIENTCONFIG`. Call at start, before other threads read the environment.
    /// Returns the file's path.
    public static func install(in directory: String) throws(WriteError) -> String {
        let path = directory + "/" + fileName
        var environment: [String: String] = [:]
        for name in ["PULSE_CLIENTCONFIG", "PULSE_CONFIG_PATH", "HOME"] {
            environment[name] = getenv(name).map { String(cString: $0) }
        }
        if environment["PULSE_CLIENTCONFIG"] == path { environment["PULSE_CLIENTCONFIG"] = nil }
        let bytes = Array(text(including: filesLibpulseReads(environment: environment)).utf8)
        if mkdir(directory, 0o700) != 0, errno != EEXIST { throw WriteError(path: directory, errno: errno) }
        let partial = path + ".partial"
        let descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: partial, errno: errno) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        close(descriptor)
        guard written == bytes.count else {
            unlink(partial)
            throw WriteError(path: partial, errno: written < 0 ? writeError : ENOSPC)
        }
        guard rename(partial, path) == 0 else {
            let renameError = errno
            unlink(partial)
            throw WriteError(path: path, errno: renameError)
        }
        setenv("PULSE_CLIENTCONFIG", path, 1)
        return path
    }

    private static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// The `*.conf` files in `directory`, sorted by name as libpulse's scandir does.
    private static func confFiles(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".conf"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { directory + "/" + $0 }
    }
}
