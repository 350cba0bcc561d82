/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log for the static entries of guests without a shell
 * (guest-image/cross): all of it, through syslog(2).
 */
#ifndef WGT_CROSS_KLOG_H
#define WGT_CROSS_KLOG_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/klog.h>

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

/* The whole log, NUL-terminated; NULL (after a message naming who) if not. */
static char *klog_read(const char *who)
{
	int size, len;
	char *log;

	size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	if (size <= 0) {
		fprintf(stderr, "%s: klogctl(SIZE_BUFFER) failed\n", who);
		return NULL;
	}
	log = malloc(size + 1);
	if (!log) {
		fprintf(stderr, "%s: out of memory for the kernel log\n", who);
		return NULL;
	}
	len = klogctl(SYSLOG_ACTION_READ_ALL, log, size);
	if (len < 0) {
		fprintf(stderr, "%s: klogctl(READ_ALL) failed\n", who);
		free(log);
		return NULL;
	}
	log[len] = '\0';
	return log;
}

/*
 * The message of one log line: after an optional "<level>" prefix and an
 * optional "[ seconds.micros] " timestamp.
 */
static const char *klog_message(const char *line)
{
	const char *p = line;

	if (*p == '<') {
		p = strchr(p, '>');
		p = p ? p + 1 : line;
	}
	if (*p == '[') {
		const char *end = strchr(p, ']');

		if (end && end[1] == ' ')
			p = end + 2;
	}
	return p;
}

#endif /* WGT_CROSS_KLOG_H */
