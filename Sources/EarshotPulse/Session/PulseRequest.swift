import CPulse

/// Something waiting on a libpulse operation. libpulse holds one retain on it from the moment the
/// operation is issued until the operation ends, however it ends: done, or cancelled because the
/// context went away (then `operationEnded` is the only call it gets).
class PulseRequest {
    /// Called on the mainloop thread once the operation is over.
    func operationEnded() {}

    /// Issues an operation through `issue`, which must pass the userdata it is given to libpulse.
    /// Returns false when libpulse refused to start it (nothing was retained then).
    final func issue(_ issue: (UnsafeMutableRawPointer) -> OpaquePointer?) -> Bool {
        let userdata = Unmanaged.passRetained(self).toOpaque()
        guard let operation = issue(userdata) else {
            Unmanaged<PulseRequest>.fromOpaque(userdata).release()
            return false
        }
        pa_operation_set_state_callback(operation, { operation, userdata in
            guard let operation, let userdata, pa_operation_get_state(operation) != PA_OPERATION_RUNNING else { return }
            let request = Unmanaged<PulseRequest>.fromOpaque(userdata)
            request.takeUnretainedValue().operationEnded()
            request.release()
        }, userdata)
        pa_operation_unref(operation)
        return true
    }
}
