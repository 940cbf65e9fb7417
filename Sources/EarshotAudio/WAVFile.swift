import Foundation

/// Reads and writes RIFF WAV files. Anything read comes back as 16 kHz mono.
public enum WAVFile {
    /// Decodes `path` to a 16 kHz mono clip.
    /// PROVISIONAL: 16-bit PCM, 16 kHz, mono only; the full decoder replaces this.
    public static func read(_ path: String) throws(AudioFileError) -> AudioClip {
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw AudioFileError(path: path, problem: .unreadable(error.localizedDescription))
        }
        guard !bytes.isEmpty else { throw AudioFileError(path: path, problem: .empty) }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8)
        else { throw AudioFileError(path: path, problem: .notRIFF) }
        func u32(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16 | Int(bytes[o + 3]) << 24 }
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "data" {
                let end = min(bytes.count, offset + 8 + size)
                var samples = [Float]()
                samples.reserveCapacity((end - offset - 8) / 2)
                var i = offset + 8
                while i + 1 < end {
                    samples.append(Float(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8)) / 32768)
                    i += 2
                }
                return AudioClip(samples: samples)
            }
            offset += 8 + size + (size & 1)
        }
        throw AudioFileError(path: path, problem: .corrupt("no data chunk"))
    }
}
