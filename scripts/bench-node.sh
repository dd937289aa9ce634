#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Node script of the benchmark (scripts/bench.py): b serves, a measures,
# in one boot: BENCH_RUNS runs of iperf3 (TCP, a -> b, BENCH_SECONDS
# each), then BENCH_RUNS runs each of lnet_test 1 MiB PUTs (8 in flight),
# of 0-byte PUTs (64 in flight: messages/s) and of LNet pings (one at a
# time) over ksocklnd a -> b.  lnet_test neither writes nor checks data
# patterns here (iperf3 does not either).  a writes one "kind value" line
# per run to $RESULTS/bench.txt.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"

RUNS=${BENCH_RUNS:-5}
SECONDS_PER_RUN=${BENCH_SECONDS:-5}
PUTS=${BENCH_PUTS:-64}
PINGS=${BENCH_PINGS:-500}
SMALL=${BENCH_SMALL:-5000}
OUT=$RESULTS/bench.txt

sock_load
echo 0 > /sys/module/lnet_test/parameters/check
echo serve > "$RUN" || fail "serve"
if [ "$LNET_NODE" = b ]; then
	iperf3 -s > /tmp/iperf3.log 2>&1 &
	server=$!
	barrier ready
	barrier done 1800
	kill "$server"
	sock_unload
	exit 0
fi

peer=$IP_b_net0
nid=$(nid_of b)
barrier ready
for ((i = 0; i < 50; i++)); do	# the server may still be starting
	iperf3 -c "$peer" -t 1 > /dev/null 2>&1 && break
	sleep 0.2
done
ping_ok "$nid" 5
lt_ok put "$nid" 1048576 8 8	# warm up: connections open
: > "$OUT"
for ((r = 1; r <= RUNS; r++)); do
	bps=$(iperf3 -c "$peer" -t "$SECONDS_PER_RUN" -J |
	      python3 -c 'import json,sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))')
	echo "iperf3_bps $bps" >> "$OUT"
	log "iperf3 run $r: $((bps / 8 / 1048576)) MiB/s"
done
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
barrier done
sock_unload
