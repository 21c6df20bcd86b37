#ifndef WAYFINDER_CZLIB_SHIM_H
#define WAYFINDER_CZLIB_SHIM_H

// zlib (Debian: zlib1g-dev; at run time zlib1g), for the gzip content coding of answers.
#include <zlib.h>

// `deflateInit2` is a macro (it passes zlib's version and the stream's size to `deflateInit2_`),
// which Swift does not import: the same call as a function. `windowBits` 9 to 15, plus 16 for a
// gzip wrapper (RFC 1952) instead of a zlib one.
static inline int wayfinder_deflate_init2(z_stream *stream, int level, int windowBits, int memLevel) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

#endif
