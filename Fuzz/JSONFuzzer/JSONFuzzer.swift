import EarshotBase

/// Whatever parses is written back compactly and must parse again to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    _ = UTF8Validation.firstInvalidOffset(in: Array(bytes))
    guard let value = try? JSONParser.parse(bytes) else { return 0 }
    var written: [UInt8] = []
    value.write(to: &written)
    let reparsed: JSONValue
    do {
        reparsed = try JSONParser.parse(written)
    } catch {
        fatalError("the parser refuses what the writer wrote: \(error)")
    }
    precondition(reparsed == value, "a value written and parsed again differs")
    return 0
}
