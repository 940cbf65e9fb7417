extension UnsafeRawBufferPointer {
    func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// Whether the bytes at `offset` spell `ascii`; false if they run past the end.
    func matches(_ ascii: String, at offset: Int) -> Bool {
        let expected = ascii.utf8
        guard offset >= 0, offset + expected.count <= count else { return false }
        return self[offset..<offset + expected.count].elementsEqual(expected)
    }

    /// A chunk identifier for messages, with unprintable bytes escaped.
    func fourCC(at offset: Int) -> String {
        self[offset..<Swift.min(offset + 4, count)].map { byte in
            (0x20...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
        }.joined()
    }
}
