#include <pocketsphinx.h>

// cmd_ln_init is variadic, which Swift cannot call, and cmd_ln_parse_r keeps pointers into the
// caller's argv; this fixes cmd_ln_init's arguments instead, so the config copies and owns every
// string. Returns NULL if pocketsphinx refuses an argument. Free with cmd_ln_free_r.
static inline cmd_ln_t *earshot_ps_config(const char *hmm, const char *lm, const char *dict,
                                          const char *logfn) {
    return cmd_ln_init(NULL, ps_args(), 1, "-hmm", hmm, "-lm", lm, "-dict", dict, "-logfn", logfn,
                       (const char *)NULL);
}
