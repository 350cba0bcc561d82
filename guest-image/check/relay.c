// SPDX-License-Identifier: GPL-2.0
/*
 * init.c's relay of an entry's output to the verdict port, off the guest
 * (guest-image/check/init-check.sh): init.c is compiled in with its main()
 * renamed and ENTRY_DIR set by the check, and run_entry() writes the
 * "port" to stdout.
 *
 *   relay ENTRY [DELAY_MS]
 *
 * With DELAY_MS, a poll() that finds nothing returns only DELAY_MS later:
 * an entry that writes its last line and exits in that time does so
 * between init's empty poll and its waitpid(), every run, where in a guest
 * it does so only by chance (once in CI so far: a netns suite's last case
 * "not run").  The exit status is run_entry()'s.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <time.h>

static long relay_delay_ms;

static int delayed_poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	struct timespec ts;
	int r = poll(fds, nfds, timeout);

	if (r == 0 && relay_delay_ms) {
		ts.tv_sec = relay_delay_ms / 1000;
		ts.tv_nsec = relay_delay_ms % 1000 * 1000000L;
		nanosleep(&ts, NULL);
	}
	return r;
}

#define poll delayed_poll
#define main init_main
#include "../init.c"
#undef main
#undef poll

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s ENTRY [DELAY_MS]\n", argv[0]);
		return 2;
	}
	relay_delay_ms = argc > 2 ? strtol(argv[2], NULL, 0) : 0;
	console_fd = open("/dev/null", O_WRONLY);
	return run_entry(argv[1], 1);
}
