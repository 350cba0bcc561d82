# Statistics for bench/report.sh and bench/compare.sh (POSIX awk: mawk,
# gawk, busybox).  Arrays are 1-based; nothing here changes its arguments
# except sortn().

# sortn(a, n): sort a[1..n] numerically, in place (insertion sort: n is a
# handful of repetitions).
function sortn(a, n,    i, j, v) {
	for (i = 2; i <= n; i++) {
		v = a[i]
		for (j = i - 1; j >= 1 && a[j] > v; j--)
			a[j + 1] = a[j]
		a[j + 1] = v
	}
}

# median(a, n): the median of a[1..n] ("" when n is 0).
function median(a, n,    s, i) {
	if (n < 1)
		return ""
	for (i = 1; i <= n; i++)
		s[i] = a[i]
	sortn(s, n)
	return n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2
}

function amin(a, n,    i, m) {
	m = a[1]
	for (i = 2; i <= n; i++)
		if (a[i] < m)
			m = a[i]
	return m
}

function amax(a, n,    i, m) {
	m = a[1]
	for (i = 2; i <= n; i++)
		if (a[i] > m)
			m = a[i]
	return m
}

# quantile(s, n, q): the q-quantile of the sorted s[1..n], interpolated.
function quantile(s, n, q,    h, l) {
	h = (n - 1) * q + 1
	l = int(h)
	if (l >= n)
		return s[n]
	return s[l] + (h - l) * (s[l + 1] - s[l])
}

# boot_ratio(x, nx, y, ny, b): percentile bootstrap of median(x)/median(y),
# b resamples of each, with a fixed seed so a report is reproducible; sets
# BOOT_LO and BOOT_HI to the 2.5% and 97.5% points.
function boot_ratio(x, nx, y, ny, b,    r, i, k, rx, ry, mx, my, nr) {
	srand(20190322)
	nr = 0
	for (k = 1; k <= b; k++) {
		for (i = 1; i <= nx; i++)
			rx[i] = x[int(rand() * nx) + 1]
		for (i = 1; i <= ny; i++)
			ry[i] = y[int(rand() * ny) + 1]
		mx = median(rx, nx)
		my = median(ry, ny)
		if (my > 0)
			r[++nr] = mx / my
	}
	if (nr == 0) {
		BOOT_LO = BOOT_HI = ""
		return
	}
	sortn(r, nr)
	BOOT_LO = quantile(r, nr, 0.025)
	BOOT_HI = quantile(r, nr, 0.975)
}

# mw_count(n, m, u): how many of the C(n+m, n) orderings of n values of Y
# and m values of X have exactly u pairs (y, x) with y > x (memoised).
function mw_count(n, m, u,    k) {
	if (u < 0)
		return 0
	if (n == 0 || m == 0)
		return u == 0
	k = n "," m "," u
	if (!(k in MW_MEMO))
		MW_MEMO[k] = mw_count(n - 1, m, u - m) + mw_count(n, m - 1, u)
	return MW_MEMO[k]
}

# mw_p_lower(y, ny, x, nx): exact one-sided Mann-Whitney p-value for "Y
# tends to be smaller than X": the chance, were both drawn from one
# distribution, of a U (pairs with y > x, ties counting a half) at most as
# large as the one observed.
function mw_p_lower(y, ny, x, nx,    i, j, u, c, tot, k) {
	u = 0
	for (i = 1; i <= ny; i++)
		for (j = 1; j <= nx; j++)
			u += y[i] > x[j] ? 1 : (y[i] == x[j] ? 0.5 : 0)
	MW_U = u
	c = 0
	tot = 0
	for (k = 0; k <= ny * nx; k++) {
		tot += mw_count(ny, nx, k)
		if (k <= u)
			c += mw_count(ny, nx, k)
	}
	return c / tot
}

# jesc(s): s as the inside of a JSON string.
function jesc(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	gsub(/\t/, "\\t", s)
	return s
}

# jnum(v): v as a JSON number, null when empty or not a number.
function jnum(v) {
	return v ~ /^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/ ? v + 0 : "null"
}

