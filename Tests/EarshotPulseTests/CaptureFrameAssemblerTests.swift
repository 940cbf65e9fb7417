import EarshotAudio
@testable import EarshotPulse
import Testing

@Suite("Cutting the capture stream into frames")
struct CaptureFrameAssemblerTests {
    static func bytes(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { sample in
            let bits = UInt16(bitPattern: sample)
            return [UInt8(bits & 0xff), UInt8(bits >> 8)]
        }
    }

    /// Fragments of any size, even splitting a sample in two, make the same frames.
    @Test(arguments: [320, 1, 7, 161, 333, 1000])
    func fragmentsOfAnySizeMakeExactFrames(fragmentSize: Int) {
        let ring = FrameRing(capacity: 16)
        let assembler = CaptureFrameAssembler(ring: ring)
        let samples = (0..<800).map { Int16(truncatingIfNeeded: $0 * 97 - 20_000) }
        let stream = Self.bytes(samples)
        var completed = 0
        for start in stride(from: 0, to: stream.count, by: fragmentSize) {
            let fragment = Array(stream[start..<min(start + fragmentSize, stream.count)])
            completed += fragment.withUnsafeBytes { assembler.append($0) }
        }
        #expect(completed == 5)
        for index in 0..<5 {
            let frame = ring.pop()
            #expect(frame?.index == index)
            for i in 0..<160 {
                #expect(frame?.samples[i] == Float(samples[index * 160 + i]) / 32768)
            }
        }
        #expect(ring.pop() == nil)
        #expect(assembler.holeFrameCount == 0)
    }

    @Test func holesBecomeCountedSilence() {
        let ring = FrameRing(capacity: 8)
        let assembler = CaptureFrameAssembler(ring: ring)
        let loud = Self.bytes(Array(repeating: 16_384, count: 100))
        #expect(loud.withUnsafeBytes { assembler.append($0) } == 0)
        // 100 loud samples, then a hole of 300 samples: frames 0 and 1 both touch the hole.
        #expect(assembler.appendHole(byteCount: 600) == 2)
        #expect(assembler.holeFrameCount == 2)
        let first = ring.pop()
        #expect(first?.samples[99] == 0.5)
        #expect(first?.samples[100] == 0)
        #expect(ring.pop()?.samples[159] == 0)
        #expect(Self.bytes(Array(repeating: 1, count: 120)).withUnsafeBytes { assembler.append($0) } == 1)
        #expect(assembler.holeFrameCount == 3, "the frame finished by real audio still held part of the hole")
        #expect(ring.pop()?.samples[0] == 0)
    }

    @Test func discardedPartialFrameDoesNotLeakIntoTheNextStream() {
        let ring = FrameRing(capacity: 4)
        let assembler = CaptureFrameAssembler(ring: ring)
        #expect(Self.bytes(Array(repeating: 1000, count: 50)).withUnsafeBytes { assembler.append($0) } == 0)
        assembler.discardPartialFrame()
        #expect(Self.bytes(Array(repeating: -1000, count: 160)).withUnsafeBytes { assembler.append($0) } == 1)
        let frame = ring.pop()
        #expect(frame?.index == 0)
        #expect(frame?.samples[0] == Float(-1000) / 32768)
    }
}
