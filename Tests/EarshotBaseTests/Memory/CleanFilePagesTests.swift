import EarshotBase
import Testing

struct ReadOnlyMappingsTests {
    static let smaps = """
        55d0a0000000-55d0a0400000 r--p 00000000 fd:01 1234                       /usr/bin/earshotd
        Size:               4096 kB
        Rss:                1964 kB
        Private_Dirty:         0 kB
        Anonymous:             0 kB
        VmFlags: rd mr mw me dw sd
        55d0a0400000-55d0a1000000 r-xp 00400000 fd:01 1234                       /usr/bin/earshotd
        Rss:                6352 kB
        Private_Dirty:         0 kB
        Anonymous:             0 kB
        55d0a1000000-55d0a1200000 r--p 01000000 fd:01 1234                       /usr/bin/earshotd
        Rss:                 900 kB
        Private_Dirty:       900 kB
        Anonymous:           900 kB
        55d0a1200000-55d0a1300000 rw-p 01200000 fd:01 1234                       /usr/bin/earshotd
        Rss:                1028 kB
        Anonymous:          1028 kB
        55d0a1300000-55d0a1400000 rw-p 00000000 00:00 0 
        Rss:                 400 kB
        Anonymous:           400 kB
        7f0000000000-7f0000100000 r--s 00000000 00:1a 77                         /dev/shm/pulse-shm-1
        Rss:                  64 kB
        Anonymous:             0 kB
        7f0000100000-7f0000200000 r-xp 00000000 fd:01 99                         /usr/lib/libold.so (deleted)
        Rss:                  64 kB
        Anonymous:             0 kB
        7f0000200000-7f0000300000 r-xp 00000000 fd:01 98                         /usr/lib/x86_64-linux-gnu/libc.so.6
        Rss:                1176 kB
        Anonymous:             0 kB
        7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   8 kB
        Anonymous:             0 kB
        """

    @Test func keepsOnlyCleanReadOnlyPrivateFileMappings() {
        let mappings = ReadOnlyMappings(smaps: Self.smaps).mappings
        #expect(mappings.map(\.path) == ["/usr/bin/earshotd", "/usr/bin/earshotd", "/usr/lib/x86_64-linux-gnu/libc.so.6"])
        #expect(mappings.map(\.start) == [0x55d0_a000_0000, 0x55d0_a040_0000, 0x7f00_0020_0000])
        #expect(mappings.map(\.end) == [0x55d0_a040_0000, 0x55d0_a100_0000, 0x7f00_0030_0000])
        #expect(ReadOnlyMappings(smaps: Self.smaps).residentKilobytes == 1964 + 6352 + 1176)
    }

    @Test func aMappingWithPrivateCopiesIsKept() {
        let relocated = """
            7f0000000000-7f0000100000 r--p 00000000 fd:01 5                          /usr/lib/libswiftCore.so
            Rss:                 120 kB
            Private_Dirty:       120 kB
            Anonymous:           120 kB
            """
        #expect(ReadOnlyMappings(smaps: relocated).mappings.isEmpty)
    }

    @Test func nothingReadableYieldsNoMappings() {
        #expect(ReadOnlyMappings(smaps: "").mappings.isEmpty)
        #expect(ReadOnlyMappings(smaps: "not smaps at all\nRss: 5 kB\n").mappings.isEmpty)
    }
}

/// The release in this very process: what it unmaps falls out of the resident set, and the code
/// that runs next (this test's own) is mapped again and runs.
struct CleanFilePagesTests {
    @Test func releasedMappingsLeaveTheResidentSetAndStillRun() throws {
        let released = try CleanFilePages.release()
        #expect(released.mappings > 0)
        #expect(released.kilobytes > 1024, "a Swift test process has megabytes of code resident")
        let after = try TextFile.read("/proc/self/smaps", maximumBytes: 8 << 20)
        let residentAfter = ReadOnlyMappings(smaps: after).residentKilobytes
        #expect(residentAfter < released.kilobytes / 2, "\(residentAfter) KB resident again of \(released.kilobytes) KB released")
    }
}
