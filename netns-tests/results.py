#!/usr/bin/python3
"""A run's results: the one reader of what netns-tests/run.sh records.

run.sh writes, in a run's folder OUTDIR:
  cases.tsv  a result a line, eleven tab-separated fields (FIELDS below;
             runs before the reproduce line have ten)
  run.env    KEY=VALUE lines: stamp, start_time, kernel_root,
             results_dir, arch, accel, harness, kernel_knobs
  ktap.txt   the KTAP, each result's diagnostics above its line
and the run appends its results to RESULTS_DIR/history.tsv (start, stamp,
kernel, content key, letter, KTAP name).  Every view of a run reads them
here: the KCIDB report (kcidb/kcidb.py), the page (page.py), the history
(history.sh), LAVA's comparison (lava/lava.py), the soak's table
(soak.sh) and bisect's verdict (bisect.sh).  A result is one of four
kinds: pass, fail, skip, known (a known failure, # TODO).

    results.py list OUTDIR...     a line per result: its kind, then its
                                  record's eleven fields (FIELDS: 2 the
                                  number, 4 the KTAP name, 7 the
                                  directive, 9 the flavor; tab-separated)
    results.py history-add OUTDIR HISTORY
                                  append OUTDIR's results to HISTORY (under
                                  HISTORY.lock); then what is new since the
                                  last run of each kernel, and what is flaky
    results.py history-show HISTORY N
                                  each case's last N results per kernel
"""

import collections
import fcntl
import os
import re
import sys

FIELDS = ("n", "res", "name", "where", "case", "directive", "secs", "flavor", "run",
          "notes", "reproduce")
LETTER = {"pass": "P", "fail": "F", "skip": "S", "known": "X"}
WORD = {"P": "pass", "F": "fail", "S": "skip", "X": "known failure"}
# How many of a case's last results tell whether it is flaky: a case is
# flaky when its result flipped more than once in them.
FLAKY_WINDOW = 10
RESULT_LINE = re.compile(r"^(ok|not ok) (\d+) (.*)$")


class Bad(Exception):
    """A record that cannot be read: the message names it."""


def die(msg):
    print(f"netns-tests/results.py: {msg}", file=sys.stderr)
    sys.exit(1)


def read_kv(path):
    """KEY=VALUE lines, or {} when PATH is missing."""
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, sep, value = line.rstrip("\n").partition("=")
                if sep:
                    out[key] = value
    except FileNotFoundError:
        pass
    return out


def kind(res, directive):
    """pass, fail, skip or known, from the KTAP result and its directive."""
    if res == "ok":
        return "skip" if directive.upper().startswith("SKIP") else "pass"
    return "known" if directive.startswith("TODO") else "fail"


class Result(collections.namedtuple("Result", FIELDS)):
    """One line of cases.tsv."""

    @property
    def kind(self):
        return kind(self.res, self.directive)

    @property
    def letter(self):
        return LETTER[self.kind]

    @property
    def not_run(self):
        """A case that never ran (its guest did not boot or died first)."""
        return self.directive.startswith("not run")


def read_tsv(path, strict=True):
    """The results of a cases.tsv file ([] when it is missing).  strict:
    a line that is not 10 or 11 fields raises Bad; else it is passed over."""
    out = []
    try:
        f = open(path, encoding="utf-8")
    except FileNotFoundError:
        return out
    with f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 10:
                fields.append("")
            if len(fields) != 11:
                if strict:
                    raise Bad(f"{path}: not 10 or 11 fields: {line!r}")
                continue
            out.append(Result(*fields))
    return out


def kernel_name(env, flavor):
    """The kernel a result ran on, as the history names it: the flavor and
    the knobs that name the user's kernel (run.env's kernel_knobs)."""
    knobs = env.get("kernel_knobs", "").strip()
    return flavor + (" " + knobs if knobs else "")


def read(outdir, strict=True):
    """(run.env as a dict, [Result]) of run OUTDIR."""
    return (read_kv(os.path.join(outdir, "run.env")),
            read_tsv(os.path.join(outdir, "cases.tsv"), strict))


def ktap(path):
    """[(result, n, name, directive, diagnostics)] of a KTAP file: each
    result with the '#' lines above it (not the header's kernel lines)."""
    out, diag = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = RESULT_LINE.match(line)
            if m:
                name, _, directive = m.group(3).partition(" # ")
                out.append((m.group(1), int(m.group(2)), name, directive, diag))
                diag = []
            elif line.startswith("# kernel ") and not out:
                pass
            elif line.startswith("#"):
                diag.append(line)
    return out


