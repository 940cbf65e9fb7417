#include <pocketsphinx.h>

// A configuration for `hmm`, `lm` and `dict`, logging to `logfn`; NULL if pocketsphinx refuses
// a value. The config copies every string. Free with ps_config_free (the decoder keeps its own
// reference). At most 10000 HMMs are kept active per frame (pocketsphinx allows 30000): in babble
// at 5 dB the search otherwise spreads until decoding is slower than real time (24.5 s of CPU for
// turns-dev-2's 18 s babble scene, 15.9 s with the bound), while vad-dev's voices decode word for
// word the same (6000 halves it, but changes words and a turn). The second pass (fwdflat) runs
// when the utterance ends, so the person waits for it; it looks for each word's successors within
// 5 frames of its end (pocketsphinx: 25), which about halves that wait (turns-dev-2's noisy turns:
// 615 → 324 ms median, 1274 → 529 p90) with both turn sets decided the same at `medium` and
// vad-dev's words as good (without the pass: no wait, but a turn cut off in babble).
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
    if (ps_config_set_int(config, "maxhmmpf", 10000) == NULL
        || ps_config_set_int(config, "fwdflatsfwin", 5) == NULL) {
        ps_config_free(config);
        return NULL;
    }
    return config;
}

// log10 of the probability, by the decoder's current language model, that a sentence ends after
// `last` (preceded by `before`, which may be NULL); 1 (no probability) when the current search has
// no n-gram model. Like every lookup on the decoder, call it from the decoder's own thread: the
// model caches the last history it looked up.
static inline double earshot_ps_sentence_end(ps_decoder_t *ps, const char *before, const char *last) {
    ngram_model_t *lm = ps_get_lm(ps, NULL);
    if (lm == NULL) return 1;
    int32 history[2] = {ngram_wid(lm, last), before != NULL ? ngram_wid(lm, before) : NGRAM_INVALID_WID};
    int32 used = 0;
    int32 score = ngram_ng_prob(lm, ngram_wid(lm, "</s>"), history, before != NULL ? 2 : 1, &used);
    return logmath_log_to_log10(ps_get_logmath(ps), score);
}

// A configuration with no search yet, for keyphrases added with ps_add_keyphrase: the acoustic
// model `hmm`, the words of `dict`, the bar `threshold` (kws_threshold: smaller finds more and
// wakes falsely more), cepstral mean normalisation `cmn` ("live", or "batch" for utterances
// decoded whole), logging to `logfn`; NULL if pocketsphinx refuses a value.
static inline ps_config_t *earshot_ps_keyphrase_config(const char *hmm, const char *dict, double threshold,
                                                       const char *cmn, const char *logfn) {
    ps_config_t *config = ps_config_init(NULL);
    if (config == NULL) return NULL;
    if (ps_config_set_str(config, "hmm", hmm) == NULL || ps_config_set_str(config, "dict", dict) == NULL
        || ps_config_set_float(config, "kws_threshold", threshold) == NULL
        || ps_config_set_str(config, "cmn", cmn) == NULL || ps_config_set_str(config, "logfn", logfn) == NULL) {
        ps_config_free(config);
        return NULL;
    }
    return config;
}
