#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Node script of the benchmark (scripts/bench.py): b serves, a measures,
# in one boot, over one link, a -> b:
#
#  sock (BENCH_LND sock or both): BENCH_RUNS runs of iperf3 (TCP,
#    BENCH_SECONDS each), then BENCH_RUNS runs each of lnet_test 1 MiB
#    PUTs (8 in flight), of 0-byte PUTs (64 in flight: messages/s) and of
#    LNet pings (one at a time) over ksocklnd; then a second rail (tcp1
#    on eth1, the second link) and BENCH_RUNS runs of 1 MiB PUTs over
#    both, with each rail's share and how busy a's CPUs were; then
#    failover (a's eth1 down under PUTs), remote failover (QEMU pulls
#    b's eth1 cable under PUTs) and flapping (eth1 down and up every
#    second under PUTs), BENCH_RUNS runs each; between one rail and two,
#    lst (LNet selftest) brw write, brw read (1 MiB) and ping, BENCH_RUNS
#    samples each of lst stat;
#  o2ib (BENCH_LND o2ib or both): soft-RoCE (rxe0) on the same eth0,
#    BENCH_RUNS runs of ib_write_bw (1 MiB RDMA writes, BENCH_SECONDS
#    each), then BENCH_RUNS runs each of lnet_test 1 MiB PUTs and 1 MiB
#    GETs (8 in flight) over ko2iblnd (BENCH_O2IB_CONNS > 0: that many
#    connections per peer), then lst as over ksocklnd.  If ko2iblnd.ko
#    is not built,
#    LNet over o2ib is skipped: a writes "o2ib_skipped <why>".
#
# With o2ib alone iperf3 still runs first, for comparison.  lnet_test
# neither writes nor checks data patterns here (iperf3 and ib_write_bw do
# not either).  a writes one "kind value..." line per run to
# $RESULTS/bench.txt.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"
. "$LNET_TOP/tests/vm/multirail_lib.sh"

RUNS=${BENCH_RUNS:-5}
SECONDS_PER_RUN=${BENCH_SECONDS:-5}
LND=${BENCH_LND:-both}
PUTS=${BENCH_PUTS:-64}
PINGS=${BENCH_PINGS:-500}
# PUTs of a failover stream, one at a time: ~4 s of them (~25 ms each),
# so that the link goes (after 1 s) in the middle of the stream.
FAILOVER_PUTS=${BENCH_FAILOVER_PUTS:-150}
SMALL=${BENCH_SMALL:-5000}
OUT=${RESULTS:?}/bench.txt
# ib_write_bw: connection through rdma_cm (-R), as ko2iblnd connects, on
# the IPv4 address; 1 MiB writes for a fixed time (-D); -F: no failure
# on the CPU frequency check (there is no cpufreq in a VM).
IB_WRITE_BW=(ib_write_bw -d "$RXE" -R -F -s 1048576 -D "$SECONDS_PER_RUN")

peer=${IP_b_net0:?}
[ "$LNET_NODE" = a ] && : > "$OUT"

# iperf3 runs, a -> b.
bench_iperf3() {
	local r bps
	if [ "$LNET_NODE" = b ]; then
		iperf3 -s > /tmp/iperf3.log 2>&1 &
		echo $! > /tmp/iperf3.pid
		barrier iperf3-ready
		barrier iperf3-done 1800
		kill "$(cat /tmp/iperf3.pid)"
		return 0
	fi
	barrier iperf3-ready
	for ((r = 0; r < 50; r++)); do	# the server may still be starting
		iperf3 -c "$peer" -t 1 > /dev/null 2>&1 && break
		sleep 0.2
	done
	for ((r = 1; r <= RUNS; r++)); do
		bps=$(iperf3 -c "$peer" -t "$SECONDS_PER_RUN" -J |
		      python3 -c 'import json,sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))')
		echo "iperf3_bps $bps" >> "$OUT"
		log "iperf3 run $r: $((bps / 8 / 1048576)) MiB/s"
	done
	barrier iperf3-done
}

# lst_avg OUT R|W: the Avg of the [R] or [W] line of lst stat's output.
lst_avg() {
	sed -n "s/^\[$2\] Avg: *\([0-9.]*\).*/\1/p" <<< "$1" | head -1
}

