# Sourced by the harness's host-side checks (bench/check.sh,
# netns-tests/kcidb/check.sh, netns-tests/fixtures/check.sh), which need
# $tmp, a scratch folder of their own.
#
# ktap_begin PREFIX PLAN: the KTAP header; every result is "PREFIX: NAME".
# check NAME FN [ARGS...]: FN runs in a subshell with its output in
# $tmp/out; one result line, that output as its diagnostics when it failed.
# $failed counts the failures.
ktap_begin() {
	ktap_prefix=$1 n=0 failed=0
	echo "KTAP version 1"
	echo "1..$2"
}
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $ktap_prefix: $2"
	else
		sed 's/^/# /' "$tmp/out"
		echo "not ok $n $ktap_prefix: $2"
		failed=$((failed + 1))
	fi
}
check() {
	local name=$1 rc=0
	shift
	("$@") > "$tmp/out" 2>&1 || rc=$?
	result $rc "$name"
}
