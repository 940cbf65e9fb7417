import ArgumentParser
import EarshotAudio
import Foundation

/// Opens the audio files the commands are given, turning failures into one clear line.
enum AudioInput {
    static func read(_ path: String) throws -> AudioClip {
        do {
            return try WAVFile.read(path)
        } catch {
            FileHandle.standardError.write(Data("earshot: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }
}
