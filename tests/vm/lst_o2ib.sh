#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# LNet selftest over ko2iblnd: tests/vm/lst.sh's data phases (brw write
# and read with check=full at 8 B .. 1 MiB and an unaligned offset, ping,
# brw_inject_errors, stat); sessions, bad input, a node leaving and a
# session expiring do not depend on the LND and run over ksocklnd only.
LST_LND=o2ib exec bash "$LNET_TOP/tests/vm/lst.sh"
