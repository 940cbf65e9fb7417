import Foundation

/// A `parec` recording of a source on a `TestSoundServer`, written to a file as it arrives.
public final class PulseTestRecording: Sendable {
    public let process: ChildProcess
    /// Raw 16 kHz mono s16le.
    public let path: String

    init(process: ChildProcess, path: String) {
        self.process = process
        self.path = path
    }

    deinit { process.terminate(with: SIGINT) }

    /// Samples recorded so far.
    public var sampleCount: Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return size / 2
    }

    /// The samples recorded so far, scaled to -1...1.
    public func samples() -> [Float] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { index in
                Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32768
            }
        }
    }

    /// Ends the recording; returns everything recorded.
    @discardableResult
    public func stop() -> [Float] {
        process.terminate(with: SIGINT)
        return samples()
    }
}
