// SPDX-License-Identifier: GPL-2.0
/*
 * wgt-preempt [--data] [--first] IFACE CPU COUNT [MAX_MS]: hold CPU away
 * from the WireGuard handshake sender, right after it sent an initiation;
 * with --data, from the data sender (the peer's transmit worker), right
 * after it sent a data message.
 *
 * A SCHED_FIFO thread pinned to CPU waits on a packet socket on IFACE.  A
 * WireGuard handshake initiation leaving IFACE (outgoing UDP, 148-byte
 * message of type 1) wakes it inside the sender's transmit path, so on a
 * preemptible kernel it preempts the sender at the end of that path,
 * before the sender's next statement.  It then keeps CPU busy until the
 * handshake response has come back in on IFACE, plus 200 ms for the
 * initiator to consume it on another CPU, or MAX_MS (default 3000) at
 * most.  Meant for a sender bound to CPU (unbound workqueues restricted to
 * it through /sys/devices/virtual/workqueue/cpumask).
 *
 * Prints "ready" once listening, then per initiation
 *	initiation N from port P: held cpuC for M ms (response seen|no response)
 * where P is the sending interface's UDP port, so a case with several
 * tunnels can tell which of them the race was provoked on.
 * and exits after COUNT initiations (0: never), or on SIGTERM.
 *
 * --data: the same for outgoing data messages (type 4, longer than a
 * keepalive) and the next incoming one (the answer), printing
 *	data N from port P: held cpuC for M ms (answer seen|no answer)
 *
 * --first: once a message from a port was held until its answer came, a
 * later one from that port (a retry) is let through and printed as
 *	initiation N from port P: let through (port held before)
 * so that retries of earlier tunnels do not start holds of their own,
 * which could swallow another tunnel's first message (a sender gets CPU
 * during a long hold through RT throttling, and what it sends then is
 * read inside the hold and never held itself).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define WG_INITIATION 1
#define WG_INITIATION_LEN 148
#define WG_RESPONSE 2
#define WG_RESPONSE_LEN 92
#define SETTLE_MS 200
#define MAX_PORTS 64

static void die(const char *what)
{
	fprintf(stderr, "wgt-preempt: %s: %s\n", what, strerror(errno));
	exit(1);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The payload of an IPv4 UDP datagram of N captured bytes, of at least 4
 * bytes, and its length from the UDP header in *LEN; NULL for anything else.
 */
static const unsigned char *udp_payload(const unsigned char *p, ssize_t n,
					size_t *len)
{
	const struct iphdr *ip = (const void *)p;
	const struct udphdr *udp;
	size_t hl;

	if (n < (ssize_t)sizeof(*ip) || ip->version != 4 || ip->protocol != IPPROTO_UDP)
		return NULL;
	hl = ip->ihl * 4;
	if (n < (ssize_t)(hl + sizeof(*udp) + 4))
		return NULL;
	udp = (const void *)(p + hl);
	if (ntohs(udp->len) < sizeof(*udp) + 4)
		return NULL;
	*len = ntohs(udp->len) - sizeof(*udp);
	return p + hl + sizeof(*udp);
}

/* The WireGuard message type of an IPv4 UDP datagram of LEN bytes of
 * payload exactly, or -1.
 */
static int wg_type(const unsigned char *p, ssize_t n, size_t len)
{
	const unsigned char *msg;
	size_t got;

	msg = udp_payload(p, n, &got);
	return msg && got == len ? msg[0] : -1;
}

/* 4 for an IPv4 UDP datagram that carries a data message longer than a
 * keepalive (type 4, more than 32 bytes), or -1.
 */
static int wg_data(const unsigned char *p, ssize_t n)
{
	const unsigned char *msg;
	size_t got;

	msg = udp_payload(p, n, &got);
	return msg && got > 32 && msg[0] == 4 ? 4 : -1;
}

/* The UDP source port of an IPv4 datagram wg_type() accepted. */
static unsigned int udp_sport(const unsigned char *p)
{
	const struct iphdr *ip = (const void *)p;
	const struct udphdr *udp = (const void *)(p + ip->ihl * 4);

	return ntohs(udp->source);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct sockaddr_ll sll = { 0 };
	unsigned char buf[2048];
	long max_ms, count, seen = 0;
	unsigned int held_port[MAX_PORTS];
	int nheld = 0, i;
	bool data = false, first = false, before;
	cpu_set_t set;
	int fd, cpu;

	if (argc > 1 && !strcmp(argv[1], "--data")) {
		data = true;
		argv++;
		argc--;
	}
	if (argc > 1 && !strcmp(argv[1], "--first")) {
		first = true;
		argv++;
		argc--;
	}
	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: wgt-preempt [--data] [--first] IFACE CPU COUNT(0: until killed) [MAX_MS]\n");
		return 2;
	}
	cpu = atoi(argv[2]);
	count = atol(argv[3]);
	max_ms = argc > 4 ? atol(argv[4]) : 3000;
	if (cpu < 0 || count < 0 || max_ms < 1) {
		fprintf(stderr, "wgt-preempt: bad CPU, COUNT or MAX_MS\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler");
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_ALL));
	if (fd < 0)
		die("socket");
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex(argv[1]);
	if (!sll.sll_ifindex)
		die(argv[1]);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		die("bind");
	printf("ready\n");
	fflush(stdout);

	while (!count || seen < count) {
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		long start, until, settle = 0;
		unsigned int sport;
		ssize_t n;

		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("recvfrom");
		}
		if (from.sll_pkttype != PACKET_OUTGOING ||
		    (data ? wg_data(buf, n) < 0 :
		     wg_type(buf, n, WG_INITIATION_LEN) != WG_INITIATION))
			continue;
		sport = udp_sport(buf);
		before = false;
		for (i = 0; i < nheld; i++)
			before |= held_port[i] == sport;
		if (first && before) {
			seen++;
			printf("%s %ld from port %u: let through (port held before)\n",
			       data ? "data" : "initiation", seen, sport);
			fflush(stdout);
			continue;
		}
		/* Here the sender is preempted; keep the CPU. */
		start = now_ms();
		until = start + max_ms;
		while (now_ms() < until) {
			n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
				     (struct sockaddr *)&from, &(socklen_t){ sizeof(from) });
			if (!settle && n > 0 && from.sll_pkttype != PACKET_OUTGOING &&
			    (data ? wg_data(buf, n) == 4 :
			     wg_type(buf, n, WG_RESPONSE_LEN) == WG_RESPONSE)) {
				settle = now_ms() + SETTLE_MS;
				if (settle < until)
					until = settle;
			}
		}
		seen++;
		if (settle && !before && nheld < MAX_PORTS)
			held_port[nheld++] = sport;
		if (data)
			printf("data %ld from port %u: held cpu%d for %ld ms (%s)\n",
			       seen, sport, cpu, now_ms() - start,
			       settle ? "answer seen" : "no answer");
		else
			printf("initiation %ld from port %u: held cpu%d for %ld ms (%s)\n",
			       seen, sport, cpu, now_ms() - start,
			       settle ? "response seen" : "no response");
		fflush(stdout);
	}
	return 0;
}
