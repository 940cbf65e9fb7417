import EarshotRecordings

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpusFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? OpusFile.decode(Array(UnsafeBufferPointer(start: start, count: count)), path: "fuzz.opus")
    return 0
}
