/// Why `earshot record` could not record, in words.
struct RecordingError: Error, CustomStringConvertible {
    var description: String
}
