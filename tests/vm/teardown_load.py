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
DEBUG_OBJECTS) watching two CPUs tear down.  It boots at MTU 1500 (the
debug kernel's other jobs use 9000) for PUTs and GETs of 0 B to 1 MiB
and a credit flood over each LND: rxe at RoCE MTU 1024 and tcp segments
of 1500 under the sanitisers; then the nodes switch to 9000 for the
teardown phases (3-5 times faster for 1 MiB messages).
"""

import vm
from cases import VmTest

TESTS = [
    VmTest("teardown_load",
           nodes=[vm.Node("a", script="teardown_load.sh", rxe="eth0",
                          cpus=2, mtu=1500),
                  vm.Node("b", script="teardown_load.sh", rxe="eth0",
                          cpus=2, mtu=1500)],
           flavours=("debug",), timeout=300, debug_timeout=1200),
]
