# SPDX-License-Identifier: GPL-2.0
"""Four VMs, two links, two routers in parallel between them: a, the
client, on tcp (ksocklnd, eth0 on link net0); r and r2, the routers, on
tcp (eth0, net0) and o2ib (soft-RoCE rxe0 on eth1, net1); b, the server,
on o2ib (rxe0 on eth0, net1).  One vCPU each: the runner runs the job
alone (tests/run.py, Runner.run).  One scenario (routed_pair.sh, spec
lnet-routing.md 3.2, 5.3 and 6, sanity-lnet test 257): a's and b's
routes through both routers used in turn, r drained with "set routing
0" and brought back with "set routing 1" under a's traffic with nothing
lost and no drop on either router, a's PUTs that meet r2's refused
connection resent through r (spec 8), and r2 gone (its modules unloaded)
under traffic: its routes down at a and b within a few checks, every
operation finished with a status, and the traffic after through r.
"""

import vm
from cases import VmTest

TESTS = [
    VmTest("routed_pair",
           nodes=[vm.Node("a", script="routed_pair.sh", links=["net0"]),
                  vm.Node("r", script="routed_pair.sh", links=["net0", "net1"],
                          rxe="eth1"),
                  vm.Node("r2", script="routed_pair.sh",
                          links=["net0", "net1"], rxe="eth1"),
                  vm.Node("b", script="routed_pair.sh", links=["net1"],
                          rxe="eth0")],
           flavours=("distro", "debug"), timeout=420, debug_timeout=900),
]
