/// The process's read-only file mappings that hold no private copies (`/proc/self/smaps`): code
/// and constants the kernel maps straight from the page cache, so that unmapping them loses nothing
/// and the next use maps them again.
///
/// Mappings with private copies (a shared library's data once relocated, `Anonymous:` above 0) and
/// writable or unnamed mappings are left out: their pages exist only in this process.
public struct ReadOnlyMappings: Equatable, Sendable {
    public struct Mapping: Equatable, Sendable {
        public let start: UInt
        public let end: UInt
        public let path: String
        /// Kilobytes of it resident when read.
        public let residentKilobytes: Int
    }

    public let mappings: [Mapping]

    public var residentKilobytes: Int { mappings.reduce(0) { $0 + $1.residentKilobytes } }

    /// The clean read-only file mappings listed in `smaps`, the text of `/proc/PID/smaps`.
    public init(smaps: String) {
        var found: [Mapping] = []
        var candidate: (start: UInt, end: UInt, path: String)?
        var resident = 0
        var isClean = true
        func close() {
            if let open = candidate, isClean { found.append(Mapping(start: open.start, end: open.end, path: open.path, residentKilobytes: resident)) }
            candidate = nil
        }
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            if let header = Self.header(line) {
                close()
                resident = 0
                isClean = true
                candidate = header.isCandidate ? (header.start, header.end, header.path) : nil
            } else if candidate != nil {
                if line.hasPrefix("Rss:") {
                    resident = Self.kilobytes(line) ?? 0
                } else if line.hasPrefix("Anonymous:") || line.hasPrefix("Private_Dirty:") {
                    if Self.kilobytes(line) != 0 { isClean = false }
                }
            }
        }
        close()
        mappings = found
    }

    /// A mapping's first line, `start-end perms offset dev inode [path]`, nil for the field lines
    /// under it; a candidate when it is read-only, private and a file still on disk.
    static func header(_ line: Substring) -> (start: UInt, end: UInt, path: String, isCandidate: Bool)? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 5, let dash = fields[0].firstIndex(of: "-") else { return nil }
        guard let start = UInt(fields[0][..<dash], radix: 16),
              let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16) else { return nil }
        let permissions = Array(fields[1].utf8)
        guard permissions.count == 4 else { return nil }
        let path = fields.count == 6 ? String(fields[5].drop(while: { $0 == " " })) : ""
        let isReadOnlyPrivate = permissions[0] == UInt8(ascii: "r") && permissions[1] == UInt8(ascii: "-")
            && permissions[3] == UInt8(ascii: "p")
        // "/usr/lib/… (deleted)" is a file no longer on disk: its pages could not come back.
        let isFile = path.hasPrefix("/") && !path.hasSuffix(" (deleted)")
        return (start, end, path, isReadOnlyPrivate && isFile)
    }

    private static func kilobytes(_ line: Substring) -> Int? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 2 ? Int(fields[1]) : nil
    }
}
