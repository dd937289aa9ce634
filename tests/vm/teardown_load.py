# SPDX-License-Identifier: GPL-2.0
"""Teardown under load (Documentation/testing.rst, "Teardown under
load"): two nodes of two vCPUs each, so that two CPUs run LNet code at
once (the races of teardown need that: on one vCPU the action and the
traffic never overlap), on the debug kernel.  While verified 1 MiB PUTs
and GETs flow both ways over ksocklnd, then over ko2iblnd (rxe0 on
eth0): an LND's rmmod refused while its NI runs, `net del` of that NI
(over tcp with a discovery and delayed messages in flight), then the
LND's rmmod; the peer leaving (`lnet unconfigure` refused while
lnet_test holds LNet, `rmmod lnet_test` stopping LNet under the
incoming traffic, every module unloaded) and coming back; `rmmod
lnet_health` with recovery pings in flight; `rmmod lnet_selftest` on
the console node during a brw batch.  Every operation ends exactly once
with a status, none is given up by lnet_test, no byte arrives wrong,
every action takes under 20 s, nothing stays allocated, and the next
operations all succeed.

Debug only: what it is for is the catchers (KASAN, lockdep, kmemleak,
DEBUG_OBJECTS) watching two CPUs tear down.  The links' MTU is 1500
there (the debug kernel's other jobs use 9000): rxe runs at RoCE MTU
1024 and tcp segments at 1500 under the sanitisers here.
"""

import vm
from cases import VmTest

TESTS = [
    VmTest("teardown_load",
           nodes=[vm.Node("a", script="teardown_load.sh", rxe="eth0",
                          cpus=2, mtu=1500),
                  vm.Node("b", script="teardown_load.sh", rxe="eth0",
                          cpus=2, mtu=1500)],
           flavours=("debug",), timeout=300, debug_timeout=900),
]
