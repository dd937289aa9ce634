#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Health over ko2iblnd: two rails (o2ib on rxe0/eth0, o2ib1 on rxe1/eth1),
# links that go down under traffic and come back; see health_lib.sh.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/o2ib_lib.sh"
T=$(mktemp -d)
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"
. "$LNET_TOP/tests/vm/multirail_lib.sh"
. "$LNET_TOP/tests/vm/health_lib.sh"
LND=o2ib
health_run
