# Host side, sourced by netns-tests/run.sh and bench/bench.sh: the loopback
# port a pair of guests joins their virtual link on.

# free_port: a TCP port on 127.0.0.1 nothing listens on.
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 20000))
		ss -Htln "sport = :$p" | grep -q . || { echo $p; return; }
	done
}