# bench_lst PREFIX A_NID B_NID: LNet selftest as an admin runs it, a the console and
# a client, b the server: BENCH_RUNS samples (lst stat, BENCH_SECONDS
# each) of brw write and of brw read (1 MiB, 8 in flight, no check) and
# of ping (8 in flight): "PREFIX_lst_write_mibps", "..._read_mibps" (a's
# W, a's R), "..._ping_rate" (a's [W] RPC/s: LNet messages a sends).
bench_lst() {
	local pre=$1 anid=$2 bnid=$3 r op out v
	local lst=$LNET_TOP/build/utils/lst
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" ||
		fail "insmod lnet_selftest"
	barrier "$pre-lst-ready"
	if [ "$LNET_NODE" = a ]; then
		export LST_SESSION=$$
		"$lst" new_session bench > /dev/null || fail "lst new_session"
		"$lst" add_group a "$anid" || fail "lst add_group a"
		"$lst" add_group b "$bnid" || fail "lst add_group b"
		for op in write read ping; do
			"$lst" add_batch "$op" || fail "lst add_batch"
			if [ "$op" = ping ]; then
				"$lst" add_test --batch ping --concurrency 8 \
					--from a --to b ping > /dev/null
			else
				"$lst" add_test --batch "$op" --concurrency 8 \
					--from a --to b brw "$op" size=1M > /dev/null
			fi || fail "lst add_test $op"
			"$lst" run "$op" > /dev/null || fail "lst run $op"
			sleep 1		# connections and credits warm
			for ((r = 1; r <= RUNS; r++)); do
				if [ "$op" = ping ]; then
					out=$("$lst" stat --count 1 --delay "$SECONDS_PER_RUN" --rate --write a)
					v=$(lst_avg "$out" W)
					echo "${pre}_lst_ping_rate $v" >> "$OUT"
				else
					out=$("$lst" stat --count 1 --delay "$SECONDS_PER_RUN" --bw a)
					if [ "$op" = write ]; then
						v=$(lst_avg "$out" W)
					else
						v=$(lst_avg "$out" R)
					fi
					echo "${pre}_lst_${op}_mibps $v" >> "$OUT"
				fi
				[ -n "$v" ] || fail "lst stat $op: no figure in: $out"
				log "lst $op run $r: $v"
			done
			"$lst" stop "$op" > /dev/null || fail "lst stop $op"
		done
		"$lst" show_error a b
		"$lst" end_session > /dev/null || fail "lst end_session"
	fi
	barrier "$pre-lst-done" 1800
	rmmod lnet_selftest || fail "rmmod lnet_selftest"
}

# LNet over ksocklnd.
bench_sock() {
	local r nid
	sock_load
	echo 0 > /sys/module/lnet_test/parameters/check
	echo serve > "$RUN" || fail "serve"
	barrier sock-ready
	if [ "$LNET_NODE" = a ]; then
		nid=$IP_b_net0@tcp
		ping_ok "$nid" 5
		lt_ok put "$nid" 1048576 8 8	# warm up: connections open
		for ((r = 1; r <= RUNS; r++)); do
			lt_ok put "$nid" 1048576 "$PUTS" 8
			echo "put_ns $(field elapsed_ns) $PUTS" >> "$OUT"
		done
		for ((r = 1; r <= RUNS; r++)); do
			lt_ok put "$nid" 0 "$SMALL" 64
			echo "small_ns $(field elapsed_ns) $SMALL" >> "$OUT"
		done
		for ((r = 1; r <= RUNS; r++)); do
			lt_ok ping "$nid" "$PINGS"
			echo "ping_ns $(field elapsed_ns) $PINGS" >> "$OUT"
		done
	fi
	barrier sock-one-rail-done 1800
	bench_lst sock "${IP_a_net0:?}@tcp" "$IP_b_net0@tcp"
	bench_sock_two_rails
	barrier sock-done 1800
	sock_unload
}

