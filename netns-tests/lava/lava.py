#!/usr/bin/python3
"""LAVA jobs for the harness's suites of one guest, and their results.

    lava.py jobs BOOTS OUT [BASE_URL]
        BOOTS/*.boot (netns-tests/run.sh with LAVA_BOOTS=BOOTS) ->
        OUT/jobs/SUITE-LABEL.yaml, a job each; OUT/artifacts/, the kernels
        and initramfs images they name; OUT/devices/, for each
        architecture a device dictionary for a LAVA server
        (wgt-qemu-ARCH.jinja2, on the server's qemu device type) and the
        same device rendered (wgt-qemu-ARCH.yaml) for lava-run.  The
        jobs name their artifacts under BASE_URL (default: file:// paths
        into OUT/artifacts, which only a local lava-run can read).
    lava.py results LOG
        the test cases of one lava-run's log (its stdout), a line each:
        RESULT<TAB>CASE, RESULT pass, fail or skip; exit 1 when the job
        did not complete.
    lava.py monitor CONSOLE
        what the jobs' test monitor finds in a console log, as results does.
    lava.py compare TSV RESULTS
        the direct run's cases.tsv (netns-tests/run.sh) beside lava.py
        results' lines, a case a line; exit 1 when one differs or is
        missing on one side.

A job boots the kernel and initramfs exactly as guest-image/boot.sh would
(the same QEMU options and kernel command line, plus wgt_lava=1), with no
verdict port: the guest's init then repeats each KTAP result on the
console as "wgt-lava: RESULT NAME", which a LAVA test monitor turns into
test cases, and ends with the guest's own case.  The monitor's end is the
kernel's restart message: a guest that dies or hangs leaves the job
incomplete.  LAVA has no expected failure, so a KTAP known failure (# TODO)
is a fail in LAVA, as its "not ok" says.
"""

import json
import os
import re
import shutil
import sys

import yaml

# A run's record through its one reader (no __pycache__ left in the
# checkout).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import results  # noqa: E402
from results import read_kv  # noqa: E402

# LAVA's own names for the architectures (the job's context "arch").
LAVA_ARCH = {"x86_64": "x86_64", "arm64": "arm64", "arm": "arm"}
# What the monitor matches (guest-image/init.c, wgt_lava=1).
BEGIN = "wgt-lava: begin "
PATTERN = r"wgt-lava: (?P<result>pass|fail|skip|xfail) (?P<test_case_id>[^\r\n]+)[\r\n]"
END = "reboot: Restarting system"
FIXUPDICT = {"xfail": "fail"}


def die(msg):
    print(f"netns-tests/lava: {msg}", file=sys.stderr)
    sys.exit(1)


def case_id(name):
    """LAVA's test case id for a case name (lower case, \\W+ as _)."""
    return re.sub(r"\W+", "_", name.strip().lower())


