# SPDX-License-Identifier: GPL-2.0
"""One VM (soft-RoCE rxe0 on eth0): the single-node scenarios run one
after another in one boot per kernel flavour (guest-init.sh), each
reported on its own and each starting with none of our modules loaded:

- module_load: load/unload the modules 20 times (10 on debug), then
  the ip2nets= parameter (one match, two refusals);
- lo_traffic: ping 0@lo and PUT/GET of 0 B .. 1 MiB, data verified;
- lnetctl: lnetctl and the "lnet" generic netlink family: configure, net
  show, ping 0@lo, stats, global parameters, export/import round trip,
  and bad input (tool arguments and raw netlink requests) refused with a
  message and without changing anything;
- udsp: lnetctl udsp add/del/show and their index rules, what the rules
  give NIs and peer NIs (net/peer show -v 4), bad rules refused with
  nothing changed, export/import round trips (empty and full) identical;
- o2ib_tunables: ko2iblnd's LND tunables per NI: defaults from the module
  parameters, values from an imported "lnd tunables:" block, net show
  -v, export --backup / import --del / import round trip, out-of-range
  values refused without a change; a device without fast registration
  refused by net add (no global rkey fallback);
- ni_teardown: net del of a tcp and an o2ib NI while sends wait for peer
  credits and while a sender is between choosing the NI and reaching its
  LND: every message completes once, with an error, promptly;
- lnet_service: lnet.service's Exec* lines (systemd/) run as systemd
  would: start (the NID of eth0, a ping), reload, stop (nothing loaded),
  eth0 coming up late, eth0 never up (start fails naming it), a bad file.
"""

import vm
from cases import VmTest

SCENARIOS = ["module_load.sh", "lo_traffic.sh", "lnetctl.sh", "udsp.sh",
             "o2ib_tunables.sh", "ni_teardown.sh", "lnet_service.sh"]

TESTS = [
    VmTest("one_node", nodes=[vm.Node("n", script=SCENARIOS, rxe="eth0")],
           flavours=("distro", "debug"), timeout=434, debug_timeout=1138),
]
