/// Finds where a byte sequence stops being valid UTF-8, so the error can say where.
enum UTF8Validation {
    /// The offset of the first byte of the first invalid sequence, or `nil` when all is valid.
    static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return nil }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
