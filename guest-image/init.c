// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the test guest.
 *
 * Mounts the pseudo-filesystems, seeds the RNG, runs the test entry named on
 * the kernel command line (wgt_entry=NAME runs /tests/entry/NAME) with its
 * output copied to the console and to the "verdict" virtio-serial port, then
 * writes the entry's exit status to that port and reboots.  QEMU runs with
 * -no-reboot, so the reboot ends the guest.
 *
 * The host reads its verdict only from the port, never from the console:
 * a line "# wgt-exit: N" at the end of the port's output is the verdict.  A
 * guest that panics or hangs leaves no such line.
 *
 * Kernel command-line words of the form name=value reach us as environment
 * variables: wgt_entry, wgt_seed (hex bytes fed to the RNG), wgt_args.
 *
 * Modules: a modular kernel's guest has /lib/modules/RELEASE with depmod's
 * modules.dep (kernel/build.sh, boot.sh).  Before the entry, init loads
 * every module listed there, each after the modules it depends on, with
 * the MODULE.param=value words of the kernel command line as its
 * parameters (as modprobe would), so module-init selftests run and report
 * before any case; what loaded and what did not goes to the port as "# "
 * lines.
 *
 * Kernel health: once the entry is done, init reads the whole kernel log and
 * the taint flags (beyond the N that a boot with kunit.enable=1 asked for,
 * and the O of the crypto-diff entry's own out-of-tree module)
 * and reports "# wgt-health: ok" or "# wgt-health: FAIL"
 * (with the offending log lines) on the port, before the exit status.  The
 * same check is a command for the entries, run after each case:
 *
 *	/init health [MARK [TAINT]]
 *
 * looks at the log after the last line containing MARK (all of it if MARK
 * is empty or gone from the ring buffer) and at taint bits beyond TAINT
 * (default 0); prints what it found as "# " lines and exits 1 on anything.
 *
 * LAVA (wgt_lava=1, netns-tests/lava): there is no port, so what would go
 * there only goes to the console, and each top-level KTAP result line of
 * the entry is repeated on the console as "wgt-lava: RESULT NAME", RESULT
 * one of pass, fail, skip and xfail (a TODO: a known failure), between a
 * "wgt-lava: begin ENTRY" line and the guest's own case after the health
 * check.  A LAVA test monitor matches those lines: its one regular
 * expression cannot tell a KTAP directive from a plain result.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/random.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define VERDICT_PORT_NAME "verdict"
/* Where the entries are; guest-image/check/ builds init.c with its own. */
#ifndef ENTRY_DIR
#define ENTRY_DIR "/tests/entry"
#endif
#define SEED_MAX 64

static int console_fd = -1;
static bool lava;

static void out(int fd, const char *buf, size_t len)
{
	while (fd >= 0 && len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= n;
	}
}

static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	out(console_fd, buf, n);
}

static void __attribute__((noreturn)) finish(void)
{
	sync();
	reboot(RB_AUTOBOOT);
	/* Not reached unless reboot failed; there is nothing else to do. */
	for (;;)
		pause();
}

static void __attribute__((noreturn)) fatal(const char *what)
{
	say("init: %s: %s\n", what, strerror(errno));
	finish();
}

static void mount_fs(const char *src, const char *dst, const char *type,
		     const char *opts)
{
	if (mkdir(dst, 0755) < 0 && errno != EEXIST)
		fatal(dst);
	if (mount(src, dst, type, 0, opts) < 0)
		fatal(dst);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Credit the host-provided seed so getrandom() never blocks in a test. */
static void seed_rng(void)
{
	struct {
		struct rand_pool_info info;
		unsigned char buf[SEED_MAX];
	} entropy;
	const char *hex = getenv("wgt_seed");
	size_t n = 0;
	int fd;

	if (!hex)
		return;
	while (n < SEED_MAX && hexval(hex[0]) >= 0 && hexval(hex[1]) >= 0) {
		entropy.buf[n++] = hexval(hex[0]) << 4 | hexval(hex[1]);
		hex += 2;
	}
	if (!n)
		return;
	entropy.info.entropy_count = n * 8;
	entropy.info.buf_size = n;
	fd = open("/dev/urandom", O_WRONLY);
	if (fd < 0)
		fatal("/dev/urandom");
	if (ioctl(fd, RNDADDENTROPY, &entropy) < 0)
		fatal("RNDADDENTROPY");
	close(fd);
}

/* The port QEMU names "verdict" shows up as /dev/vportNpM. */
static int open_verdict_port(void)
{
	char path[300], name[64];
	struct dirent *de;
	DIR *dir;
	int fd = -1;

	dir = opendir("/sys/class/virtio-ports");
	if (!dir)
		return -1;
	while (fd < 0 && (de = readdir(dir))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) &&
		    !strncmp(name, VERDICT_PORT_NAME, strlen(VERDICT_PORT_NAME))) {
			snprintf(path, sizeof(path), "/dev/%s", de->d_name);
			fd = open(path, O_WRONLY | O_CLOEXEC);
		}
		fclose(f);
	}
	closedir(dir);
	return fd;
}

