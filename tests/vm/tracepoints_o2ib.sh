#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tracepoints.sh over ko2iblnd on rxe0: the lnet_conn events are
# ko2iblnd's, the rest the core's as over ksocklnd.
TRACE_LND=o2ib
# shellcheck source=tests/vm/tracepoints.sh
. "$LNET_TOP/tests/vm/tracepoints.sh"
