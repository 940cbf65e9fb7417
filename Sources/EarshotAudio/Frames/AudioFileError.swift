/// Why an audio file could not be read or written, with the file it concerns.
public struct AudioFileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// Nothing exists at the path.
        case missingFile
        case unreadable(String)
        case unwritable(String)
        case empty
        /// Neither a RIFF/WAVE header nor another recognisable container.
        case notRIFF
        /// A recognisable non-WAV container, e.g. "a FLAC file".
        case notWAV(String)
        /// The file ends inside the RIFF header or a chunk header; says where.
        case truncatedHeader(String)
        case missingFormatChunk
        case formatChunkTooShort(size: Int, required: Int)
        case missingDataChunk
        /// The data chunk declares more bytes than the file holds.
        case truncatedData(present: Int, declared: Int)
        case inconsistentBlockAlign(declared: Int, expected: Int, channels: Int, bitsPerSample: Int)
        case invalidSampleRate(Int)
        case unsupportedEncoding(WAVFormatTag)
        case unsupportedChannelCount(Int)
        case unsupportedBitDepth(bits: Int, encoding: String)
        case truncated(String)
        case corrupt(String)
        case unsupported(String)
    }

    /// Sample rates a file may declare; anything outside is treated as a corrupt header.
    public static let plausibleSampleRates = 1_000...768_000

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    private static let conversionHint = "convert it first, e.g. `ffmpeg -i IN -ac 1 -ar 16000 -c:a pcm_s16le OUT.wav`"

    public var description: String {
        switch problem {
        case .missingFile: "\(path): no such file"
        case .unreadable(let why): "\(path): cannot read the file: \(why)"
        case .unwritable(let why): "\(path): cannot write the file: \(why)"
        case .empty: "\(path): the file is empty (0 bytes)"
        case .notRIFF: "\(path): not a WAV file (no RIFF/WAVE header)"
        case .notWAV(let kind): "\(path): not a WAV file: it looks like \(kind); \(Self.conversionHint)"
        case .truncatedHeader(let what): "\(path): the WAV header is truncated: \(what)"
        case .missingFormatChunk: "\(path): the WAV file has no fmt chunk, so its sample format is unknown"
        case .formatChunkTooShort(let size, let required):
            "\(path): the fmt chunk is only \(size) bytes long; at least \(required) are needed to describe the sample format"
        case .missingDataChunk: "\(path): the WAV file has no data chunk (it holds no audio)"
        case .truncatedData(let present, let declared):
            "\(path): the file is truncated: only \(present) of the \(declared) bytes of audio its data chunk declares are present (cut off while being written or copied?)"
        case .inconsistentBlockAlign(let declared, let expected, let channels, let bits):
            "\(path): the fmt chunk is inconsistent: block align is \(declared) bytes, but \(channels) channel(s) of \(bits)-bit samples need \(expected)"
        case .invalidSampleRate(let rate):
            "\(path): the fmt chunk declares a sample rate of \(rate) Hz; expected \(Self.plausibleSampleRates.lowerBound) to \(Self.plausibleSampleRates.upperBound) Hz"
        case .unsupportedEncoding(let tag):
            "\(path): unsupported audio encoding \(tag); only PCM and IEEE float WAV can be read, \(Self.conversionHint)"
        case .unsupportedChannelCount(let channels):
            "\(path): unsupported channel count \(channels); only mono and stereo can be read, \(Self.conversionHint)"
        case .unsupportedBitDepth(let bits, let encoding):
            "\(path): unsupported bit depth: \(bits)-bit \(encoding); readable are 1- to 32-bit PCM and 32- or 64-bit float, \(Self.conversionHint)"
        case .truncated(let what): "\(path): the file is truncated: \(what)"
        case .corrupt(let what): "\(path): the file is corrupt: \(what)"
        case .unsupported(let what): "\(path): unsupported audio format: \(what)"
        }
    }
}
