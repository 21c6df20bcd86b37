#!/usr/bin/env python3
"""The benchmarks' identity provider: HS256 JWTs the servers under test are configured to trust.

  jwt.py flags WORKDIR     writes the secret into WORKDIR and prints the server's --jwt-* flags
  jwt.py tokens N OUT      writes N tokens of distinct users (bench0@example.com, ...) to OUT
"""
import base64, hashlib, hmac, json, sys, time

SECRET = b"the benchmarks' identity provider secret, 32+ bytes"
ISSUER = "https://id.bench.test"
AUDIENCE = "wayfinder-bench"


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def token(user, lifetime=24 * 3600):
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": user, "email": user, "iat": now - 5, "exp": now + lifetime}
    signing_input = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + _b64(json.dumps(claims).encode())
    return signing_input + "." + _b64(hmac.new(SECRET, signing_input.encode(), hashlib.sha256).digest())


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "flags":
        path = sys.argv[2] + "/jwt-secret"
        with open(path, "wb") as f:
            f.write(SECRET)
        print(f"--jwt-issuer {ISSUER} --jwt-audience {AUDIENCE} --jwt-secret-file {path}")
    elif len(sys.argv) == 4 and sys.argv[1] == "tokens":
        with open(sys.argv[3], "w") as f:
            for i in range(int(sys.argv[2])):
                f.write(token(f"bench{i}@example.com") + "\n")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
