// SPDX-License-Identifier: GPL-2.0
/*
 * Move a byte stream over one TCP connection, completely, for integrity
 * checks through a tunnel (busybox nc drops data at end of input).
 *
 *   wgt-xfer recv PORT          accept one connection on PORT (v4 and v6),
 *                               copy it to stdout until the sender closes
 *   wgt-xfer send ADDR PORT     copy stdin to ADDR:PORT, then half-close and
 *                               wait for the receiver to close, so every
 *                               byte is known to have arrived
 *
 * Exit 0 only when the whole stream went through; the digest is the
 * caller's business (sha256sum on both ends).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define BUF_SIZE (256 * 1024)

static char buf[BUF_SIZE];

static void die(const char *what)
{
	fprintf(stderr, "wgt-xfer: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* Copy from @in to @out until end of file; returns bytes or -1. */
static long long copy(int in, int out)
{
	long long total = 0;
	ssize_t n;

	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			return total;
		if (write_all(out, buf, n) < 0)
			return -1;
		total += n;
	}
}

static int do_recv(const char *port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	int fd, conn, off = 0, on = 1;
	long long n;

	sin6.sin6_port = htons(atoi(port));
	sin6.sin6_addr = in6addr_any;
	fd = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	if (bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) < 0)
		die("bind");
	if (listen(fd, 1) < 0)
		die("listen");
	conn = accept(fd, NULL, NULL);
	if (conn < 0)
		die("accept");
	n = copy(conn, 1);
	if (n < 0)
		die("receiving");
	close(conn);
	close(fd);
	fprintf(stderr, "wgt-xfer: received %lld bytes\n", n);
	return 0;
}

static int do_send(const char *addr, const char *port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr *sa;
	socklen_t salen;
	long long n;
	int fd;

	/* Numeric addresses only: no resolver in a static test tool. */
	if (inet_pton(AF_INET, addr, &sin.sin_addr) == 1) {
		sin.sin_port = htons(atoi(port));
		sa = (struct sockaddr *)&sin;
		salen = sizeof(sin);
	} else if (inet_pton(AF_INET6, addr, &sin6.sin6_addr) == 1) {
		sin6.sin6_port = htons(atoi(port));
		sa = (struct sockaddr *)&sin6;
		salen = sizeof(sin6);
	} else {
		fprintf(stderr, "wgt-xfer: %s is not a numeric address\n", addr);
		return 2;
	}
	fd = socket(sa->sa_family, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	if (connect(fd, sa, salen) < 0)
		die("connect");
	n = copy(0, fd);
	if (n < 0)
		die("sending");
	if (shutdown(fd, SHUT_WR) < 0)
		die("shutdown");
	/* The receiver closes after reading everything: wait for that. */
	if (copy(fd, 1) < 0)
		die("waiting for the receiver");
	close(fd);
	fprintf(stderr, "wgt-xfer: sent %lld bytes\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "recv"))
		return do_recv(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "send"))
		return do_send(argv[2], argv[3]);
	fprintf(stderr, "usage: wgt-xfer recv PORT | wgt-xfer send ADDR PORT\n");
	return 2;
}