/*
 * What a healthy kernel never logs: WARNINGs and BUGs (lockdep's reports
 * and the list, refcount and FPU checks print as WARNING), oopses,
 * atomic-context violations, netdevice reference leaks, RCU stalls, hung
 * tasks, lockups, and the KASAN, UBSAN and kmemleak reports.  Entries
 * marked 's' must start the message (after the timestamp, if any): that is
 * where WARN(), BUG() and lockdep put them, while a subsystem's own
 * "...: WARNING: see ..." notice, or a "DEBUG:", is not a report.
 */
static const char *const health_patterns[] = {
	"sBUG:", "sWARNING:", "sUBSAN:", "sKASAN:", "-Oops", "-general protection fault",
	"-Kernel panic", "-kernel BUG at", "-cut here ]", "-possible circular locking",
	"-possible recursive locking", "-inconsistent lock state",
	"-sleeping function called from invalid context",
	"-scheduling while atomic", "-unregister_netdevice: waiting for",
	"-rcu: INFO:", "-detected stall", "-blocked for more than",
	"-soft lockup", "-hard LOCKUP", "-new suspected memory leak",
	"-list_add corruption", "-list_del corruption", "-refcount_t: ",
};

static bool health_line_bad(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(health_patterns) / sizeof(health_patterns[0]); i++) {
		const char *pat = health_patterns[i] + 1;
		size_t plen = strlen(pat);
		const char *p = line;

		while (p + plen <= line + len) {
			p = memmem(p, line + len - p, pat, plen);
			if (!p)
				break;
			if (health_patterns[i][0] != 's' || p == line ||
			    (p >= line + 2 && p[-1] == ' ' && p[-2] == ']'))
				return true;
			p++;
		}
	}
	return false;
}

/* The taint flags as the kernel names them, bits 0 to 18. */
static void taint_letters(unsigned long t, char *buf, size_t size)
{
	static const char flags[] = "PFSRMBUDAWCIOELKXTN";
	size_t i, n = 0;

	for (i = 0; i < sizeof(flags) - 1 && n + 1 < size; i++)
		if (t & (1UL << i))
			buf[n++] = flags[i];
	buf[n] = '\0';
}

/*
 * health_check: the kernel log after the last line holding MARK (or all of
 * it), and the taint flags beyond TAINT.  Findings go to fd as "# " lines.
 * Returns true when the kernel is healthy.
 */
static bool health_check(int fd, const char *mark, unsigned long taint_before)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char line[600], letters[32];
	const char *from, *p, *end;
	int bad = 0, quoted = 0, tail = 0, len;
	unsigned long taint = 0;
	char *log;
	FILE *f;

	if (size <= 0)
		size = 1 << 20;
	log = malloc(size + 1);
	if (!log) {
		dprintf(fd, "# health: out of memory for the kernel log\n");
		return false;
	}
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
	if (len < 0) {
		dprintf(fd, "# health: cannot read the kernel log: %s\n", strerror(errno));
		free(log);
		return false;
	}
	log[len] = '\0';
	from = log;
	if (mark && *mark) {
		const char *m = NULL;

		for (p = log; (p = strstr(p, mark)); p++)
			m = p;
		if (m)
			from = m;
		else
			dprintf(fd, "# health: mark '%s' left the ring buffer; checking all of it\n", mark);
	}
	for (p = from; p < log + len; p = end + 1) {
		end = memchr(p, '\n', log + len - p);
		if (!end)
			end = log + len;
		if (health_line_bad(p, end - p)) {
			if (!bad++)
				dprintf(fd, "# health: the kernel logged trouble%s:\n",
					from == log ? " since boot" : " during the case");
			tail = 12;
		}
		if (tail > 0 && quoted < 80) {
			tail--;
			quoted++;
			dprintf(fd, "#   %.*s\n", (int)(end - p), p);
		}
	}
	free(log);

	f = fopen("/proc/sys/kernel/tainted", "r");
	if (!f || fscanf(f, "%lu", &taint) != 1) {
		dprintf(fd, "# health: cannot read /proc/sys/kernel/tainted\n");
		bad++;
	} else if (taint & ~taint_before) {
		taint_letters(taint & ~taint_before, letters, sizeof(letters));
		snprintf(line, sizeof(line), "# health: kernel taint %lu -> %lu (new: %s)\n",
			 taint_before, taint, letters);
		dprintf(fd, "%s", line);
		bad++;
	}
	if (f)
		fclose(f);
	return !bad;
}

