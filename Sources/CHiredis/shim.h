#ifndef WAYFINDER_CHIREDIS_SHIM_H
#define WAYFINDER_CHIREDIS_SHIM_H

// hiredis (Debian: libhiredis-dev), used by WayfinderStore's RedisStore for its reply parser
// (`redisReader`): the store writes commands and does its socket IO itself, on event loops.
// These helpers hide the fields of `redisReader` and the socket calls Glibc exports awkwardly.

#include <hiredis/hiredis.h>
#include <hiredis/read.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static inline int wf_reader_err(const redisReader *r) { return r->err; }
static inline const char *wf_reader_errstr(const redisReader *r) { return r->errstr; }

/// 1 if `host` is a numeric IPv4 or IPv6 address.
static inline int wf_is_numeric_host(const char *host) {
    unsigned char buffer[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, host, buffer) == 1 || inet_pton(AF_INET6, host, buffer) == 1;
}

/// Starts a non-blocking TCP connection to a numeric IPv4 or IPv6 address. Returns the socket
/// (connected, or connecting: then `*in_progress` is 1 and writability tells the outcome), or
/// -1 with errno set (EINVAL: `host` is not a numeric address).
static inline int wf_tcp_connect(const char *host, int port, int *in_progress) {
    struct sockaddr_storage address;
    socklen_t length;
    memset(&address, 0, sizeof address);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((unsigned short)port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((unsigned short)port);
        length = sizeof *v6;
    } else {
        errno = EINVAL;
        return -1;
    }
    int fd = socket(address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    *in_progress = 0;
    int rc;
    do {
        rc = connect(fd, (struct sockaddr *)&address, length);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        if (errno == EINPROGRESS) {
            *in_progress = 1;
            return fd;
        }
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// The pending error of a socket (0: none; the outcome of a non-blocking connect).
static inline int wf_socket_error(int fd) {
    int error = 0;
    socklen_t length = sizeof error;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) != 0) return errno;
    return error;
}

// glibc's memmem (declared by string.h only under _GNU_SOURCE).
extern void *memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// 1 if `needle` occurs in `haystack` (glibc's vectorised memmem).
static inline int wf_contains(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length) != NULL;
}

/// Resolves `host` (blocking: call it off the event loops) to its first TCP address, written
/// as numeric text into `out`. Returns 0, or a getaddrinfo error code.
static inline int wf_resolve(const char *host, char *out, size_t out_length) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    struct addrinfo *found = NULL;
    int rc = getaddrinfo(host, NULL, &hints, &found);
    if (rc != 0) return rc;
    rc = EAI_NONAME;
    for (struct addrinfo *a = found; a != NULL; a = a->ai_next) {
        const void *raw = a->ai_family == AF_INET ? (const void *)&((struct sockaddr_in *)a->ai_addr)->sin_addr
            : a->ai_family == AF_INET6 ? (const void *)&((struct sockaddr_in6 *)a->ai_addr)->sin6_addr : NULL;
        if (raw != NULL && inet_ntop(a->ai_family, raw, out, (socklen_t)out_length) != NULL) {
            rc = 0;
            break;
        }
    }
    freeaddrinfo(found);
    return rc;
}

#endif
