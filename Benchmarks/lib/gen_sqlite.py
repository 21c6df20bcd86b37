#!/usr/bin/env python3
"""Adds N sessions straight into a Wayfinder SQLite database that the server made.

Copies a real row written by the server (its state blob, revision) and changes only what is
per-session: the id (inside the state bytes too) and the token hash (SHA-256 of a fresh random
token, as Credentials.hash). last_used is now; a new session's journal is empty (schema version 3
keeps each session's journal window in its row: NULL is an empty one). Triggers in the server's
schema keep the `counters` row exact. Writes `id token` lines for every SAMPLE-th new session to
--tokens-out.
"""
import argparse, base64, hashlib, os, sqlite3, sys, time

def b64url(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--db", required=True)
    p.add_argument("--add", type=int, required=True)
    p.add_argument("--tokens-out", required=True)
    p.add_argument("--sample-every", type=int, default=200)
    a = p.parse_args()

    db = sqlite3.connect(a.db, isolation_level=None)
    version = db.execute("PRAGMA user_version").fetchone()[0]
    # The versions whose `sessions` rows this writes as the server does (SQLiteSchema.swift).
    if version not in (1, 2, 3):
        sys.exit(f"gen_sqlite: schema version {version}, expected 1, 2 or 3 (server-made database)")
    tid, revision, state = db.execute("SELECT id, revision, state FROM sessions ORDER BY rowid LIMIT 1").fetchone()
    state = bytes(state)
    needle = tid.encode()
    occurrences = state.count(needle)
    # The stored state does not repeat the id (it is the row's key); if a format ever does, the
    # copies get their own id there too.
    if len(tid) != 22:
        sys.exit(f"gen_sqlite: template id {tid!r} is not a session id")
    before = db.execute("SELECT value FROM counters WHERE name = 'sessions'").fetchone()[0]
    now = int(time.time() * 1000)
    start = time.monotonic()
    db.execute("PRAGMA cache_size = -262144")
    db.execute("BEGIN")
    out = open(a.tokens_out, "w")

    def rows():
        for i in range(a.add):
            sid = b64url(os.urandom(16))
            token = b64url(os.urandom(32))
            if i % a.sample_every == 0:
                out.write(f"{sid} {token}\n")
            yield (sid, hashlib.sha256(token.encode()).digest(), revision,
                   state.replace(needle, sid.encode()), now)

    db.executemany("INSERT INTO sessions (id, token_hash, revision, state, last_used) VALUES (?, ?, ?, ?, ?)", rows())
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    out.close()
    after = db.execute("SELECT value FROM counters WHERE name = 'sessions'").fetchone()[0]
    db.close()
    print(f"gen_sqlite: template {len(state)} bytes of state ({occurrences} id occurrence(s)); sessions "
          f"{before} -> {after}; {a.add} rows in {time.monotonic() - start:.1f} s; "
          f"file {os.path.getsize(a.db) / 2**20:.0f} MiB", file=sys.stderr)
    if after != before + a.add:
        sys.exit("gen_sqlite: counter mismatch")

if __name__ == "__main__":
    main()
