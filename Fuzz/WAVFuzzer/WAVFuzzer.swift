import EarshotAudio

private let commonRates: Set<Int> = [8_000, 11_025, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 96_000]

/// Whatever decodes must agree with its own header: the mono samples at the file's rate are as
/// many as the header's sample frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWAVFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard let header = try? WAVFile.format(of: bytes, path: "fuzz.wav") else {
        _ = try? WAVFile.decode(bytes, path: "fuzz.wav")
        return 0
    }
    do {
        let mono = try WAVFile.decodeMono(bytes, path: "fuzz.wav")
        precondition(mono.samples.count == header.frameCount, "decoded \(mono.samples.count) frames, the header says \(header.frameCount)")
        // Resampling is not the parser, and from an odd rate (567,426 Hz) it builds a filter bank
        // that takes 100 ms even for a few samples: only short inputs at common rates take the
        // whole path, or the fuzzer runs a few hundred inputs a second.
        if header.frameCount <= 256 && commonRates.contains(header.format.sampleRate) {
            _ = try WAVFile.decode(bytes, path: "fuzz.wav")
        }
    } catch {
        fatalError("the header was read but the samples were refused: \(error)")
    }
    return 0
}
