// SPDX-License-Identifier: GPL-2.0
/*
 * schedlat SECONDS [PERIOD_US]: scheduling latency on every CPU.
 *
 * One SCHED_FIFO thread per online CPU, pinned to it, wakes every PERIOD_US
 * (default 1000) microseconds on an absolute CLOCK_MONOTONIC timer for
 * SECONDS and records how late each wakeup was.  A real-time thread runs as
 * soon as its CPU reaches a scheduling point, so its lateness is the
 * longest stretch the kernel kept that CPU without one: a preemption-off
 * section on a preemptible kernel, the time between cond_resched() calls
 * on a non-preemptible one.
 *
 * Output, one line per CPU, then the worst:
 *	cpuN: W wakeups, max M us, over 10ms T10, over 100ms T100
 *	max: M us on cpuN
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct probe {
	pthread_t thread;
	int cpu;
	long period_ns;
	struct timespec end;
	long long wakeups, max_ns, over10, over100;
	int err;
};

static long long ts_ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static void ts_add(struct timespec *t, long ns)
{
	t->tv_nsec += ns;
	while (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static void *run(void *arg)
{
	struct probe *p = arg;
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec next, now;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	p->err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (!p->err)
		p->err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (p->err)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		long long late;

		ts_add(&next, p->period_ns);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
		late = ts_ns(&now) - ts_ns(&next);
		p->wakeups++;
		if (late > p->max_ns)
			p->max_ns = late;
		if (late > 10000000LL)
			p->over10++;
		if (late > 100000000LL)
			p->over100++;
		if (ts_ns(&now) >= ts_ns(&p->end))
			break;
		/* After a long stall, resume from now rather than catch up. */
		if (late > p->period_ns)
			next = now;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long secs, period_us = 1000, ncpu, i, worst = 0;
	struct probe *probes;
	struct timespec end;

	if (argc < 2 || argc > 3 || (secs = atol(argv[1])) <= 0 ||
	    (argc == 3 && (period_us = atol(argv[2])) <= 0)) {
		fprintf(stderr, "usage: %s SECONDS [PERIOD_US]\n", argv[0]);
		return 2;
	}
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	probes = calloc(ncpu, sizeof(*probes));
	if (!probes)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += secs;
	for (i = 0; i < ncpu; i++) {
		probes[i].cpu = i;
		probes[i].period_ns = period_us * 1000;
		probes[i].end = end;
		if (pthread_create(&probes[i].thread, NULL, run, &probes[i])) {
			fprintf(stderr, "schedlat: cannot start the probe for cpu%ld\n", i);
			return 1;
		}
	}
	for (i = 0; i < ncpu; i++) {
		struct probe *p = &probes[i];

		pthread_join(p->thread, NULL);
		if (p->err) {
			fprintf(stderr, "schedlat: cpu%d: %s\n", p->cpu, strerror(p->err));
			return 1;
		}
		printf("cpu%d: %lld wakeups, max %lld us, over 10ms %lld, over 100ms %lld\n",
		       p->cpu, p->wakeups, p->max_ns / 1000, p->over10, p->over100);
		if (p->max_ns > probes[worst].max_ns)
			worst = i;
	}
	printf("max: %lld us on cpu%ld\n", probes[worst].max_ns / 1000, worst);
	return 0;
}
