# SPDX-License-Identifier: GPL-2.0
"""ko2iblnd smoke test between two VMs over soft-RoCE (rxe on eth0):
ping both ways, PUT/GET of 0 B .. 1 MiB with the data checked (IMMEDIATE,
PUT_REQ and GET_REQ flows), and more messages in flight than the queue
depth."""

import vm
from cases import VmTest

TESTS = [
    VmTest("o2ib_smoke",
           nodes=[vm.Node("a", script="o2ib_smoke.sh", rxe="eth0"),
                  vm.Node("b", script="o2ib_smoke.sh", rxe="eth0")],
           flavours=("distro", "debug"), timeout=900, debug_timeout=1800),
]
