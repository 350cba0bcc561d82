// SPDX-License-Identifier: GPL-2.0
/*
 * wgmitm: a UDP man in the middle for the WireGuard scenarios, run in a
 * namespace between two peers.
 *
 *   wgmitm relay CTL LA PA LB PB [TIMELINE]
 *	Forward datagrams between peer A (real address PA) and peer B (PB):
 *	A sends to LA, B sends to LB; what arrives on LA leaves from LB to PB
 *	and the other way round.  Each side also has an attacker socket, bound
 *	to the address of LA (LB) with the port plus one, from which "atk"
 *	injections are sent; anything arriving there answers an injection and
 *	is counted.  The relay obeys text commands sent to the UDP address CTL.
 *	With TIMELINE, every datagram from A or B is also written to that file
 *	as it arrives, one line each (flushed):
 *	    SECONDS DIR TYPE LEN SENDER RECEIVER COUNTER fwd|held
 *	SECONDS is CLOCK_MONOTONIC (s.us), TYPE the message type (0: not
 *	WireGuard), SENDER the sender index of an initiation or response,
 *	RECEIVER the receiver index of a response, cookie reply or data
 *	message, COUNTER a data message's counter (8 hex digits each for the
 *	indices, 0 where the type has none).  Protocol timers are checked from
 *	these: which session a data message uses, and when each was sent.
 *   wgmitm ctl CTL COMMAND...
 *	Send COMMAND to the relay at CTL and print its answer; exit 0 if the
 *	answer starts with "ok".
 *   wgmitm send ADDR LEN
 *	Send one datagram of LEN bytes (1 to 1400, zeros) to ADDR; the timers
 *	cases use it for data that gets no answer.
 *   wgmitm sink ADDR SECONDS
 *	Receive on ADDR for SECONDS, or until SIGTERM or SIGINT, then print
 *	"packets N bytes N".
 *
 * Addresses are a.b.c.d:port or [v6addr]:port.
 *
 * Relay commands; DIR is a2b (packets from A to B) or b2a:
 *   stats
 *	"name value" lines: fwd.DIR (forwarded), held.DIR, seen.DIR.T (seen
 *	of WireGuard message type T, 0 for anything else), last.DIR.T (length
 *	of the last one stored), atk.a / atk.b (datagrams that arrived at the
 *	attacker sockets), atk.a.T / atk.b.T, stray (from unknown sources).
 *   hold DIR on|off
 *	Stop (resume) forwarding DIR; packets are still seen and stored.
 *   inject DIR T FROM OP ARG COUNT
 *	Take the last stored packet of type T seen in DIR (for data, type 4,
 *	the last one longer than a keepalive), apply OP and send it COUNT
 *	times to the destination of DIR, from the relay's own socket
 *	(FROM=relay) or from the attacker socket (FROM=atk).  OP is asis,
 *	flip (xor byte ARG with 0x80), trunc (keep the first ARG bytes) or
 *	grow (append ARG random bytes).
 *   junk DIR COUNT
 *	Send COUNT malformed datagrams from the attacker socket to the
 *	destination of DIR: random lengths and bytes, messages of each type
 *	with the right length and random contents, and data messages carrying
 *	the receiver index of the last stored data packet.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_PACKET 65536
#define NTYPES 5		/* 0: not WireGuard, 1-4: message types */
#define KEEPALIVE_LEN 32	/* header, counter and tag of an empty data message */

enum { A2B, B2A, NDIRS };
static const char *const dir_names[NDIRS] = { "a2b", "b2a" };

struct stored {
	size_t len;
	unsigned char data[MAX_PACKET];
};

struct side {
	int fd;				/* relay socket facing this peer */
	int atk;			/* attacker socket facing this peer */
	struct sockaddr_storage peer;	/* the peer's real address */
	socklen_t peer_len;
	unsigned long atk_rx, atk_rx_type[NTYPES];
};

static struct side sides[2];	/* 0: A, 1: B */
static struct stored last[NDIRS][NTYPES];
static unsigned long fwd[NDIRS], held[NDIRS], seen[NDIRS][NTYPES], stray;
static bool hold[NDIRS];
static FILE *timeline;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("wgmitm: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static void random_fill(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("getrandom: %s", strerror(errno));
		}
		p += n;
		len -= n;
	}
}

static unsigned int random_below(unsigned int n)
{
	unsigned int r;

	random_fill(&r, sizeof(r));
	return n ? r % n : 0;
}

