// libxcrypt (Debian: libcrypt-dev): crypt_r and crypt_gensalt_rn for slow password hashes.
#include <crypt.h>
