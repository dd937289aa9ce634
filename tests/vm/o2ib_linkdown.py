# SPDX-License-Identifier: GPL-2.0
"""ko2iblnd on soft-RoCE: the target's link, the initiator's link, then
the initiator's RDMA device go mid-transfer; every operation ends with an
error (none hangs), traffic resumes once they are back, nothing leaks."""

import vm
from cases import VmTest

TESTS = [
    VmTest("o2ib_linkdown", nodes=[vm.Node("a", script="o2ib_linkdown.sh"),
                                   vm.Node("b", script="o2ib_linkdown.sh")],
           flavours=("distro", "debug"), timeout=400, debug_timeout=600),
]
