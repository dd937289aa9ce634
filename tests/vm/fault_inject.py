# SPDX-License-Identifier: GPL-2.0
"""Fault injection (failslab, fail_page_alloc) on both nodes during
ksocklnd traffic: errors allowed, no splat, hang or leak, and full
service once it stops.  Debug kernel only: Debian's has no fault
injection."""

import vm
from cases import VmTest

TESTS = [
    VmTest("fault_inject", nodes=[vm.Node("a", script="fault_inject.sh"),
                                  vm.Node("b", script="fault_inject.sh")],
           flavours=("debug",), timeout=300, debug_timeout=360,
           # fail_page_alloc makes the page allocator report its failures.
           allow_splats=(r"page allocation failure",)),
]
