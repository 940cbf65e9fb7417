extension SentenceSplitter {
    /// What the scan found at one position of the pending text.
    enum Boundary: Equatable {
        /// No sentence ends here; scanning continues at `next`.
        case within(next: Int)
        /// A sentence ends before `end`.
        case after(end: Int)
        /// A sentence may end here, but only text still to come can tell.
        case undecided
    }
}
