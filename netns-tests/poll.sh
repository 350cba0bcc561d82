# Polling, shared by the guest's scripts (lib.sh, the entries, interop/).
# Sourced; busybox sh.

# uptime_cs: the guest's uptime in centiseconds (no fork of an external).
uptime_cs() {
	local up rest
	read -r up rest < /proc/uptime
	echo "${up%.*}${up#*.}"
}

# wait_for SECONDS CMD...: run CMD every 0.1 s (WAIT_STEP) until it
# succeeds; fail once SECONDS have passed, however long each try of CMD
# takes.  A slow kernel (the debug flavor) is booted with
# wgt_timeout_scale=N, which stretches every wait N times.  (On virtual
# time every try costs guest time, and a timer due in minutes is not
# missed by looking once a second: the timers cases set WAIT_STEP=1.)
wait_for() {
	local end
	end=$(($(uptime_cs) + $1 * 100 * ${wgt_timeout_scale:-1}))
	shift
	while ! "$@" > /dev/null 2>&1; do
		[ "$(uptime_cs)" -lt "$end" ] || return 1
		sleep "${WAIT_STEP:-0.1}"
	done
}
