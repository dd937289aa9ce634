#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The main job (make demo): two VMs on one link running LNet.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/test-kernel.sh lean >/dev/null
rc=0
tests/run.py --flavour lean demo || rc=$?
for n in a b; do
	grep -a "^\[$n\]" build/tests/latest/demo.lean/$n/console.log || true
done
exit $rc