# jget(line, key): the value of "key": in a one-line JSON object (strings
# without their quotes), "" when absent.
function jget(line, key,    i, rest, v) {
	i = index(line, "\"" key "\":")
	if (!i)
		return ""
	rest = substr(line, i + length(key) + 3)
	if (substr(rest, 1, 1) == "\"") {
		rest = substr(rest, 2)
		v = ""
		while (rest != "" && substr(rest, 1, 1) != "\"") {
			if (substr(rest, 1, 1) == "\\")
				rest = substr(rest, 2)
			v = v substr(rest, 1, 1)
			rest = substr(rest, 2)
		}
		return v
	}
	match(rest, /^[^,}]*/)
	v = substr(rest, 1, RLENGTH)
	return v == "null" ? "" : v
}

# Effect sizes with exact distribution-free intervals (Hodges-Lehmann),
# for the cost metric.  Both set HL["est"], HL["lo"], HL["hi"] ("" when n is
# too small for the level) and HL["k"]: lo is the k-th smallest of the
# averages (differences), a one-sided lower confidence bound at level
# 1 - alpha, hi the k-th largest, so [lo, hi] is a 1 - 2 alpha interval.

# sr_count(n, t): how many of the 2^n sign patterns of ranks 1..n give a
# Wilcoxon signed-rank sum of t.
function sr_count(n, t,    k) {
	if (t < 0 || t > n * (n + 1) / 2)
		return 0
	if (n == 0)
		return t == 0
	k = n SUBSEP t
	if (!(k in SR_MEMO))
		SR_MEMO[k] = sr_count(n - 1, t) + sr_count(n - 1, t - n)
	return SR_MEMO[k]
}

# hl_paired(d, n, alpha): d[1..n] paired differences (log ratios): the
# median of the n(n+1)/2 Walsh averages, and the signed-rank interval.
function hl_paired(d, n, alpha,    w, nw, i, j, k, c, tot) {
	nw = 0
	for (i = 1; i <= n; i++)
		for (j = i; j <= n; j++)
			w[++nw] = (d[i] + d[j]) / 2
	sortn(w, nw)
	HL["est"] = median(w, nw)
	tot = 2 ^ n
	# The largest k with P(T <= k - 1) <= alpha.
	k = 0
	c = 0
	while (k < nw && (c + sr_count(n, k)) / tot <= alpha) {
		c += sr_count(n, k)
		k++
	}
	HL["k"] = k
	HL["lo"] = k ? w[k] : ""
	HL["hi"] = k ? w[nw + 1 - k] : ""
}

# hl_two(x, nx, y, ny, alpha): the median of the nx*ny differences x - y,
# and the Mann-Whitney interval.
function hl_two(x, nx, y, ny, alpha,    dd, nd, i, j, k, c, tot) {
	nd = 0
	for (i = 1; i <= nx; i++)
		for (j = 1; j <= ny; j++)
			dd[++nd] = x[i] - y[j]
	sortn(dd, nd)
	HL["est"] = median(dd, nd)
	tot = 0
	for (k = 0; k <= nd; k++)
		tot += mw_count(nx, ny, k)
	k = 0
	c = 0
	while (k < nd && (c + mw_count(nx, ny, k)) / tot <= alpha) {
		c += mw_count(nx, ny, k)
		k++
	}
	HL["k"] = k
	HL["lo"] = k ? dd[k] : ""
	HL["hi"] = k ? dd[nd + 1 - k] : ""
}

# cost_verdict(tol): on HL (log scale, positive = the candidate costs
# more): "REGRESSION" when the lower bound is above log(1 + tol), "ok"
# otherwise, "undecided" when the sample is too small for any bound.  Sets
# HL["mde"]: the smallest increase (as a fraction) this sample could have
# flagged: the tolerance plus the estimate's distance to its lower bound.
function cost_verdict(tol) {
	if (HL["lo"] == "") {
		HL["mde"] = ""
		return "undecided"
	}
	HL["mde"] = (1 + tol) * exp(HL["est"] - HL["lo"]) - 1
	return HL["lo"] > log(1 + tol) ? "REGRESSION" : "ok"
}