# cpu_busy: jiffies the CPUs spent busy (all but idle and iowait).
cpu_busy() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# cpu_total: jiffies of all the CPUs.
cpu_total() {
	awk '$1 == "cpu" { print $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}

# The two-rail case: tcp1 on eth1 on both; a discovers b's second NID
# and its PUTs go round robin over both rails.
bench_sock_two_rails() {
	local r nid a0 a1 s0 s1 b0 t0 LND=tcp	# mr_nid's $LND
	ip link set eth1 up
	"$LNETCTL" net add --net tcp1 --if eth1 || fail "net add tcp1"
	barrier sock-two-rails
	if [ "$LNET_NODE" = b ]; then
		bench_serve_cuts
		return 0
	fi
	nid=$(mr_nid b net0)
	a0=$(mr_nid a net0)
	a1=$(mr_nid a net1)
	"$LNETCTL" discover --force "$nid" || fail "discover $nid"
	lt_ok put "$nid" 1048576 8 8	# warm up: tcp1 connections open
	for ((r = 1; r <= RUNS; r++)); do
		s0=$(ni_sends "$a0")
		s1=$(ni_sends "$a1")
		b0=$(cpu_busy)
		t0=$(cpu_total)
		lt_ok put "$nid" 1048576 "$PUTS" 8
		{
			echo "put2_ns $(field elapsed_ns) $PUTS"
			echo "put2_split $(($(ni_sends "$a0") - s0)) $(($(ni_sends "$a1") - s1))"
			echo "put2_cpu $((100 * ($(cpu_busy) - b0) / ($(cpu_total) - t0)))"
		} >> "$OUT"
	done
	bench_sock_failover "$nid" "$a1"
	bench_sock_remote_failover "$nid"
	touch "$SHARED/.cuts-done"
}

# bench_serve_cuts (b): QEMU pulls or plugs b's eth1 cable when a asks
# ($SHARED/.cut.<n> says down or up), until a is done or has failed.
bench_serve_cuts() {
	local n=0 state
	while [ ! -e "$SHARED/.cuts-done" ]; do
		[ -e /tmp/shared/.failed.a ] && fail "a failed"
		if [ -e "$SHARED/.cut.$n" ]; then
			read -r state < "$SHARED/.cut.$n"
			link_set eth1 "$state"
			touch "$SHARED/.cut.$n.done"
			n=$((n + 1))
			continue
		fi
		nap 0.05
	done
}

# remote_cable down|up (a): have b's eth1 cable pulled or plugged back.
CUTS=0
remote_cable() {
	local i
	echo "$1" > "$SHARED/.cut.$CUTS.tmp"
	mv "$SHARED/.cut.$CUTS.tmp" "$SHARED/.cut.$CUTS"
	for ((i = 0; i < 600; i++)); do
		[ -e "$SHARED/.cut.$CUTS.done" ] && break
		nap 0.05
	done
	[ -e "$SHARED/.cut.$CUTS.done" ] || fail "b did not set its eth1 $1"
	CUTS=$((CUTS + 1))
}

# failover_stream NID: FAILOVER_PUTS PUTs of 1 MiB, one at a time, each
# one's result line (a failed one too).
failover_stream() {
	local i
	for ((i = 0; i < FAILOVER_PUTS; i++)); do
		echo "put $1 1048576 1 1" > "$RUN" || true
		cat "$RUN"
	done
}

# failover_line KIND FILE: "KIND MAX MEDIAN ERRORS" of the lnet_test result
# lines in FILE (elapsed_ns of each PUT; ERRORS: PUTs that failed).
failover_line() {
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^elapsed_ns=/) {
		sub(/elapsed_ns=/, "", $i); print $i } }' "$2" |
		sort -n | awk -v k="$1" -v e="$(grep -c " errors=1 " "$2")" '
			{ v[NR] = $1 } END {
			print k, v[NR], v[int((NR + 1) / 2)], e }'
}

