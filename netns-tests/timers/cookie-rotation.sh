#!/bin/sh
# The cookie secret's rotation (the whitepaper, 5.4.7; cookie.c,
# COOKIE_SECRET_MAX_AGE): a responder under load makes each cookie from
# a secret it replaces once that secret is 120 s old, so a cookie older
# than that is no longer taken.  The harness's own peer (b, lib.sh
# peer_pair) against a's WireGuard, each initiation that must meet the
# load fenced by bursts of initiations with a valid mac1 (wgpeer burst:
# they stand behind it in a's queue).  At t0 (a's secret is new: a was
# just made) an initiation without mac2 gets a cookie reply; at t0 + 100
# s the same cookie is asked for again and is the same, and an
# initiation with that cookie's mac2 gets a response (the control: the
# cookie is still taken); at t0 + 130 s an initiation with it gets a
# cookie reply instead, whose cookie is a new one.
# bad-packets: the bursts' initiations (random static keys), refused by design
# timeout: 400
. "$(dirname "$0")/../lib.sh"

WAIT_STEP=1
burst=burst,n=1024
[ "${WG_GO:-}" != a ] || burst=burst,n=200
w=30
peer_pair a b
t_made=$(tl_now)
wgpeer $burst init,mac2=zero $burst cookie,wait=$w sleep,98 \
	$burst init,mac2=zero $burst cookie,wait=$w,same init response,wait=$w sleep,28 \
	$burst init $burst cookie,wait=$w,new > /tmp/$ns_prefix.steps 2>&1 ||
	{ cat /tmp/$ns_prefix.steps; fail "$(grep '^FAIL' /tmp/$ns_prefix.steps)"; }
cat /tmp/$ns_prefix.steps
# The cookie replies' times (the transcript's clock is the guest's
# monotonic one, as /proc/uptime's).
set -- $(awk '$2 == "recv" && $4 == 3 { print $1 }' "$PEER_TR")
[ $# = 3 ] || fail "the peer got $# cookie replies, expected 3"
echo "a made at $t_made s; cookie replies at $1, $2 and $3 s"
awk -v m="$t_made" -v a="$1" -v b="$2" -v c="$3" 'BEGIN {
	exit !(a - m < 15 && b - m < 118 && c - m > 122) }' ||
	fail "the cookie replies came too early or late to tell the secret's 120 s (a made at $t_made s)"
pass "the cookie was the same $(awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }') s on and still taken; $(awk -v a="$1" -v c="$3" 'BEGIN { printf "%.0f", c - a }') s on it was refused and a new one given"
