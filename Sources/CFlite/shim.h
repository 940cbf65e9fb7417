#include <flite/flite.h>

// flite keeps a feature's name pointer without copying it, so names must outlive the voice:
// string literals, which Swift cannot pass. These set the features Earshot uses.

/// Streams the voice's audio through `info` (which the voice's features then own).
static inline void earshot_flite_set_streaming(cst_voice *voice, cst_audio_streaming_info *info) {
    flite_feat_set(voice->features, "streaming_info", audio_streaming_info_val(info));
}

/// Above 1 speaks slower; `pitch_hz` is the mean pitch the intonation aims for.
static inline void earshot_flite_set_prosody(cst_voice *voice, float duration_stretch, float pitch_hz) {
    flite_feat_set_float(voice->features, "duration_stretch", duration_stretch);
    flite_feat_set_float(voice->features, "int_f0_target_mean", pitch_hz);
}
