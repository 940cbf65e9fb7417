import EarshotJSON
import Foundation

extension ScriptedDaemonPeer {
    /// Reads `\n`-terminated lines from the scripted daemon's end of the socket.
    struct LineReader {
        let descriptor: Int32
        private var lines = LineSplitter(maximumLength: .max)

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// The next line, or `nil` once the client has hung up.
        mutating func nextLine() -> String? {
            while true {
                if case .line(let line)? = lines.next() { return String(decoding: line, as: UTF8.self) }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return nil }
                lines.append(chunk[..<count])
            }
        }
    }
}
