import EarshotSpeech

/// The stream arrives in two reads, cut where the first byte says; each event is read as a
/// transcription event. The reads are arrays: a slice of the fuzzer's buffer goes through the
/// reader's generic `read` unspecialized and runs several times slower, for nothing more found.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerSentEvents(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    var reader = ServerSentEventReader(maximumEventBytes: 1024)
    let cut = 1 + Int(first) % bytes.count
    var events: [ServerSentEvent] = []
    do {
        events += try reader.read(Array(bytes[1..<max(1, cut)]))
        events += try reader.read(Array(bytes[max(1, cut)...]))
    } catch {}
    for event in events { _ = OpenAITranscriptionEvent(event) }
    return 0
}
