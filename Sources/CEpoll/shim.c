#define _GNU_SOURCE
#include <sys/socket.h>
#include "CEpoll.h"

int cepoll_socket_stream(int domain) { return socket(domain, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }

int cepoll_accept(int fd, void *addr, unsigned int *len) {
    return accept4(fd, (struct sockaddr *)addr, (socklen_t *)len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
