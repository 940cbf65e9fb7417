import EarshotConversation
import EarshotSpeech

/// Two voices to look names up in, so scripts naming a voice get past the lookup.
private let knownVoices: [Voice] = [
    #"name = "Sky"\#n[flite]\#nvoice = "slt"\#n"#,
    #"name = "Ember"\#n[espeak-ng]\#nvoice = "en-us"\#n"#,
].enumerated().compactMap { index, text in try? VoiceFile.parse(text, file: "voice\(index).toml") }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConversationScript(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? ConversationScript.parse(text, file: "fuzz.conversation.toml", voices: knownVoices, defaultVoice: knownVoices.first)
    return 0
}
