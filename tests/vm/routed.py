# SPDX-License-Identifier: GPL-2.0
"""Three VMs, two links, one router between them: a, the client, on tcp
(ksocklnd, eth0 on link net0); r, the router, on tcp (eth0, net0) and
o2ib (soft-RoCE rxe0 on eth1, net1); b, the server, on o2ib (rxe0 on
eth0, net1).  One vCPU each: three nodes take more than the machine's
two cores, so the runner runs the job alone, after the others
(tests/run.py, Runner.run).  The scenarios share one boot per kernel
flavour (guest-init.sh), each starting with none of our modules loaded:

- routed_config: r with an NI on each net, each end node and r reaching
  each other on their common net (ping, PUT/GET with the data checked),
  routes added on a and b, and a send to a net with no route failing at
  once with -EHOSTUNREACH; the router checker's routes down and up (r's
  routing off, r gone), and r's NI that b stops pinging reported down
  and pinged up again (router NI liveness);
- routed_forward: r forwards (set routing 1, small pools): ping and
  discovery across r both ways, PUT/GET of 0 B .. 1 MiB both ways with
  every byte checked at the receiver, r's route_count/route_length and
  pools moving with no drop, lst brw write/read check=full through r,
  and the routing states (set routing 0 and 1): the STOPPING and
  STARTING windows (held open with W 110 s on r, then ended with W 4 s)
  seen by a and b, a's PUTs crossing r in each and once enabled,
  dropped by r once disabled; drop_asym_route on b dropping what r
  routes from a while b's route to tcp does not go through r; a, its
  LNet unloaded, playing a stock Lustre client (utils/tests/sock_lustre.c)
  through r to b, checked as stock would check it; then b, its LNet
  unloaded (rxe0 stays), playing a stock Lustre client on o2ib
  (utils/tests/o2ib_client.c: PUT_REQ/RDMA into r's buffers, GETs
  always IMMEDIATE, large REPLYs by PUT_REQ onto its sink) through r to
  a, whose LNet is back;
- routed_stock: the other way round, our a and b through a stock Lustre
  router: r, its LNet unloaded, runs utils/tests/sock_router (a scripted
  stock 2.17 router on tcp and tcp1; b has a tcp1 NI on eth0 here):
  ping, discovery and PUT/GET of 0 B .. 1 MiB from a to b through it
  with every byte checked, its discovery of b before forwarding, a's and
  b's router checks, its drain (RTE_DISABLED: a's route down, a's sends
  failing with -EHOSTUNREACH, nothing accepted lost) and its routing 1
  (forced push: a's route up, a's PUTs through again), checked as the
  spec asks of end nodes behind a stock router (11.2, 14 items 8-11, 13);
- nidmap_relay: r routes and publishes a nidmap table with the relay
  fan-out 1 (a chain), a and b subscribe with --relay: a change reaches
  the second of the chain only through the first's RELAYED notice (r
  sends one notice; counters and the copy checked), then the first's
  nidmap module is unloaded and the next change still reaches the
  other, noticed by r itself (Documentation/nidmap.rst, "Relay").
"""

import vm
from cases import VmTest

SCENARIOS = ["routed_config.sh", "routed_forward.sh", "routed_stock.sh",
             "nidmap_relay.sh"]

TESTS = [
    VmTest("routed",
           nodes=[vm.Node("a", script=SCENARIOS, links=["net0"]),
                  vm.Node("r", script=SCENARIOS, links=["net0", "net1"],
                          rxe="eth1"),
                  vm.Node("b", script=SCENARIOS, links=["net1"], rxe="eth0")],
           flavours=("distro", "debug"), timeout=315, debug_timeout=1020),
]