#define MAX_MODULES 256

struct module_entry {
	char *path;	/* relative to /lib/modules/RELEASE */
	char *deps;	/* space-separated, as modules.dep has them */
	int state;	/* 0 not yet, 1 loading, 2 loaded, -1 failed */
};

static struct module_entry modules[MAX_MODULES];
static int nr_modules;
static char module_dir[320];

/* The module's name as the kernel knows it: basename, no .ko, '-' -> '_'. */
static void module_name(const char *path, char *name, size_t size)
{
	const char *b = strrchr(path, '/');
	size_t i;

	snprintf(name, size, "%s", b ? b + 1 : path);
	for (i = 0; name[i]; i++) {
		if (name[i] == '-')
			name[i] = '_';
		if (!strcmp(name + i, ".ko")) {
			name[i] = '\0';
			break;
		}
	}
}

/* NAME.param=value words of the kernel command line, as "param=value ...". */
static void module_params(const char *name, char *params, size_t size)
{
	char cmdline[4096], *word, *save = NULL;
	size_t len = strlen(name), used = 0;
	int fd, n;

	params[0] = '\0';
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	if (n <= 0)
		return;
	cmdline[n] = '\0';
	for (word = strtok_r(cmdline, " \n", &save); word;
	     word = strtok_r(NULL, " \n", &save)) {
		if (strncmp(word, name, len) || word[len] != '.' || !strchr(word, '='))
			continue;
		used += snprintf(params + used, size - used, "%s%s",
				 used ? " " : "", word + len + 1);
		if (used >= size) {
			params[size - 1] = '\0';
			return;
		}
	}
}

/*
 * The taint a boot asked for: KUnit taints the kernel (TAINT_TEST, "N",
 * bit 18) when it runs tests, which kunit.enable=1 on the command line
 * asks it to (the zinc-selftest guest of a kernel with Zinc's KUnit
 * suites); loading a module built outside the kernel's tree taints it
 * (TAINT_OOT_MODULE, "O", bit 12), which the crypto-diff entry does by
 * design.  Any other taint is still a failure.
 */
static unsigned long asked_taint(const char *entry)
{
	unsigned long taint = 0;
	char params[64];

	module_params("kunit", params, sizeof(params));
	if (strstr(params, "enable=1"))
		taint |= 1UL << 18;
	if (entry && !strcmp(entry, "crypto-diff"))
		taint |= 1UL << 12;
	return taint;
}

static struct module_entry *find_module(const char *path)
{
	int i;

	for (i = 0; i < nr_modules; i++)
		if (!strcmp(modules[i].path, path))
			return &modules[i];
	return NULL;
}

static int load_module(struct module_entry *m, int verdict_fd)
{
	char file[640], name[128], params[1024], *deps, *dep, *save = NULL;
	int fd, err, ret = 0;

	if (m->state)
		return m->state == -1 ? -1 : 0;
	m->state = 1;
	deps = strdup(m->deps);
	if (!deps)
		fatal("strdup");
	for (dep = strtok_r(deps, " ", &save); dep; dep = strtok_r(NULL, " ", &save)) {
		struct module_entry *d = find_module(dep);

		if (!d || load_module(d, verdict_fd) < 0) {
			dprintf(verdict_fd, "# init: module %s: its dependency %s %s\n",
				m->path, dep, d ? "did not load" : "is not in modules.dep");
			ret = -1;
		}
	}
	free(deps);
	module_name(m->path, name, sizeof(name));
	if (!ret) {
		module_params(name, params, sizeof(params));
		snprintf(file, sizeof(file), "%s/%s", module_dir, m->path);
		fd = open(file, O_RDONLY | O_CLOEXEC);
		err = fd < 0 ? errno : 0;
		if (fd >= 0 && syscall(SYS_finit_module, fd, params, 0) < 0 && errno != EEXIST)
			err = errno;
		if (fd >= 0)
			close(fd);
		if (err == ENODEV) {
			/* A driver for hardware the guest does not have. */
			dprintf(verdict_fd, "# init: module %s: no such device here\n", name);
			m->state = 2;
			return 0;
		}
		if (err) {
			dprintf(verdict_fd, "# init: module %s did not load: %s\n",
				name, strerror(err));
			ret = -1;
		}
	}
	m->state = ret ? -1 : 2;
	if (!ret)
		dprintf(verdict_fd, "# init: module %s loaded%s%s\n", name,
			params[0] ? " with " : "", params);
	return ret;
}

