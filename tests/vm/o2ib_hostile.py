# SPDX-License-Identifier: GPL-2.0
"""ko2iblnd against a hostile RDMA peer (utils/tests/o2ib_hostile.c): each
bad CONNREQ is rejected with the right reason, each bad message closes
its connection, each is counted, and the node keeps serving."""

import vm
from cases import VmTest

TESTS = [
    VmTest("o2ib_hostile",
           nodes=[vm.Node("a", script="o2ib_hostile.sh", rxe="eth0"),
                  vm.Node("b", script="o2ib_hostile.sh", rxe="eth0")],
           flavours=("distro", "debug"), timeout=900),
]
