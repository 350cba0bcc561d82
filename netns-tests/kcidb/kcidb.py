#!/usr/bin/python3
"""The results of one netns-tests/run.sh run as a KCIDB v5 report.

    kcidb.py write OUTDIR     OUTDIR/cases.tsv and run.env -> OUTDIR/kcidb.json
    kcidb.py validate FILE    check FILE against schema-v5.json

run.sh writes cases.tsv (a result a line) and run.env (the run's stamp,
start, architecture, accelerator, folders); each kernel folder
(BUILD_DIR/kernel/FLAVOR) has what kernel/build.sh recorded: key, source,
series, config.  The report holds one checkout per source tree (tarball
plus patch series), one build per kernel, one test per KTAP result, and
for each known failure (# TODO) an issue and its incident.  Every report
is validated before it is written; exit 1 names the first error.
"""

import hashlib
import json
import os
import re
import sys

ORIGIN = "wgt"
HERE = os.path.dirname(os.path.abspath(__file__))
# The run's record through its one reader (no __pycache__ left in the
# checkout).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(HERE))
import results  # noqa: E402
from results import read_kv  # noqa: E402


def die(msg):
    print(f"netns-tests/kcidb: {msg}", file=sys.stderr)
    sys.exit(1)


def url(path):
    return "file://" + os.path.abspath(path)


def segment(text):
    """One test path segment: runs of other characters become '-'."""
    return re.sub(r"[^a-zA-Z0-9_]+", "-", text).strip("-").lower() or "x"


def test_path(where, name):
    """wireguard.WHERE.NAME, each ': ' of the KTAP name a level."""
    parts = ["wireguard"] + where.split(".") + name.split(": ")
    return ".".join(segment(p) for p in parts)


def status_of(r):
    """KCIDB's status of a result: a known failure is a FAIL (with an
    incident), a case that never ran MISS, one that timed out ERROR."""
    if r.kind in ("pass", "skip"):
        return r.kind.upper()
    if r.not_run:
        return "MISS"
    if r.directive.startswith("timed out"):
        return "ERROR"
    return "FAIL"


def image_checkout(checkouts, misc):
    """The checkout of a prebuilt image (misc: its 'image' path and
    'image_sha256'): the image itself, named by its content."""
    cid = f"{ORIGIN}:image-{misc['image_sha256'][:16]}"
    checkouts.setdefault(cid, {"id": cid, "origin": ORIGIN, "valid": True,
                               "comment": f"the prebuilt image {misc['image']}",
                               "misc": dict(misc)})
    return cid


def kernel(kernel_root, flavor, checkouts, builds):
    """The build id of FLAVOR's kernel; adds its checkout and build."""
    kdir = os.path.join(kernel_root, flavor)
    try:
        with open(os.path.join(kdir, "key"), encoding="utf-8") as f:
            key = f.read().strip()
    except FileNotFoundError:
        die(f"no kernel key in {kdir}: was the {flavor} kernel built by kernel/build.sh?")
    build_id = f"{ORIGIN}:{flavor}-{key}"
    if build_id in builds:
        return build_id
    source = read_kv(os.path.join(kdir, "source"))
    series = []
    try:
        with open(os.path.join(kdir, "series"), encoding="utf-8") as f:
            series = [line.split(" ", 1) for line in f.read().splitlines() if line]
    except FileNotFoundError:
        pass
    if "image_sha256" in source:
        # A prebuilt image (KERNEL=).
        checkout_id = image_checkout(checkouts, source)
    else:
        checkout_id = f"{ORIGIN}:{source.get('src_key', 'unrecorded-' + key)}"
    if checkout_id in checkouts:
        pass
    elif "tree" in source:
        # A user's tree (KERNEL_TREE=): its commit, as git names it.
        c = {"id": checkout_id, "origin": ORIGIN, "valid": True,
             "comment": f"the tree {source['tree']} at {source.get('describe', '?')}",
             "misc": dict(source)}
        if re.fullmatch(r"[0-9a-f]{40}", source.get("commit", "")):
            c["git_commit_hash"] = source["commit"]
            c["git_commit_name"] = source.get("describe", "")
        checkouts[checkout_id] = c
    else:
        c = {"id": checkout_id, "origin": ORIGIN, "valid": True,
             "tree_name": "linux-source-6.1"}
        package = source.get("package", "")
        what = package or source.get("tarball", "an unrecorded source tree")
        c["comment"] = f"{what} + {len(series)} patches" if series else f"{what}, no patches"
        if series:
            c["patchset_files"] = [{"name": os.path.basename(p), "url": url(p)} for _, p in series]
            hashes = "".join(h + "\n" for h, _ in series)
            c["patchset_hash"] = hashlib.sha256(hashes.encode()).hexdigest()
        elif "src_key" in source:
            c["patchset_hash"] = ""
        c["misc"] = dict(source)
        checkouts[checkout_id] = c
    b = {"id": build_id, "origin": ORIGIN, "checkout_id": checkout_id,
         "status": "PASS", "config_name": flavor,
         "misc": {"flavor": flavor, "key": key}}
    arch = flavor.rsplit("-", 1)[-1]
    b["architecture"] = arch if arch in ("arm64", "arm") else "x86_64"
    config = os.path.join(kdir, "config")
    if os.path.exists(config):
        b["config_url"] = url(config)
        with open(config, encoding="utf-8", errors="replace") as f:
            m = re.search(r'^CONFIG_CC_VERSION_TEXT="(.*)"$', f.read(), re.M)
        if m:
            b["compiler"] = m.group(1)
    if os.path.exists(os.path.join(kdir, "build.log")):
        b["log_url"] = url(os.path.join(kdir, "build.log"))
    try:
        with open(os.path.join(kdir, "patches"), encoding="utf-8") as f:
            b["misc"]["patches"] = f.read().splitlines()
    except FileNotFoundError:
        pass
    builds[build_id] = b
    return build_id


