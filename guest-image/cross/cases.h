/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The case lists of the static entries of guests without a shell
 * (guest-image/cross), built in from their shell entries' header lines.
 */
#ifndef WGT_CROSS_CASES_H
#define WGT_CROSS_CASES_H

#include <string.h>

/*
 * Splits @list ("a|b|c") in place into @names, after the @n names already
 * there, up to @max in all; returns the new count.
 */
static int split_cases(char *list, char **names, int n, int max)
{
	char *tok, *save;

	for (tok = strtok_r(list, "|", &save); tok && n < max;
	     tok = strtok_r(NULL, "|", &save))
		names[n++] = tok;
	return n;
}

#endif /* WGT_CROSS_CASES_H */
