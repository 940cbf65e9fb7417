#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Hands back the pages of code and constants the process mapped and no longer runs.
///
/// The kernel maps a file's pages 64 KB at a time around each one touched (fault-around), so one-off
/// work — the daemon's start-up (settings, bootstrap, the sound server's handshake), an engine used and
/// since released — leaves megabytes of earshotd, the Swift runtime and the C libraries mapped that
/// listening never runs again. Unmapping the clean read-only file mappings (`madvise(MADV_DONTNEED)`)
/// keeps their pages in the page cache; what runs next is mapped again on its first use, a minor fault.
public enum CleanFilePages {
    public struct Released: Equatable, Sendable {
        /// Kilobytes that were resident in the mappings released.
        public let kilobytes: Int
        public let mappings: Int
    }

    public enum ReleaseError: Error, Equatable, CustomStringConvertible {
        case unreadableMappings(String)
        case refused(path: String, errno: Int32)

        public var description: String {
            switch self {
            case .unreadableMappings(let reason): "cannot read /proc/self/smaps: \(reason)"
            case .refused(let path, let code): "the kernel refused to release \(path)'s pages: \(String(cString: strerror(code)))"
            }
        }
    }

    /// Unmaps every clean read-only file mapping of this process (``ReadOnlyMappings``).
    public static func release() throws(ReleaseError) -> Released {
        let smaps: String
        do {
            smaps = try TextFile.read("/proc/self/smaps", maximumBytes: 8 << 20)
        } catch {
            throw .unreadableMappings(error.description)
        }
        let clean = ReadOnlyMappings(smaps: smaps)
        for mapping in clean.mappings {
            let start = UnsafeMutableRawPointer(bitPattern: mapping.start)
            guard madvise(start, Int(mapping.end - mapping.start), Int32(MADV_DONTNEED)) == 0 else {
                throw .refused(path: mapping.path, errno: errno)
            }
        }
        return Released(kilobytes: clean.residentKilobytes, mappings: clean.mappings.count)
    }
}