def image_build(img, checkouts, builds):
    """The build id of a kernel image that is not in a kernel/build.sh
    folder (bench's CAND_TREE or CAND_KERNEL): named by its content."""
    with open(img, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    cid = image_checkout(checkouts, {"image": os.path.abspath(img), "image_sha256": sha})
    builds.setdefault(cid, {"id": cid, "origin": ORIGIN, "checkout_id": cid,
                            "status": "PASS", "misc": {"image": os.path.abspath(img)}})
    return cid


def bench_report(outdir, cand_img, base_img):
    """A make bench run (results.json): per side and measurement a test
    carrying the figure (number, unit); the cost metrics' tests on the
    candidate carry the verdict (FAIL: a regression, PASS: none, DONE:
    undecided or not judged, ERROR: the measurement failed)."""
    try:
        with open(os.path.join(outdir, "results.json"), encoding="utf-8") as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        die(f"{outdir}/results.json: {e}")
    checkouts, builds, tests = {}, {}, []
    side_build = {}
    for side, img in (("cand", cand_img), ("base", base_img)):
        kdir = os.path.dirname(os.path.abspath(img))
        if os.path.exists(os.path.join(kdir, "key")):
            side_build[side] = kernel(os.path.dirname(kdir), os.path.basename(kdir), checkouts, builds)
        else:
            side_build[side] = image_build(img, checkouts, builds)
    stamp = os.path.basename(os.path.abspath(outdir))
    env = {"comment": f"make bench, QEMU {res['config'].get('accel', '?')} guests",
           "misc": {"candidate": res["candidate"], "baseline": res["baseline"],
                    "config": res["config"], "started": res.get("started", "")}}

    def add(side, path, value, unit, status="DONE", misc=None):
        t = {"id": f"{ORIGIN}:{stamp}.{len(tests) + 1}", "origin": ORIGIN,
             "build_id": side_build[side], "path": path, "status": status,
             "number": {"value": value, "unit": unit}, "environment": env,
             "log_url": url(os.path.join(outdir, "table.txt"))}
        if misc:
            t["misc"] = misc
        tests.append(t)

    for r in res.get("summary", []):
        for side in ("cand", "base"):
            if r[side].get("n"):
                add(side, f"wireguard.bench.{segment(r['mode'])}.{segment(r['test'])}",
                    r[side]["median"], r["unit"],
                    misc={"n": r[side]["n"], "min": r[side]["min"], "max": r[side]["max"]})
    # report.sh's verdicts: REGRESSION, ok, undecided (no regression shown,
    # none ruled out), not judged (a figure only), error.
    verdict_status = {"REGRESSION": "FAIL", "ok": "PASS", "undecided": "DONE",
                      "not judged": "DONE"}
    for r in res.get("cost_summary", []):
        path = f"wireguard.bench.{segment(r['mode'])}.{segment(r['test'])}.{segment(r['metric'])}"
        for side in ("cand", "base"):
            if not r[side].get("n"):
                continue
            status = "DONE"
            misc = {"n": r[side]["n"], "min": r[side]["min"], "max": r[side]["max"]}
            if side == "cand":
                status = verdict_status.get(r.get("verdict", ""), "ERROR")
                misc.update({k: r[k] for k in ("verdict", "change", "change_interval",
                                               "min_detectable_change", "tolerance") if k in r})
            add(side, path, r[side]["median"], r["unit"], status, misc)
    for r in res.get("micro_summary", []):
        side = r["kernel"]
        if side in side_build and r.get("n"):
            add(side, "wireguard.bench.micro." + ".".join(
                segment(str(r[k])) for k in ("primitive", "op", "impl", "bytes")),
                r["best_batch"]["median"], r["unit"], misc={"n": r["n"]})
    return {"version": {"major": 5, "minor": 3}, "checkouts": list(checkouts.values()),
            "builds": list(builds.values()), "tests": tests}


def report(outdir):
    env = read_kv(os.path.join(outdir, "run.env"))
    for k in ("stamp", "start_time", "kernel_root", "results_dir", "arch", "accel"):
        if k not in env:
            die(f"{outdir}/run.env lacks {k}")
    checkouts, builds, tests, issues, incidents = {}, {}, [], {}, []
    try:
        recs = results.read_tsv(os.path.join(outdir, "cases.tsv"))
    except results.Bad as e:
        die(str(e))
    for r in recs:
        n, res, ktap_name, where, name, directive, secs, flavor, run, notes, repro = r
        line = "\t".join(r) + "\n"
        t = {"id": f"{ORIGIN}:{env['stamp']}.{n}", "origin": ORIGIN,
             "build_id": kernel(env["kernel_root"], flavor, checkouts, builds),
             "path": test_path(where, name),
             "status": status_of(r),
             "environment": {
                 "comment": f"QEMU {env['accel']} guest, {env['arch']}",
                 "misc": {"accel": env["accel"], "arch": env["arch"], "run": run,
                          "run_start": env["start_time"]}},
             "log_url": url(os.path.join(env["results_dir"], run, "console.log")),
             "misc": {"ktap": f"{res} {n} {ktap_name}" + (f" # {directive}" if directive else "")}}
        if repro:
            t["misc"]["reproduce"] = repro
        if secs:
            t["duration"] = int(secs)
        # run.sh's notes: how much the guest stretched the case's waits
        # and timeout (timeout_scale), how often QEMU was booted again;
        # on virtual time (the timers suite), the seconds of the guest's
        # clock and of the wall clock the case took.
        for word in notes.split():
            k, _, v = word.partition("=")
            if k in ("timeout_scale", "qemu_restarts") and v.isdigit():
                t["environment"]["misc"][k] = int(v)
            elif k in ("guest_seconds", "wall_seconds") and re.fullmatch(r"[0-9]+(\.[0-9]+)?", v):
                t["environment"]["misc"][k] = float(v)
            else:
                die(f"{outdir}/cases.tsv: bad note {word!r}: {line!r}")
        if env.get("harness"):
            t["environment"]["misc"]["harness"] = env["harness"]
        tests.append(t)
        if r.kind == "known":
            # A known failure: the issue it is (one per case, the same
            # in every run), and its incident here with this run's words.
            issue_id = f"{ORIGIN}:known.{t['path']}"
            issues[issue_id] = {"id": issue_id, "version": 0, "origin": ORIGIN,
                                "comment": f"known failure of {t['path']}",
                                "culprit": {"code": True}}
            incidents.append({"id": f"{t['id']}.known", "origin": ORIGIN,
                              "issue_id": issue_id, "issue_version": 0,
                              "test_id": t["id"], "present": True,
                              "comment": directive})
    doc = {"version": {"major": 5, "minor": 3},
           "checkouts": list(checkouts.values()), "builds": list(builds.values()),
           "tests": tests}
    if issues:
        doc["issues"] = list(issues.values())
        doc["incidents"] = incidents
    return doc


def validate(doc):
    try:
        import jsonschema
    except ImportError:
        die("python3-jsonschema is missing: run 'make deps' as root")
    with open(os.path.join(HERE, "schema-v5.json"), encoding="utf-8") as f:
        schema = json.load(f)
    v = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        die(f"not a valid KCIDB v5 report: {where}: {e.message}"
            + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""))
    # What JSON Schema cannot say: every link resolves, ids are unique.
    for kind, link, parent in (("builds", "checkout_id", "checkouts"),
                               ("tests", "build_id", "builds"),
                               ("incidents", "issue_id", "issues"),
                               ("incidents", "test_id", "tests")):
        ids = {o["id"] for o in doc.get(parent, [])}
        for o in doc.get(kind, []):
            if link in o and o[link] not in ids:
                die(f"not a valid KCIDB v5 report: {kind} {o['id']}: {link} {o[link]} is not in {parent}")
    for kind in ("checkouts", "builds", "tests", "issues", "incidents"):
        ids = [o["id"] for o in doc.get(kind, [])]
        if len(ids) != len(set(ids)):
            die(f"not a valid KCIDB v5 report: two {kind} share an id")


def main():
    if sys.argv[1:2] == ["bench"] and len(sys.argv) == 5:
        doc = bench_report(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) != 3 or sys.argv[1] not in ("write", "validate"):
        die("usage: kcidb.py write OUTDIR | kcidb.py bench OUTDIR CAND_IMAGE BASE_IMAGE"
            " | kcidb.py validate FILE")
    elif sys.argv[1] == "write":
        doc = report(sys.argv[2])
    if sys.argv[1] in ("write", "bench"):
        validate(doc)
        out = os.path.join(sys.argv[2], "kcidb.json")
        with open(out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.rename(out + ".tmp", out)
        print(out)
    else:
        try:
            with open(sys.argv[2], encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            die(f"{sys.argv[2]}: {e}")
        validate(doc)
        print(f"{sys.argv[2]}: a valid KCIDB v5 report: " + ", ".join(
            f"{len(doc.get(k, []))} {k}" for k in ("checkouts", "builds", "tests", "issues")))


if __name__ == "__main__":
    main()