static socklen_t parse_addr(const char *s, struct sockaddr_storage *ss)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *colon, *h = s;
	size_t hlen;
	long port;
	char *end;

	memset(ss, 0, sizeof(*ss));
	if (*s == '[') {
		colon = strstr(s, "]:");
		if (!colon)
			die("bad address '%s'", s);
		h = s + 1;
		hlen = colon - h;
		colon++;
	} else {
		colon = strrchr(s, ':');
		if (!colon)
			die("bad address '%s'", s);
		hlen = colon - s;
	}
	if (hlen >= sizeof(host))
		die("bad address '%s'", s);
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	port = strtol(colon + 1, &end, 10);
	if (*end || port <= 0 || port > 65535)
		die("bad port in '%s'", s);

	if (*s == '[') {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons(port);
		if (inet_pton(AF_INET6, host, &sin6->sin6_addr) != 1)
			die("bad IPv6 address '%s'", host);
		return sizeof(*sin6);
	} else {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		if (inet_pton(AF_INET, host, &sin->sin_addr) != 1)
			die("bad IPv4 address '%s'", host);
		return sizeof(*sin);
	}
}

static void set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons(port);
}

static int get_port(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)ss)->sin_port);
}

static int bound_socket(const struct sockaddr_storage *ss, socklen_t len)
{
	int one = 1, fd;

	fd = socket(ss->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (ss->ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, len) < 0)
		die("bind to port %d: %s", get_port(ss), strerror(errno));
	return fd;
}

static bool same_addr(const struct sockaddr_storage *a,
		      const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET6) {
		const struct sockaddr_in6 *x = (const void *)a, *y = (const void *)b;

		return x->sin6_port == y->sin6_port &&
		       !memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr));
	} else {
		const struct sockaddr_in *x = (const void *)a, *y = (const void *)b;

		return x->sin_port == y->sin_port &&
		       x->sin_addr.s_addr == y->sin_addr.s_addr;
	}
}

/* The WireGuard message type of a datagram, 0 when it is not one. */
static int wg_type(const unsigned char *p, size_t len)
{
	if (len < 4 || p[1] || p[2] || p[3] || p[0] < 1 || p[0] > 4)
		return 0;
	return p[0];
}

static uint32_t get_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void timeline_add(int dir, int type, const unsigned char *p,
			 size_t len)
{
	uint32_t sender = 0, receiver = 0;
	unsigned long long counter = 0;
	const char *mac2 = "-";
	struct timespec ts;
	int i;

	if (!timeline)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if ((type == 1 || type == 2) && len >= 8)
		sender = get_le32(p + 4);
	if (type == 2 && len >= 12)
		receiver = get_le32(p + 8);
	if ((type == 3 || type == 4) && len >= 8)
		receiver = get_le32(p + 4);
	if (type == 4 && len >= 16)
		for (i = 7; i >= 0; i--)
			counter = counter << 8 | p[8 + i];
	/* A handshake message's mac2, its last 16 bytes: set or all zero. */
	if ((type == 1 && len == 148) || (type == 2 && len == 92)) {
		mac2 = "nomac2";
		for (i = 0; i < 16; i++)
			if (p[len - 16 + i])
				mac2 = "mac2";
	}
	fprintf(timeline, "%ld.%06ld %s %d %zu %08x %08x %llu %s %s\n",
		(long)ts.tv_sec, ts.tv_nsec / 1000, dir_names[dir], type, len,
		sender, receiver, counter, hold[dir] ? "held" : "fwd", mac2);
	fflush(timeline);
}

static void send_to(int fd, const struct side *dst, const void *buf, size_t len)
{
	/* Best effort: a full socket buffer only loses an injection. */
	if (sendto(fd, buf, len, 0, (const struct sockaddr *)&dst->peer,
		   dst->peer_len) < 0 && errno != EAGAIN && errno != ENOBUFS &&
	    errno != ECONNREFUSED)
		fprintf(stderr, "wgmitm: sendto: %s\n", strerror(errno));
}

/* A datagram arrived on the relay socket facing side @from. */
static void relay_packet(int from, const unsigned char *buf, size_t len,
			 const struct sockaddr_storage *src)
{
	int dir = from == 0 ? A2B : B2A, type = wg_type(buf, len);
	struct side *to = &sides[!from];

	if (!same_addr(src, &sides[from].peer)) {
		stray++;
		return;
	}
	seen[dir][type]++;
	timeline_add(dir, type, buf, len);
	if (type != 4 || len > KEEPALIVE_LEN) {
		last[dir][type].len = len;
		memcpy(last[dir][type].data, buf, len);
	}
	if (hold[dir]) {
		held[dir]++;
		return;
	}
	send_to(to->fd, to, buf, len);
	fwd[dir]++;
}

