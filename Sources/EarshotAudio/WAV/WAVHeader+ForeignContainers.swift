extension WAVHeader {
    /// Names the kind of file when it is a known non-WAV audio container, so the message can say what it is.
    static func foreignContainer(in bytes: UnsafeRawBufferPointer) -> String? {
        if bytes.matches("RIFX", at: 0) { return "a big-endian (RIFX) WAV file" }
        if bytes.matches("RF64", at: 0) || bytes.matches("BW64", at: 0) { return "an RF64 (64-bit WAV) file" }
        if bytes.matches("RIFF", at: 0) {
            return bytes.matches("AVI ", at: 8) ? "an AVI video" : "a RIFF file that is not WAVE"
        }
        if bytes.matches("FORM", at: 0) { return "an AIFF file" }
        if bytes.matches("fLaC", at: 0) { return "a FLAC file" }
        if bytes.matches("OggS", at: 0) { return "an Ogg (Vorbis/Opus) file" }
        if bytes.matches("caff", at: 0) { return "a Core Audio (CAF) file" }
        if bytes.matches("ftyp", at: 4) { return "an MP4/M4A file" }
        if bytes.matches("ID3", at: 0) { return "an MP3 file" }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 { return "an MP3/MPEG audio file" }
        if bytes.count >= 4, bytes[0] == 0x1A, bytes[1] == 0x45, bytes[2] == 0xDF, bytes[3] == 0xA3 {
            return "a Matroska/WebM file"
        }
        return nil
    }
}
