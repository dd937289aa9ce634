# SPDX-License-Identifier: GPL-2.0
"""ko2iblnd's LND tunables per NI on one node over soft-RoCE (rxe on
eth0): defaults from the module parameters, values from an imported
"lnd tunables:" block, net show -v, export --backup / import --del /
import round trip, and out-of-range values refused without a change."""

import vm
from cases import VmTest

TESTS = [
    VmTest("o2ib_tunables",
           nodes=[vm.Node("t", script="o2ib_tunables.sh", rxe="eth0")],
           flavours=("distro", "debug"), timeout=600, debug_timeout=1200),
]
