# SPDX-License-Identifier: GPL-2.0
"""Two VMs: LNet over ksocklnd, ping and bulk both ways (quick check)."""

import vm
from cases import VmTest

TESTS = [
    VmTest("sock_smoke", nodes=[vm.Node("a", script="sock_smoke.sh"),
                                vm.Node("b", script="sock_smoke.sh")],
           flavours=("lean", "debug"), timeout=300),
]
