#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The recordings directory on disk: lists, writes and deletes the daemon's recordings, and
/// never any other file. The directory is made 0700 and every file 0600: what the microphone
/// heard is for its owner only.
public struct RecordingStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The recordings in the directory; none when it does not exist. Files with other names, and
    /// anything that is not a plain file, are left out.
    public func inventory() throws(RecordingError) -> RecordingInventory {
        guard let stream = opendir(directory) else {
            guard errno != ENOENT else { return RecordingInventory(directory: directory, names: []) }
            throw RecordingError(message: "The recordings directory \(directory) cannot be read: \(String(cString: strerror(errno))).")
        }
        defer { closedir(stream) }
        var entries: [String] = []
        while let entry = readdir(stream) {
            entries.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        let names = entries.compactMap(RecordingName.init(fileName:)).filter { isPlainFile(path(of: $0)) }
        return RecordingInventory(directory: directory, names: names)
    }

    /// Deletes `names`; returns how many went, and a sentence for each that could not.
    public func delete(_ names: [RecordingName]) -> (deleted: Int, failures: [String]) {
        var deleted = 0
        var failures: [String] = []
        for name in names {
            if unlink(path(of: name)) == 0 || errno == ENOENT {
                deleted += 1
            } else {
                failures.append("\(name.fileName): \(String(cString: strerror(errno)))")
            }
        }
        return (deleted, failures)
    }

    /// Deletes every recording in the directory; the directory itself and other files stay.
    public func forgetAll() throws(RecordingError) -> RecordingInventory {
        let found = try inventory()
        let outcome = delete(found.names)
        guard outcome.failures.isEmpty else {
            throw RecordingError(message: "\(outcome.deleted) of \(found.names.count) recordings in \(directory) were deleted; these could not be: \(outcome.failures.joined(separator: "; ")).")
        }
        return found
    }

    public func path(of name: RecordingName) -> String {
        directory + "/" + name.fileName
    }

    /// Creates the directory (and the missing ones above it) with mode 0700, and makes the
    /// recordings directory itself 0700 if it already existed.
    public func prepareDirectory() throws(RecordingError) {
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw RecordingError(message: "The recordings directory \(directory) cannot be created (\(path): \(String(cString: strerror(errno)))).")
            }
        }
        guard chmod(directory, 0o700) == 0 else {
            throw RecordingError(message: "The recordings directory \(directory) cannot be made private: \(String(cString: strerror(errno))).")
        }
    }

    /// Writes `turn`'s audio (16 kHz mono, 16-bit samples, the first `count` of `samples`) as Ogg
    /// Opus at `bitrate`: first under its partial name, renamed once complete.
    public func writeAudio(_ samples: [Int16], count: Int, for turn: RecordedTurn, bitrate: Int = 32_000) throws(RecordingError) {
        let name = RecordingName(turn: turn, kind: .audio)
        let partial = path(of: name.partial)
        try createPrivateFile(partial)
        do {
            var writer = try OpusFileWriter(path: partial, bitrate: bitrate)
            var chunk = [Float](repeating: 0, count: 16_000)
            var start = 0
            while start < count {
                let end = min(count, start + chunk.count)
                for index in start..<end { chunk[index - start] = Float(samples[index]) / 32_768 }
                try writer.append(chunk[0..<(end - start)])
                start = end
            }
            try writer.finish()
        } catch {
            unlink(partial)
            throw RecordingError(message: "The recording of \(turn) could not be written: \(error).")
        }
        try complete(name)
    }

    /// Writes (or rewrites) `details` as the turn's JSON file, in one piece.
    public func writeDetails(_ details: RecordedTurnDetails) throws(RecordingError) {
        let name = RecordingName(turn: details.turn, kind: .details)
        let partial = path(of: name.partial)
        let bytes = Array((details.json.jsonText + "\n").utf8)
        try createPrivateFile(partial)
        let descriptor = open(partial, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw failure("open", partial) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else {
                let error = failure("write", partial)
                unlink(partial)
                throw error
            }
            written += result
        }
        try complete(name)
    }

    /// Creates `path` empty, readable and writable by its owner only, before anything writes to it.
    private func createPrivateFile(_ path: String) throws(RecordingError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("create", path) }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else { throw failure("make private", path) }
    }

    private func complete(_ name: RecordingName) throws(RecordingError) {
        guard rename(path(of: name.partial), path(of: name)) == 0 else {
            let error = failure("rename", path(of: name.partial))
            unlink(path(of: name.partial))
            throw error
        }
    }

    private func failure(_ action: String, _ path: String) -> RecordingError {
        RecordingError(message: "Cannot \(action) \(path): \(String(cString: strerror(errno))).")
    }

    private func isPlainFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}

/// Where the daemon keeps debug recordings.
public enum RecordingLocation {
    /// `$XDG_STATE_HOME/earshot/recordings`, or `$HOME/.local/state/earshot/recordings` when
    /// `XDG_STATE_HOME` is unset, empty or relative (the XDG spec says to ignore it then), or the
    /// account's home directory when `HOME` is unset too. A nil `environment` means this process's.
    public static func defaultDirectory(environment: [String: String]? = nil) -> String {
        func variable(_ name: String) -> String? {
            environment.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
        }
        if let state = variable("XDG_STATE_HOME"), state.hasPrefix("/") {
            return joined(state, "earshot/recordings")
        }
        let home = variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? accountHome
        return joined(home, ".local/state/earshot/recordings")
    }

    /// The home directory of the account this process runs as, from the password database.
    private static var accountHome: String {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "/" }
        return String(cString: directory)
    }

    /// `base/rest`, with one slash between them however `base` ends.
    private static func joined(_ base: String, _ rest: String) -> String {
        (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/" + rest
    }
}

/// A recording that could not be written, listed or deleted, in words a person can act on.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
