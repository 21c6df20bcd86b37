#ifndef WAYFINDER_COPENSSL_SHIM_H
#define WAYFINDER_COPENSSL_SHIM_H

// OpenSSL's libcrypto (Debian: libssl-dev), for digests, MACs and signature verification: the
// project writes no cryptography of its own. Only APIs that OpenSSL 3.0 does not deprecate are
// used (Swift reports a deprecated call as a warning, and the build treats warnings as errors).
#include <openssl/evp.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>  // EVP_PKEY_CTX_set_rsa_keygen_bits: the tests make their RSA keys

// `EVP_PKEY_PUBLIC_KEY` is a macro of other macros, which Swift does not import: the selection
// `EVP_PKEY_fromdata` takes to build a public key.
static inline int wayfinder_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }

// Names as C literals, for the calls that keep the pointer they are given: OSSL_PARAM_BLD does not
// copy a parameter's name (the array it builds points at it) nor a string value until
// OSSL_PARAM_BLD_to_param, and EVP_PKEY_CTX_new_from_name keeps the key type's name in the
// context. A Swift string bridged to C lives only for one call, too short for either.
static inline const char *wayfinder_key_type_rsa(void) { return "RSA"; }
static inline const char *wayfinder_key_type_ec(void) { return "EC"; }
static inline const char *wayfinder_param_rsa_n(void) { return OSSL_PKEY_PARAM_RSA_N; }
static inline const char *wayfinder_param_rsa_e(void) { return OSSL_PKEY_PARAM_RSA_E; }
static inline const char *wayfinder_param_group_name(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *wayfinder_param_public_key(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *wayfinder_group_p256(void) { return SN_X9_62_prime256v1; }

#endif
