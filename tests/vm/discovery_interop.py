# SPDX-License-Identifier: GPL-2.0
"""A stock Lustre node's discovery of us, played by a peer: the ping
validates and advertises the non-MR profile, a push gets its ACK, and
traffic goes on (wire spec 6.2 and 7; issue: Lustre's discovery of us
failed with -110 because a push found no MD)."""

import vm
from cases import VmTest

TESTS = [
    VmTest("discovery_interop",
           nodes=[vm.Node("a", script="discovery_interop.sh"),
                  vm.Node("b", script="discovery_interop.sh")],
           flavours=("distro", "debug"), timeout=240),
]
