#!/bin/bash
# The KCIDB report's own checks, KTAP (part of make test): kcidb.py on a
# made-up run (two kernels, one patched; every kind of result) gives a
# report that validates against schema-v5.json with what the run had, and
# the validator refuses reports that break the schema's rules.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/kcidb/check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
kcidb=$top/netns-tests/kcidb/kcidb.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-kcidb-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -c 'import jsonschema' 2> /dev/null ||
	die "python3-jsonschema is missing: run 'make deps' as root"

. "$top/netns-tests/ktap-checks.sh"
ktap_begin kcidb 4

# A made-up run: zinc with two of the tree's patches, stock without, and
# one result of each kind run.sh records.
bd=$tmp/build out=$tmp/build/results/test-x
mkdir -p "$bd/kernel/zinc" "$bd/kernel/stock" "$out"
p1=$(sed -n 1p "$top/wg-patches/series") p2=$(sed -n 2p "$top/wg-patches/series")
for k in zinc stock; do
	echo "key-$k" > "$bd/kernel/$k/key"
	echo 'CONFIG_CC_VERSION_TEXT="gcc (Debian 12.2.0-14) 12.2.0"' > "$bd/kernel/$k/config"
done
printf 'tarball=/usr/src/linux-source-6.1.tar.xz\nsrc_key=s-zinc\n' > "$bd/kernel/zinc/source"
printf 'tarball=/usr/src/linux-source-6.1.tar.xz\nsrc_key=s-stock\n' > "$bd/kernel/stock/source"
for p in "$p1" "$p2"; do
	echo "$(sha256sum < "$top/wg-patches/$p" | cut -c1-64) $top/wg-patches/$p"
done > "$bd/kernel/zinc/series"
: > "$bd/kernel/stock/series"
cat > "$out/run.env" << EOF
stamp=x
start_time=2026-12-05T02:00:00+00:00
kernel_root=$bd/kernel
results_dir=$bd/results
arch=x86_64
accel=tcg
harness=test
EOF
t=$'\t'
cat > "$out/cases.tsv" << EOF
1${t}ok${t}zinc: netns: roam-v4${t}netns${t}roam-v4${t}${t}12${t}zinc${t}netns-zinc-x${t}qemu_restarts=0 timeout_scale=1
2${t}not ok${t}zinc: netns: mtu${t}netns${t}mtu${t}${t}30${t}zinc${t}netns-zinc-x${t}qemu_restarts=1 timeout_scale=3${t}make -C /src check CHECK_SUITES=netns=mtu:zinc PATCHES=my-series
3${t}ok${t}zinc: netns: smp-crypt # SKIP one CPU${t}netns${t}smp-crypt${t}SKIP one CPU${t}1${t}zinc${t}netns-zinc-x${t}qemu_restarts=0 timeout_scale=1
4${t}not ok${t}stock: netns: rehandshake-race # TODO known failure: this kernel lacks 'x'${t}netns${t}rehandshake-race${t}TODO known failure: this kernel lacks 'x'${t}25${t}stock${t}netns-stock-x${t}qemu_restarts=0 timeout_scale=1
5${t}not ok${t}stock: netns: keepalive # timed out after 60s${t}netns${t}keepalive${t}timed out after 60s${t}${t}stock${t}netns-stock-x${t}qemu_restarts=0 timeout_scale=1
6${t}not ok${t}stock: netns: psk # not run: guest died${t}netns${t}psk${t}not run: guest died${t}${t}stock${t}netns-stock-x${t}qemu_restarts=0 timeout_scale=1
7${t}ok${t}zinc+stock: two-guest: initiator (zinc): guest: kernel healthy, clean shutdown${t}two-guest.initiator${t}guest: kernel healthy, clean shutdown${t}${t}${t}zinc${t}tg-x${t}qemu_restarts=0
8${t}ok${t}interop: zinc -> go: psk mismatch: no handshake${t}interop.zinc-to-go${t}psk mismatch: no handshake${t}${t}${t}zinc${t}io-x${t}qemu_restarts=0
EOF

# jq-free reading of the report: python3 prints what a check asks.
q() { /usr/bin/python3 -c "import json, sys; d = json.load(open('$out/kcidb.json')); $1"; }

