#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The short sounds that mark entering and leaving voice mode, generated rather than shipped.
///
/// Each cue is two soft notes a fourth apart (rising to enter, falling to leave), about 150 ms at
/// 16 kHz: a sine with a little second harmonic for warmth, a raised-cosine attack so it does not
/// click, and an exponential release that overlaps the next note.
public enum Cue {
    /// Rising: "listening now".
    public static let enter: [Float] = twoNotes(first: 659.26, second: 880.0)
    /// Falling: "no longer listening".
    public static let leave: [Float] = twoNotes(first: 880.0, second: 659.26)
    /// Rising, higher: "I heard the wake phrase; go on".
    public static let wake: [Float] = twoNotes(first: 880.0, second: 1174.66)

    /// Peak amplitude of a cue: clearly audible without startling (about -10 dBFS).
    public static let peak: Float = 0.3

    static let sampleRate = Double(AudioFrame.sampleRate)
    static let noteSeconds = 0.075
    static let attackSeconds = 0.008
    /// The first note rings on under the second for this long.
    static let overlapSeconds = 0.015

    /// Two notes at `first` and `second` hertz, back to back with a short overlap.
    public static func twoNotes(first: Double, second: Double) -> [Float] {
        let noteLength = Int(noteSeconds * sampleRate)
        let secondStart = noteLength - Int(overlapSeconds * sampleRate)
        var samples = [Float](repeating: 0, count: secondStart + noteLength)
        addNote(frequency: first, into: &samples, at: 0, length: noteLength)
        addNote(frequency: second, into: &samples, at: secondStart, length: noteLength)
        let loudest = samples.reduce(0) { max($0, abs($1)) }
        return loudest > 0 ? samples.map { $0 * (peak / loudest) } : samples
    }

    private static func addNote(frequency: Double, into samples: inout [Float], at start: Int, length: Int) {
        let attack = attackSeconds * sampleRate
        // Decays to about -40 dB by the end of the note, then a short cosine fade reaches 0 exactly.
        let decayPerSample = log(0.01) / Double(length)
        let fadeLength = Int(0.005 * sampleRate)
        for offset in 0..<length {
            let time = Double(offset) / sampleRate
            let phase = 2 * Double.pi * frequency * time
            let tone = sin(phase) + 0.25 * sin(2 * phase)
            var envelope = exp(decayPerSample * Double(offset))
            if Double(offset) < attack {
                envelope *= 0.5 - 0.5 * cos(Double.pi * Double(offset) / attack)
            }
            let remaining = length - offset
            if remaining < fadeLength {
                envelope *= 0.5 - 0.5 * cos(Double.pi * Double(remaining) / Double(fadeLength))
            }
            samples[start + offset] += Float(tone * envelope)
        }
    }
}
