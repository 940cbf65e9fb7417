import EarshotDaemon

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettingsFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    _ = try? SettingsFile.parse(text, file: "fuzz.toml")
    return 0
}
