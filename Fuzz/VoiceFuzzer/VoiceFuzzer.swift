import EarshotSpeech

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVoiceFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? VoiceFile.parse(text, file: "fuzz.toml")
    return 0
}
