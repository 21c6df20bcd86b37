#ifndef CEPOLL_H
#define CEPOLL_H
// Tiny shim: Swift's Glibc module does not export epoll, eventfd or getrandom, and
// `struct epoll_event` is packed on x86_64, so its `data` union is read and written through
// these inline helpers.
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/resource.h>

static inline int cepoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int cepoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

static inline int cepoll_wait(int epfd, struct epoll_event *events, int max, int timeout) {
    return epoll_wait(epfd, events, max, timeout);
}

static inline uint64_t cepoll_event_data(const struct epoll_event *events, int i) { return events[i].data.u64; }
static inline uint32_t cepoll_event_flags(const struct epoll_event *events, int i) { return events[i].events; }
static inline unsigned long cepoll_event_size(void) { return sizeof(struct epoll_event); }

static inline int cepoll_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// getrandom(2) with no flags: the kernel's CSPRNG without a file descriptor.
static inline long cepoll_getrandom(void *buffer, unsigned long length) { return getrandom(buffer, length, 0); }

/// The soft and hard RLIMIT_NOFILE; 0 on success.
static inline int cepoll_nofile_limit(uint64_t *soft, uint64_t *hard) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    *soft = limit.rlim_cur;
    *hard = limit.rlim_max;
    return 0;
}

/// Sets the soft RLIMIT_NOFILE (the hard one unchanged); 0 on success.
static inline int cepoll_set_nofile_soft_limit(uint64_t soft) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    limit.rlim_cur = soft;
    return setrlimit(RLIMIT_NOFILE, &limit);
}

/// socket(domain, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)
int cepoll_socket_stream(int domain);
/// accept4(fd, addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC); `addr` is a `struct sockaddr *`, `len` a `socklen_t *`.
int cepoll_accept(int fd, void *addr, unsigned int *len);

enum {
    CEPOLL_CTL_ADD = EPOLL_CTL_ADD,
    CEPOLL_CTL_MOD = EPOLL_CTL_MOD,
    CEPOLL_CTL_DEL = EPOLL_CTL_DEL,
};
static const uint32_t CEPOLL_IN = EPOLLIN;
static const uint32_t CEPOLL_OUT = EPOLLOUT;
static const uint32_t CEPOLL_ERR = EPOLLERR;
static const uint32_t CEPOLL_HUP = EPOLLHUP;
static const uint32_t CEPOLL_RDHUP = EPOLLRDHUP;
static const uint32_t CEPOLL_EXCLUSIVE = EPOLLEXCLUSIVE;
#endif