# bench_sock_remote_failover NID (a only): as the failover of
# bench_sock_failover, but QEMU pulls b's eth1 cable: b's NI goes down
# and b pushes that to a by rail 0, a PUT on rail 1 ends by the LND's
# timeout or the push and goes again by rail 0.  "rfailover_ns MAX
# MEDIAN ERRORS".
bench_sock_remote_failover() {
	local nid=$1 r pid s1 a1 i
	a1=$(mr_nid a net1)
	# PUTs one at a time would mostly take tcp (no credit contention to
	# spread them) and the cut would catch none: the peer net tcp1 is
	# preferred (UDSP priority 0) while healthy, so the stream is on it
	# when the cable goes, and health moves it to tcp.
	"$LNETCTL" udsp add --dst "${LND}1" --priority 0 || fail "udsp add"
	for ((r = 1; r <= RUNS; r++)); do
		# Both rails healthy (the local failover left a's own NI in
		# recovery): else selection keeps the stream on rail 0.
		"$LNETCTL" net set --all --health 1000 || fail "net set --health"
		"$LNETCTL" peer set --all --health 1000 || fail "peer set --health"
		# Until PUTs take tcp1 again (b's NI back up: its push in),
		# 20 s at most.  After the cable came back a PUT on the
		# connection the cut left behind may be lost until its
		# deadline (logged, not fatal: this is a measure).
		for ((i = 0; i < 20; i++)); do
			s1=$(ni_sends "$a1")
			lt put "$nid" 1048576 4 1
			[ $(($(ni_sends "$a1") - s1)) -ge 3 ] && break
			sleep 1
		done
		failover_stream "$nid" > /tmp/rfailover &
		pid=$!
		s1=$(ni_sends "$a1")
		sleep 1
		remote_cable down
		wait "$pid"
		failover_line rfailover_ns /tmp/rfailover >> "$OUT"
		log "remote failover run $r: $(tail -1 "$OUT"), $(($(ni_sends "$a1") - s1)) sends by $a1 from 1 s before the cut"
		remote_cable up
		sleep 2		# b's NI up again, its push on the way
	done
	"$LNETCTL" udsp del --all || fail "udsp del"
	"$LNETCTL" peer set --all --health 1000 || true
}

# bench_sock_failover NID A1 (a only, two rails up, health loaded):
# - failover: 1 MiB PUTs one at a time while a's eth1 goes down; the PUT
#   the link takes with it is sent again by rail 0.  "failover_ns MAX
#   MEDIAN": the slowest PUT of the stream (from before the link went to
#   done by the other rail: an upper bound of the failover) and the
#   median one;
# - flapping: 1 MiB PUTs, 8 in flight, while eth1 goes down and up every
#   second: "flap_ns ELAPSED PUTS", every PUT done.
bench_sock_failover() {
	local nid=$1 a1=$2 r i pid
	"$LNETCTL" set transaction_timeout 10 || fail "set transaction_timeout"
	for ((r = 1; r <= RUNS; r++)); do
		"$LNETCTL" net set --all --health 1000 || fail "net set --health"
		lt_ok put "$nid" 1048576 8 8	# both rails carry traffic
		failover_stream "$nid" > /tmp/failover &
		pid=$!
		sleep 1
		ip link set eth1 down
		wait "$pid"
		# A PUT wholly sent by rail 1 whose ACK the link lost ends by
		# the response timeout (transaction_timeout, 10 s here) with
		# an error: counted, its time is in the maximum.
		failover_line failover_ns /tmp/failover >> "$OUT"
		log "failover run $r: $(tail -1 "$OUT")"
		ip link set eth1 up
		for ((i = 0; i < 50; i++)); do
			"$LNETCTL" net show --net tcp1 | grep -q "status: up" && break
			"$LNETCTL" net set --nid "$a1" --health 1000 || true
			sleep 0.2
		done
	done
	for ((r = 1; r <= RUNS; r++)); do
		lt_start put "$nid" 1048576 "$PUTS" 8
		while kill -0 "$LT_PID" 2>/dev/null; do
			ip link set eth1 down
			sleep 1
			ip link set eth1 up
			sleep 1
		done
		lt_wait
		# PUTs whose ACK a flap lost fail by the response timeout:
		# counted, not fatal (the bytes of the others are the rate;
		# the write of the command then fails, LT_RC 1).  Each must
		# end: done = PUTS, none left hanging (timeouts).
		[ "$(field done)" = "$PUTS" ] && [ "$(field timeouts)" = 0 ] ||
			fail "flapping: $RESULT"
		echo "flap_ns $(field elapsed_ns) $((PUTS - $(field errors)))" >> "$OUT"
		echo "flap_errors $(field errors)" >> "$OUT"
	done
	"$LNETCTL" net set --all --health 1000 || true
}