# 1. The report of the made-up run: valid, and saying what the run had.
t_report() {
	/usr/bin/python3 "$kcidb" write "$out" > /dev/null
	/usr/bin/python3 "$kcidb" validate "$out/kcidb.json"
	[ "$(q 'print(len(d["checkouts"]), len(d["builds"]), len(d["tests"]), len(d["issues"]), len(d["incidents"]))')" = "2 2 8 1 1" ] ||
		die "not 2 checkouts, 2 builds, 8 tests, 1 issue, 1 incident"
	[ "$(q 'print(" ".join(t["status"] for t in d["tests"]))')" = "PASS FAIL SKIP FAIL ERROR MISS PASS PASS" ] ||
		die "statuses: $(q 'print(" ".join(t["status"] for t in d["tests"]))')"
	[ "$(q 'print(" ".join(t["path"] for t in d["tests"][6:]))')" = "wireguard.two-guest.initiator.guest.kernel-healthy-clean-shutdown wireguard.interop.zinc-to-go.psk-mismatch.no-handshake" ] ||
		die "paths: $(q 'print(" ".join(t["path"] for t in d["tests"][6:]))')"
	# The patchset hash as KCIDB defines it: sha256 over the patches'
	# newline-terminated sha256s, in order.
	want=$(cd "$top/wg-patches" && sha256sum "$p1" "$p2" | cut -c-64 | sha256sum | cut -c-64)
	[ "$(q 'print([c.get("patchset_hash") for c in d["checkouts"] if c["id"] == "wgt:s-zinc"][0])')" = "$want" ] ||
		die "zinc's patchset_hash is not $want"
	[ "$(q 'print(repr([c.get("patchset_hash") for c in d["checkouts"] if c["id"] == "wgt:s-stock"][0]))')" = "''" ] ||
		die "stock's patchset_hash is not empty"
	[ "$(q 'i = d["incidents"][0]; print(i["test_id"] == d["tests"][3]["id"], i["issue_id"] == d["issues"][0]["id"])')" = "True True" ] ||
		die "the known failure's incident does not link its test and issue"
	[ "$(q 'print(d["tests"][0]["build_id"], d["tests"][0]["duration"])')" = "wgt:zinc-key-zinc 12" ] ||
		die "the first test's build or duration is wrong"
	# The guest's stretch factor and a QEMU restart reach the report.
	[ "$(q 'm = d["tests"][1]["environment"]["misc"]; print(m["timeout_scale"], m["qemu_restarts"], "timeout_scale" in d["tests"][6]["environment"]["misc"])')" = "3 1 False" ] ||
		die "the notes (timeout_scale, qemu_restarts) are not in the tests' environment"
	# A failure's reproduce line (the eleventh field), and none for a pass.
	[ "$(q 'print(d["tests"][1]["misc"].get("reproduce"), "reproduce" in d["tests"][0]["misc"])')" = "make -C /src check CHECK_SUITES=netns=mtu:zinc PATCHES=my-series False" ] ||
		die "the failure's reproduce line is not in its test's misc: $(q 'print(d["tests"][1]["misc"])')"
}
check "a run's results as a valid KCIDB v5 report (8 tests, 2 builds, a known failure, a reproduce line)" t_report

# 2. Reports that break the schema's rules are refused, each for its
# reason: NAME PYTHON-EDIT EXPECTED-WORDS.
t_refused() {
	local bad=0 name edit want
	while IFS='|' read -r name edit want; do
		/usr/bin/python3 -c "import json; d = json.load(open('$out/kcidb.json')); $edit; json.dump(d, open('$tmp/bad.json', 'w'))"
		if /usr/bin/python3 "$kcidb" validate "$tmp/bad.json" > "$tmp/v" 2>&1; then
			echo "accepted: $name"
			bad=1
		elif ! grep -q -- "$want" "$tmp/v"; then
			echo "refused for another reason than '$want': $name: $(cat "$tmp/v")"
			bad=1
		else
			echo "refused: $name: $(cat "$tmp/v")"
		fi
	done << 'EOF'
a test path with a space|d["tests"][0]["path"] = "wireguard.netns.roam v4"|does not match
a path with an empty level|d["tests"][0]["path"] = "wireguard..roam"|does not match
an id without its origin|d["tests"][0]["id"] = "x1"|does not match
an unknown status|d["tests"][0]["status"] = "BROKEN"|is not one of
v4's waived flag|d["tests"][0]["waived"] = True|Additional properties
a build's v4 valid flag|d["builds"][0]["valid"] = True|Additional properties
a test without its build|del d["tests"][0]["build_id"]|required property
schema major 4|d["version"]["major"] = 4|was expected
a null field|d["tests"][0]["duration"] = None|is not of type
a test of a build not in the report|d["tests"][0]["build_id"] = "wgt:nowhere"|is not in builds
two tests with one id|d["tests"][1]["id"] = d["tests"][0]["id"]|share an id
EOF
	return $bad
}
check "the validator refuses 11 broken reports, each for its reason" t_refused

