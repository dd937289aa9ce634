#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Multi-rail over ksocklnd: two rails (tcp on eth0, tcp1 on eth1), one
# multi-rail peer; see multirail_lib.sh.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
T=$(mktemp -d)
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"
. "$LNET_TOP/tests/vm/multirail_lib.sh"
LND=tcp
multirail_run
