import EarshotSpeech

/// A chat completion stream arrives in two reads, cut where the first byte says; its words go
/// through the sentence splitter and the markdown cleanup, as the assistant speaks them. The
/// reads are arrays, as in ServerSentEventsFuzzer (a slice goes through `read` unspecialized).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenAIChatStream(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    var reader = OpenAIChatStreamReader(maximumEventBytes: 1024)
    var splitter = SentenceSplitter(maximumLength: 40)
    var markdown = SpokenMarkdown()
    let cut = 1 + Int(first) % bytes.count
    var pieces: [String] = []
    do {
        pieces += splitter.append(try reader.read(Array(bytes[1..<max(1, cut)])))
        pieces += splitter.append(try reader.read(Array(bytes[max(1, cut)...])))
        try reader.finish()
    } catch {}
    pieces += splitter.finish()
    for piece in pieces { _ = markdown.speakable(piece) }
    return 0
}
