#ifndef WAYFINDER_CHIREDIS_SHIM_H
#define WAYFINDER_CHIREDIS_SHIM_H

// hiredis (Debian: libhiredis-dev), used by WayfinderStore's RedisStore.
//
// Swift cannot call hiredis' variadic `redisCommand`; the store uses `redisCommandArgv` and
// `redisAppendCommandArgv`. These helpers hide the `struct timeval` plumbing and the fields of
// `redisContext` (whose layout differs between hiredis 0.14 and 1.x) behind functions.

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/time.h>

static inline struct timeval wf_redis_timeval(long milliseconds) {
    struct timeval tv;
    tv.tv_sec = milliseconds / 1000;
    tv.tv_usec = (milliseconds % 1000) * 1000;
    return tv;
}

/// Connects over TCP with a connect timeout, then sets the same timeout on every read and write and
/// enables TCP keep-alive. Returns NULL only when out of memory; otherwise check `wf_redis_err`.
static inline redisContext *wf_redis_connect(const char *host, int port, long timeout_ms) {
    redisContext *c = redisConnectWithTimeout(host, port, wf_redis_timeval(timeout_ms));
    if (c == NULL || c->err) {
        return c;
    }
    if (redisSetTimeout(c, wf_redis_timeval(timeout_ms)) != REDIS_OK) {
        return c;
    }
    redisEnableKeepAlive(c);
    return c;
}

static inline int wf_redis_err(const redisContext *c) { return c->err; }
static inline const char *wf_redis_errstr(const redisContext *c) { return c->errstr; }
static inline int wf_redis_fd(const redisContext *c) { return c->fd; }

/// True (1) if an idle connection has something to read or failed: for a connection with no
/// command in flight that means the server closed it (restart, timeout) or it is broken.
static inline int wf_redis_idle_connection_is_dead(const redisContext *c) {
    struct pollfd p;
    p.fd = c->fd;
    p.events = POLLIN;
    p.revents = 0;
    return poll(&p, 1, 0) != 0;
}

/// Waits up to `timeout_ms` for the connection to become readable: 1 readable, 0 timeout, -1 error.
static inline int wf_redis_wait_readable(const redisContext *c, int timeout_ms) {
    struct pollfd p;
    p.fd = c->fd;
    p.events = POLLIN;
    p.revents = 0;
    int r = poll(&p, 1, timeout_ms);
    if (r > 0 && (p.revents & (POLLERR | POLLNVAL)) && !(p.revents & POLLIN)) {
        return -1;
    }
    return r;
}

/// Writes the whole output buffer (commands queued with `redisAppendCommandArgv`).
static inline int wf_redis_flush(redisContext *c) {
    int done = 0;
    do {
        if (redisBufferWrite(c, &done) == REDIS_ERR) {
            return REDIS_ERR;
        }
    } while (!done);
    return REDIS_OK;
}

#endif
