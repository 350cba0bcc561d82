#!/bin/sh
# Control agent of the interop responder guest, run by busybox nc for each
# connection (nc -ll -p 9000 -e agent.sh): reads one line, "OP ARGS...",
# runs the endpoint operation OP, sends back its output (stdout and stderr)
# and a last line "rc=N".  "finish" tells the guest the initiator is done.
export LC_ALL=C
read -r line || exit 0
set -- $line
case "$1" in
finish)
	touch /tmp/interop.finished
	echo rc=0
	;;
true)
	echo rc=0
	;;
ep_*)
	rc=0
	sh -c '. /tests/netns/interop/endpoint.sh; "$@"' sh "$@" 2>&1 || rc=$?
	echo "rc=$rc"
	;;
*)
	echo "agent: unknown operation '$1'"
	echo rc=2
	;;
esac
