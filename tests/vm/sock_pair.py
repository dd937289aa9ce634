# SPDX-License-Identifier: GPL-2.0
"""Two VMs on two links running LNet over ksocklnd (eth1 is the second
rail of sock_multirail): the scenarios that
share this topology run one after another in one boot per kernel flavour
(guest-init.sh), each reported on its own and each starting with none of
our modules loaded:

- sock_traffic: ping, PUT/GET of 0 B .. 1 MiB both ways with the data
  checked, 1,000 messages queued on exhausted credits that complete in
  the order they were sent, buffers reused at the SEND event over netem;
- sock_hostile: the acceptor and ksocklnd against a hostile TCP peer:
  each attack is refused and counted, and the node keeps serving;
- sock_reload: a GET from a peer whose cable QEMU pulled fails within
  transaction_timeout; a peer unloads and reloads its modules (also at
  the moment a connection is admitted) and is reconnected, a ping of it
  while unloaded failing well under 15 s;
- discovery_interop: a stock Lustre node's discovery of us, played by a
  peer: the ping validates and advertises MULTI_RAIL|DISCOVERY, a push
  gets its ACK and is merged, ours pushed back too, and traffic goes on
  (wire spec 6.2 and 7);
- peers: the peer table after traffic: lnetctl peer show/list/del in
  Lustre's shapes, bad input refused, a deleted or reaped (idle) peer
  made again by the next send; peer add of a multi-rail peer, --non_mr,
  --lock_prim and --force, configured NIDs kept by the reaper;
- sock_multirail: two rails (tcp, tcp1 on eth1): discovery finds both
  NIDs of the peer, push tells it ours, bulk traffic uses both, every
  byte checked; one rail deleted (pushed); a peer with discovery off is
  pinned to one NI;
- sock_health: the peer's push of an NI gone DOWN demerits that peer NI;
  two rails under continuous 1 MiB PUTs (every byte checked)
  while the peer's second cable, then our own, is pulled and comes back:
  no operation hangs, what never left is sent again by the other rail,
  the failed NI is demerited and recovered by pings, traffic moves off
  the sick rail and comes back;
- lst: LNet selftest, a the console and a test node, b a test node:
  sessions, groups, bad parameters refused, brw write/read check=full
  (8 B to 1 MiB, an unaligned offset) and ping with every RPC checked,
  stat figures, a node leaving mid-batch, a node's session expiring;
- nidmap: b publishes a nidmap table, a subscribes and registers a
  target; b's changes reach a's copy as deltas after notices, checked
  entry by entry; b may not take a's target; a malformed message to
  each side is dropped and counted; keys: the same key added on both,
  bad input refused, a rotation to a second key with registrations and
  the copy working at each step, messages signed and verified; export
  and import of a's roles and registrations, then of b's publisher role
  (removed by import --del, restored by import; a refused import undone)
  (Documentation/nidmap.rst);
- nidmap_auth: a and b hold a key: every nidmap message signed and
  checked; a REGISTER unsigned, MACed with a wrong secret, naming an
  unknown key, stale, or replayed (also after its target was removed) is
  refused, counted by its kind and changes nothing; one written from the
  document and signed right is taken; unsigned and forged NOTICEs to the
  subscriber are refused ("Trust");
- nidmap_dns: the DNS backend: a serves lnet1 TXT records (dnsmasq),
  b resolves targets through request-key and lnet-nid-resolver, sends
  to one by name (every byte checked at a); malformed, foreign, missing
  and (dns_dnssec on) unvalidated answers refused and counted.  Both
  kernels: dns_resolver is a module on Debian's, built in on debug;
- demo: what `make demo` shows: lnetctl, a ping, then lst as an admin
  runs it (brw write and read with check=full, a ping test, lst stat,
  show_error), summed up in MiB/s and microseconds (Debian's kernel
  only);
- tracepoints: every lnet trace event enabled through tracefs; traffic
  (ping, PUT, a drop, a failed send, a health change) produces the
  events it must, with the right NIDs, types, lengths and reasons;
- sock_linkdown: a link goes down mid-transfer, at either end: every
  operation ends with an error (none hangs), and traffic resumes once
  the link is back.  A job of its own until 2026-11-29: its boot and
  kmemleak scan cost ~29 s on debug;
- sock_addr_follow: a's address changes mid-traffic (a DHCP renew): its
  NI takes the new NID without a restart, b learns it by push and its
  PUTs to a's old NID reach the new one, every byte checked; the old
  address comes back (deleted first: the NI down for a moment).
"""

import vm
from cases import VmTest

SCENARIOS = ["sock_traffic.sh", "sock_hostile.sh", "sock_reload.sh",
             "discovery_interop.sh", "peers.sh", "sock_multirail.sh",
             "sock_health.sh", "lst.sh", "nidmap.sh", "nidmap_auth.sh",
             "nidmap_dns.sh",
             "demo.sh",
             "tracepoints.sh", "sock_linkdown.sh", "sock_addr_follow.sh"]

TESTS = [
    VmTest("sock_pair", nodes=[vm.Node("a", script=SCENARIOS,
                                       links=["net0", "net1"]),
                               vm.Node("b", script=SCENARIOS,
                                       links=["net0", "net1"])],
           flavours=("distro", "debug"), timeout=760, debug_timeout=2260,
           # The hostile peer's attacks, the peer table's and nidmap's
           # bookkeeping and the tracepoints' events are logic whose
           # judge is the debug kernel's catchers: on Debian's kernel they
           # would only repeat it (Documentation/testing.rst, Budget).
           debug_only=("sock_hostile", "peers", "nidmap", "nidmap_auth",
                       "tracepoints"),
           # The demo's traffic and lst runs are sock_traffic's and lst's,
           # which the debug kernel runs: the demo is what users see.
           distro_only=("demo",)),
]
