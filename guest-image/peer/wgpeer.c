// SPDX-License-Identifier: GPL-2.0
/*
 * wgpeer: the harness's own WireGuard peer, on raw UDP, for checking a
 * kernel's (or wireguard-go's) handshake and transport from the wire.
 * The protocol is noise.c; this is the driver.  Usage (README.md):
 *
 *   wgpeer kat
 *   wgpeer run [OPTIONS] STEP...
 *   wgpeer flood [OPTIONS] SECONDS
 *
 * Options: --listen PORT, --peer IPV4:PORT, --key B64 (our static
 * private key), --peer-key B64, --psk B64, --inner OURS,THEIRS (IPv4
 * tunnel addresses), --transcript FILE.
 *
 * Each step prints "ok STEP: ..." or "FAIL STEP: ..." (and wgpeer exits
 * 1).  Steps (options after commas):
 *   init[,ts=now|same|older][,mac2=auto|zero|bad]  send an initiation
 *   response[,wait=S]     a response to it arrives and completes the handshake
 *   cookie[,wait=S][,same|new]  a cookie reply to it arrives and decrypts
 *                         (same: the cookie before it again; new: another)
 *   none[,wait=S]         no handshake response or cookie reply for S seconds
 *   await-init[,wait=S]   an initiation from our peer arrives and is valid
 *   respond[,receiver=flip]  answer it: the handshake is complete (flip:
 *                         to an index nobody sent, the rest valid)
 *   quiet[,wait=S]        no transport message for S seconds
 *   ping[,counter=N][,expect=none][,wait=S]  an ICMP echo through the
 *                         tunnel (sent with counter N) is answered, or
 *                         with expect=none is not
 *   serve[,wait=S]        an ICMP echo from the peer is answered by us
 *   burst[,n=N]           N initiations with a valid mac1 (the flood's kind)
 *                         from another socket, back to back
 *   rapid[,n=N][,gap=G]   N new initiations G s apart (with the cookie's
 *                         mac2 if we hold one); says how many were answered
 *   sleep,S               wait S seconds (fractions allowed)
 * Every transport message received is checked: the index is ours, the
 * counter new, the plaintext a multiple of 16 bytes (or a keepalive) and
 * its padding after the IP packet zero.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>
#include "noise.h"

static struct peer_keys keys;
static struct handshake hs;
static struct session sess;
static int have_session, sock = -1;
static struct sockaddr_in peer_addr;
static int have_peer_addr;
static uint32_t inner_ours, inner_theirs;
static FILE *transcript;
static double last_sent;
static uint8_t last_ts[WG_TS];
static uint64_t recv_max;
static int recv_any;
static uint16_t echo_seq;
/* The last cookie a cookie reply gave us: mac2 of later initiations. */
static struct {
	int have;
	uint8_t cookie[WG_MAC];
} keep_cookie;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "wgpeer: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

static const char *step_name;

static void step_fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", step_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	exit(1);
}