# 3. A run whose results cannot be told (a truncated cases.tsv line) is
# an error, not a report with holes.
t_truncated() {
	cp -r "$out" "$tmp/trunc"
	rm "$tmp/trunc/kcidb.json"
	printf '9\tok\tzinc: netns: x\n' >> "$tmp/trunc/cases.tsv"
	! /usr/bin/python3 "$kcidb" write "$tmp/trunc" 2> "$tmp/v" || die "a truncated line was accepted"
	grep -q 'not 10 or 11 fields' "$tmp/v" || die "refused for another reason: $(cat "$tmp/v")"
	[ ! -e "$tmp/trunc/kcidb.json" ] && [ ! -e "$tmp/trunc/kcidb.json.tmp" ] ||
		die "a report was written all the same"
}
check "a truncated result line is refused, no report written" t_truncated

# 4. A bench run's figures: a test per side and measurement with its
# number and unit, the candidate's cost metric carrying the verdict.
t_bench() {
	mkdir -p "$tmp/bench"
	cat > "$tmp/bench/results.json" << 'EOF'
{"format": "wg-harness-bench/1", "candidate": {"label": "c"}, "baseline": {"label": "b"},
 "config": {"accel": "tcg"},
 "summary": [{"mode": "netns", "test": "tcp-1", "unit": "Mbit/s",
   "cand": {"n": 5, "median": 40.5, "min": 30, "max": 50}, "base": {"n": 5, "median": 41, "min": 31, "max": 52}}],
 "cost_summary": [{"mode": "netns", "test": "cost-udp", "metric": "wg_insns", "unit": "instructions/byte",
   "cand": {"n": 5, "median": 18.8, "min": 18.7, "max": 18.9}, "base": {"n": 5, "median": 18.3, "min": 18.2, "max": 18.4},
   "verdict": "REGRESSION", "change": 0.026},
  {"mode": "netns", "test": "cost-hs", "metric": "wg_insns", "unit": "instructions/handshake",
   "cand": {"n": 5, "median": 3.2e6, "min": 3.1e6, "max": 3.3e6}, "base": {"n": 5, "median": 3.2e6, "min": 3.1e6, "max": 3.3e6},
   "verdict": "ok", "change": 0.001}],
 "micro_summary": []}
EOF
	head -c 4096 /dev/urandom > "$tmp/bench/cand.img"
	cp "$bd/kernel/zinc/config" "$tmp/bench/"
	/usr/bin/python3 "$kcidb" bench "$tmp/bench" "$tmp/bench/cand.img" "$bd/kernel/stock/config" > /dev/null
	/usr/bin/python3 "$kcidb" validate "$tmp/bench/kcidb.json"
	out=$tmp/bench
	[ "$(q 'print(" ".join(t["path"] + ":" + t["status"] + ":" + str(t["number"]["value"]) + ":" + t["number"]["unit"] for t in d["tests"]))')" = \
		"wireguard.bench.netns.tcp-1:DONE:40.5:Mbit/s wireguard.bench.netns.tcp-1:DONE:41:Mbit/s wireguard.bench.netns.cost-udp.wg_insns:FAIL:18.8:instructions/byte wireguard.bench.netns.cost-udp.wg_insns:DONE:18.3:instructions/byte wireguard.bench.netns.cost-hs.wg_insns:PASS:3200000.0:instructions/handshake wireguard.bench.netns.cost-hs.wg_insns:DONE:3200000.0:instructions/handshake" ] ||
		die "bench tests: $(q 'print([(t["path"], t["status"], t["number"]) for t in d["tests"]])')"
	[ "$(q 'print(len(d["builds"]), d["tests"][0]["build_id"] != d["tests"][1]["build_id"])')" = "2 True" ] ||
		die "the two sides are not two builds"
}
check "a bench run's figures as tests with numbers and units, the regression a FAIL" t_bench

[ $failed = 0 ]