static int parse_dir(const char *s)
{
	int d;

	for (d = 0; d < NDIRS; d++)
		if (s && !strcmp(s, dir_names[d]))
			return d;
	return -1;
}

static int parse_num(const char *s, long min, long max, long *out)
{
	char *end;

	if (!s)
		return -1;
	errno = 0;
	*out = strtol(s, &end, 10);
	if (errno || *end || end == s || *out < min || *out > max)
		return -1;
	return 0;
}

static int cmd_stats(char *out, size_t size)
{
	size_t n = 0;
	int d, t, s;

#define PUT(...) (n += snprintf(out + n, n < size ? size - n : 0, __VA_ARGS__))
	PUT("ok\n");
	for (d = 0; d < NDIRS; d++) {
		PUT("fwd.%s %lu\nheld.%s %lu\n", dir_names[d], fwd[d],
		    dir_names[d], held[d]);
		for (t = 0; t < NTYPES; t++)
			PUT("seen.%s.%d %lu\nlast.%s.%d %zu\n", dir_names[d], t,
			    seen[d][t], dir_names[d], t, last[d][t].len);
	}
	for (s = 0; s < 2; s++) {
		PUT("atk.%c %lu\n", 'a' + s, sides[s].atk_rx);
		for (t = 0; t < NTYPES; t++)
			PUT("atk.%c.%d %lu\n", 'a' + s, t, sides[s].atk_rx_type[t]);
	}
	PUT("stray %lu\n", stray);
#undef PUT
	return n < size ? 0 : -1;
}

static int cmd_inject(char **argv, int argc, char *err, size_t size)
{
	static unsigned char buf[MAX_PACKET];
	long type, arg, count, i;
	const struct stored *p;
	struct side *to;
	size_t len;
	int dir, fd;

	if (argc != 7 || (dir = parse_dir(argv[1])) < 0 ||
	    parse_num(argv[2], 1, 4, &type) ||
	    (strcmp(argv[3], "relay") && strcmp(argv[3], "atk")) ||
	    parse_num(argv[5], 0, MAX_PACKET - 1, &arg) ||
	    parse_num(argv[6], 1, 100000, &count)) {
		snprintf(err, size, "usage: inject a2b|b2a TYPE relay|atk OP ARG COUNT");
		return -1;
	}
	p = &last[dir][type];
	if (!p->len) {
		snprintf(err, size, "no packet of type %ld seen %s", type, argv[1]);
		return -1;
	}
	len = p->len;
	memcpy(buf, p->data, len);
	if (!strcmp(argv[4], "asis")) {
	} else if (!strcmp(argv[4], "flip")) {
		if ((size_t)arg >= len) {
			snprintf(err, size, "byte %ld is past the packet (%zu)", arg, len);
			return -1;
		}
		buf[arg] ^= 0x80;
	} else if (!strcmp(argv[4], "trunc")) {
		if ((size_t)arg > len) {
			snprintf(err, size, "cannot truncate %zu bytes to %ld", len, arg);
			return -1;
		}
		len = arg;
	} else if (!strcmp(argv[4], "grow")) {
		if (len + arg > MAX_PACKET - 100) {
			snprintf(err, size, "packet would be too large");
			return -1;
		}
		random_fill(buf + len, arg);
		len += arg;
	} else {
		snprintf(err, size, "unknown operation '%s'", argv[4]);
		return -1;
	}

	to = &sides[dir == A2B ? 1 : 0];
	fd = !strcmp(argv[3], "relay") ? to->fd : to->atk;
	for (i = 0; i < count; i++)
		send_to(fd, to, buf, len);
	return 0;
}

static int cmd_junk(char **argv, int argc, char *err, size_t size)
{
	static const size_t wg_len[NTYPES] = { 0, 148, 92, 64, 0 };
	static unsigned char buf[2048];
	const struct stored *data;
	long count, i;
	struct side *to;
	size_t len;
	int dir, kind;

	if (argc != 3 || (dir = parse_dir(argv[1])) < 0 ||
	    parse_num(argv[2], 1, 1000000, &count)) {
		snprintf(err, size, "usage: junk a2b|b2a COUNT");
		return -1;
	}
	to = &sides[dir == A2B ? 1 : 0];
	data = &last[dir][4];
	for (i = 0; i < count; i++) {
		kind = i % 6;
		if (kind == 0) {
			/* Anything at all, of any length up to 1500. */
			len = random_below(1501);
			random_fill(buf, len);
		} else if (kind <= 3) {
			/* A handshake message of the right length. */
			len = wg_len[kind];
			random_fill(buf, len);
			buf[0] = kind;
			buf[1] = buf[2] = buf[3] = 0;
		} else {
			/* A data message: a random receiver index, or the one
			 * in use when a data packet has been seen.
			 */
			len = KEEPALIVE_LEN + random_below(1400);
			random_fill(buf, len);
			buf[0] = 4;
			buf[1] = buf[2] = buf[3] = 0;
			if (kind == 5 && data->len)
				memcpy(buf + 4, data->data + 4, 4);
		}
		send_to(to->atk, to, buf, len);
	}
	return 0;
}