def minutes(seconds):
    return {"minutes": max(1, -(-int(seconds) // 60))}


def artifact(path, out, name):
    """PATH as OUT/artifacts/NAME (a hard link where it can be)."""
    dst = os.path.join(out, "artifacts", name)
    if os.path.exists(dst):
        os.unlink(dst)
    try:
        os.link(path, dst)
    except OSError:
        shutil.copyfile(path, dst)
    return name


def initrd_of(boot, out, label):
    """The initramfs a job boots: a modular kernel's modules appended, as
    boot.sh appends them (the kernel unpacks concatenated archives)."""
    if not boot.get("modules"):
        return artifact(boot["initrd"], out, os.path.basename(boot["initrd"]))
    name = f"initrd-{label}.cpio.gz"
    with open(os.path.join(out, "artifacts", name), "wb") as dst:
        for part in (boot["initrd"], boot["modules"]):
            with open(part, "rb") as src:
                shutil.copyfileobj(src, dst)
    return name


def context(boot):
    """The job's context: what the server's qemu device type renders the
    QEMU options from (its variables arch, no_kvm, cpu, machine, memory,
    extra_options), set to what boot.sh would run."""
    ctx = {"arch": LAVA_ARCH[boot["arch"]], "memory": int(boot["mem"])}
    extra = boot["options"]
    if boot["arch"] == "x86_64":
        # KVM: the device type adds -cpu host -enable-kvm itself.
        ctx["no_kvm"] = boot["accel"] != "kvm"
        extra = extra.replace("-accel kvm", "").strip()
        if ctx["no_kvm"]:
            extra += f" -cpu {boot['cpu']}"
    else:
        ctx["cpu"] = boot["cpu"]
        ctx["machine"] = boot["machine"]
    ctx["extra_options"] = [extra]
    return ctx


def rendered_options(ctx):
    """The options the qemu device type renders from CTX, for the
    architectures here (for a rendered device, as a server would)."""
    opts = []
    if ctx["arch"] in ("arm64", "arm"):
        opts += [f"-cpu {ctx['cpu']}", f"-machine {ctx['machine']}"]
    elif not ctx["no_kvm"]:
        opts += ["-cpu host", "-enable-kvm"]
    opts += ["-nographic",
             "-net nic,model=virtio,macaddr=52:54:00:12:34:58 -net user",
             f"-m {ctx['memory']}", "-monitor none"]
    return opts


def device_files(arch, boot, out):
    """The device dictionary (server) and the rendered device (lava-run)."""
    ctx = context(boot)
    base = os.path.join(out, "devices", f"wgt-qemu-{arch}")
    with open(base + ".jinja2", "w", encoding="utf-8") as f:
        f.write(
            "{# A QEMU device for wg-harness jobs (netns-tests/lava): the\n"
            "   jobs' context sets the architecture, CPU, memory, KVM and\n"
            "   the options of the harness's own QEMU command line. #}\n"
            "{% extends 'qemu.jinja2' %}\n"
        )
    device = {
        "constants": {
            "spawn_maxread": "4092",
            "kernel-start-message": "Linux version [0-9]",
            "shutdown-message": END,
            "default-shell-prompt": "lava-test: # ",
            "posix": {
                "lava_test_sh_cmd": "/bin/sh",
                "lava_test_results_dir": "/lava-%s",
                "lava_test_shell_file": "~/.bashrc",
            },
            "failure_retry": 1,
            "boot_retry": 0,
        },
        "parameters": {},
        "available_architectures": sorted(set(LAVA_ARCH.values())),
        "actions": {
            "deploy": {
                "connections": {"serial": None},
                "methods": {
                    "image": {
                        "parameters": {
                            "guest": {"size": 512, "interface": "ide", "driveid": "lavatest"}
                        }
                    }
                },
            },
            "boot": {
                "connections": {"serial": None},
                "methods": {
                    "qemu": {
                        "parameters": {
                            "command": boot["qemu"],
                            "options": rendered_options(ctx),
                            "extra": ctx["extra_options"],
                        }
                    }
                },
            },
        },
        "timeouts": {
            "actions": {},
            "connections": {},
        },
    }
    with open(base + ".yaml", "w", encoding="utf-8") as f:
        f.write(f"# wgt-qemu-{arch}: what LAVA renders from wgt-qemu-{arch}.jinja2\n"
                "# for a job of netns-tests/lava, for lava-run without a server.\n")
        yaml.safe_dump(device, f, sort_keys=False)


def job(boot, kernel, initrd, base_url):
    suite, label, arch = boot["suite"], boot["label"], boot["arch"]
    timeout = int(boot["timeout"])
    return {
        "device_type": "qemu",
        "job_name": f"wireguard {suite} {label} ({arch})",
        "timeouts": {
            "job": minutes(timeout + 300),
            "action": minutes(timeout),
            "connection": {"minutes": 2},
        },
        "priority": "medium",
        "visibility": "public",
        "context": context(boot),
        "metadata": {
            "harness": "wg-harness",
            "suite": suite,
            "flavor": boot["flavor"],
            "kernel": label,
            "tested": boot.get("tested", ""),
            "cases": boot["cases"].rstrip("|"),
        },
        "actions": [
            {
                "deploy": {
                    "to": "tmpfs",
                    "timeout": {"minutes": 5},
                    "images": {
                        "kernel": {
                            "image_arg": f"-kernel {{kernel}} -append '{boot['cmdline']}'",
                            "url": f"{base_url}/{kernel}",
                        },
                        "initrd": {
                            "image_arg": "-initrd {initrd}",
                            "url": f"{base_url}/{initrd}",
                        },
                    },
                }
            },
            {
                "boot": {
                    "method": "qemu",
                    "media": "tmpfs",
                    # Also the console's read timeout, which the
                    # monitor waits for each result with: the guest's.
                    "timeout": minutes(timeout),
                }
            },
            {
                "test": {
                    "timeout": minutes(timeout),
                    "monitors": [
                        {
                            "name": f"wireguard-{suite}",
                            "start": BEGIN + boot["entry"],
                            "end": END,
                            "pattern": PATTERN,
                            "fixupdict": FIXUPDICT,
                        }
                    ],
                }
            },
        ],
    }


def cmd_jobs(boots, out, base_url=None):
    files = sorted(f for f in os.listdir(boots) if f.endswith(".boot"))
    if not files:
        die(f"no .boot files in {boots}")
    for sub in ("jobs", "artifacts", "devices"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    base_url = (base_url or "file://" + os.path.abspath(os.path.join(out, "artifacts"))).rstrip("/")
    archs = {}
    for name in files:
        boot = read_kv(os.path.join(boots, name))
        for key in ("suite", "label", "arch", "accel", "qemu", "machine", "cpu",
                    "mem", "options", "cmdline", "kernel", "initrd", "timeout",
                    "entry", "cases"):
            if key not in boot:
                die(f"{name}: no {key}= line")
        label = boot["label"]
        kernel = artifact(boot["kernel"], out, f"{os.path.basename(boot['kernel'])}-{label}")
        initrd = initrd_of(boot, out, label)
        path = os.path.join(out, "jobs", f"{boot['suite']}-{label}.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"# LAVA job: wg-harness {boot['suite']} on {label} ({boot['arch']}),\n"
                    "# written by make lava-jobs (netns-tests/lava).\n")
            yaml.safe_dump(job(boot, kernel, initrd, base_url), f, sort_keys=False, width=4096)
        print(path)
        first = archs.setdefault(boot["arch"], boot)
        if context(first) != context(boot):
            die(f"{name}: its QEMU options differ from {first['suite']}-{first['label']}'s,"
                " which share its device")
    for arch, boot in archs.items():
        device_files(arch, boot, out)
        print(os.path.join(out, "devices", f"wgt-qemu-{arch}.yaml"))


def parse_log(path):
    """(results, complete): the monitor's test cases from a lava-run log."""
    results, complete = [], False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if not isinstance(rec, dict):
                continue
            msg = rec.get("msg")
            if rec.get("lvl") != "results" or not isinstance(msg, dict):
                continue
            if msg.get("definition") == "lava":
                if msg.get("case") == "job" and msg.get("result") == "pass":
                    complete = True
                continue
            results.append((msg.get("result"), msg.get("extra", {}).get("test_case_id", msg.get("case"))))
    return results, complete


def cmd_monitor(path):
    """What the jobs' monitor makes of a console: its pattern and fixupdict
    applied as LAVA applies them (netns-tests/lava/format-check.sh)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for m in re.finditer(PATTERN, text):
        res = FIXUPDICT.get(m.group("result"), m.group("result"))
        print(f"{res}\t{m.group('test_case_id').strip()}")


def cmd_results(path):
    results, complete = parse_log(path)
    for res, name in results:
        print(f"{res}\t{name}")
    if not complete:
        print(f"netns-tests/lava: {path}: the job did not complete", file=sys.stderr)
        sys.exit(1)


def cmd_compare(tsv, lava_results):
    direct = {}
    for r in results.read_tsv(tsv, strict=False):
        # (LAVA has no expected failure: a known failure is a fail there.)
        res = "fail" if r.kind == "known" else r.kind
        direct[case_id(r.case)] = (r.case, res, r.directive)
    lava = {}
    with open(lava_results, encoding="utf-8") as f:
        for line in f:
            res, _, name = line.rstrip("\n").partition("\t")
            if name:
                lava[case_id(name)] = res
    differ = 0
    width = max((len(v[0]) for v in direct.values()), default=10)
    print(f"{'case':<{width}}  {'direct':<11}  lava")
    for key in sorted(set(direct) | set(lava), key=lambda k: direct.get(k, (k,))[0]):
        name, dres, directive = direct.get(key, (key, "-", ""))
        lres = lava.get(key, "-")
        mark = "" if dres == lres else "   <- differs"
        if mark:
            differ += 1
        note = " (TODO)" if directive.upper().startswith("TODO") else ""
        print(f"{name:<{width}}  {dres + note:<11}  {lres}{mark}")
    print(f"{len(direct)} direct, {len(lava)} lava, {differ} differ")
    sys.exit(1 if differ else 0)


def main(argv):
    if len(argv) in (3, 4) and argv[0] == "jobs":
        cmd_jobs(*argv[1:])
    elif len(argv) == 2 and argv[0] == "monitor":
        cmd_monitor(argv[1])
    elif len(argv) == 2 and argv[0] == "results":
        cmd_results(argv[1])
    elif len(argv) == 3 and argv[0] == "compare":
        cmd_compare(argv[1], argv[2])
    else:
        die("usage: lava.py jobs BOOTS OUT [BASE_URL] | results LOG | monitor CONSOLE"
            " | compare TSV RESULTS")


if __name__ == "__main__":
    main(sys.argv[1:])