/* Load every module of modules.dep; returns how many failed. */
static int load_modules(int verdict_fd)
{
	char path[400], line[4096];
	struct utsname u;
	int i, failed = 0;
	FILE *f;

	if (uname(&u) < 0)
		return 0;
	snprintf(module_dir, sizeof(module_dir), "/lib/modules/%s", u.release);
	snprintf(path, sizeof(path), "%s/modules.dep", module_dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f) && nr_modules < MAX_MODULES) {
		char *colon = strchr(line, ':'), *deps;

		if (!colon)
			continue;
		*colon = '\0';
		deps = colon + 1;
		deps[strcspn(deps, "\n")] = '\0';
		while (*deps == ' ')
			deps++;
		modules[nr_modules].path = strdup(line);
		modules[nr_modules].deps = strdup(deps);
		if (!modules[nr_modules].path || !modules[nr_modules].deps)
			fatal("strdup");
		nr_modules++;
	}
	fclose(f);
	for (i = 0; i < nr_modules; i++)
		if (load_module(&modules[i], verdict_fd) < 0)
			failed++;
	dprintf(verdict_fd, "# init: %d of %d modules loaded\n", nr_modules - failed, nr_modules);
	return failed;
}

/* The "wgt-lava:" line for one line of the entry's output, if a result. */
static void lava_result(const char *line, size_t len)
{
	const char *p = line, *end = line + len, *name, *hash;
	const char *result = "pass";
	char msg[600];
	int n;

	if (len >= 7 && !strncmp(p, "not ok ", 7)) {
		result = "fail";
		p += 7;
	} else if (len >= 3 && !strncmp(p, "ok ", 3)) {
		p += 3;
	} else {
		return;
	}
	if (p == end || *p < '0' || *p > '9')
		return;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p == end || *p != ' ')
		return;
	name = ++p;
	hash = memmem(name, end - name, " # ", 3);
	if (hash) {
		if (end - hash >= 7 && !strncasecmp(hash + 3, "SKIP", 4))
			result = "skip";
		else if (end - hash >= 7 && !strncasecmp(hash + 3, "TODO", 4))
			result = "xfail";
		end = hash;
	}
	if (end == name)
		return;
	n = snprintf(msg, sizeof(msg), "wgt-lava: %s %.*s\n", result,
		     (int)(end - name), name);
	if (n > 0 && (size_t)n < sizeof(msg))
		out(console_fd, msg, n);
}

/* Feed the entry's output to lava_result() line by line. */
static void lava_feed(const char *buf, size_t len)
{
	static char line[512];
	static size_t used;
	static bool overflow;

	for (; len; buf++, len--) {
		if (*buf != '\n') {
			if (used < sizeof(line))
				line[used++] = *buf;
			else
				overflow = true;
			continue;
		}
		if (!overflow)
			lava_result(line, used);
		used = 0;
		overflow = false;
	}
}

