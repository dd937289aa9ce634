#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness must catch what it promises to: node "splat" logs a kernel
# WARNING line, node "hang" never finishes, node "exit" fails its script.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

case "$LNET_NODE" in
splat)	echo "WARNING: CPU: 0 PID: 1 at harness_selftest" > /dev/kmsg ;;
hang)	sleep 100000 ;;
exit)	fail "deliberate failure" ;;
esac