# ib_write_bw runs, a -> b: one server per run on b.
bench_ib_write_bw() {
	local r try mibs
	for ((r = 1; r <= RUNS; r++)); do
		if [ "$LNET_NODE" = b ]; then
			timeout $((SECONDS_PER_RUN + 120)) "${IB_WRITE_BW[@]}" \
				> "/tmp/ibw-server.$r" 2>&1 &
			barrier "ibw-$r"
			wait $! || log "ib_write_bw server run $r: exit $?"
			barrier "ibw-done-$r" 600
			continue
		fi
		barrier "ibw-$r"
		mibs=
		for ((try = 1; try <= 10 && !${#mibs}; try++)); do
			sleep 1		# the server may still be starting
			# The result line: bytes, iterations, peak, average
			# (MB/s, perftest's MB being 2^20 bytes), rate.
			mibs=$(timeout $((SECONDS_PER_RUN + 60)) "${IB_WRITE_BW[@]}" "$peer" \
				2> /tmp/ibw.err | tee "/tmp/ibw-client.$r" |
				awk '$1 == 1048576 && NF >= 5 { print $4 }') || true
		done
		[ -n "$mibs" ] || {
			cat "/tmp/ibw-client.$r" /tmp/ibw.err
			fail "ib_write_bw run $r gave no result"
		}
		echo "ibwrite_mibps $mibs" >> "$OUT"
		log "ib_write_bw run $r: $mibs MiB/s"
		barrier "ibw-done-$r" 600
	done
}

# rxe_counters WHEN: the soft-RoCE device's counters in the log
# (retransmissions, sequence errors, RNRs): they tell a slow run that
# lost packets from one that did not.
rxe_counters() {
	log "rxe $1: $(rdma statistic show link "$RXE/1" 2>&1 | tr -s ' \n' ' ')"
}

# LNet over ko2iblnd on the same rxe0.
bench_o2ib() {
	local r nid
	if [ "${BENCH_O2IB_CONNS:-0}" -gt 0 ]; then
		O2IB_NET_OPTS="--conns-per-peer $BENCH_O2IB_CONNS" o2ib_load
	else
		o2ib_load
	fi
	echo 0 > /sys/module/lnet_test/parameters/check
	echo serve > "$RUN" || fail "serve"
	"$LNETCTL" net show
	barrier o2ib-ready
	if [ "$LNET_NODE" = a ]; then
		nid=$(nid_of b)
		ping_ok "$nid" 5
		lt_ok put "$nid" 1048576 8 8	# warm up: connections open
		rxe_counters "before the PUTs"
		for ((r = 1; r <= RUNS; r++)); do
			lt_ok put "$nid" 1048576 "$PUTS" 8
			echo "o2ib_put_ns $(field elapsed_ns) $PUTS" >> "$OUT"
			rxe_counters "after PUT run $r ($(field elapsed_ns) ns)"
		done
		barrier o2ib-puts-done
		rxe_counters "after the PUTs"
		for ((r = 1; r <= RUNS; r++)); do
			lt_ok get "$nid" 1048576 "$PUTS" 8
			echo "o2ib_get_ns $(field elapsed_ns) $PUTS" >> "$OUT"
			rxe_counters "after GET run $r ($(field elapsed_ns) ns)"
		done
		barrier o2ib-gets-done
		rxe_counters "after the GETs"
		log "ko2iblnd: $(o2ib_counters)"
	else
		rxe_counters "before the PUTs"
		barrier o2ib-puts-done 1800
		rxe_counters "after the PUTs"
		barrier o2ib-gets-done 1800
		rxe_counters "after the GETs"
	fi
	bench_lst o2ib "$(nid_of a)" "$(nid_of b)"
	barrier o2ib-done 1800
	o2ib_unload
}

case $LND in
sock|o2ib|both) ;;
*) fail "BENCH_LND=$LND: sock, o2ib or both" ;;
esac

bench_iperf3
[ "$LND" = o2ib ] || bench_sock
if [ "$LND" != sock ]; then
	rxe_setup eth0
	barrier rxe-up
	bench_ib_write_bw
	if o2ib_built; then
		bench_o2ib
	else
		log "LNet over o2ib skipped: $O2IB_KO is not built"
		[ "$LNET_NODE" = a ] &&
			echo "o2ib_skipped $O2IB_KO is not built" >> "$OUT"
	fi
fi
barrier done 600
