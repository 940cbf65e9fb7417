import COpus
public import EarshotAudio

/// Reads and writes Ogg Opus files through Xiph's libopusfile and libopusenc.
/// Anything read comes back as 16 kHz mono, like `WAVFile`.
public enum OpusFile {
    /// Opus always decodes at 48 kHz, whatever rate the file was made from.
    static let decodingRate = 48_000

    /// Decodes the Ogg Opus file at `path` to a 16 kHz mono clip (channels averaged).
    ///
    /// A file cut off mid-stream decodes up to its last complete Ogg page, as a recording
    /// interrupted while being written still holds useful audio.
    public static func read(_ path: String) throws(AudioFileError) -> AudioClip {
        try OpusFileProbe.checkReadable(path)
        var code: Int32 = 0
        guard let file = op_open_file(path, &code) else {
            throw AudioFileError(path: path, problem: OpusFileProbe.openProblem(code, path: path))
        }
        defer { op_free(file) }
        return try decodeOpened(file, path: path)
    }

    /// Decodes an Ogg Opus file held in memory, like `read(_:)`; `path` only names it in errors.
    public static func decode(_ bytes: [UInt8], path: String) throws(AudioFileError) -> AudioClip {
        if bytes.isEmpty { throw AudioFileError(path: path, problem: .empty) }
        return try bytes.withUnsafeBufferPointer { buffer throws(AudioFileError) in
            var code: Int32 = 0
            guard let file = op_open_memory(buffer.baseAddress, buffer.count, &code) else {
                throw AudioFileError(path: path, problem: OpusFileProbe.openProblem(code, leadingBytes: Array(buffer.prefix(36))))
            }
            defer { op_free(file) }
            return try decodeOpened(file, path: path)
        }
    }

    private static func decodeOpened(_ file: OpaquePointer, path: String) throws(AudioFileError) -> AudioClip {
        var mono: [Float] = []
        // 120 ms at 48 kHz, the longest Opus frame, for up to 8 channels.
        var buffer = [Float](repeating: 0, count: 5_760 * 8)
        while true {
            var link: Int32 = 0
            let frames = buffer.withUnsafeMutableBufferPointer { pcm in
                op_read_float(file, pcm.baseAddress, Int32(pcm.count), &link)
            }
            if frames == 0 { break }
            // A hole is a gap in the stream (lost or corrupt pages); decoding carries on after it.
            if frames == OP_HOLE { continue }
            if frames < 0 { throw AudioFileError(path: path, problem: OpusFileProbe.decodeProblem(frames)) }
            let channels = Int(op_channel_count(file, link))
            appendMono(buffer, frames: Int(frames), channels: channels, to: &mono)
        }
        return AudioClip(samples: Resampler.resample(mono, from: decodingRate, to: AudioFrame.sampleRate))
    }

    /// Writes `clip` (16 kHz mono) as Ogg Opus at `bitrate` bits per second.
    public static func write(_ clip: AudioClip, to path: String, bitrate: Int = 32_000) throws(AudioFileError) {
        try write(clip.samples, sampleRate: AudioFrame.sampleRate, to: path, bitrate: bitrate)
    }

    /// Writes mono `samples` at `sampleRate` as Ogg Opus at `bitrate` bits per second.
    public static func write(
        _ samples: [Float], sampleRate: Int = AudioFrame.sampleRate, to path: String, bitrate: Int = 32_000
    ) throws(AudioFileError) {
        var writer = try OpusFileWriter(path: path, sampleRate: sampleRate, bitrate: bitrate)
        try writer.append(samples)
        try writer.finish()
    }

    private static func appendMono(_ interleaved: [Float], frames: Int, channels: Int, to mono: inout [Float]) {
        if channels == 1 {
            mono.append(contentsOf: interleaved[0..<frames])
            return
        }
        let scale = 1 / Float(channels)
        mono.reserveCapacity(mono.count + frames)
        for frame in 0..<frames {
            var sum: Float = 0
            for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
            mono.append(sum * scale)
        }
    }
}
