import ArgumentParser
import EarshotAudio
import EarshotRecordings
import Foundation

/// Opens the audio files the commands are given, turning failures into one clear line.
enum AudioInput {
    static func read(_ path: String) throws -> AudioClip {
        do {
            return try isOpus(path) ? OpusFile.read(path) : WAVFile.read(path)
        } catch {
            FileHandle.standardError.write(Data("earshot: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }

    /// The pieces of one recording, joined in order into one clip: each piece is converted to
    /// 16 kHz mono, then its samples follow the previous piece's, so a cut inside a frame is
    /// mended and the stream is the whole recording's.
    static func read(pieces paths: [String]) throws -> AudioClip {
        guard paths.count > 1 else { return try read(paths[0]) }
        var joined = AudioClip(samples: [])
        for path in paths { joined.samples += try read(path).samples }
        return joined
    }

    /// Ogg's "OggS" magic decides; failing that (too short, unreadable), a `.opus`, `.ogg` or `.oga` name
    /// does, unless the file is plainly RIFF, so a WAV misnamed `.opus` still plays.
    private static func isOpus(_ path: String) -> Bool {
        let magic = leadingBytes(path)
        if magic == Data("OggS".utf8) { return true }
        if magic == Data("RIFF".utf8) { return false }
        return ["opus", "ogg", "oga"].contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    private static func leadingBytes(_ path: String) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)) ?? Data()
    }
}