# The history: RESULTS_DIR/history.tsv, a line per result of every run:
# start, stamp, kernel, content key, letter, KTAP name.  "The same
# kernel" is the same flavor and knobs, whatever its content: a
# developer's patched kernel changes from run to run, and what changed
# with it is the point.
def history_lines(outdir):
    """Run OUTDIR's lines of the history."""
    env, results = read(outdir, strict=False)
    keys = {}
    for r in results:
        if r.flavor not in keys:
            try:
                with open(os.path.join(env.get("kernel_root", ""), r.flavor, "key"),
                          encoding="utf-8") as f:
                    line = f.readline()
                keys[r.flavor] = line.rstrip("\n") if line else "-"
            except OSError:
                keys[r.flavor] = "-"
        yield "\t".join((env.get("start_time", ""), env.get("stamp", ""),
                         kernel_name(env, r.flavor), keys[r.flavor], r.letter, r.name))


def read_history(path):
    """[(start, stamp, kernel, key, letter, name)] of a history file."""
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if len(fields) == 6:
                    out.append(tuple(fields))
    except FileNotFoundError:
        pass
    return out


def letters(path):
    """{(kernel, name): "PPF..."}, oldest first, of a history file."""
    h = {}
    for _, _, kern, _, letter, name in read_history(path):
        h[(kern, name)] = h.get((kern, name), "") + letter
    return h


def flips(s):
    return sum(1 for a, b in zip(s, s[1:]) if a != b)


def history_add(outdir, path):
    if not os.path.exists(os.path.join(outdir, "run.env")):
        die(f"{outdir} has no run.env: not a run's results")
    lines = list(history_lines(outdir))
    if not lines:
        return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".lock", "a", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        with open(path, "a", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
    history_news(read_kv(os.path.join(outdir, "run.env")).get("stamp", ""), path)


def history_news(stamp, path):
    """For run STAMP's cases, each against its last result on the same
    kernel before that run: newly failing, newly passing; then its cases
    that flipped more than once in their last results."""
    cur, order, last, lastwhen, past = {}, [], {}, {}, {}
    for start, st, kern, _, letter, name in read_history(path):
        case = (kern, name)
        if st == stamp:
            order.append(case)
            cur[case] = letter
            continue
        last[case], lastwhen[case] = letter, start
        past[case] = past.get(case, "") + letter
    if not order:
        return
    nf, np, fk, fresh = [], [], [], 0
    for case in order:
        name = case[1]
        if case not in last:
            fresh += 1
            continue
        was, now = last[case], cur[case]
        if was != "F" and now == "F":
            nf.append(f"# history: newly failing: {name} (was {WORD[was]} on {lastwhen[case]})")
        if was == "F" and now != "F":
            np.append(f"# history: newly passing: {name} ({WORD[now]} now, failed on {lastwhen[case]})")
        h = (past[case] + now)[-FLAKY_WINDOW:]
        if flips(h) > 1:
            fk.append(f"# history: flaky: {name}: {h} (last {len(h)}, oldest first)")
    for line in nf + np + fk:
        print(line)
    print(f"# history: {len(nf) + len(np)} of {len(order)} results new or changed since the last"
          f" run of their kernel, {fresh} first runs, {len(fk)} flaky")


def history_show(path, n):
    h, when = {}, {}
    for start, _, kern, _, letter, name in read_history(path):
        h[(kern, name)] = h.get((kern, name), "") + letter
        when[(kern, name)] = start
    rows = []
    for (kern, name), s in h.items():
        tail = s[-n:]
        flaky = ", flaky" if flips(s[-FLAKY_WINDOW:]) > 1 else ""
        rows.append((name, f"{tail:<{n}}  {kern:<24}  {flips(tail):2d} flips{flaky}"
                           f"  (last {when[(kern, name)]})\t{name}"))
    # By name, then by the whole line, as sort(1) in the C locale orders
    # equal keys.
    for _, row in sorted(rows, key=lambda r: (r[0].encode(), r[1].encode())):
        print(row.replace("\t", " "))


def main(argv):
    if len(argv) >= 2 and argv[0] == "list":
        for outdir in argv[1:]:
            try:
                _, results = read(outdir)
            except Bad as e:
                die(str(e))
            for r in results:
                print(r.kind + "\t" + "\t".join(r))
    elif len(argv) == 3 and argv[0] == "history-add":
        history_add(argv[1], argv[2])
    elif len(argv) == 3 and argv[0] == "history-show" and argv[2].isdigit() and int(argv[2]) > 0:
        history_show(argv[1], int(argv[2]))
    else:
        die("usage: results.py list OUTDIR... | history-add OUTDIR HISTORY | history-show HISTORY N")


if __name__ == "__main__":
    main(sys.argv[1:])
