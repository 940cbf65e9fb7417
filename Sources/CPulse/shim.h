#include <pulse/pulseaudio.h>

// The mainloop API is a table of C function pointers; these wrap the three Earshot needs so Swift
// calls plain functions.

/// A one-shot timer on the mainloop's thread, firing `delay` microseconds from now.
static inline pa_time_event *earshot_timer_new(pa_threaded_mainloop *mainloop, pa_usec_t delay,
                                               pa_time_event_cb_t callback, void *userdata) {
    pa_mainloop_api *api = pa_threaded_mainloop_get_api(mainloop);
    struct timeval when;
    pa_timeval_add(pa_gettimeofday(&when), delay);
    return api->time_new(api, &when, callback, userdata);
}

/// Sets a timer made by `earshot_timer_new` to fire again, `delay` microseconds from now.
static inline void earshot_timer_restart(pa_threaded_mainloop *mainloop, pa_time_event *timer, pa_usec_t delay) {
    pa_mainloop_api *api = pa_threaded_mainloop_get_api(mainloop);
    struct timeval when;
    pa_timeval_add(pa_gettimeofday(&when), delay);
    api->time_restart(timer, &when);
}

/// Frees a timer made by `earshot_timer_new`, fired or not.
static inline void earshot_timer_free(pa_threaded_mainloop *mainloop, pa_time_event *timer) {
    pa_mainloop_api *api = pa_threaded_mainloop_get_api(mainloop);
    api->time_free(timer);
}
