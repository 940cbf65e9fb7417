import ArgumentParser
import EarshotConversation
import EarshotVoices
import Foundation

extension ReplayCommand {
    /// The conversation script to replay with: `--script`, else the one beside the recording if
    /// there is one, never with `--no-script`. A script that cannot be used gets its problems on
    /// stderr, one a line with file and line, and exit status 2.
    func conversationScript() throws -> ConversationScript? {
        guard !noScript else { return nil }
        let path: String
        if let script {
            path = script
        } else {
            let companion = ConversationScript.companionPath(forRecording: file)
            guard FileManager.default.fileExists(atPath: companion) else { return nil }
            path = companion
        }
        let catalog = VoiceCatalog.load()
        do {
            return try ConversationScript.read(path: path, voices: catalog.voices, defaultVoice: catalog.defaultVoice)
        } catch {
            FileHandle.standardError.write(Data("\(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }
}