static void step_ok(const char *fmt, ...)
{
	va_list ap;

	printf("ok %s: ", step_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void hex(FILE *f, const uint8_t *p, size_t n)
{
	while (n--)
		fprintf(f, "%02x", *p++);
}

static void record(const char *dir, const uint8_t *msg, size_t len)
{
	if (!transcript)
		return;
	fprintf(transcript, "%.6f %s type %u len %zu ", now_s(), dir, msg[0], len);
	hex(transcript, msg, len);
	fprintf(transcript, "\n");
	fflush(transcript);
}

static void key_arg(uint8_t out[WG_KEY], const char *b64, const char *what)
{
	size_t n;

	if (sodium_base642bin(out, WG_KEY, b64, strlen(b64), NULL, &n, NULL,
			      sodium_base64_VARIANT_ORIGINAL) || n != WG_KEY)
		die("%s is not a base64 WireGuard key: %s", what, b64);
}

static void send_msg(const uint8_t *msg, size_t len)
{
	if (!have_peer_addr)
		die("no peer address to send to (--peer, or a message from the peer first)");
	if (sendto(sock, msg, len, 0, (struct sockaddr *)&peer_addr, sizeof(peer_addr)) != (ssize_t)len)
		die("sendto: %s", strerror(errno));
	record("send", msg, len);
	last_sent = now_s();
}

/* recv_msg: the next datagram within the deadline (0 at the deadline). */
static ssize_t recv_msg(uint8_t *buf, size_t size, double deadline)
{
	struct sockaddr_in from;
	socklen_t flen = sizeof(from);
	struct pollfd p = { .fd = sock, .events = POLLIN };
	ssize_t n;
	double left;

	for (;;) {
		left = deadline - now_s();
		if (left <= 0)
			return 0;
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (!(p.revents & POLLIN))
			continue;
		n = recvfrom(sock, buf, size, 0, (struct sockaddr *)&from, &flen);
		if (n < 0)
			die("recvfrom: %s", strerror(errno));
		if (n == 0)
			continue;
		if (!have_peer_addr) {
			peer_addr = from;
			have_peer_addr = 1;
		}
		record("recv", buf, (size_t)n);
		return n;
	}
}

static uint16_t csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += p[i] << 8 | p[i + 1];
	if (n & 1)
		s += p[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* An IPv4 ICMP echo (type 8) or reply (0) of 20 + 8 + 16 bytes, padded
 * with zeros to 48; returns the padded length. */
static size_t icmp_packet(uint8_t *p, uint8_t type, uint32_t src, uint32_t dst,
			  uint16_t id, uint16_t seq, const uint8_t data[16])
{
	uint16_t c;

	memset(p, 0, 48);
	p[0] = 0x45;
	p[3] = 44;
	p[8] = 64;
	p[9] = 1;
	memcpy(p + 12, &src, 4);
	memcpy(p + 16, &dst, 4);
	c = csum(p, 20);
	p[10] = c >> 8;
	p[11] = c;
	p[20] = type;
	p[24] = id >> 8;
	p[25] = id;
	p[26] = seq >> 8;
	p[27] = seq;
	memcpy(p + 28, data, 16);
	c = csum(p + 20, 24);
	p[22] = c >> 8;
	p[23] = c;
	return 48;
}

/* check_data: a transport message from the peer, decrypted into plain;
 * its inner packet's length (0: a keepalive). */
static size_t check_data(const uint8_t *msg, size_t len, uint8_t *plain)
{
	uint64_t counter;
	long n;
	size_t ip_len, i;

	if (!have_session)
		step_fail("transport data before a handshake");
	n = noise_open(&sess, msg, len, plain, &counter);
	if (n < 0)
		step_fail("a transport message (%zu bytes, index %08x) does not decrypt with the session's keys",
			  len, get_le32(msg + 4));
	if (recv_any && counter <= recv_max)
		step_fail("counter %llu repeats or goes back (highest so far %llu)",
			  (unsigned long long)counter, (unsigned long long)recv_max);
	recv_any = 1;
	recv_max = counter;
	if (n == 0)
		return 0;
	if (n % 16)
		step_fail("the plaintext is %ld bytes, not padded to a multiple of 16", n);
	if ((plain[0] >> 4) != 4)
		step_fail("the inner packet is not IPv4 (first byte %02x)", plain[0]);
	ip_len = (size_t)plain[2] << 8 | plain[3];
	if (ip_len > (size_t)n || (size_t)n - ip_len >= 16)
		step_fail("the inner packet is %zu bytes in a plaintext of %ld: padding is not to the next 16",
			  ip_len, n);
	for (i = ip_len; i < (size_t)n; i++)
		if (plain[i])
			step_fail("padding byte %zu of the plaintext is %02x, not zero", i, plain[i]);
	return ip_len;
}

static double opt_wait(const char *opts, double def)
{
	const char *w = strstr(opts, "wait=");

	return w ? atof(w + 5) : def;
}

static int opt_is(const char *opts, const char *kv)
{
	const char *p = strstr(opts, kv);
	size_t n = strlen(kv);

	return p && (p[n] == 0 || p[n] == ',');
}

/* make_initiation: a new handshake (ephemeral, a nonzero index) with
 * timestamp ts, made into msg, with the cookie's mac2 if use_cookie and
 * we hold one; ts becomes the last timestamp sent. */
static void make_initiation(uint8_t msg[INIT_LEN], const uint8_t ts[WG_TS], int use_cookie)
{
	memset(&hs, 0, sizeof(hs));
	randombytes_buf(hs.e_priv, WG_KEY);
	do
		hs.local_index = randombytes_random();
	while (!hs.local_index);
	memcpy(hs.ts, ts, WG_TS);
	memcpy(last_ts, ts, WG_TS);
	hs.have_cookie = use_cookie && keep_cookie.have;
	memcpy(hs.cookie, keep_cookie.cookie, WG_MAC);
	if (noise_create_initiation(&hs, &keys, msg))
		die("the initiation could not be made (a low-order key)");
}

static void tai64n_now(uint8_t ts[WG_TS])
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	tai64n(ts, t.tv_sec, (uint32_t)t.tv_nsec);
}

static void step_init(const char *opts)
{
	uint8_t msg[INIT_LEN], ts[WG_TS];

	if (opt_is(opts, "ts=same")) {
		memcpy(ts, last_ts, WG_TS);
	} else if (opt_is(opts, "ts=older")) {
		memcpy(ts, last_ts, WG_TS);
		/* one second earlier: the big-endian seconds minus one */
		for (int i = 7; i >= 0 && ts[i]-- == 0; i--)
			;
	} else {
		tai64n_now(ts);
	}
	make_initiation(msg, ts, !opt_is(opts, "mac2=zero"));
	if (opt_is(opts, "mac2=bad"))
		msg[INIT_LEN - 1] ^= 1;
	send_msg(msg, INIT_LEN);
	step_ok("sender index %08x, mac2 %s", hs.local_index,
		opt_is(opts, "mac2=bad") ? "wrong" : hs.have_cookie ? "with the cookie" : "zero");
}

/* wait_for_type: the next message of type TYPE within the step's wait;
 * transport messages met on the way are checked, one of type FORBID
 * fails the step, others are passed over.  0 at the deadline. */
static ssize_t wait_for_type(uint8_t type, uint8_t forbid, uint8_t *buf, size_t size,
			     double wait)
{
	double deadline = now_s() + wait;
	uint8_t plain[2048];
	ssize_t n;

	while ((n = recv_msg(buf, size, deadline)) > 0) {
		if (buf[0] == type)
			return n;
		if (forbid && buf[0] == forbid)
			step_fail("a message of type %u (%zd bytes, to index %08x; ours %08x) came %.3f s after our last message, instead of type %u",
				  forbid, n, get_le32(buf + (forbid == MSG_RESP ? 8 : 4)),
				  hs.local_index, now_s() - last_sent, type);
		if (buf[0] == MSG_DATA && have_session)
			check_data(buf, (size_t)n, plain);
	}
	return 0;
}

static void step_response(const char *opts)
{
	uint8_t msg[2048];
	const char *why;
	ssize_t n = wait_for_type(MSG_RESP, MSG_COOKIE, msg, sizeof(msg), opt_wait(opts, 10));

	if (!n)
		step_fail("no handshake response within %.1f s", opt_wait(opts, 10));
	if (n != RESP_LEN)
		step_fail("a response of %zd bytes, not %d", n, RESP_LEN);
	if (msg[1] || msg[2] || msg[3])
		step_fail("the response's reserved bytes are not zero");
	if (noise_consume_response(&hs, &keys, msg, &why))
		step_fail("the response is not valid: %s", why);
	noise_session(&sess, &hs, 1);
	have_session = 1;
	recv_any = 0;
	step_ok("from index %08x to ours %08x, mac1 valid, handshake complete",
		hs.remote_index, hs.local_index);
}

static void step_cookie(const char *opts)
{
	uint8_t msg[2048];
	ssize_t n = wait_for_type(MSG_COOKIE, MSG_RESP, msg, sizeof(msg), opt_wait(opts, 10));

	if (!n)
		step_fail("no cookie reply within %.1f s", opt_wait(opts, 10));
	if (n != COOKIE_LEN)
		step_fail("a cookie reply of %zd bytes, not %d", n, COOKIE_LEN);
	if (get_le32(msg + 4) != hs.local_index)
		step_fail("the cookie reply is for index %08x, not ours %08x",
			  get_le32(msg + 4), hs.local_index);
	if (noise_consume_cookie(&hs, keys.peer, msg))
		step_fail("the cookie does not decrypt (XChaCha20Poly1305 keyed by the peer's public key, about our mac1)");
	if (opt_is(opts, "same") && (!keep_cookie.have || memcmp(keep_cookie.cookie, hs.cookie, WG_MAC)))
		step_fail("the cookie is not the one before: the secret changed");
	if (opt_is(opts, "new") && keep_cookie.have && !memcmp(keep_cookie.cookie, hs.cookie, WG_MAC))
		step_fail("the cookie is the one before: the secret did not change");
	keep_cookie.have = 1;
	memcpy(keep_cookie.cookie, hs.cookie, WG_MAC);
	step_ok("decrypted: cookie %02x%02x%02x%02x...", hs.cookie[0], hs.cookie[1],
		hs.cookie[2], hs.cookie[3]);
}

static void step_none(const char *opts)
{
	double wait = opt_wait(opts, 3), deadline = now_s() + wait;
	uint8_t msg[2048];
	int data = 0;
	ssize_t n;

	while ((n = recv_msg(msg, sizeof(msg), deadline)) > 0) {
		if (msg[0] == MSG_RESP || msg[0] == MSG_COOKIE || msg[0] == MSG_INIT)
			step_fail("a message of type %u (%zd bytes) came", msg[0], n);
		data++;
	}
	step_ok("no handshake message in %.1f s (%d other messages)", wait, data);
}

static struct handshake pending;

static void step_await_init(const char *opts)
{
	uint8_t msg[2048];
	const char *why;
	ssize_t n = wait_for_type(MSG_INIT, 0, msg, sizeof(msg), opt_wait(opts, 10));

	if (!n)
		step_fail("no initiation within %.1f s", opt_wait(opts, 10));
	if (n != INIT_LEN)
		step_fail("an initiation of %zd bytes, not %d", n, INIT_LEN);
	if (msg[1] || msg[2] || msg[3])
		step_fail("the initiation's reserved bytes are not zero");
	memset(&pending, 0, sizeof(pending));
	if (noise_consume_initiation(&pending, &keys, msg, &why))
		step_fail("the initiation is not valid: %s", why);
	step_ok("from index %08x, mac1 valid, static key our peer's, timestamp %02x%02x%02x%02x%02x%02x%02x%02x.%02x%02x%02x%02x",
		pending.remote_index, pending.ts[0], pending.ts[1], pending.ts[2], pending.ts[3],
		pending.ts[4], pending.ts[5], pending.ts[6], pending.ts[7], pending.ts[8],
		pending.ts[9], pending.ts[10], pending.ts[11]);
}

static void step_respond(const char *opts)
{
	uint8_t msg[RESP_LEN];
	int flip = opt_is(opts, "receiver=flip");

	hs = pending;
	randombytes_buf(hs.e_priv, WG_KEY);
	hs.local_index = randombytes_random();
	if (noise_create_response(&hs, &keys, msg))
		die("the response could not be made");
	if (flip) {
		/* an index nobody sent, the response otherwise valid */
		put_le32(msg + 8, hs.remote_index ^ 1);
		mac1_of(msg + RESP_MAC1, keys.peer, msg, RESP_LEN);
	}
	send_msg(msg, RESP_LEN);
	if (flip) {
		step_ok("sender index %08x to %08x, which nobody sent", hs.local_index,
			hs.remote_index ^ 1);
		return;
	}
	noise_session(&sess, &hs, 0);
	have_session = 1;
	recv_any = 0;
	step_ok("sender index %08x to %08x", hs.local_index, hs.remote_index);
}

static void send_inner(const uint8_t *pkt, size_t len)
{
	uint8_t msg[2048];

	send_msg(msg, noise_seal(&sess, msg, pkt, len));
}

/* quiet[,wait=S]: no transport message from the peer for S seconds. */
static void step_quiet(const char *opts)
{
	double wait = opt_wait(opts, 2), deadline = now_s() + wait;
	uint8_t msg[2048];
	int other = 0;
	ssize_t n;

	while ((n = recv_msg(msg, sizeof(msg), deadline)) > 0) {
		if (msg[0] == MSG_DATA)
			step_fail("a transport message (%zd bytes) came", n);
		other++;
	}
	step_ok("no transport message in %.1f s (%d handshake messages)", wait, other);
}

/* ping[,counter=N][,expect=none][,wait=S]: an echo through the tunnel,
 * sent with counter N (the session's next, else), answered, or with
 * expect=none not answered within S seconds. */
static void step_ping(const char *opts)
{
	double wait = opt_wait(opts, 10), deadline = now_s() + wait;
	uint8_t pkt[48], data[16], msg[2048], plain[2048];
	const char *c = strstr(opts, "counter=");
	int expect_none = opt_is(opts, "expect=none");
	uint16_t id = 0x7767;
	uint64_t sent_counter, next;
	ssize_t n;
	size_t ip;

	if (!have_session)
		step_fail("no session to ping over");
	next = sess.send_counter;
	if (c)
		sess.send_counter = strtoull(c + 8, NULL, 10);
	sent_counter = sess.send_counter;
	randombytes_buf(data, sizeof(data));
	echo_seq++;
	send_inner(pkt, icmp_packet(pkt, 8, inner_ours, inner_theirs, id, echo_seq, data));
	if (c && next > sess.send_counter)
		sess.send_counter = next;
	while ((n = recv_msg(msg, sizeof(msg), deadline)) > 0) {
		if (msg[0] != MSG_DATA)
			continue;
		ip = check_data(msg, (size_t)n, plain);
		if (ip < 44 || plain[9] != 1 || plain[20] != 0)
			continue;
		if (memcmp(plain + 12, &inner_theirs, 4) || memcmp(plain + 16, &inner_ours, 4) ||
		    (plain[24] << 8 | plain[25]) != id || (plain[26] << 8 | plain[27]) != echo_seq ||
		    memcmp(plain + 28, data, 16))
			step_fail("an echo reply that does not answer our echo");
		if (expect_none)
			step_fail("the echo sent with counter %llu was answered",
				  (unsigned long long)sent_counter);
		step_ok("sent with counter %llu; echo reply in a %zd-byte message, counter %llu, padding zero",
			(unsigned long long)sent_counter, n, (unsigned long long)recv_max);
		return;
	}
	if (expect_none) {
		step_ok("the echo sent with counter %llu got no reply in %.1f s",
			(unsigned long long)sent_counter, wait);
		return;
	}
	step_fail("no echo reply within %.1f s", wait);
}

static void step_serve(const char *opts)
{
	double wait = opt_wait(opts, 10), deadline = now_s() + wait;
	uint8_t msg[2048], plain[2048];
	uint32_t src, dst;
	int keepalives = 0;
	size_t ip, padded;
	uint16_t c;
	ssize_t n;

	if (!have_session)
		step_fail("no session to serve");
	while ((n = recv_msg(msg, sizeof(msg), deadline)) > 0) {
		if (msg[0] != MSG_DATA)
			continue;
		ip = check_data(msg, (size_t)n, plain);
		if (!ip) {
			keepalives++;
			continue;
		}
		if (ip < 28 || (plain[0] & 0x0f) != 5 || plain[9] != 1 || plain[20] != 8)
			continue;
		memcpy(&src, plain + 12, 4);
		memcpy(&dst, plain + 16, 4);
		if (src != inner_theirs || dst != inner_ours)
			step_fail("an echo from an address the tunnel does not carry");
		/* The reply: the same packet, addresses swapped, type 0,
		 * both checksums again, zero-padded to a multiple of 16. */
		memcpy(plain + 12, &dst, 4);
		memcpy(plain + 16, &src, 4);
		plain[8] = 64;
		plain[10] = plain[11] = 0;
		c = csum(plain, 20);
		plain[10] = c >> 8;
		plain[11] = c;
		plain[20] = 0;
		plain[22] = plain[23] = 0;
		c = csum(plain + 20, ip - 20);
		plain[22] = c >> 8;
		plain[23] = c;
		padded = (ip + 15) & ~(size_t)15;
		memset(plain + ip, 0, padded - ip);
		send_inner(plain, padded);
		step_ok("a %zu-byte echo in a %zd-byte message (counter %llu, padding zero) answered; %d keepalives before",
			ip, n, (unsigned long long)recv_max, keepalives);
		return;
	}
	step_fail("no echo within %.1f s", wait);
}

/* One initiation of the flood's kind: a valid mac1 for the peer, the rest
 * random (the responder spends a Diffie-Hellman on it when not under
 * load, a cookie reply when under load), mac2 zero. */
static void flood_message(uint8_t msg[INIT_LEN])
{
	randombytes_buf(msg + 4, INIT_MAC1 - 4);
	memset(msg, 0, 4);
	msg[0] = MSG_INIT;
	mac1_of(msg + INIT_MAC1, keys.peer, msg, INIT_LEN);
	memset(msg + INIT_MAC1 + WG_MAC, 0, WG_MAC);
}

/* burst[,n=N]: N (1024) such initiations back to back, from a socket of
 * their own (their cookie replies never meet the steps): sent just after
 * one of ours, they are what stands behind it in the responder's queue
 * when it is taken, whatever the flood beside does at that moment. */
static int burst_sock = -1;

static void step_burst(const char *opts)
{
	const char *v = strstr(opts, "n=");
	long i, n = v ? atol(v + 2) : 1024, sent = 0;
	uint8_t msg[INIT_LEN];
	double t0 = now_s();

	if (burst_sock < 0) {
		burst_sock = socket(AF_INET, SOCK_DGRAM, 0);
		if (burst_sock < 0)
			die("socket: %s", strerror(errno));
	}
	for (i = 0; i < n; i++) {
		flood_message(msg);
		if (sendto(burst_sock, msg, INIT_LEN, 0, (struct sockaddr *)&peer_addr,
			   sizeof(peer_addr)) == INIT_LEN)
			sent++;
	}
	step_ok("%ld of %ld initiations with a valid mac1 sent in %.1f ms", sent, n,
		(now_s() - t0) * 1000);
}

/* rapid,n=N,gap=G: N initiations G seconds apart, each new (ephemeral,
 * index, a timestamp later than the last) and with the cookie's mac2 if
 * we hold one; the responses to them are counted until a second after
 * the last.  For the responder's per-source rate limit under load. */
static void step_rapid(const char *opts)
{
	const char *v = strstr(opts, "n="), *g = strstr(opts, "gap=");
	long i, n = v ? atol(v + 2) : 80, answered = 0;
	double gap = g ? atof(g + 4) : 0.025, t0 = now_s(), t_last = t0, deadline;
	uint32_t *sent = calloc(n > 0 ? n : 1, sizeof(*sent));
	uint8_t msg[INIT_LEN], buf[2048], ts[WG_TS];
	ssize_t r;
	long k;

	if (!sent)
		die("out of memory");
	for (i = 0; i <= n; i++) {
		deadline = i < n ? t0 + gap * i : t_last + 1;
		while ((r = recv_msg(buf, sizeof(buf), deadline)) > 0) {
			if (buf[0] != MSG_RESP || r != RESP_LEN)
				continue;
			for (k = 0; k < i; k++)
				if (sent[k] == get_le32(buf + 8)) {
					answered++;
					sent[k] = 0;
					break;
				}
		}
		if (i == n)
			break;
		/* a timestamp later than the last, even within one clock tick */
		tai64n_now(ts);
		if (memcmp(ts, last_ts, WG_TS) <= 0) {
			memcpy(ts, last_ts, WG_TS);
			for (k = WG_TS - 1; k >= 0 && ++ts[k] == 0; k--)
				;
		}
		make_initiation(msg, ts, 1);
		send_msg(msg, INIT_LEN);
		sent[i] = hs.local_index;
		t_last = now_s();
	}
	free(sent);
	step_ok("answered %ld of %ld initiations sent over %.2f s (mac2 %s)", answered, n,
		t_last - t0, keep_cookie.have ? "with the cookie" : "zero");
}

static void open_socket(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int rcv = 8 << 20;

	sock = socket(AF_INET, SOCK_DGRAM, 0);
	if (sock < 0)
		die("socket: %s", strerror(errno));
	setsockopt(sock, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	if (bind(sock, (struct sockaddr *)&a, sizeof(a)))
		die("bind to UDP port %d: %s", port, strerror(errno));
}

static void addr_arg(const char *s)
{
	char host[64];
	const char *colon = strrchr(s, ':');

	if (!colon || colon - s >= (long)sizeof(host))
		die("--peer wants IPV4:PORT, not %s", s);
	memcpy(host, s, colon - s);
	host[colon - s] = 0;
	peer_addr.sin_family = AF_INET;
	peer_addr.sin_port = htons(atoi(colon + 1));
	if (inet_pton(AF_INET, host, &peer_addr.sin_addr) != 1 || !peer_addr.sin_port)
		die("--peer wants IPV4:PORT, not %s", s);
	have_peer_addr = 1;
}

static void inner_arg(const char *s)
{
	char a[32], b[32];

	if (sscanf(s, "%31[^,],%31s", a, b) != 2 || inet_pton(AF_INET, a, &inner_ours) != 1 ||
	    inet_pton(AF_INET, b, &inner_theirs) != 1)
		die("--inner wants OURS,THEIRS (IPv4), not %s", s);
}

/*
 * The known-answer transcript: fixed keys, ephemerals, indices, timestamp
 * and cookie give fixed bytes (kat.py computes them independently).
 */
static void fill(uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(v + i);
}

static int kat(void)
{
	struct peer_keys ki, kr;
	struct handshake hi, hr;
	struct session si, sr;
	uint8_t init[INIT_LEN], resp[RESP_LEN], ck[COOKIE_LEN], data[128], plain[64];
	uint8_t nonce[24], cookie[WG_MAC];
	const char *why;
	uint64_t c;
	size_t n;

	memset(&ki, 0, sizeof(ki));
	memset(&kr, 0, sizeof(kr));
	memset(&hi, 0, sizeof(hi));
	memset(&hr, 0, sizeof(hr));
	fill(ki.priv, WG_KEY, 0x10);
	fill(kr.priv, WG_KEY, 0x40);
	fill(ki.psk, WG_KEY, 0x70);
	memcpy(kr.psk, ki.psk, WG_KEY);
	noise_pubkey(ki.pub, ki.priv);
	noise_pubkey(kr.pub, kr.priv);
	memcpy(ki.peer, kr.pub, WG_KEY);
	memcpy(kr.peer, ki.pub, WG_KEY);
	fill(hi.e_priv, WG_KEY, 0xa0);
	fill(hr.e_priv, WG_KEY, 0xc0);
	hi.local_index = 0x11223344;
	hr.local_index = 0x55667788;
	tai64n(hi.ts, 1700000000, 123456789);
	printf("initiator-public ");
	hex(stdout, ki.pub, WG_KEY);
	printf("\nresponder-public ");
	hex(stdout, kr.pub, WG_KEY);
	printf("\n");
	if (noise_create_initiation(&hi, &ki, init))
		return 1;
	printf("initiation ");
	hex(stdout, init, INIT_LEN);
	printf("\n");
	if (noise_consume_initiation(&hr, &kr, init, &why)) {
		fprintf(stderr, "kat: own initiation refused: %s\n", why);
		return 1;
	}
	if (noise_create_response(&hr, &kr, resp))
		return 1;
	printf("response ");
	hex(stdout, resp, RESP_LEN);
	printf("\n");
	if (noise_consume_response(&hi, &ki, resp, &why)) {
		fprintf(stderr, "kat: own response refused: %s\n", why);
		return 1;
	}
	noise_session(&si, &hi, 1);
	noise_session(&sr, &hr, 0);
	printf("initiator-send ");
	hex(stdout, si.send, WG_KEY);
	printf("\ninitiator-receive ");
	hex(stdout, si.recv, WG_KEY);
	printf("\n");
	memset(plain, 0, sizeof(plain));
	memcpy(plain, "WireGuard kat 16", 16);
	n = noise_seal(&si, data, plain, 16);
	printf("data ");
	hex(stdout, data, n);
	printf("\n");
	if (noise_open(&sr, data, n, plain, &c) != 16)
		return 1;
	n = noise_seal(&sr, data, NULL, 0);
	printf("keepalive ");
	hex(stdout, data, n);
	printf("\n");
	/* A cookie reply from the responder to the initiation, then the
	 * initiation again (same ephemeral and timestamp) with its mac2. */
	fill(nonce, sizeof(nonce), 0xe0);
	fill(cookie, sizeof(cookie), 0xf0);
	noise_create_cookie(ck, kr.pub, hi.local_index, cookie, init + INIT_MAC1, nonce);
	printf("cookie-reply ");
	hex(stdout, ck, COOKIE_LEN);
	printf("\n");
	memcpy(hi.mac1_sent, init + INIT_MAC1, WG_MAC);
	if (noise_consume_cookie(&hi, kr.pub, ck))
		return 1;
	if (noise_create_initiation(&hi, &ki, init))
		return 1;
	printf("initiation-with-mac2 ");
	hex(stdout, init, INIT_LEN);
	printf("\n");
	return 0;
}

/*
 * The flood: initiations whose mac1 is valid (made with --peer-key) and
 * whose rest is random, so that the responder queues each and spends a
 * Diffie-Hellman on it until it is under load; under load it answers
 * each with a cookie reply instead.  At most WINDOW are unanswered at a
 * time (each cookie reply lets one more go), enough to keep the kernel's
 * queue past its under-load mark (an eighth of 4096); when no reply comes
 * for 200 ms the ones outstanding count as dropped and a new window goes.
 * A progress line every quarter of a second, and "done" with the totals.
 */
static int flood(double secs, int window)
{
	double start = now_s(), end = start + secs, next_line = start + 0.25, last_reply = start;
	uint64_t sent = 0, replies = 0, other = 0, base = 0;
	uint8_t msg[INIT_LEN], buf[2048];
	ssize_t n;

	for (;;) {
		double t = now_s();

		if (t >= end)
			break;
		while (sent - base - replies < (uint64_t)window) {
			flood_message(msg);
			if (sendto(sock, msg, INIT_LEN, MSG_DONTWAIT, (struct sockaddr *)&peer_addr,
				   sizeof(peer_addr)) != INIT_LEN) {
				if (errno == EAGAIN || errno == ENOBUFS)
					break;
				die("sendto: %s", strerror(errno));
			}
			sent++;
		}
		while ((n = recv(sock, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
			if (buf[0] == MSG_COOKIE && n == COOKIE_LEN) {
				replies++;
				last_reply = now_s();
			} else {
				other++;
			}
		}
		t = now_s();
		if (t - last_reply > 0.2) {
			base = sent - replies;
			last_reply = t;
		}
		if (t >= next_line) {
			printf("progress sent %llu cookie_replies %llu other %llu at %.1f\n",
			       (unsigned long long)sent, (unsigned long long)replies,
			       (unsigned long long)other, t - start);
			fflush(stdout);
			next_line += 0.25;
		}
		/* until a reply (one more may go) or a millisecond */
		poll(&(struct pollfd){ .fd = sock, .events = POLLIN }, 1, 1);
	}
	printf("done sent %llu cookie_replies %llu other %llu in %.1f s\n", (unsigned long long)sent,
	       (unsigned long long)replies, (unsigned long long)other, now_s() - start);
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: wgpeer kat | wgpeer run [OPTIONS] STEP... | wgpeer flood [OPTIONS] SECONDS\n"
		"  options: --listen PORT --peer IPV4:PORT --key B64 --peer-key B64 --psk B64\n"
		"           --inner OURS,THEIRS --transcript FILE --window N\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int i, port = 0, window = 1536, have_key = 0, have_peer_key = 0;
	const char *mode;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (sodium_init() < 0)
		die("libsodium did not initialise");
	if (argc < 2)
		usage();
	mode = argv[1];
	if (!strcmp(mode, "kat"))
		return kat();
	if (strcmp(mode, "run") && strcmp(mode, "flood"))
		usage();
	for (i = 2; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
		const char *o = argv[i], *v = argv[i + 1];

		if (!v)
			die("%s wants a value", o);
		if (!strcmp(o, "--listen"))
			port = atoi(v);
		else if (!strcmp(o, "--peer"))
			addr_arg(v);
		else if (!strcmp(o, "--key"))
			key_arg(keys.priv, v, "--key"), have_key = 1;
		else if (!strcmp(o, "--peer-key"))
			key_arg(keys.peer, v, "--peer-key"), have_peer_key = 1;
		else if (!strcmp(o, "--psk"))
			key_arg(keys.psk, v, "--psk");
		else if (!strcmp(o, "--inner"))
			inner_arg(v);
		else if (!strcmp(o, "--window"))
			window = atoi(v);
		else if (!strcmp(o, "--transcript")) {
			transcript = fopen(v, "a");
			if (!transcript)
				die("%s: %s", v, strerror(errno));
		} else
			die("unknown option %s", o);
	}
	if (!have_peer_key)
		die("--peer-key is needed");
	open_socket(port);
	if (!strcmp(mode, "flood")) {
		if (i >= argc || !have_peer_addr || window < 1)
			usage();
		/* the flood's own static key is never used */
		return flood(atof(argv[i]), window);
	}
	if (!have_key)
		die("--key is needed");
	if (noise_pubkey(keys.pub, keys.priv))
		die("--key gives a low-order public key");
	for (; i < argc; i++) {
		char name[64];
		const char *opts = strchr(argv[i], ',');
		size_t len = opts ? (size_t)(opts - argv[i]) : strlen(argv[i]);

		if (len >= sizeof(name))
			die("unknown step %s", argv[i]);
		memcpy(name, argv[i], len);
		name[len] = 0;
		opts = opts ? opts + 1 : "";
		step_name = argv[i];
		if (!strcmp(name, "init"))
			step_init(opts);
		else if (!strcmp(name, "response"))
			step_response(opts);
		else if (!strcmp(name, "cookie"))
			step_cookie(opts);
		else if (!strcmp(name, "none"))
			step_none(opts);
		else if (!strcmp(name, "await-init"))
			step_await_init(opts);
		else if (!strcmp(name, "respond"))
			step_respond(opts);
		else if (!strcmp(name, "quiet"))
			step_quiet(opts);
		else if (!strcmp(name, "burst"))
			step_burst(opts);
		else if (!strcmp(name, "rapid"))
			step_rapid(opts);
		else if (!strcmp(name, "ping"))
			step_ping(opts);
		else if (!strcmp(name, "serve"))
			step_serve(opts);
		else if (!strcmp(name, "sleep")) {
			struct timespec t;
			double s = atof(opts);

			t.tv_sec = (time_t)s;
			t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
			nanosleep(&t, NULL);
			step_ok("slept %.3f s", s);
		} else
			die("unknown step %s", argv[i]);
	}
	return 0;
}
