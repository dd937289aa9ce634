#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Health over ksocklnd: two rails (tcp on eth0, tcp1 on eth1), links that
# go down under traffic and come back; see health_lib.sh.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
T=$(mktemp -d)
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"
. "$LNET_TOP/tests/vm/multirail_lib.sh"
. "$LNET_TOP/tests/vm/health_lib.sh"
LND=tcp
health_run
