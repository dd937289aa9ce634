#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the fuzz targets and run each for FUZZ_TIME seconds (default 60),
# or only FUZZ_TARGET; under nice, one target at a time.  A target starts
# from its seed corpus (fuzz/corpus/<target>, kept in the repository) and
# what earlier runs found (build/fuzz/corpus/<target>, not kept).
#
# Any crash, sanitizer report, leak, timeout (FUZZ_TIMEOUT seconds for
# one input, default 10) or memory blow-up fails the run: the input is
# saved as build/fuzz/crashes/<target>-<kind>-<sha1>, named in the
# output with the report's first lines; the whole log is
# build/fuzz/logs/<target>.log.  Replay one with
#	build/fuzz/<target> build/fuzz/crashes/<file>
#
# Prints one line per target: executions, corpus size, the verdict.
# Exits 1 if any target failed.  Used by "make fuzz" and by the host test
# "fuzz" of tests/static.py (make check).
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=$TOP/build/fuzz
FUZZ_TIME=${FUZZ_TIME:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-10}
TARGETS=$(make -s -C "$TOP/fuzz" --no-print-directory print-targets)

if [ -n "${FUZZ_TARGET:-}" ]; then
	if ! grep -qw -- "$FUZZ_TARGET" <<<"$TARGETS"; then
		echo "fuzz: no target $FUZZ_TARGET (targets: $TARGETS)" >&2
		exit 1
	fi
	TARGETS=$FUZZ_TARGET
fi

nice -n 10 make -s -C "$TOP/fuzz" O="$OUT" -j2 >&2
mkdir -p "$OUT/crashes" "$OUT/logs"

failed=0
for t in $TARGETS; do
	seeds=$TOP/fuzz/corpus/$t
	found=$OUT/corpus/$t
	log=$OUT/logs/$t.log
	if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds")" ]; then
		echo "FAIL $t: no seed corpus in fuzz/corpus/$t"
		failed=1
		continue
	fi
	mkdir -p "$found"
	rm -f "$OUT/crashes/$t-"*
	rc=0
	nice -n 10 "$OUT/$t" -max_total_time="$FUZZ_TIME" \
		-timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$OUT/crashes/$t-" \
		"$found" "$seeds" >"$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	corpus=$(find "$found" "$seeds" -type f | wc -l)
	crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | head -1)
	if [ "$rc" -eq 0 ] && [ -z "$crash" ]; then
		printf '%-12s %10s execs  corpus %5s  ok\n' "$t" "${execs:-?}" \
			"$corpus"
		continue
	fi
	failed=1
	printf '%-12s %10s execs  corpus %5s  FAIL (exit %s)\n' "$t" \
		"${execs:-?}" "$corpus" "$rc"
	echo "  input: ${crash:-none saved}"
	echo "  replay: $OUT/$t ${crash:-}"
	echo "  log: $log"
	grep -m 12 -E 'ERROR|SUMMARY|FUZZ_CHECK|runtime error|#[0-9]+ 0x' \
		"$log" | sed 's/^/  | /' || true
done
exit "$failed"
