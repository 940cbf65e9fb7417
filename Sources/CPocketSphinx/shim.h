#include <pocketsphinx.h>

// A configuration for `hmm`, `lm` and `dict`, logging to `logfn`; NULL if pocketsphinx refuses
// a value. The config copies every string. Free with ps_config_free (the decoder keeps its own
// reference).
static inline ps_config_t *earshot_ps_config(const char *hmm, const char *lm, const char *dict,
                                             const char *logfn) {
    ps_config_t *config = ps_config_init(NULL);
    if (config == NULL) return NULL;
    if (ps_config_set_str(config, "hmm", hmm) == NULL || ps_config_set_str(config, "lm", lm) == NULL
        || ps_config_set_str(config, "dict", dict) == NULL
        || ps_config_set_str(config, "logfn", logfn) == NULL) {
        ps_config_free(config);
        return NULL;
    }
    return config;
}
