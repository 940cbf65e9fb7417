import CPocketSphinx
import EarshotBase

/// Makes pocketsphinx decoders one at a time. `ps_init` is not safe to run on two threads at once
/// (it points the library's one global log at the configured file): two decoders made together
/// (the transcriber's and the wake phrase spotter's) left one thread closing a `FILE` while the
/// other opened one at the same address, and a test run hung on glibc's lock of its stream list.
enum PocketSphinxInitialization {
    private static let lock = Locked(())

    static func makeDecoder(_ config: OpaquePointer) -> OpaquePointer? {
        // Addresses cross the lock's closure: the pointers are not `Sendable`, the caller keeps both.
        let configAddress = UInt(bitPattern: config)
        let decoderAddress = lock.withLock { _ in
            ps_init(OpaquePointer(bitPattern: configAddress)).map { UInt(bitPattern: $0) }
        }
        return decoderAddress.flatMap { OpaquePointer(bitPattern: $0) }
    }
}
