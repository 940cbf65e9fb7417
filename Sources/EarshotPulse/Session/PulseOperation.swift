import CPulse

/// Helpers for `pa_operation` handles the engine does not wait on.
enum PulseOperation {
    /// Drops the caller's reference to a fire-and-forget operation (libpulse keeps its own until
    /// the operation is over).
    static func release(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }
}
