# SPDX-License-Identifier: GPL-2.0
"""ksocklnd between two VMs: ping, PUT/GET of 0 B .. 1 MiB both ways with
the data checked, and 1,000 messages queued on exhausted credits that
complete in the order they were sent."""

import vm
from cases import VmTest

TESTS = [
    VmTest("sock_traffic", nodes=[vm.Node("a", script="sock_traffic.sh"),
                                  vm.Node("b", script="sock_traffic.sh")],
           flavours=("distro", "debug"), timeout=300, debug_timeout=900),
]
