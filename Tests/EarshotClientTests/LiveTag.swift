import Testing

extension Tag {
    /// A suite that starts a real peer: a private sound server, `earshotd`, a speech server or a
    /// built program. `make test-pure` runs the test targets that have none.
    @Tag static var live: Self
}
