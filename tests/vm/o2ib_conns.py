# SPDX-License-Identifier: GPL-2.0
"""ko2iblnd connections between two VMs on soft-RoCE: conns_per_peer
(several connections to one peer, messages spread over all of them) and
the V1 protocol (0x11) both ways, against a node playing Lustre 1.8."""

import vm
from cases import VmTest

TESTS = [
    VmTest("o2ib_conns", nodes=[vm.Node("a", script="o2ib_conns.sh"),
                                vm.Node("b", script="o2ib_conns.sh")],
           flavours=("distro", "debug"), timeout=600),
]
