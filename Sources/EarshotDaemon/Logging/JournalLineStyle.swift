#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How log lines are written: for journald, or for a person reading a terminal or a file.
public enum JournalLineStyle: Equatable, Sendable {
    /// `<6>earshotd.audio: Connected key=value`: the syslog priority prefix journald reads the
    /// level from (sd-daemon(3)); no time, journald stamps each line itself.
    case journal
    /// `2025-11-21 14:02:07.123 info earshotd.audio: Connected key=value`, the level coloured
    /// when `colour` is on.
    case plain(colour: Bool)

    /// The style for a process whose stderr `isTerminal` (or not), in `environment`:
    /// journal when stderr is the stream systemd connected to the journal (`JOURNAL_STREAM`
    /// names its device and inode, which `stderrIdentity` must match), colour only on a
    /// terminal and without `NO_COLOR`.
    public static func detect(
        isTerminal: Bool, environment: [String: String], stderrIdentity: (device: UInt64, inode: UInt64)?
    ) -> JournalLineStyle {
        if !isTerminal, let stream = environment["JOURNAL_STREAM"], let identity = stderrIdentity {
            let parts = stream.split(separator: ":")
            if parts.count == 2, UInt64(parts[0]) == identity.device, UInt64(parts[1]) == identity.inode {
                return .journal
            }
        }
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return .plain(colour: isTerminal && !noColour && environment["TERM"] != "dumb")
    }

    /// The style for this process's stderr; a nil `environment` means this process's.
    public static func forStandardError(environment: [String: String]? = nil) -> JournalLineStyle {
        var variables: [String: String] = [:]
        for name in ["JOURNAL_STREAM", "NO_COLOR", "TERM"] {
            variables[name] = environment.map { $0[name] } ?? getenv(name).map { String(cString: $0) }
        }
        var status = stat()
        let identity: (UInt64, UInt64)? = fstat(STDERR_FILENO, &status) == 0
            ? (UInt64(status.st_dev), UInt64(status.st_ino)) : nil
        return detect(isTerminal: isatty(STDERR_FILENO) == 1, environment: variables, stderrIdentity: identity)
    }
}