static void control(int fd)
{
	static char in[1024], out[8192];
	struct sockaddr_storage src;
	socklen_t slen = sizeof(src);
	char *argv[16], *save, *tok;
	int argc = 0, ret = -1;
	ssize_t n;

	n = recvfrom(fd, in, sizeof(in) - 1, 0, (struct sockaddr *)&src, &slen);
	if (n < 0)
		return;
	in[n] = '\0';
	for (tok = strtok_r(in, " \t\n", &save); tok && argc < 16;
	     tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	strcpy(out, "err ");

	if (!argc) {
		snprintf(out + 4, sizeof(out) - 4, "empty command");
	} else if (!strcmp(argv[0], "stats") && argc == 1) {
		ret = cmd_stats(out, sizeof(out));
	} else if (!strcmp(argv[0], "hold") && argc == 3 && parse_dir(argv[1]) >= 0 &&
		   (!strcmp(argv[2], "on") || !strcmp(argv[2], "off"))) {
		hold[parse_dir(argv[1])] = !strcmp(argv[2], "on");
		ret = 0;
	} else if (!strcmp(argv[0], "inject")) {
		ret = cmd_inject(argv, argc, out + 4, sizeof(out) - 4);
	} else if (!strcmp(argv[0], "junk")) {
		ret = cmd_junk(argv, argc, out + 4, sizeof(out) - 4);
	} else {
		snprintf(out + 4, sizeof(out) - 4, "unknown command '%s'", argv[0]);
	}
	if (!ret && strncmp(out, "ok", 2))
		strcpy(out, "ok\n");
	else if (ret)
		strcat(out, "\n");
	sendto(fd, out, strlen(out), 0, (struct sockaddr *)&src, slen);
}

static int relay(char **argv, const char *timeline_path)
{
	static unsigned char buf[MAX_PACKET];
	struct sockaddr_storage ctl, local, src;
	struct pollfd pfd[5];
	socklen_t len, slen;
	int s, i, t;
	ssize_t n;

	if (timeline_path) {
		timeline = fopen(timeline_path, "we");
		if (!timeline)
			die("%s: %s", timeline_path, strerror(errno));
	}
	len = parse_addr(argv[0], &ctl);
	pfd[4].fd = bound_socket(&ctl, len);
	for (s = 0; s < 2; s++) {
		len = parse_addr(argv[1 + 2 * s], &local);
		sides[s].fd = bound_socket(&local, len);
		set_port(&local, get_port(&local) + 1);
		sides[s].atk = bound_socket(&local, len);
		sides[s].peer_len = parse_addr(argv[2 + 2 * s], &sides[s].peer);
		pfd[2 * s].fd = sides[s].fd;
		pfd[2 * s + 1].fd = sides[s].atk;
	}
	for (i = 0; i < 5; i++)
		pfd[i].events = POLLIN;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("wgmitm: relaying\n");

	for (;;) {
		if (poll(pfd, 5, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		if (pfd[4].revents & POLLIN)
			control(pfd[4].fd);
		for (s = 0; s < 2; s++) {
			if (pfd[2 * s].revents & POLLIN) {
				slen = sizeof(src);
				n = recvfrom(sides[s].fd, buf, sizeof(buf), 0,
					     (struct sockaddr *)&src, &slen);
				if (n >= 0)
					relay_packet(s, buf, n, &src);
			}
			if (pfd[2 * s + 1].revents & POLLIN) {
				n = recv(sides[s].atk, buf, sizeof(buf), 0);
				if (n >= 0) {
					t = wg_type(buf, n);
					sides[s].atk_rx++;
					sides[s].atk_rx_type[t]++;
				}
			}
		}
	}
	return 0;
}

static int ctl(int argc, char **argv)
{
	struct sockaddr_storage dst, any;
	char cmd[1024] = "", reply[8192];
	const char *scale;
	struct pollfd pfd;
	socklen_t len;
	int i, tries;
	long wait_ms;
	ssize_t n;

	len = parse_addr(argv[0], &dst);
	for (i = 1; i < argc; i++) {
		if (strlen(cmd) + strlen(argv[i]) + 2 > sizeof(cmd))
			die("command too long");
		if (i > 1)
			strcat(cmd, " ");
		strcat(cmd, argv[i]);
	}
	memset(&any, 0, sizeof(any));
	any.ss_family = dst.ss_family;
	pfd.fd = bound_socket(&any, len);
	pfd.events = POLLIN;
	if (connect(pfd.fd, (struct sockaddr *)&dst, len) < 0)
		die("connect: %s", strerror(errno));
	/*
	 * Loopback does not lose datagrams, so a command is sent again only
	 * when the relay was not up yet (the port refused it): commands such
	 * as inject and junk must not run twice.  The answer comes when the
	 * command is done, which on a slow (debug) kernel takes a while for
	 * thousands of junk datagrams: wait 30 s, times wgt_timeout_scale.
	 */
	scale = getenv("wgt_timeout_scale");
	if (!scale || parse_num(scale, 1, 100, &wait_ms))
		wait_ms = 1;
	wait_ms *= 30000;
	for (tries = 0; tries < 25; tries++) {
		if (tries)
			usleep(200000);
		if (send(pfd.fd, cmd, strlen(cmd), 0) < 0) {
			if (errno == ECONNREFUSED)
				continue;
			die("send: %s", strerror(errno));
		}
		if (poll(&pfd, 1, (int)wait_ms) <= 0)
			die("no answer from %s in %ld ms to '%s'", argv[0], wait_ms, cmd);
		n = recv(pfd.fd, reply, sizeof(reply) - 1, 0);
		if (n < 0) {
			if (errno == ECONNREFUSED)
				continue;
			die("recv: %s", strerror(errno));
		}
		reply[n] = '\0';
		fputs(reply, stdout);
		return strncmp(reply, "ok", 2) ? 1 : 0;
	}
	die("nothing listens at %s", argv[0]);
	return 1;
}

static volatile sig_atomic_t sink_stop;

static void sink_signal(int sig)
{
	sink_stop = sig;
}

static int sink(char **argv)
{
	struct sigaction sa = { .sa_handler = sink_signal };
	static unsigned char buf[MAX_PACKET];
	unsigned long packets = 0, bytes = 0;
	struct sockaddr_storage addr;
	struct timespec now, end;
	struct pollfd pfd;
	long secs, ms;
	socklen_t len;
	ssize_t n;

	len = parse_addr(argv[0], &addr);
	if (parse_num(argv[1], 1, 3600, &secs))
		die("bad number of seconds '%s'", argv[1]);
	pfd.fd = bound_socket(&addr, len);
	pfd.events = POLLIN;
	/* No SA_RESTART: a signal ends the poll below with EINTR. */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL))
		die("sigaction: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	while (!sink_stop) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		ms = (end.tv_sec - now.tv_sec) * 1000 +
		     (end.tv_nsec - now.tv_nsec) / 1000000;
		if (ms <= 0)
			break;
		if (poll(&pfd, 1, ms) > 0) {
			n = recv(pfd.fd, buf, sizeof(buf), 0);
			if (n >= 0) {
				packets++;
				bytes += n;
			}
		}
	}
	printf("packets %lu bytes %lu\n", packets, bytes);
	return 0;
}

static int send_one(char **argv)
{
	static unsigned char buf[1400];
	struct sockaddr_storage addr;
	socklen_t len;
	long n;
	int fd;

	len = parse_addr(argv[0], &addr);
	if (parse_num(argv[1], 1, sizeof(buf), &n))
		die("bad length '%s' (1 to %zu)", argv[1], sizeof(buf));
	fd = socket(addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die("socket: %s", strerror(errno));
	if (sendto(fd, buf, n, 0, (const struct sockaddr *)&addr, len) != n)
		die("sendto %s: %s", argv[0], strerror(errno));
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "relay"))
		return relay(argv + 2, argc == 8 ? argv[7] : NULL);
	if (argc >= 4 && !strcmp(argv[1], "ctl"))
		return ctl(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "send"))
		return send_one(argv + 2);
	if (argc == 4 && !strcmp(argv[1], "sink"))
		return sink(argv + 2);
	fprintf(stderr, "usage: wgmitm relay CTL LA PA LB PB [TIMELINE]\n"
			"       wgmitm ctl CTL COMMAND...\n"
			"       wgmitm send ADDR LEN\n"
			"       wgmitm sink ADDR SECONDS\n");
	return 2;
}
