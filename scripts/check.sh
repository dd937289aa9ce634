#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test command (make check): install what is missing, build the two
# test kernels once per machine, then run every test.  Last line printed:
# "N passed, N failed".  Extra arguments go to tests/run.py.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/test-kernel.sh lean >/dev/null
scripts/test-kernel.sh debug >/dev/null
exec tests/run.py "$@"
