#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The main job (make demo): two VMs on one link running LNet, on Debian's
# own kernel (no kernel build: scripts/distro-kernel.sh fetches it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/distro-kernel.sh >/dev/null
rc=0
tests/run.py --flavour distro demo || rc=$?
# The demo is a scenario of the sock_pair topology (tests/vm/sock_pair.py).
for n in a b; do
	grep -a "^\[$n\]" build/tests/latest/*demo*.distro/$n/console.log || true
done
exit $rc
