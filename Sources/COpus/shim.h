#include <opusfile.h>
#include <opusenc.h>

// ope_encoder_ctl is variadic, which Swift cannot call; this is the one request Earshot makes.
static inline int earshot_ope_set_bitrate(OggOpusEnc *encoder, opus_int32 bitrate) {
    return ope_encoder_ctl(encoder, OPUS_SET_BITRATE(bitrate));
}
