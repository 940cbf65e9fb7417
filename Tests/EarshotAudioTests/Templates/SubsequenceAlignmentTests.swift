import EarshotAudio
import Foundation
import Testing

/// The alignment of a template with the newest audio: open at the start, read at the end, the
/// mean distance whatever the speaking rate.
@Suite struct SubsequenceAlignmentTests {
    /// Vectors of dimension 2 pointing at `angles` (radians), one a frame.
    static func vectors(_ angles: [Double]) -> [Float] {
        angles.flatMap { [Float(cos($0)), Float(sin($0))] }
    }

    static func feed(_ stream: [Float], to alignment: inout SubsequenceAlignment) -> [(distance: Float, frames: Int, nearest: Float)] {
        let scaled = SubsequenceAlignment.normalised(stream, dimension: 2)
        return scaled.withUnsafeBufferPointer { scaled in
            (0..<(scaled.count / 2)).map { alignment.next(scaled.baseAddress! + $0 * 2) }
        }
    }

    let template = vectors([0, 0.8, 1.6, 2.4])

    @Test func findsTheTemplateWhereverItBeginsAndReadsItAtItsEnd() {
        var alignment = SubsequenceAlignment(template: template, dimension: 2)
        let results = Self.feed(Self.vectors([3.5, 3.5, 4.2, 0, 0.8, 1.6, 2.4, 4.2]), to: &alignment)
        #expect(results[6].distance < 1e-5)
        #expect(results[6].frames == 4)
        #expect(results[5].distance > results[6].distance, "the template's end not yet reached")
        #expect(results[7].distance > results[6].distance)
    }

    @Test func aSlowerSayingIsAsClose() {
        var alignment = SubsequenceAlignment(template: template, dimension: 2)
        let results = Self.feed(Self.vectors([3.5, 0, 0, 0.8, 0.8, 1.6, 1.6, 2.4, 2.4]), to: &alignment)
        #expect(results[8].distance < 1e-5)
        #expect((7...8).contains(results[8].frames))
    }

    @Test func otherVectorsAreFar() {
        var alignment = SubsequenceAlignment(template: template, dimension: 2)
        let results = Self.feed(Self.vectors([2.4, 1.6, 0.8, 0]), to: &alignment)
        #expect(results[3].distance > 0.3)
    }

    @Test func eachFramesNearestTemplateFrameIsFoundInAnyOrder() {
        var alignment = SubsequenceAlignment(template: template, dimension: 2)
        let results = Self.feed(Self.vectors([2.4, 1.6, 0.8, 0, 3.2]), to: &alignment)
        #expect(results[0..<4].allSatisfy { $0.nearest < 1e-5 }, "the template's frames, backwards")
        #expect(results[3].distance > 0.3, "not in the template's order")
        #expect(abs(results[4].nearest - Float(1 - cos(0.8))) < 1e-4, "0.8 rad from the template's last frame")
    }

    @Test func theWholeDistanceOfTwoTakesIsSymmetricAndZeroForOne() {
        let other = Self.vectors([0, 0.7, 1.7, 2.4, 2.4])
        #expect(SubsequenceAlignment.distance(template, template, dimension: 2) < 1e-5)
        let there = SubsequenceAlignment.distance(template, other, dimension: 2)
        let back = SubsequenceAlignment.distance(other, template, dimension: 2)
        #expect(there > 0 && abs(there - back) < 1e-4)
    }

    @Test func theWholeDistanceCountsTheStartOfBoth() {
        // Open at the beginning, the extra frames in front would be skipped for nothing.
        let longer = Self.vectors([3.5, 3.5, 3.5, 0, 0.8, 1.6, 2.4])
        #expect(SubsequenceAlignment.distance(template, longer, dimension: 2) > 0.1)
    }
}