static int run_entry(const char *entry, int verdict_fd)
{
	char path[256], buf[4096];
	bool eof = false, exited = false;
	int pipefd[2], status = 0, st;
	ssize_t n;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", ENTRY_DIR, entry);
	if (access(path, X_OK) < 0) {
		say("init: no test entry %s\n", path);
		return 2;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		fatal("pipe");
	pid = fork();
	if (pid < 0)
		fatal("fork");
	if (!pid) {
		const char *args = getenv("wgt_args");
		int null_fd = open("/dev/null", O_RDONLY);

		setsid();
		if (null_fd >= 0)
			dup2(null_fd, 0);
		dup2(pipefd[1], 1);
		dup2(pipefd[1], 2);
		execl(path, path, args ? args : "", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	/*
	 * As PID 1 we inherit every orphan: reap them all while copying the
	 * entry's output, or they linger as zombies that later checks see.
	 * Stop once the entry has exited and its pipe is drained, even if an
	 * orphan still holds the pipe open.
	 */
	for (;;) {
		struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
		/* Whether this poll comes after the entry was seen to exit. */
		bool after_exit = exited;
		pid_t w;
		int r;

		r = poll(&pfd, 1, exited ? 0 : 200);
		if (r > 0) {
			n = read(pipefd[0], buf, sizeof(buf));
			if (n > 0) {
				out(console_fd, buf, n);
				out(verdict_fd, buf, n);
				if (lava)
					lava_feed(buf, n);
				continue;
			}
			if (n < 0 && errno == EINTR)
				continue;
			eof = true;
		}
		while ((w = waitpid(-1, &st, WNOHANG)) > 0) {
			if (w == pid) {
				status = st;
				exited = true;
			}
		}
		/*
		 * Done at EOF, or, with an orphan still holding the pipe open,
		 * once a poll made after the entry's exit finds nothing.  Not
		 * on the empty poll just before the entry was seen to exit: it
		 * may have written its last line (the netns entry's last
		 * case) and exited after that poll, and that line would be
		 * lost.
		 */
		if (exited && (eof || (after_exit && r == 0)))
			break;
		if (eof && !exited) {
			/* Output closed: block until the entry itself exits. */
			w = waitpid(-1, &st, 0);
			if (w == pid) {
				status = st;
				exited = true;
			} else if (w < 0 && errno != EINTR) {
				fatal("waitpid");
			}
		}
	}
	close(pipefd[0]);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const char *entry = getenv("wgt_entry");
	int verdict_fd, report_fd, ret, mod_failed;
	char line[96];
	bool healthy;

	if (getpid() != 1) {
		if (argc >= 2 && !strcmp(argv[1], "health") && argc <= 4)
			return health_check(1, argc > 2 ? argv[2] : NULL,
					    argc > 3 ? strtoul(argv[3], NULL, 0) : 0) ? 0 : 1;
		fprintf(stderr, "usage: %s health [MARK [TAINT]]\n", argv[0]);
		return 2;
	}

	mount_fs("devtmpfs", "/dev", "devtmpfs", "mode=0755");
	/*
	 * The kernel leaves fds 0-2 closed when the initramfs has no
	 * /dev/console; fill them so no later descriptor lands there.
	 */
	while ((ret = open("/dev/console", O_RDWR)) >= 0 && ret < 2)
		;
	if (ret > 2)
		close(ret);
	console_fd = 1;
	mount_fs("proc", "/proc", "proc", NULL);
	mount_fs("sysfs", "/sys", "sysfs", NULL);
	mount_fs("tmpfs", "/tmp", "tmpfs", "mode=1777");
	mount_fs("tmpfs", "/run", "tmpfs", "mode=0755");
	mount_fs("devpts", "/dev/pts", "devpts", NULL);
	/* Optional: the path-evidence cases read ftrace/debugfs when built. */
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	seed_rng();
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	setenv("HOME", "/tmp", 1);
	setenv("TMPDIR", "/tmp", 1);

	lava = getenv("wgt_lava") && !strcmp(getenv("wgt_lava"), "1");
	verdict_fd = open_verdict_port();
	/* Module and health reports: on the port, else on the console. */
	report_fd = verdict_fd >= 0 ? verdict_fd : console_fd;
	if (verdict_fd < 0)
		say("init: no virtio-serial port named '%s': reports go to the console\n",
		    VERDICT_PORT_NAME);
	/* A module that refuses to load (a failing selftest) is ill health. */
	mod_failed = load_modules(report_fd);
	if (lava)
		say("wgt-lava: begin %s\n", entry ? entry : "(none)");
	if (!entry) {
		say("init: no wgt_entry= on the kernel command line\n");
		ret = 2;
	} else {
		ret = run_entry(entry, verdict_fd);
	}
	/*
	 * After the entry: the whole log since boot.  Written to the port
	 * (the console carries the kernel log itself), else the console.
	 */
	healthy = health_check(report_fd, NULL, asked_taint(entry)) && !mod_failed;
	snprintf(line, sizeof(line), "# wgt-health: %s\n", healthy ? "ok" : "FAIL");
	out(console_fd, line, strlen(line));
	out(verdict_fd, line, strlen(line));
	/*
	 * The host's own case for the guest (netns-tests/run.sh), whose
	 * "clean shutdown" half a LAVA monitor sees as its end string, the
	 * kernel's restart message.
	 */
	if (lava)
		say("wgt-lava: %s guest: kernel healthy, clean shutdown\n",
		    healthy ? "pass" : "fail");
	snprintf(line, sizeof(line), "# wgt-exit: %d\n", ret);
	out(console_fd, line, strlen(line));
	out(verdict_fd, line, strlen(line));
	if (verdict_fd >= 0) {
		fsync(verdict_fd);
		close(verdict_fd);
	}
	finish();
}
