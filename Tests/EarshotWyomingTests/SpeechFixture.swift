import Foundation

/// Spoken audio from the repository's fixtures for the real servers to transcribe.
enum SpeechFixture {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// "what is seven times eight", spoken by flite's kal16 voice: 4.39–5.87 s of the VAD
    /// fixture `dev_s07_clean.wav` (16 kHz mono 16-bit), with 0.2 s either side.
    static func sevenTimesEight() throws -> [Int16] {
        let samples = try samples(of: "vad/dev_s07_clean.wav")
        return Array(samples[(4_190 * 16)..<(6_070 * 16)])
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The samples of a 16-bit mono WAV file.
    static func samples(of name: String) throws -> [Int16] {
        let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
        func word(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func long(_ offset: Int) -> Int { word(offset) | word(offset + 2) << 16 }
        guard bytes.count > 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw Failure(description: "\(name) is not a WAV file")
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = long(offset + 4)
            if bytes[offset..<offset + 4].elementsEqual("fmt ".utf8) {
                guard word(offset + 8) == 1, word(offset + 10) == 1, word(offset + 22) == 16 else {
                    throw Failure(description: "\(name) is not 16-bit mono PCM")
                }
            } else if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                let end = min(offset + 8 + size, bytes.count)
                return stride(from: offset + 8, to: end - 1, by: 2).map { Int16(bitPattern: UInt16(word($0))) }
            }
            offset += 8 + size + size % 2
        }
        throw Failure(description: "\(name) has no data chunk")
    }

    /// Splits samples into capture-sized chunks (20 ms at 16 kHz).
    static func chunks(_ samples: [Int16], size: Int = 320) -> [[Int16]] {
        stride(from: 0, to: samples.count, by: size).map { Array(samples[$0..<min($0 + size, samples.count)]) }
    }
}
