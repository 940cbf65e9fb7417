import EarshotSpeech

/// Small limits so the fuzzer reaches them; every event decoded must survive being encoded and
/// decoded again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWyomingFrameDecoder(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let first = bytes.first else { return 0 }
    let limits = WyomingFrameLimits(maximumHeaderLength: 512, maximumDataLength: 1024, maximumPayloadLength: 4096)
    var decoder = WyomingFrameDecoder(limits: limits)
    let cut = 1 + Int(first) % bytes.count
    var events: [WyomingEvent] = []
    do {
        decoder.append(bytes[1..<max(1, cut)])
        while let event = try decoder.next() { events.append(event) }
        decoder.append(bytes[max(1, cut)...])
        while let event = try decoder.next() { events.append(event) }
        try decoder.finish()
    } catch {}
    for event in events {
        var again = WyomingFrameDecoder()
        again.append(event.encoded())
        let decoded: WyomingEvent?
        do {
            decoded = try again.next()
        } catch {
            fatalError("an encoded event is refused: \(error)")
        }
        precondition(decoded == event, "an event encoded and decoded again differs")
    }
    return 0
}
