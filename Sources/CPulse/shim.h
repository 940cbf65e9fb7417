#include <pulse/pulseaudio.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>

// The mainloop API is a table of C function pointers; these wrap the three Earshot needs so Swift
// calls plain functions.

/// A one-shot timer on the mainloop's thread, firing `delay` microseconds from now.
static inline pa_time_event *earshot_timer_new(pa_mainloop_api *api, pa_usec_t delay,
                                               pa_time_event_cb_t callback, void *userdata) {
    struct timeval when;
    pa_timeval_add(pa_gettimeofday(&when), delay);
    return api->time_new(api, &when, callback, userdata);
}

/// Sets a timer made by `earshot_timer_new` to fire again, `delay` microseconds from now.
static inline void earshot_timer_restart(pa_mainloop_api *api, pa_time_event *timer, pa_usec_t delay) {
    struct timeval when;
    pa_timeval_add(pa_gettimeofday(&when), delay);
    api->time_restart(timer, &when);
}

/// Frees a timer made by `earshot_timer_new`, fired or not.
static inline void earshot_timer_free(pa_mainloop_api *api, pa_time_event *timer) {
    api->time_free(timer);
}

// For Earshot's own mainloop (`PulseMainloop`): calls the Glibc module leaves out.

/// A non-blocking, close-on-exec eventfd, or -1 with errno set.
static inline int earshot_wake_descriptor(void) {
    return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/// Names the calling thread (at most 15 bytes are kept), as `ps -L` and `/proc/…/task/…/comm` show it.
static inline void earshot_name_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long) name, 0, 0, 0);
}
