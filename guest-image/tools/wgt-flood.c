// SPDX-License-Identifier: GPL-2.0
/*
 * Move a fixed number of UDP datagrams through a tunnel with a fixed
 * number of packets on the wire, whatever the timing, for bench's cost
 * windows: an instruction count per byte is only comparable between runs
 * when the work is the same. TCP's ACKs and iperf3's pacing depend on
 * timing; this does not.
 *
 *   wgt-flood recv PORT COUNT SIZE WINDOW
 *   wgt-flood send ADDR PORT COUNT SIZE WINDOW
 *
 * The sender sends COUNT datagrams of SIZE bytes, numbered. After every
 * WINDOW datagrams the receiver answers with one 8-byte acknowledgement
 * (the number received so far), and the sender never has more than two
 * windows unacknowledged, so queues stay short and nothing is dropped on a
 * healthy path. On the wire: COUNT datagrams one way, COUNT / WINDOW the
 * other. A datagram lost, duplicated or out of order, or a wait over 10 s
 * (600 s for the first datagram), is an error (exit 1), named.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_SIZE 65507
#define WAIT_MS 10000
#define FIRST_WAIT_MS 600000

static unsigned char buf[MAX_SIZE];

static void fail(const char *what)
{
	fprintf(stderr, "wgt-flood: %s%s%s\n", what, errno ? ": " : "", errno ? strerror(errno) : "");
	exit(1);
}

static unsigned long number(const char *s, unsigned long min, unsigned long max, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "wgt-flood: %s must be %lu to %lu, not '%s'\n", what, min, max, s);
		exit(2);
	}
	return v;
}

/* wait_readable: poll FD for input, MS milliseconds at most. */
static void wait_readable(int fd, int ms, const char *what)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;

	do
		r = poll(&p, 1, ms);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		fail("poll");
	if (r == 0) {
		errno = 0;
		fail(what);
	}
}

static int recv_side(unsigned short port, unsigned long count, size_t size, unsigned long window)
{
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(port) }, peer;
	socklen_t plen;
	unsigned long got = 0;
	int fd, rcvbuf = 8 << 20;
	uint64_t ack;
	ssize_t n;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		fail("socket");
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&me, sizeof(me)))
		fail("bind");
	while (got < count) {
		/* The sender may start long after the receiver; not after that. */
		wait_readable(fd, got ? WAIT_MS : FIRST_WAIT_MS,
			      got ? "no datagram for 10 s: lost on the way" : "no datagram in 600 s");
		plen = sizeof(peer);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&peer, &plen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail("recvfrom");
		}
		if ((size_t)n != size) {
			fprintf(stderr, "wgt-flood: datagram %lu has %zd bytes, not %zu\n", got, n, size);
			return 1;
		}
		if (memcmp(buf, &got, sizeof(got))) {
			unsigned long seq;

			memcpy(&seq, buf, sizeof(seq));
			fprintf(stderr, "wgt-flood: datagram %lu arrived as number %lu: lost or reordered\n",
				seq, got);
			return 1;
		}
		got++;
		if (got % window == 0 || got == count) {
			ack = got;
			if (sendto(fd, &ack, sizeof(ack), 0, (struct sockaddr *)&peer, plen) != sizeof(ack))
				fail("sendto (acknowledgement)");
		}
	}
	printf("received %lu datagrams of %zu bytes\n", got, size);
	return 0;
}

static int send_side(const char *addr, unsigned short port, unsigned long count, size_t size,
		     unsigned long window)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };
	unsigned long sent = 0, acked = 0;
	uint64_t ack;
	ssize_t n;
	int fd;

	if (inet_pton(AF_INET, addr, &to.sin_addr) != 1) {
		fprintf(stderr, "wgt-flood: '%s' is not an IPv4 address\n", addr);
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		fail("socket");
	if (connect(fd, (struct sockaddr *)&to, sizeof(to)))
		fail("connect");
	memset(buf, 0x5a, size);
	while (acked < count) {
		while (sent < count && sent < acked + 2 * window) {
			memcpy(buf, &sent, sizeof(sent));
			if (send(fd, buf, size, 0) != (ssize_t)size) {
				if (errno == EINTR || errno == ENOBUFS)
					continue;
				fail("send");
			}
			sent++;
		}
		wait_readable(fd, WAIT_MS, "no acknowledgement for 10 s: a datagram was lost");
		n = recv(fd, &ack, sizeof(ack), 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fail("recv (acknowledgement)");
		}
		if (n != sizeof(ack) || ack <= acked || ack > sent) {
			errno = 0;
			fail("a bad acknowledgement");
		}
		acked = ack;
	}
	printf("sent %lu datagrams of %zu bytes\n", sent, size);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "recv"))
		return recv_side(number(argv[2], 1, 65535, "PORT"), number(argv[3], 1, 1UL << 40, "COUNT"),
				 number(argv[4], 8, MAX_SIZE, "SIZE"), number(argv[5], 1, 4096, "WINDOW"));
	if (argc == 7 && !strcmp(argv[1], "send"))
		return send_side(argv[2], number(argv[3], 1, 65535, "PORT"),
				 number(argv[4], 1, 1UL << 40, "COUNT"), number(argv[5], 8, MAX_SIZE, "SIZE"),
				 number(argv[6], 1, 4096, "WINDOW"));
	fprintf(stderr, "usage: wgt-flood recv PORT COUNT SIZE WINDOW\n"
			"       wgt-flood send ADDR PORT COUNT SIZE WINDOW\n");
	return 2;
}
