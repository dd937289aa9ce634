# SPDX-License-Identifier: GPL-2.0
"""Two VMs on two links running LNet over ko2iblnd on soft-RoCE (rxe0 on
eth0; eth1 is the second rail of o2ib_multirail): the scenarios that
share this topology run one after another in one boot per kernel flavour
(guest-init.sh), each reported on its own and each starting with none of
our modules loaded:

- o2ib_smoke: ping both ways, PUT/GET of 0 B .. 1 MiB with the data
  checked (IMMEDIATE, PUT_REQ and GET_REQ flows), more messages in flight
  than the queue depth;
- o2ib_traffic: PUT/GET around the IMMEDIATE limit (3976 B) from unaligned
  buffers, MR pool exhaustion, gapped sinks, keepalive, a peer that
  reloads its modules, buffers reused at the SEND event over netem, and no
  RDMA resource left behind;
- o2ib_conns: conns_per_peer (several connections to one peer, messages
  spread over all of them) and the V1 protocol (0x11) both ways, against
  a node playing Lustre 1.8;
- o2ib_hostile: a hostile RDMA peer (utils/tests/o2ib_hostile.c): each bad
  CONNREQ is rejected with the right reason, each bad message closes its
  connection, each is counted, and the node keeps serving;
- o2ib_get_interop: our RDMA GET sinks written by a peer playing a stock
  Lustre node (utils/tests/o2ib_lustre.c): pings with replies shorter
  than and as long as the sink, bulk GETs into unaligned buffers;
- o2ib_multirail: two rails (o2ib, o2ib1 on rxe1/eth1): discovery finds
  both NIDs of the peer, push tells it ours, bulk traffic uses both,
  every byte checked; one rail deleted (pushed);
- o2ib_health: as sock_health, over o2ib and o2ib1 (Debian's kernel
  only, as lst_o2ib: see distro_only below);
- lst_o2ib: LNet selftest over o2ib, lst.sh's data phases: brw write and
  read check=full (8 B to 1 MiB, an unaligned offset) and ping with every
  RPC checked, brw_inject_errors, stat figures;
- tracepoints_o2ib: sock_pair's tracepoints scenario over o2ib (the
  lnet_conn events are ko2iblnd's);
- o2ib_linkdown (last: its link bounces leave renewed rxe devices): the
  target's link, the initiator's link, then the initiator's RDMA device
  go mid-transfer; every operation ends with an error (none hangs),
  traffic resumes once they are back, nothing leaks.  A job of its own
  until 2026-11-29: its boot and kmemleak scan cost ~28 s on debug.
"""

import vm
from cases import VmTest

SCENARIOS = ["o2ib_smoke.sh", "o2ib_traffic.sh", "o2ib_conns.sh",
             "o2ib_hostile.sh", "o2ib_get_interop.sh", "o2ib_multirail.sh",
             "o2ib_health.sh", "lst_o2ib.sh", "tracepoints_o2ib.sh",
             "o2ib_linkdown.sh"]

TESTS = [
    VmTest("o2ib_pair",
           nodes=[vm.Node("a", script=SCENARIOS, rxe="eth0",
                          links=["net0", "net1"]),
                  vm.Node("b", script=SCENARIOS, rxe="eth0",
                          links=["net0", "net1"])],
           flavours=("distro", "debug"), timeout=600, debug_timeout=1700,
           # The hostile peer's attacks and the tracepoints' events are
           # logic whose judge is the debug kernel's catchers.
           debug_only=("o2ib_hostile", "tracepoints_o2ib"),
           # The core's health and selftest logic: the debug kernel runs
           # it over ksocklnd (sock_health, lst), and ko2iblnd's own
           # paths these reach (a link or RDMA device gone mid-transfer,
           # RDMA bulk both ways, an o2ib NI deleted under load) in
           # o2ib_linkdown, o2ib_smoke, o2ib_traffic and teardown_load.
           # (o2ib_multirail stays: two RDMA devices, one deleted.)
           distro_only=("o2ib_health", "lst_o2ib")),
]
