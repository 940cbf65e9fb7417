import EarshotAudio

/// Whatever decodes must agree with its own header: the mono samples at the file's rate are as
/// many as the header's sample frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAVFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let header = try? WAVFile.format(of: bytes, path: "fuzz.wav") else {
        _ = try? WAVFile.decode(bytes, path: "fuzz.wav")
        return 0
    }
    // Resampling a long file at an odd rate is slow and not the parser; keep inputs the fuzzer
    // can run many of per second.
    guard header.frameCount <= 1 << 16 else { return 0 }
    do {
        let mono = try WAVFile.decodeMono(bytes, path: "fuzz.wav")
        precondition(mono.samples.count == header.frameCount, "decoded \(mono.samples.count) frames, the header says \(header.frameCount)")
        _ = try WAVFile.decode(bytes, path: "fuzz.wav")
    } catch {
        fatalError("the header was read but the samples were refused: \(error)")
    }
    return 0
}
