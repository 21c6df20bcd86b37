#ifndef WAYFINDER_COPENSSL_SHIM_H
#define WAYFINDER_COPENSSL_SHIM_H

// OpenSSL's libcrypto (Debian: libssl-dev), for digests: the project writes no cryptography of
// its own.
#include <openssl/evp.h>

#endif
