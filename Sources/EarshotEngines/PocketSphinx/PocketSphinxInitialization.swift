import CPocketSphinx
import Synchronization

/// Makes pocketsphinx decoders one at a time. `ps_init` points the library's one global log at
/// the configured file and closes the file it pointed at before: two decoders made at once (the
/// transcriber's and the wake phrase spotter's) closed the same `FILE` twice, and a test run hung
/// in glibc's stream list.
enum PocketSphinxInitialization {
    private static let lock = Mutex(())

    static func makeDecoder(_ config: OpaquePointer) -> OpaquePointer? {
        // Addresses cross the lock's closure: the pointers are not `Sendable`, the caller keeps both.
        let configAddress = UInt(bitPattern: config)
        let decoderAddress = lock.withLock { _ in
            ps_init(OpaquePointer(bitPattern: configAddress)).map { UInt(bitPattern: $0) }
        }
        return decoderAddress.flatMap { OpaquePointer(bitPattern: $0) }
    }
}
