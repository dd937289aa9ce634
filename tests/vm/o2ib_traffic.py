# SPDX-License-Identifier: GPL-2.0
"""ko2iblnd between two VMs on soft-RoCE: ping, PUT/GET of 0 B .. 1 MiB
both ways around the IMMEDIATE limit (3976 B) with the data checked, more
messages in flight than the queue depth, a peer that reloads its
modules, and no RDMA resource left behind."""

import vm
from cases import VmTest

TESTS = [
    VmTest("o2ib_traffic", nodes=[vm.Node("a", script="o2ib_traffic.sh"),
                                  vm.Node("b", script="o2ib_traffic.sh")],
           flavours=("distro", "debug"), timeout=600),
]
