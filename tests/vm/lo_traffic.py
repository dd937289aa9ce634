# SPDX-License-Identifier: GPL-2.0
"""Loopback traffic: ping 0@lo and PUT/GET of 0 B .. 1 MiB, data verified."""

import vm
from cases import VmTest

TESTS = [
    VmTest("lo_traffic", nodes=[vm.Node("a", script="lo_traffic.sh")],
           flavours=("distro", "debug"), timeout=180),
]
