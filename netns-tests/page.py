#!/usr/bin/python3
"""A run's results as one static HTML page, beside its KTAP.

    page.py write OUTDIR     OUTDIR/cases.tsv, run.env, ktap.txt and the
                             history -> OUTDIR/index.html
    page.py check OUTDIR [HTML]  read index.html (or HTML: the DOM a
                             browser made of it) back: its case count and
                             its failing cases must be the KTAP's (exit 1
                             names the difference)

The page needs no server and no network: the cases with their results,
the diagnostics and reproduce line of each failing case (from the KTAP),
each case's last results on its kernel (RESULTS_DIR/history.tsv,
netns-tests/history.sh), and the plots of a bench run (*.png beside it).
It carries what a check reads in the DOM: #cases rows with data-result,
#total and #failed.
"""

import html
import os
import sys
from html.parser import HTMLParser

# A run's record through its one reader (no __pycache__ left in the
# checkout).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402


def die(msg):
    print(f"netns-tests/page.py: {msg}", file=sys.stderr)
    sys.exit(1)


def write(outdir):
    ktap = os.path.join(outdir, "ktap.txt")
    if not os.path.exists(ktap):
        die(f"{outdir} has no ktap.txt")
    # The rows from the KTAP (each with its diagnostics), the kernel and
    # reproduce line of each from the record.
    env, recs = results.read(outdir, strict=False)
    ktap_results = results.ktap(ktap)
    rec = {r.name: r for r in recs}
    knobs = env.get("kernel_knobs", "").strip()
    hist = results.letters(os.path.join(env.get("results_dir", os.path.dirname(outdir)), "history.tsv"))
    counts = {"pass": 0, "fail": 0, "skip": 0, "known": 0}
    rows, fails = [], []
    for result, n, name, directive, diag in ktap_results:
        k = results.kind(result, directive)
        counts[k] += 1
        kern = results.kernel_name(env, rec[name].flavor if name in rec else "")
        past = hist.get((kern, name), "")[-results.FLAKY_WINDOW:]
        e = html.escape
        rows.append(f'<tr class="case {k}" data-result="{k}" data-n="{n}"><td>{n}</td>'
                    f'<td class="r">{e(result)}</td><td class="name">{e(name)}</td>'
                    f'<td>{e(directive)}</td><td class="hist">{e(past)}</td></tr>')
        if k == "fail":
            rp = rec[name].reproduce if name in rec else ""
            fails.append(f'<section class="failure" data-name="{e(name)}"><h3>not ok {n} {e(name)}</h3>'
                         + (f'<p>reproduce: <code>{e(rp)}</code></p>' if rp else "")
                         + f'<pre>{e(chr(10).join(diag))}</pre></section>')
    plots = sorted(p for p in os.listdir(outdir) if p.endswith(".png") and not p.startswith("index"))
    total = len(ktap_results)
    title = f"wg-harness run {env.get('stamp', os.path.basename(outdir))}"
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 1.5em; }}
table {{ border-collapse: collapse; }} td {{ padding: 0.15em 0.6em; border-bottom: 1px solid #ddd; }}
tr.pass .r {{ color: #080; }} tr.fail {{ background: #fdd; }} tr.skip .r {{ color: #888; }}
tr.known {{ background: #ffd; }} td.hist {{ font-family: monospace; }}
pre {{ background: #f6f6f6; padding: 0.5em; overflow-x: auto; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>started {html.escape(env.get('start_time', '?'))}, harness {html.escape(env.get('harness', '?'))},
{html.escape(env.get('arch', '?'))} under {html.escape(env.get('accel', '?'))}{html.escape(', ' + knobs) if knobs else ''}</p>
<p><span id="total">{total}</span> results: {counts['pass']} passed,
<span id="failed">{counts['fail']}</span> failed, {counts['skip']} skipped,
{counts['known']} known failures. KTAP: <a href="ktap.txt">ktap.txt</a>{', KCIDB: <a href="kcidb.json">kcidb.json</a>' if os.path.exists(os.path.join(outdir, 'kcidb.json')) else ''}</p>
{'<h2>Failures</h2>' + ''.join(fails) if fails else ''}
{''.join(f'<p><img src="{html.escape(p)}" alt="{html.escape(p)}"></p>' for p in plots)}
<h2>Cases</h2>
<p>History: this case's last results on this kernel, oldest first (P pass, F fail, S skip, X known failure).</p>
<table id="cases"><tr><th>#</th><th>result</th><th>case</th><th>directive</th><th>history</th></tr>
{chr(10).join(rows)}
</table></body></html>
"""
    tmp = os.path.join(outdir, "index.html.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, os.path.join(outdir, "index.html"))
    print(os.path.join(outdir, "index.html"))


class Reader(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.fail_names, self.ids, self._id = [], [], {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-result" in a:
            self.rows.append(a["data-result"])
        if tag == "section" and a.get("class") == "failure":
            self.fail_names.append(a.get("data-name", ""))
        if tag == "span" and a.get("id") in ("total", "failed"):
            self._id = a["id"]

    def handle_data(self, data):
        if self._id:
            self.ids[self._id] = data.strip()
            self._id = None


def check(outdir, page=None):
    ktap_results = results.ktap(os.path.join(outdir, "ktap.txt"))
    r = Reader()
    page = page or os.path.join(outdir, "index.html")
    with open(page, encoding="utf-8") as f:
        r.feed(f.read())
    want_fail = [name for res, _, name, d, _ in ktap_results if results.kind(res, d) == "fail"]
    errors = []
    if len(r.rows) != len(ktap_results) or r.ids.get("total") != str(len(ktap_results)):
        errors.append(f"{len(r.rows)} rows and a total of {r.ids.get('total')}, the KTAP has {len(ktap_results)} results")
    if r.fail_names != want_fail or r.ids.get("failed") != str(len(want_fail)):
        errors.append(f"failures shown: {r.fail_names} (count {r.ids.get('failed')}), the KTAP's: {want_fail}")
    if errors:
        die(f"{page}: " + "; ".join(errors))
    print(f"{page}: {len(ktap_results)} results, {len(want_fail)} failures, as in the KTAP")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(sys.argv[2])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "check":
        check(*sys.argv[2:])
    else:
        die("usage: page.py write OUTDIR | check OUTDIR [HTML]")
