import EarshotBase
import Foundation
import Testing

/// Reading a TOML file whole: its text, or why not, before anything large is read.
@Suite struct TextFileTests {
    let directory = NSTemporaryDirectory() + "earshot-toml-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func readsTextEmptyFilesAndRefusesTheRest() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try TextFile.read(try write("a.toml", Array("a = 1\n".utf8)), maximumBytes: 100) == "a = 1\n")
        #expect(try TextFile.read(try write("empty.toml", []), maximumBytes: 100) == "")
        // Exactly at the limit is allowed; one byte more is not.
        #expect(try TextFile.read(try write("full.toml", Array(repeating: 0x23, count: 100)), maximumBytes: 100).count == 100)
        #expect(throws: TextFile.ReadError.tooLarge(bytes: 101, maximum: 100)) {
            try TextFile.read(try write("over.toml", Array(repeating: 0x23, count: 101)), maximumBytes: 100)
        }
        #expect(throws: TextFile.ReadError.notUTF8) { try TextFile.read(try write("junk.toml", [0x61, 0xFF, 0xFE]), maximumBytes: 100) }
        #expect(throws: TextFile.ReadError.missing) { try TextFile.read(directory + "/absent.toml", maximumBytes: 100) }
        #expect(throws: TextFile.ReadError.directory) { try TextFile.read(directory, maximumBytes: 100) }
        #expect(TextFile.ReadError.tooLarge(bytes: 2048, maximum: 1024).description == "it is 2 KiB, larger than the 1 KiB allowed")
    }
}
