#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lnetctl against lnet.ko on one node; see tests/vm/lnetctl.py.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

LNETCTL=$LNET_TOP/build/utils/static/lnetctl
NL_BAD=$LNET_TOP/build/utils/static/lnet_nl_bad
[ -x "$LNETCTL" ] && [ -x "$NL_BAD" ] ||
	fail "lnetctl not built: run 'make lnetctl' on the host"
T=$(mktemp -d)

. "$LNET_TOP/tests/vm/lnetctl_lib.sh"

# value KEY: the value of "KEY: N" in stdin (first match).
value() {
	sed -n "s/^ *$1: //p" | head -1
}

lnet_load

# --- configure ---
phase configure
must_fail "net show before configure" "not configured" "$LNETCTL" net show
"$LNETCTL" lnet configure || fail "lnet configure"
"$LNETCTL" lnet configure || fail "lnet configure, again"

# --- net show, lo ---
phase net_show
"$LNETCTL" stats reset || fail "stats reset"
cat >"$T/show0" <<'YAML'
net:
-     net type: lo
      local NI(s):
      -     nid: 0@lo
            status: up
YAML
"$LNETCTL" net show | expect_yaml "net show" "$T/show0"
"$LNETCTL" net show --net lo | expect_yaml "net show --net lo" "$T/show0"
cat >"$T/show1" <<'YAML'
net:
-     net type: lo
      local NI(s):
      -     nid: 0@lo
            status: up
            statistics:
                  send_count: 0
                  recv_count: 0
                  drop_count: 0
                  put_egress_samples: 0
                  put_egress_min_nsec: 0
                  put_egress_max_nsec: 0
                  put_egress_avg_nsec: 0
                  get_rtt_samples: 0
                  get_rtt_min_nsec: 0
                  get_rtt_max_nsec: 0
                  get_rtt_avg_nsec: 0
                  put_ack_samples: 0
                  put_ack_min_nsec: 0
                  put_ack_max_nsec: 0
                  put_ack_avg_nsec: 0
            tunables:
                  peer_timeout: 0
                  peer_credits: 0
                  peer_buffer_credits: 0
                  credits: 0
YAML
"$LNETCTL" net show -v | expect_yaml "net show -v" "$T/show1"
"$LNETCTL" net show --verbose=1 | expect_yaml "net show --verbose=1" \
	"$T/show1"
cat >"$T/show2" <<'YAML'
net:
-     net type: lo
      local NI(s):
      -     nid: 0@lo
            status: up
            statistics:
                  send_count: 0
                  recv_count: 0
                  drop_count: 0
                  put_egress_samples: 0
                  put_egress_min_nsec: 0
                  put_egress_max_nsec: 0
                  put_egress_avg_nsec: 0
                  get_rtt_samples: 0
                  get_rtt_min_nsec: 0
                  get_rtt_max_nsec: 0
                  get_rtt_avg_nsec: 0
                  put_ack_samples: 0
                  put_ack_min_nsec: 0
                  put_ack_max_nsec: 0
                  put_ack_avg_nsec: 0
            sent_stats:
                  put: 0
                  get: 0
                  reply: 0
                  ack: 0
                  hello: 0
            received_stats:
                  put: 0
                  get: 0
                  reply: 0
                  ack: 0
                  hello: 0
            dropped_stats:
                  put: 0
                  get: 0
                  reply: 0
                  ack: 0
                  hello: 0
            health stats:
                  fatal_error: 0
                  health value: 1000
                  interrupts: 0
                  dropped: 0
                  aborted: 0
                  no route: 0
                  timeouts: 0
                  error: 0
                  ping_count: 0
                  next_ping: 0
            tunables:
                  peer_timeout: 0
                  peer_credits: 0
                  peer_buffer_credits: 0
                  credits: 0
YAML
"$LNETCTL" net show -v 2 | expect_yaml "net show -v 2" "$T/show2"

# --- stats before and after a ping ---
phase stats_ping
"$LNETCTL" stats show >"$T/stats0"
grep -q '^statistics:$' "$T/stats0" || fail "stats show: no statistics:"
for k in msgs_alloc msgs_max errors send_count recv_count route_count \
	 drop_count send_length recv_length route_length drop_length; do
	grep -qE "^      $k: [0-9]+$" "$T/stats0" || fail "stats show: no $k"
done
[ "$(value send_count <"$T/stats0")" = 0 ] || fail "send_count not 0"
cat >"$T/ping" <<'YAML'
ping:
-     primary nid: 0@lo
YAML
"$LNETCTL" ping 0@lo >"$T/ping.out" || fail "ping 0@lo"
cat "$T/ping.out"
head -2 "$T/ping.out" | expect_yaml "ping 0@lo" "$T/ping"
grep -qE '^      Multi-Rail: (true|false)$' "$T/ping.out" ||
	fail "ping 0@lo: no Multi-Rail"
grep -q '^      peer_ni:' "$T/ping.out" || fail "ping 0@lo: no peer_ni"
"$LNETCTL" stats show >"$T/stats1"
for k in send_count recv_count; do
	n=$(value $k <"$T/stats1")
	[ "$n" -ge 1 ] || fail "stats after ping: $k is $n"
done
"$LNETCTL" net show -v 2 >"$T/show.ping"
[ "$(value send_count <"$T/show.ping")" -ge 1 ] ||
	fail "net show -v 2 after ping: lo send_count did not move"
[ "$(sed -n '/sent_stats:/,/hello:/p' "$T/show.ping" | value get)" -ge 1 ] ||
	fail "net show -v 2 after ping: no GET counted as sent"
# The ping's GET was response-tracked: its round trip is a sample.
[ "$(value get_rtt_samples <"$T/show.ping")" -ge 1 ] &&
	[ "$(value get_rtt_max_nsec <"$T/show.ping")" -ge \
	  "$(value get_rtt_min_nsec <"$T/show.ping")" ] &&
	[ "$(value get_rtt_min_nsec <"$T/show.ping")" -gt 0 ] ||
	{ cat "$T/show.ping"; fail "net show -v 2 after ping: no GET round trip"; }
"$LNETCTL" stats reset || fail "stats reset"
"$LNETCTL" stats show >"$T/stats2"
for k in send_count recv_count send_length recv_length; do
	[ "$(value $k <"$T/stats2")" = 0 ] || fail "after reset: $k not 0"
done
"$LNETCTL" net show -v 2 | expect_yaml "net show -v 2 after reset" \
	"$T/show2"
"$LNETCTL" ping 0@lo,0@lo --timeout 2 >/dev/null || fail "ping list"
must_fail "ping of an unreachable NID" "failed to ping 192.0.2.1@tcp" \
	"$LNETCTL" ping 192.0.2.1@tcp

# --- global show / set ---
phase global
"$LNETCTL" global show >"$T/global0"
cat "$T/global0"
grep -q '^global:$' "$T/global0" || fail "global show: no global:"
for k in numa_range discovery max_interfaces drop_asym_route retry_count \
	 transaction_timeout health_sensitivity recovery_interval \
	 router_sensitivity lnd_timeout response_tracking recovery_limit \
	 max_recovery_ping_interval; do
	grep -qE "^      $k: -?[0-9]+$" "$T/global0" || fail "global: no $k"
done
hs=$(value health_sensitivity <"$T/global0")
new=$((hs == 100 ? 200 : 100))
"$LNETCTL" set health_sensitivity $new || fail "set health_sensitivity"
[ "$("$LNETCTL" global show | value health_sensitivity)" = $new ] ||
	fail "set health_sensitivity $new did not stick"
"$LNETCTL" set health_sensitivity "$hs" || fail "set health_sensitivity"
"$LNETCTL" global show | expect_yaml "global show after set round trip" \
	"$T/global0"
must_fail "set health_sensitivity 5000" "health_sensitivity" \
	"$LNETCTL" set health_sensitivity 5000
tt=$(value transaction_timeout <"$T/global0")
must_fail "set retry_count above transaction_timeout (kernel check)" \
	"retry_count" "$LNETCTL" set retry_count $((tt + 1))
"$LNETCTL" global show | expect_yaml "global unchanged after refusals" \
	"$T/global0"

# --- export / import ---
phase export_import
"$LNETCTL" set retry_count 3
"$LNETCTL" set discovery 0
"$LNETCTL" export >"$T/export.full"
grep -q '^-     net type: lo$' "$T/export.full" || fail "export: no lo"
grep -q '^global:$' "$T/export.full" || fail "export: no global"
"$LNETCTL" export --backup "$T/export1" || fail "export --backup FILE"
cat "$T/export1"
grep -q 'net type: lo' "$T/export1" && fail "export --backup has lo"
"$LNETCTL" import --del "$T/export1" || fail "import --del"
"$LNETCTL" set retry_count 1
"$LNETCTL" set discovery 1
"$LNETCTL" import --show "$T/export1" >"$T/import.show" ||
	fail "import --show"
grep -q '^      retry_count: 1$' "$T/import.show" ||
	fail "import --show: not the current retry_count"
"$LNETCTL" import <"$T/export1" || fail "import from stdin"
"$LNETCTL" export --backup | expect_yaml "export after import" \
	"$T/export1"
# a file the kernel refuses in part changes nothing
"$LNETCTL" export --backup >"$T/before"
cat >"$T/bad.yaml" <<'YAML'
net:
-     net type: gni
      local NI(s):
      -     interfaces:
                  0: eth0
global:
      retry_count: 2
YAML
must_fail "import of a gni net (no LND)" "errno: -93" \
	"$LNETCTL" import "$T/bad.yaml"
"$LNETCTL" export --backup | expect_yaml "export after refused import" \
	"$T/before"
sed -i 's/retry_count: 2/retry_count: many/' "$T/bad.yaml"
must_fail "import of a bad value" "retry_count" "$LNETCTL" import "$T/bad.yaml"
printf 'colour:\n      range: 0\n' >"$T/colour.yaml"
must_fail "import of an unknown block" "'colour' blocks" \
	"$LNETCTL" import "$T/colour.yaml"
"$LNETCTL" export --backup | expect_yaml "export after bad imports" \
	"$T/before"
"$LNETCTL" import --add "$T/export.full" >/dev/null 2>&1 ||
	fail "import of a full export"
"$LNETCTL" set discovery "$(value discovery <"$T/global0")"
"$LNETCTL" set retry_count "$(value retry_count <"$T/global0")"
"$LNETCTL" global show | expect_yaml "global restored" "$T/global0"

# --- bad lnetctl arguments: refused, nothing changed ---
phase bad_args
"$LNETCTL" net show -v >"$T/show.before"
"$LNETCTL" global show >"$T/global.before"
must_fail "unknown net type" "--net value 'foo'" \
	"$LNETCTL" net add --net foo --if eth0
must_fail "net number too big" "--net value 'tcp70000'" \
	"$LNETCTL" net add --net tcp70000 --if eth0
must_fail "peer-credits 0" "--peer-credits" \
	"$LNETCTL" net add --net tcp1 --if eth0 --peer-credits 0
must_fail "credits too big" "--credits" \
	"$LNETCTL" net add --net tcp1 --if eth0 --credits 99999999
must_fail "peer-timeout negative" "--peer-timeout" \
	"$LNETCTL" net add --net tcp1 --if eth0 --peer-timeout -1
must_fail "peer-buffer-credits not a number" "--peer-buffer-credits" \
	"$LNETCTL" net add --net tcp1 --if eth0 --peer-buffer-credits x
must_fail "conns-per-peer 128" "--conns-per-peer value '128'.*0\.\.127" \
	"$LNETCTL" net add --net tcp1 --if eth0 --conns-per-peer 128
must_fail "conns-per-peer negative" "--conns-per-peer value '-1'" \
	"$LNETCTL" net add --net tcp1 --if eth0 --conns-per-peer -1
must_fail "missing --net" "missing mandatory parameter --net" \
	"$LNETCTL" net add --if eth0
must_fail "missing --if" "missing mandatory parameter --if" \
	"$LNETCTL" net add --net tcp1
must_fail "over-long interface" "--if value" \
	"$LNETCTL" net add --net tcp1 --if abcdefghijklmnopq
must_fail "add lo" "lo" "$LNETCTL" net add --net lo --if eth0
must_fail "del lo" "lo" "$LNETCTL" net del --net lo
must_fail "del missing --net" "--net or --nid" "$LNETCTL" net del
must_fail "del --nid garbage" "--nid value 'garbage'" \
	"$LNETCTL" net del --nid garbage
must_fail "del --nid of no NI (kernel)" "no such NI" \
	"$LNETCTL" net del --nid 192.0.2.99@tcp
must_fail "del --nid of another net than --net (kernel)" "not on that network" \
	"$LNETCTL" net del --net tcp1 --nid 192.0.2.99@tcp
must_fail "del --nid of 0@lo (kernel)" "lo" "$LNETCTL" net del --nid 0@lo
must_fail "del of an absent net (kernel)" "cannot delete" \
	"$LNETCTL" net del --net tcp5
must_fail "gni, no such LND (kernel)" "errno: -93" \
	"$LNETCTL" net add --net gni --if eth0
# The NI started, but the ping buffer could not be rebuilt (the debugfs
# hook fails its allocation once): net add fails and changes nothing.
echo 1 > /sys/kernel/debug/lnet/test_fail_ping_update
must_fail "net add whose ping buffer update fails" "errno: -12" \
	"$LNETCTL" net add --net tcp9 --if eth0
[ "$(cat /sys/kernel/debug/lnet/test_fail_ping_update)" = 0 ] ||
	fail "net add never rebuilt the ping buffer"
out=$("$LNETCTL" net show) || fail "net show after a failed net add"
grep -q "@tcp9\$" <<<"$out" && fail "a failed net add left its NI: $out"
# tcp: ksocklnd is loaded, so it works; the NID is eth0's address.
"$LNETCTL" net add --net tcp9 --if eth0 || fail "net add tcp9"
my_ip=IP_${LNET_NODE}_net0
"$LNETCTL" net show | grep -q "nid: ${!my_ip}@tcp9\$" ||
	fail "net show: no tcp9 NI: $("$LNETCTL" net show)"
# Output first: a failing lnetctl must fail here, not pass as "not shown".
out=$("$LNETCTL" net show --net tcp9)
grep -q "lnd tunables" <<<"$out" && fail "net show (detail 0) has lnd tunables"
# conns_per_peer 0 (ksocklnd's default): shown as chosen from the link speed
cpp=$("$LNETCTL" net show --net tcp9 -v | value conns_per_peer)
[ -n "$cpp" ] && [ "$cpp" -ge 1 ] ||
	fail "net show -v: tcp9 conns_per_peer '$cpp', want the automatic one"
# net del by the NI's NID
"$LNETCTL" net del --nid "${!my_ip}@tcp9" || fail "net del --nid (tcp9)"
must_lack "net del --nid left the NI" "@tcp9\$" net show

# --- lnd tunables: conns_per_peer ---
phase tunables
"$LNETCTL" net add --net tcp9 --if eth0 --conns-per-peer 3 ||
	fail "net add tcp9 --conns-per-peer 3"
"$LNETCTL" net show --net tcp9 -v >"$T/cpp.show"
cat "$T/cpp.show"
cat >"$T/cpp.tail" <<'YAML'
            tunables:
                  peer_timeout: 180
                  peer_credits: 8
                  peer_buffer_credits: 0
                  credits: 256
            lnd tunables:
                  conns_per_peer: 3
                  timeout: 50
                  tos: -1
YAML
sed -n '/^            tunables:$/,$p' "$T/cpp.show" |
	expect_yaml "net show -v: lnd tunables of tcp9" "$T/cpp.tail"
"$LNETCTL" net show --net tcp9 -v 2 | grep -q '^                  conns_per_peer: 3$' ||
	fail "net show -v 2: no conns_per_peer: 3"
# export --backup, import --del, import: the same NI back
"$LNETCTL" export --backup "$T/cpp.yaml" || fail "export --backup (tcp9)"
cat "$T/cpp.yaml"
sed -n '/^            lnd tunables:$/,/^global:$/p' "$T/cpp.yaml" |
	grep -q '^                  conns_per_peer: 3$' ||
	fail "export --backup: no lnd tunables with conns_per_peer: 3"
printf '            lnd tunables:\n                  conns_per_peer: 3\n                  tos: -1\n' >"$T/cpp.lnd"
sed -n '/^            lnd tunables:$/,/^[a-z]/{/^ /p}' "$T/cpp.yaml" |
	expect_yaml "export --backup: lnd tunables (no timeout)" "$T/cpp.lnd"
"$LNETCTL" import --del "$T/cpp.yaml" || fail "import --del (tcp9)"
must_fail "import --del left tcp9" "no network 'tcp9'" \
	"$LNETCTL" net show --net tcp9
"$LNETCTL" import "$T/cpp.yaml" || fail "import of conns_per_peer 3"
"$LNETCTL" export --backup | expect_yaml "export after import of lnd tunables" \
	"$T/cpp.yaml"
# an out-of-range conns_per_peer in a file changes nothing
sed 's/conns_per_peer: 3/conns_per_peer: 128/; s/tcp9/tcp8/' "$T/cpp.yaml" \
	>"$T/cpp.bad"
must_fail "import of conns_per_peer 128" "invalid conns_per_peer '128'" \
	"$LNETCTL" import "$T/cpp.bad"
sed -i 's/conns_per_peer: 128/conn_per_peer: 2/' "$T/cpp.bad"
must_fail "import of an unknown lnd tunable" "conn_per_peer" \
	"$LNETCTL" import "$T/cpp.bad"
"$LNETCTL" export --backup | expect_yaml "export after refused lnd tunables" \
	"$T/cpp.yaml"
# net set --conns-per-peer: one NI, then all but 0@lo
cpp9() { "$LNETCTL" net show --net tcp9 -v | value conns_per_peer; }
"$LNETCTL" net set --nid "${!my_ip}@tcp9" --conns-per-peer 5 ||
	fail "net set --nid --conns-per-peer 5"
[ "$(cpp9)" = 5 ] || fail "net set --nid: conns_per_peer '$(cpp9)', want 5"
"$LNETCTL" net set --all --conns-per-peer 7 ||
	fail "net set --all --conns-per-peer 7"
[ "$(cpp9)" = 7 ] || fail "net set --all: conns_per_peer '$(cpp9)', want 7"
must_fail "net set --conns-per-peer 0" \
	"--conns-per-peer value '0' is not in 1\.\.127" \
	"$LNETCTL" net set --all --conns-per-peer 0
must_fail "net set --conns-per-peer 128" \
	"--conns-per-peer value '128' is not in 1\.\.127" \
	"$LNETCTL" net set --all --conns-per-peer 128
must_fail "peer set --conns-per-peer" \
	"unknown or incomplete option '--conns-per-peer'" \
	"$LNETCTL" peer set --all --conns-per-peer 2
must_fail "net set --conns-per-peer of 0@lo" "0@lo has no conns_per_peer" \
	"$LNETCTL" net set --nid 0@lo --conns-per-peer 2
must_fail "net set --conns-per-peer of no NI" "no such local NI" \
	"$LNETCTL" net set --nid 192.0.2.99@tcp9 --conns-per-peer 2
[ "$(cpp9)" = 7 ] || fail "refused net sets changed conns_per_peer"
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (conns_per_peer 3)"
# Lustre's other socklnd keys are ignored with a warning
cat >"$T/cpp.lustre" <<'YAML'
net:
-     net type: tcp9
      local NI(s):
      -     interfaces:
                  0: eth0
            lnd tunables:
                  conns_per_peer: 2
                  timeout: 50
                  tos: 104
                  peercredits_hiw: 4
                  ntx: 256
YAML
"$LNETCTL" import "$T/cpp.lustre" 2>"$T/cpp.err" ||
	{ cat "$T/cpp.err"; fail "import of Lustre's lnd tunables"; }
grep -q "'lnd tunables: timeout' is not supported, ignored" "$T/cpp.err" ||
	{ cat "$T/cpp.err"; fail "import: no warning for lnd tunables: timeout"; }
[ "$(grep -c 'not supported' "$T/cpp.err")" = 1 ] ||
	{ cat "$T/cpp.err"; fail "import: warnings for supported lnd tunables"; }
# ko2iblnd's keys are accepted (and ignored by ksocklnd): no warning
grep -q "peercredits_hiw\|ntx" "$T/cpp.err" &&
	{ cat "$T/cpp.err"; fail "import: warning for an o2ib lnd tunable"; }
out=$("$LNETCTL" net show --net tcp9 -v)
grep -q "peercredits_hiw\|ntx" <<<"$out" &&
	fail "net show -v: o2ib lnd tunables shown for tcp9"
[ "$("$LNETCTL" net show --net tcp9 -v | value conns_per_peer)" = 2 ] ||
	fail "import: conns_per_peer 2 not applied"
[ "$("$LNETCTL" net show --net tcp9 -v | value tos)" = 104 ] ||
	fail "import: tos 104 not applied"
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (imported)"
# ToS: ksocklnd's tos (read when an NI starts), net add --tos; the byte
# is on the sockets the NI connects (from before the connect) and accepts
tos9() { "$LNETCTL" net show --net tcp9 -v | value tos; }
tosp=/sys/module/ksocklnd/parameters/tos
[ "$(cat $tosp)" = -1 ] || fail "ksocklnd tos is '$(cat $tosp)', want -1"
if echo 256 2>"$T/tos.err" >$tosp; then
	fail "ksocklnd tos 256 accepted"
fi
grep -q "Invalid argument" "$T/tos.err" ||
	{ cat "$T/tos.err"; fail "ksocklnd tos 256: not refused as invalid"; }
[ "$(cat $tosp)" = -1 ] || fail "a refused tos changed it"
must_fail "net add --tos 256" 	"invalid --tos value '256': must be an integer in -1\.\.255" 	"$LNETCTL" net add --net tcp9 --if eth0 --tos 256
echo 184 >$tosp || fail "ksocklnd tos 184"
"$LNETCTL" net add --net tcp9 --if eth0 || fail "net add tcp9 (tos 184)"
[ "$(tos9)" = 184 ] || fail "tcp9: tos '$(tos9)', want the module's 184"
ip addr add 192.0.2.177/32 dev lo || fail "ip addr add 192.0.2.177"
# a peer at 192.0.2.177 that holds the connection of our NI, and a
# connector from there to our acceptor (connection request for our NID)
cat >"$T/tos.py" <<'PY'
import socket, struct, sys, time
me, mode = sys.argv[1], sys.argv[2]
if mode == "listen":
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("192.0.2.177", 988))
    s.listen(1)
    print("ready", flush=True)
    c, _ = s.accept()
else:
    c = socket.socket()
    c.bind(("192.0.2.177", 1000))
    c.connect((me, 988))
    nid = (((2 << 16) | 9) << 32) | struct.unpack("!I", socket.inet_aton(me))[0]
    c.sendall(struct.pack("<IIQ", 0xACCE7100, 1, nid))
    print("sent", flush=True)
time.sleep(30)  # holds the connection until killed
PY
# tos_seen WHAT FILTER...: "ss --tos" shows the socket of FILTER with 0xb8
# within 3 s (an accepted socket is listed before ksocklnd, handed it by
# the acceptor once the request is read, sets its ToS: the debug kernel
# was seen between the two).
tos_seen() {
	local what=$1 i
	shift
	for ((i = 0; i < 30; i++)); do
		ss -tnH --tos state established "$@" >"$T/ss.out"
		grep -q 'tos:0xb8' "$T/ss.out" && break
		nap 0.1
	done
	cat "$T/ss.out"
	grep -q 'tos:0xb8' "$T/ss.out" ||
		fail "$what: no ToS 0xb8 on the socket"
	log "tos 184 on the socket $what"
}
python3 "$T/tos.py" "${!my_ip}" listen >"$T/tos.listen" &
tos_py=$!
for ((i = 0; i < 50; i++)); do
	grep -q ready "$T/tos.listen" && break
	nap 0.1
done
"$LNETCTL" ping --timeout 1 192.0.2.177@tcp9 >/dev/null 2>&1 &
tos_seen "tcp9 connects" dst 192.0.2.177 dport = :988
kill $tos_py
wait || true
python3 "$T/tos.py" "${!my_ip}" connect >"$T/tos.connect" &
tos_py=$!
tos_seen "tcp9 accepts" src "${!my_ip}" sport = :988 dst 192.0.2.177
grep -q sent "$T/tos.connect" || fail "the ToS connector sent no request"
kill $tos_py
wait || true
ip addr del 192.0.2.177/32 dev lo
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (tos 184)"
"$LNETCTL" peer del --prim_nid 192.0.2.177@tcp9 ||
	fail "peer del 192.0.2.177@tcp9 (the ToS peer)"
# --tos -1: none, whatever the module's
"$LNETCTL" net add --net tcp9 --if eth0 --tos -1 || fail "net add --tos -1"
[ "$(tos9)" = -1 ] || fail "net add --tos -1: tos '$(tos9)'"
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (tos -1)"
echo -1 >$tosp || fail "ksocklnd tos -1"
must_fail "bad NID, bad net" "invalid NID '1.2.3.4@foo'" \
	"$LNETCTL" ping 1.2.3.4@foo
must_fail "bad NID, bad address" "invalid NID '300.1.1.1@tcp'" \
	"$LNETCTL" ping 300.1.1.1@tcp
must_fail "bad NID in a list" "invalid NID 'x@lo'" \
	"$LNETCTL" ping 0@lo,x@lo
must_fail "bad --source" "--source" "$LNETCTL" ping --source nope 0@lo
must_fail "ping timeout 0" "--timeout" "$LNETCTL" ping --timeout 0 0@lo
must_fail "ping without NID" "missing mandatory" "$LNETCTL" ping
must_fail "unknown param" "unknown parameter 'nosuch'" \
	"$LNETCTL" set nosuch 1
must_fail "read-only param" "read-only" "$LNETCTL" set lnd_timeout 5
must_fail "discovery 2" "discovery" "$LNETCTL" set discovery 2
must_fail "value not a number" "discovery" "$LNETCTL" set discovery yes
must_fail "set without value" "missing value" "$LNETCTL" set discovery
must_fail "bad verbosity" "--verbose" "$LNETCTL" net show -v 9
must_fail "unknown option" "unknown or incomplete option" \
	"$LNETCTL" net add --net tcp1 --if eth0 --bogus 1
must_fail "unknown subcommand" "unknown subcommand" "$LNETCTL" net frob
must_fail "unknown command" "unknown command" "$LNETCTL" frob
"$LNETCTL" net show -v | expect_yaml "net show after bad arguments" \
	"$T/show.before"
"$LNETCTL" global show | expect_yaml "global after bad arguments" \
	"$T/global.before"

# --- bad raw netlink requests ---
phase bad_netlink
"$NL_BAD" >"$T/nl_bad" || { cat "$T/nl_bad"; fail "lnet_nl_bad"; }
cat "$T/nl_bad"
setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$NL_BAD" --eperm >"$T/nl_eperm" ||
	{ cat "$T/nl_eperm"; fail "lnet_nl_bad --eperm"; }
cat "$T/nl_eperm"
must_fail "set without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" set discovery 0
setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" net show -v | expect_yaml "net show without CAP_NET_ADMIN" \
	"$T/show.before"
"$LNETCTL" net show -v | expect_yaml "net show after bad requests" \
	"$T/show.before"
"$LNETCTL" global show | expect_yaml "global after bad requests" \
	"$T/global.before"

# --- health: net set / peer set --health, debug recovery, stats ---
phase health
"$LNETCTL" net add --net tcp9 --if eth0 || fail "net add tcp9 (health)"
hnid=${!my_ip}@tcp9
health_value() {
	"$LNETCTL" "$1" show -v 2 | awk -v nid="$2" '
		$2 == "nid:" { cur = $3 }
		$1 == "health" && $2 == "value:" && cur == nid { print $3; exit }'
}
[ "$(health_value net "$hnid")" = 1000 ] ||
	{ "$LNETCTL" net show -v 2; fail "a new NI's health is not 1000"; }
"$LNETCTL" net show --net tcp9 -v 2 | grep -q "^                  fatal_error: 0$" ||
	fail "net show -v 2: no fatal_error: 0"
# A recovery ping that answers raises health by health_sensitivity: at 0
# the NI stays in recovery while it is looked at (on the debug kernel the
# pings brought it back between two lnetctl commands).
hs_now=$("$LNETCTL" global show | value health_sensitivity)
"$LNETCTL" set health_sensitivity 0 || fail "set health_sensitivity 0"
"$LNETCTL" net set --nid "$hnid" --health 300 || fail "net set --health 300"
v=$(health_value net "$hnid")
[ "$v" = 300 ] || fail "net set --health 300: $v"
"$LNETCTL" debug recovery --local | grep -q "nid-0: $hnid" ||
	{ "$LNETCTL" debug recovery --local; fail "$hnid not in recovery"; }
"$LNETCTL" set health_sensitivity "$hs_now" ||
	fail "set health_sensitivity $hs_now"
# Recovery pings (one a second once they answer) bring it back.
for ((i = 0; i < 150; i++)); do
	[ "$(health_value net "$hnid")" = 1000 ] && break
	nap 0.2
done
[ "$(health_value net "$hnid")" = 1000 ] ||
	{ "$LNETCTL" net show -v 2; fail "$hnid not recovered in 30 s"; }
must_lack "recovered NI still in recovery" "nid-" debug recovery --local
# At 0 an NI is reported down until it is back at 1000.
"$LNETCTL" net set --all --health 0 || fail "net set --all --health 0"
"$LNETCTL" net show --net tcp9 | grep -q "status: down" ||
	fail "an NI at health 0 is not reported down"
# (Recovery by pings is checked above: set it back.)
"$LNETCTL" net set --all --health 1000 || fail "net set --all --health 1000"
"$LNETCTL" net show --net tcp9 | grep -q "status: up" ||
	fail "an NI back at 1000 is not reported up"
# A peer NI never heard from is not recovered: it stays where it is set.
"$LNETCTL" peer add --prim_nid 192.0.2.50@tcp9 || fail "peer add (health)"
"$LNETCTL" peer set --nid 192.0.2.50@tcp9 --health 100 ||
	fail "peer set --health 100"
[ "$(health_value peer 192.0.2.50@tcp9)" = 100 ] ||
	{ "$LNETCTL" peer show -v 2; fail "peer set --health 100 not shown"; }
must_lack "a peer NI never heard from is in recovery" "nid-" \
	debug recovery --peer
"$LNETCTL" peer set --all --health 1000 || fail "peer set --all"
[ "$(health_value peer 192.0.2.50@tcp9)" = 1000 ] || fail "peer set --all"
"$LNETCTL" peer del --prim_nid 192.0.2.50@tcp9 || fail "peer del (health)"
must_fail "net set without a value" "--health" \
	"$LNETCTL" net set --nid "$hnid"
must_fail "net set 1001" "not in 0..1000" \
	"$LNETCTL" net set --nid "$hnid" --health 1001
must_fail "net set --nid and --all" "--nid NID or --all" \
	"$LNETCTL" net set --nid "$hnid" --all --health 5
must_fail "net set bad NID" "invalid NID" \
	"$LNETCTL" net set --nid nope --health 5
must_fail "net set unknown NI (kernel)" "no such local NI" \
	"$LNETCTL" net set --nid 192.0.2.77@tcp9 --health 5
must_fail "peer set unknown peer NI (kernel)" "no such peer NI" \
	"$LNETCTL" peer set --nid 192.0.2.77@tcp9 --health 5
must_fail "debug recovery without a queue" "--local or --peer" \
	"$LNETCTL" debug recovery
must_fail "debug recovery without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" debug recovery --local
"$LNETCTL" stats show | grep -qE "^      resend_count: [0-9]+$" ||
	{ "$LNETCTL" stats show; fail "stats show: no resend_count"; }

# --- fault injection rules (spec 6): add, show, reset, del, refusals;
# what they do to traffic: tests/vm/health_lib.sh ---
phase fault_rules
"$LNETCTL" fault drop add -s '*' -d '*@tcp9' -r 2 -m put -m get -p 4 ||
	fail "fault drop add (portal)"
"$LNETCTL" fault drop add --source 192.0.2.1@tcp9 --dest '*' --interval 5 \
	--health_error remote_dropped || fail "fault drop add (health error)"
"$LNETCTL" fault delay add -s '*' -d '*' -r 1 -l 2 -m ack ||
	fail "fault delay add"
"$LNETCTL" fault drop show > "$T/fd" || fail "fault drop show"
[ "$(grep -c 'fa_src:' "$T/fd")" = 2 ] &&
	grep -q "fa_dst: '\*@tcp9'" "$T/fd" && grep -q "fa_ptl_mask: 16$" "$T/fd" &&
	grep -q "fa_msg_mask: 6$" "$T/fd" && grep -q "da_rate: 2$" "$T/fd" &&
	grep -q "da_interval: 5$" "$T/fd" &&
	grep -q "da_health_error_mask: 256$" "$T/fd" &&
	grep -q "rule_type: drop" "$T/fd" ||
	{ cat "$T/fd"; fail "fault drop show: rules not as added"; }
"$LNETCTL" fault delay show > "$T/fl" || fail "fault delay show"
grep -q "la_latency: 2$" "$T/fl" && grep -q "fa_msg_mask: 1$" "$T/fl" &&
	grep -q "ls_delayed: 0$" "$T/fl" ||
	{ cat "$T/fl"; fail "fault delay show: rule not as added"; }
"$LNETCTL" fault drop reset || fail "fault drop reset"
"$LNETCTL" fault drop del -s 192.0.2.1@tcp9 -d '*' || fail "fault drop del"
must_fail "fault drop del of no rule (kernel)" "no such rule" \
	"$LNETCTL" fault drop del -s 192.0.2.1@tcp9 -d '*'
[ "$("$LNETCTL" fault drop show | grep -c 'fa_src:')" = 1 ] ||
	fail "fault drop del: not one rule left"
"$LNETCTL" fault drop del --all || fail "fault drop del --all"
"$LNETCTL" fault delay del --all || fail "fault delay del --all"
must_lack "drop rules left" fa_src fault drop show
must_lack "delay rules left" fa_src fault delay show
must_fail "fault add without a destination" "--source and --dest" \
	"$LNETCTL" fault drop add -s '*' -r 1
must_fail "fault add rate and interval" "--rate or --interval" \
	"$LNETCTL" fault drop add -s '*' -d '*' -r 1 -i 2
must_fail "fault add bad health error" "invalid --health_error" \
	"$LNETCTL" fault drop add -s '*' -d '*' -r 1 -e nonsense
must_fail "fault add bad message type" "invalid --message" \
	"$LNETCTL" fault drop add -s '*' -d '*' -r 1 -m hello
must_fail "fault add bad NID" "invalid NID" \
	"$LNETCTL" fault drop add -s 'nope@@' -d '*' -r 1
must_fail "fault delay without latency" "--latency is required" \
	"$LNETCTL" fault delay add -s '*' -d '*' -r 1
must_fail "fault portal with ACK only (kernel)" "only PUT and GET" \
	"$LNETCTL" fault drop add -s '*' -d '*' -r 1 -p 4 -m ack
must_fail "fault random without interval (kernel)" "random needs an interval" \
	"$LNETCTL" fault drop add -s '*' -d '*' -r 2 -n
must_fail "fault health error with a local NID (kernel)" "no local NID" \
	"$LNETCTL" fault drop add -s '*' -d '*' -r 1 -e local_error \
	-o 192.0.2.1@tcp9
must_fail "fault del without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" fault drop del --all
must_lack "a refused rule was added" fa_src fault drop show

"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (health)"

# --- routes: add, show, del, export, import and every refusal ---
phase routes
# The gateways are made up: the router checker (routing spec 6) would
# ping them and find them dead; here a route's state is the add's.
ARCI=/sys/module/lnet/parameters/alive_router_check_interval
echo 0 > $ARCI || fail "alive_router_check_interval 0"
gw1=192.0.2.1@tcp9
gw2=192.0.2.2@tcp9
gw3=192.0.2.3@tcp9
"$LNETCTL" net add --net tcp9 --if eth0 || fail "net add tcp9 (routes)"
"$LNETCTL" net add --net tcp8 --if eth0 || fail "net add tcp8 (routes)"
out=$("$LNETCTL" route show) || fail "route show of no route"
[ -z "$out" ] || fail "route show of no route printed: $out"
"$LNETCTL" route add --net tcp1 --gateway $gw1 || fail "route add tcp1 $gw1"
"$LNETCTL" route add --net tcp1 --gateway $gw2 --hop 2 --priority 7 ||
	fail "route add tcp1 $gw2"
"$LNETCTL" route add --net o2ib3 --gateway $gw1,$gw3 --hop-count 255 \
	--priority 4294967295 || fail "route add o2ib3 via two gateways"
cat >"$T/route1" <<YAML
route:
-     net: tcp1
      gateway: $gw1
YAML
"$LNETCTL" route show --net tcp1 --gateway $gw1 |
	expect_yaml "route show --net --gateway" "$T/route1"
cat >"$T/route1v" <<YAML
route:
-     net: tcp1
      gateway: $gw1
      hop: -1
      priority: 0
      state: up
      type: multi-hop
YAML
"$LNETCTL" route show --net tcp1 --gateway $gw1 -v |
	expect_yaml "route show -v" "$T/route1v"
cat >"$T/route2v" <<YAML
route:
-     net: tcp1
      gateway: $gw2
      hop: 2
      priority: 7
      state: up
      type: multi-hop
YAML
"$LNETCTL" route show --priority 7 -v |
	expect_yaml "route show --priority" "$T/route2v"
"$LNETCTL" route show --hop 2 -v | expect_yaml "route show --hop" "$T/route2v"
cat >"$T/route3v" <<YAML
route:
-     net: o2ib3
      gateway: $gw3
      hop: 255
      priority: 4294967295
      state: up
      type: multi-hop
YAML
"$LNETCTL" route show --net o2ib3 --gateway $gw3 -v |
	expect_yaml "route show, hop 255, priority 2^32-1" "$T/route3v"
n=$("$LNETCTL" route show | grep -c '^-     net: ')
[ "$n" = 4 ] || fail "route show: $n routes, want 4: $("$LNETCTL" route show)"
n=$("$LNETCTL" route show --net tcp1 | grep -c "^      gateway: ")
[ "$n" = 2 ] || fail "route show --net tcp1: $n routes, want 2"
out=$("$LNETCTL" route show --net tcp3) || fail "route show of no match"
[ -z "$out" ] || fail "route show of no match printed: $out"
# a --gateway of NID ranges (stock's lnetctl expands them, as peer add
# --nid): one route per NID; route del takes ranges too
"$LNETCTL" route add --net tcp6 --gateway '192.0.2.[10-14/2]@tcp9,192.0.2.20@tcp9' ||
	fail "route add of a gateway range"
[ "$("$LNETCTL" route show --net tcp6 | sed -n 's/^      gateway: //p' | sort | tr '\n' ' ')" = \
  "192.0.2.10@tcp9 192.0.2.12@tcp9 192.0.2.14@tcp9 192.0.2.20@tcp9 " ] ||
	{ "$LNETCTL" route show --net tcp6; fail "route add of a gateway range: not its 4 routes"; }
must_fail "route add of a bad gateway range" "invalid --gateway value '192.0.2.\[9-8\]@tcp9'" \
	"$LNETCTL" route add --net tcp6 --gateway '192.0.2.30@tcp9,192.0.2.[9-8]@tcp9'
"$LNETCTL" route del --net tcp6 --gateway '192.0.2.[10-14/2]@tcp9,192.0.2.20@tcp9' ||
	fail "route del of a gateway range"
out=$("$LNETCTL" route show --net tcp6) || fail "route show tcp6"
[ -z "$out" ] || fail "route del of a gateway range left: $out"
# readable by anyone, as net show
setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" route show --net tcp1 --gateway $gw1 |
	expect_yaml "route show without CAP_NET_ADMIN" "$T/route1"
"$LNETCTL" route show -v >"$T/routes.before"
must_fail "route to a local net (kernel)" \
	'errno: -17.*|Route already exists or the specified network is local' \
	"$LNETCTL" route add --net tcp8 --gateway $gw1
grep -q 'Route already exists or the specified network is local' "$T/err" ||
	fail "route to a local net: not the spec's text"
must_fail "gateway on no local net (kernel)" \
	'No interface configured on the same net as gateway' \
	"$LNETCTL" route add --net tcp1 --gateway 192.0.2.1@tcp5
grep -q 'errno: -113' "$T/err" || fail "gateway on no local net: not -113"
must_fail "duplicate route, other priority (kernel)" \
	'Route already exists or the specified network is local' \
	"$LNETCTL" route add --net tcp1 --gateway $gw1 --priority 5
grep -q 'errno: -17' "$T/err" || fail "duplicate route: not -17"
must_fail "gateway on the remote net (kernel)" \
	'the gateway is on the remote network itself' \
	"$LNETCTL" route add --net tcp1 --gateway 192.0.2.1@tcp1
must_fail "gateway 0@lo (kernel)" 'a NID other than 0@lo' \
	"$LNETCTL" route add --net tcp1 --gateway 0@lo
must_fail "route to lo" "lo cannot have routes" \
	"$LNETCTL" route add --net lo --gateway $gw1
must_fail "hop 0" "invalid --hop value '0': must be 1..255" \
	"$LNETCTL" route add --net tcp2 --gateway $gw1 --hop 0
must_fail "hop 256" "invalid --hop value '256'" \
	"$LNETCTL" route add --net tcp2 --gateway $gw1 --hop 256
must_fail "priority -1" "invalid --priority value '-1'" \
	"$LNETCTL" route add --net tcp2 --gateway $gw1 --priority -1
must_fail "bad gateway NID" "invalid --gateway value 'gw'" \
	"$LNETCTL" route add --net tcp2 --gateway $gw3,gw
must_fail "missing --gateway" "missing mandatory parameter --gateway" \
	"$LNETCTL" route add --net tcp2
must_fail "missing --net" "missing mandatory parameter --net" \
	"$LNETCTL" route add --gateway $gw1
must_fail "health_sensitivity (stock: not accepted)" \
	"unknown or incomplete option '--health_sensitivity'" \
	"$LNETCTL" route add --net tcp2 --gateway $gw1 --health_sensitivity 1
must_fail "route add without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" route add --net tcp2 --gateway $gw1
must_fail "route del without --gateway" "missing mandatory parameter --gateway" \
	"$LNETCTL" route del --net tcp1
must_fail "route del of a net without routes (kernel)" \
	"no route to that network" \
	"$LNETCTL" route del --net tcp2 --gateway $gw1
"$LNETCTL" route show -v | expect_yaml "routes unchanged by refusals" \
	"$T/routes.before"
# a send to a remote net without a route fails at once (routing spec 3.2;
# sends through a route: o2ib_get_interop's routed_send phase)
must_fail "ping of a remote net without a route" \
	"no route to this NID: route table may be misconfigured" \
	"$LNETCTL" ping 192.0.2.50@tcp2
grep -q 'errno: -113' "$T/err" || fail "ping without a route: not -113"
# export, import --del, import: the same routes back
"$LNETCTL" export --backup "$T/rt.backup" || fail "export --backup (routes)"
cat "$T/rt.backup"
grep -q "^route:$" "$T/rt.backup" || fail "export --backup: no route block"
grep -qE '^ +(state|type):' "$T/rt.backup" &&
	fail "export --backup has route state or type"
"$LNETCTL" export | grep -q '^      type: multi-hop$' ||
	fail "export: no route type"
"$LNETCTL" import --del "$T/rt.backup" || fail "import --del (routes)"
out=$("$LNETCTL" route show)
[ -z "$out" ] || fail "import --del left routes: $out"
"$LNETCTL" import "$T/rt.backup" || fail "import (routes)"
# an added route goes at a random place in its net's list: the same
# lines, each route as before
sort "$T/rt.backup" >"$T/rt.sorted"
"$LNETCTL" export --backup | sort | expect_yaml "export after route import" \
	"$T/rt.sorted"
"$LNETCTL" route show --net tcp1 --gateway $gw1 -v |
	expect_yaml "route 1 after import" "$T/route1v"
"$LNETCTL" route show --priority 7 -v |
	expect_yaml "route 2 after import" "$T/route2v"
"$LNETCTL" route show --net o2ib3 --gateway $gw3 -v |
	expect_yaml "route 3 after import" "$T/route3v"
"$LNETCTL" import --show "$T/rt.backup" | grep -c '^      gateway: ' |
	grep -qx 4 || fail "import --show: not the 4 routes"
# a refused route undoes what the import did
cat >"$T/rt.bad" <<YAML
route:
-     net: tcp4
      gateway: $gw1
-     net: tcp4
      gateway: 192.0.2.1@tcp5
YAML
must_fail "import of a route the kernel refuses" \
	"No interface configured on the same net as gateway" \
	"$LNETCTL" import "$T/rt.bad"
must_lack "a refused import left its first route" "net: tcp4" route show
printf 'route:\n-     net: tcp4\n      gateway: %s\n      hop: 0\n' $gw1 \
	>"$T/rt.hop0"
must_fail "import of hop 0" "route 0: hop is not -1 or 1..255" \
	"$LNETCTL" import "$T/rt.hop0"
# del by the gateway; the net's last route takes the net
"$LNETCTL" route del --net tcp1 --gateway $gw2 || fail "route del tcp1 $gw2"
must_lack "route del left the route" "gateway: $gw2" route show
"$LNETCTL" route del --net tcp1 --gateway $gw1 || fail "route del tcp1 $gw1"
must_lack "route del left tcp1" "net: tcp1" route show
# the gateways' net deleted: their routes go
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (routes)"
out=$("$LNETCTL" route show)
[ -z "$out" ] || fail "net del left routes through it: $out"
"$LNETCTL" route add --net tcp1 --gateway 192.0.2.1@tcp8 ||
	fail "route add via tcp8"
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (routes)"
"$LNETCTL" lnet configure || fail "lnet configure (routes)"
out=$("$LNETCTL" route show)
[ -z "$out" ] || fail "routes survived unconfigure: $out"
"$LNETCTL" net show | grep -q '@tcp8$' && fail "tcp8 survived unconfigure"
echo 60 > $ARCI || fail "alive_router_check_interval 60"

# --- routing: set routing, buffer counts, routing show, peer router
# credits, and every refusal (routing spec 4.2, 4.3, 5.1, 10.4).  lnet.ko
# is loaded with small pools, as sanity-lnet does (the defaults take 1 GiB),
# and a routing window W (alive_router_check_interval + router_ping_timeout)
# of 0: STARTING and STOPPING end at the router checker's next pass, a
# second later (routed_forward tests the windows themselves).
phase routing
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (routing)"
lnet_unload
for m in $LNET_MODULES; do
	if [ "$m" = lnet/lnet.ko ]; then
		insmod "$LNET_MODDIR/$m" tiny_router_buffers=16 \
			small_router_buffers=8 large_router_buffers=4 \
			peer_buffer_credits=3 alive_router_check_interval=0 \
			router_ping_timeout=0 || fail "insmod $m (routing)"
	else
		insmod "$LNET_MODDIR/$m" || fail "insmod $m (routing)"
	fi
done
"$LNETCTL" lnet configure || fail "lnet configure (routing)"
"$LNETCTL" net add --net tcp9 --if eth0 || fail "net add tcp9 (routing)"
out=$("$LNETCTL" routing show) || fail "routing show, never enabled"
# routing_settle N: "routing show" says enable: N within 10 s (the end
# of STARTING, 3, or STOPPING, 2; spec 5.1).
routing_settle() {
	local i
	for ((i = 0; i < 50; i++)); do
		"$LNETCTL" routing show >"$T/settle" || fail "routing show (settle)"
		grep -q "^[- ]*enable: $1\$" "$T/settle" && return 0
		nap 0.2
	done
	cat "$T/settle"
	fail "routing show: not enable: $1 within 10 s"
}
[ -z "$out" ] || fail "routing show before routing was enabled printed: $out"
# pools: figures as "routing show" prints them (tiny small large)
routing_yaml() {
	local enable=$1 t=$2 s=$3 l=$4
	cat <<YAML
routing:
-     cpt[0]:
            tiny:
                  npages: 0
                  nbuffers: $t
                  credits: $t
                  mincredits: $t
            small:
                  npages: 1
                  nbuffers: $s
                  credits: $s
                  mincredits: $s
            large:
                  npages: 256
                  nbuffers: $l
                  credits: $l
                  mincredits: $l
-     enable: $enable
buffers:
      tiny: $t
      small: $s
      large: $l
YAML
}
"$LNETCTL" set routing 1 || fail "set routing 1"
routing_settle 1
routing_yaml 1 16 8 4 >"$T/routing1"
"$LNETCTL" routing show | expect_yaml "routing show, enabled" "$T/routing1"
"$LNETCTL" set routing 1 || fail "set routing 1 twice"
# readable by anyone
setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" routing show | expect_yaml "routing show without CAP_NET_ADMIN" \
	"$T/routing1"
"$LNETCTL" set large_buffers 6 || fail "set large_buffers 6"
"$LNETCTL" set small_buffers 2 || fail "set small_buffers 2"
"$LNETCTL" set tiny_buffers -1 || fail "set tiny_buffers -1 (no change)"
routing_yaml 1 16 2 6 >"$T/routing2"
"$LNETCTL" routing show | expect_yaml "routing show, resized" "$T/routing2"
# per-peer router credits: peer_buffer_credits=3
"$LNETCTL" peer add --prim_nid 192.0.2.7@tcp9 || fail "peer add (routing)"
"$LNETCTL" peer show -v --nid 192.0.2.7@tcp9 >"$T/rtrpeer" ||
	fail "peer show -v (routing)"
grep -q '^ *available_rtr_credits: 3$' "$T/rtrpeer" &&
	grep -q '^ *min_rtr_credits: 3$' "$T/rtrpeer" ||
	{ cat "$T/rtrpeer"; fail "peer show -v: not 3 router credits"; }
"$LNETCTL" peer del --prim_nid 192.0.2.7@tcp9 || fail "peer del (routing)"
"$LNETCTL" routing show >"$T/routing.before"
must_fail "routing 2" "invalid routing value '2': must be 0 or 1" \
	"$LNETCTL" set routing 2
must_fail "routing x" "invalid routing value 'x': must be 0 or 1" \
	"$LNETCTL" set routing x
must_fail "tiny_buffers -2" \
	"invalid tiny_buffers value '-2': must be an integer in -1\.\." \
	"$LNETCTL" set tiny_buffers -2
must_fail "large_buffers 1x" "invalid large_buffers value '1x'" \
	"$LNETCTL" set large_buffers 1x
must_fail "set routing without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" set routing 0
must_fail "set buffers without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" set small_buffers 9
must_fail "routing show with an argument" "unexpected argument 'x'" \
	"$LNETCTL" routing show x
must_fail "routing with no subcommand" "unknown subcommand" \
	"$LNETCTL" routing
"$LNETCTL" routing show | expect_yaml "routing unchanged by refusals" \
	"$T/routing.before"
# off: idle buffers go at once; a count set while off changes nothing
"$LNETCTL" set routing 0 || fail "set routing 0"
"$LNETCTL" set routing 0 || fail "set routing 0 twice"
routing_settle 0
routing_yaml 0 0 0 0 >"$T/routing0"
"$LNETCTL" routing show | expect_yaml "routing show, disabled" "$T/routing0"
"$LNETCTL" set large_buffers 5 || fail "set large_buffers 5 while off"
"$LNETCTL" routing show | expect_yaml "buffers set while off: no-op" \
	"$T/routing0"
# on again: the counts set while it was on are kept (spec 4.2)
"$LNETCTL" set routing 1 || fail "set routing 1 again"
routing_settle 1
"$LNETCTL" routing show | expect_yaml "routing show, enabled again" \
	"$T/routing2"
# export / import of "routing:" and "buffers:" (spec 10.5): export puts
# them after the peers and before the globals; --backup's shape is
# "enable: N" and the totals; import --del disables routing, import
# enables it before it sets the counts; the round trip is exact.
"$LNETCTL" export --backup >"$T/rt.backup" || fail "export --backup (routing)"
cat >"$T/rt.want" <<'YAML'
routing:
      enable: 1
buffers:
      tiny: 16
      small: 2
      large: 6
global:
YAML
sed -n '/^routing:/,/^global:/p' "$T/rt.backup" |
	expect_yaml "export --backup: routing and buffers" "$T/rt.want"
"$LNETCTL" export >"$T/rt.full" || fail "export (routing)"
sed -n '/^routing:/,/^buffers:/p' "$T/rt.full" | sed '$d' >"$T/rt.fullpart"
sed -n '/^routing:/,/^buffers:/p' "$T/routing2" | sed '$d' |
	expect_yaml "export: routing as routing show" "$T/rt.fullpart"
"$LNETCTL" import --del "$T/rt.backup" || fail "import --del (routing)"
routing_settle 0
"$LNETCTL" routing show | expect_yaml "routing after import --del" \
	"$T/routing0"
"$LNETCTL" import "$T/rt.backup" || fail "import (routing)"
routing_settle 1
"$LNETCTL" routing show | expect_yaml "routing after import" "$T/routing2"
"$LNETCTL" export --backup | expect_yaml "export --backup after the round trip" \
	"$T/rt.backup"
# routing show's own shape imports too (its figures ignored)
sed -n '/^routing:/,$p' "$T/routing2" >"$T/rt.show"
"$LNETCTL" import --del "$T/rt.show" || fail "import --del of routing show"
routing_settle 0
"$LNETCTL" routing show | expect_yaml "routing after import --del of routing show" \
	"$T/routing0"
"$LNETCTL" import "$T/rt.show" || fail "import of routing show"
routing_settle 1
"$LNETCTL" routing show | expect_yaml "routing after import of routing show" \
	"$T/routing2"
# an exported STARTING (3) imports as disable
printf 'routing:\n      enable: 3\n' >"$T/rt.3"
"$LNETCTL" import "$T/rt.3" || fail "import of enable: 3"
routing_settle 0
"$LNETCTL" routing show | expect_yaml "enable: 3 imported" "$T/routing0"
# buffers before routing in the file: routing is still applied first
printf 'buffers:\n      large: 5\nrouting:\n      enable: 1\n' >"$T/rt.order"
"$LNETCTL" import "$T/rt.order" || fail "import of buffers before routing"
routing_settle 1
routing_yaml 1 16 2 5 >"$T/routing3"
"$LNETCTL" routing show | expect_yaml "buffers before routing imported" \
	"$T/routing3"
printf 'buffers:\n      huge: 5\n' >"$T/rt.bad1"
must_fail "import of a bad buffers key" "invalid key 'huge'" \
	"$LNETCTL" import "$T/rt.bad1"
printf 'buffers:\n      tiny: -2\n' >"$T/rt.bad2"
must_fail "import of a bad buffers count" "invalid tiny value '-2'" \
	"$LNETCTL" import "$T/rt.bad2"
printf 'routing:\n      enable: x\n' >"$T/rt.bad3"
must_fail "import of a bad routing value" "invalid routing value 'x'" \
	"$LNETCTL" import "$T/rt.bad3"
printf 'routing:\n      enabled: 1\n' >"$T/rt.bad4"
must_fail "import of a bad routing key" "invalid key 'enabled'" \
	"$LNETCTL" import "$T/rt.bad4"
"$LNETCTL" routing show | expect_yaml "routing unchanged by refused imports" \
	"$T/routing3"
"$LNETCTL" set routing 0 || fail "set routing 0 (end)"
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (routing end)"
lnet_unload
lnet_load
"$LNETCTL" lnet configure || fail "lnet configure (routing end)"

# --- forms of stock admins' scripts, as stock takes them (issue 40) ---
phase stock_forms
# "lnet configure --all" without networks=: tcp on the first interface up
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (stock_forms)"
"$LNETCTL" lnet configure --all || fail "lnet configure --all"
"$LNETCTL" net show --net tcp >"$T/all.show" 2>&1 || true
grep -q "nid: ${!my_ip}@tcp\$" "$T/all.show" ||
	{ cat "$T/all.show"; fail "configure --all: no tcp NI on the first interface"; }
# net add --nid ADDR@NET: the interface found from its first address;
# net del --nid; refusals (no such address, a second address, an alias,
# --net or --if with it) change nothing
"$LNETCTL" net add --nid "${!my_ip}@tcp9" || fail "net add --nid ${!my_ip}@tcp9"
"$LNETCTL" net show --net tcp9 >"$T/bynid.show"
grep -q "nid: ${!my_ip}@tcp9\$" "$T/bynid.show" &&
	grep -q '^ *0: eth0$' "$T/bynid.show" ||
	{ cat "$T/bynid.show"; fail "net add --nid: not eth0's NI on tcp9"; }
"$LNETCTL" net del --nid "${!my_ip}@tcp9" || fail "net del --nid"
must_fail "net add --nid of no address" "no interface has address 192.0.2.99" \
	"$LNETCTL" net add --nid 192.0.2.99@tcp9
ip addr add 192.0.2.77/24 dev eth0 || fail "ip addr add 192.0.2.77"
ip addr add 192.0.2.78/24 dev eth0 label eth0:1 || fail "ip addr add 192.0.2.78"
must_fail "net add --nid of a second address" \
	"192.0.2.77 is not the first IPv4 address of eth0" \
	"$LNETCTL" net add --nid 192.0.2.77@tcp9
# NIs on an alias label (stock lists every address under its label): the
# alias's address, on its device, its acceptor listening there; by --nid,
# --if and import alike
"$LNETCTL" net add --nid 192.0.2.78@tcp9 || fail "net add --nid of an alias's address"
ss -tlnH src 192.0.2.78 >"$T/alias.ss" || fail "ss -tln (alias)"
grep -q '192\.0\.2\.78:988 ' "$T/alias.ss" ||
	{ ss -tln; fail "no acceptor on the alias NI's address 192.0.2.78"; }
# two_nis NAME CREDITS: tcp9 is eth0's NI and eth0:1's, each with
# peer_credits CREDITS, in that order
two_nis() {
	"$LNETCTL" net show --net tcp9 -v >"$T/two.show" 2>&1 || true
	[ "$(sed -n 's/^[ -]*\(nid\|0\|peer_credits\): //p' "$T/two.show" | tr '\n' ' ')" = \
	  "${!my_ip}@tcp9 eth0 $2 192.0.2.78@tcp9 eth0:1 $2 " ] ||
		{ cat "$T/two.show"; fail "$1: tcp9 is not eth0's and eth0:1's NIs"; }
}
"$LNETCTL" net show --net tcp9 >"$T/alias.show"
grep -q "nid: 192.0.2.78@tcp9\$" "$T/alias.show" &&
	grep -q '^ *0: eth0:1$' "$T/alias.show" ||
	{ cat "$T/alias.show"; fail "net add --nid of an alias: not eth0:1's NI"; }
"$LNETCTL" ping --timeout 10 192.0.2.78@tcp9 >/dev/null ||
	fail "ping of the alias NI's NID"
"$LNETCTL" net del --net tcp9 --if eth0:1 || fail "net del --if eth0:1"
must_fail "tcp9 after net del --if eth0:1" "no network 'tcp9'" \
	"$LNETCTL" net show --net tcp9
"$LNETCTL" net add --net tcp9 --if eth0,eth0:1 --peer-credits 12 ||
	fail "net add --if eth0,eth0:1"
two_nis "net add --if eth0,eth0:1" 12
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (two NIs)"
must_fail "net add --if of no alias" "no such interface alias" \
	"$LNETCTL" net add --net tcp9 --if eth0:7
# a net of two interfaces in one YAML block: one NI each, as stock, and
# export writes each NI with its one interface (stock's shape)
cat >"$T/two.yaml" <<'YAML'
net:
-     net type: tcp9
      local NI(s):
      -     interfaces:
                  0: eth0
                  1: eth0:1
            tunables:
                  peer_credits: 16
YAML
"$LNETCTL" import "$T/two.yaml" || fail "import of a net of two interfaces"
two_nis "import of two interfaces" 16
"$LNETCTL" export --backup |
	awk '/^-     net type: tcp9$/ { p = 1; print "net:" }
	     p && (/^[a-z]/ || (/^-/ && !/tcp9$/)) { p = 0 } p' >"$T/two.backup"
[ "$(grep -A1 'interfaces:$' "$T/two.backup" | sed -n 's/^ *0: //p' | tr '\n' ' ')" = \
  "eth0 eth0:1 " ] && [ "$(grep -c '^      -     interfaces:$' "$T/two.backup")" = 2 ] ||
	{ cat "$T/two.backup"; fail "export --backup: not one NI per interface"; }
"$LNETCTL" import --del "$T/two.yaml" || fail "import --del of two interfaces"
must_fail "tcp9 after import --del of two interfaces" "no network 'tcp9'" \
	"$LNETCTL" net show --net tcp9
"$LNETCTL" import "$T/two.backup" || fail "import of the exported tcp9"
two_nis "import of the exported tcp9" 16
"$LNETCTL" export --backup |
	awk '/^-     net type: tcp9$/ { p = 1; print "net:" }
	     p && (/^[a-z]/ || (/^-/ && !/tcp9$/)) { p = 0 } p' |
	expect_yaml "tcp9 exported again" "$T/two.backup"
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (import)"
# ip2nets, stock's rules resolved in user space against this node's
# addresses: the block's range brings up eth0 and eth0:1 (eth0's second
# address the same NI), a rule matching nothing is skipped and said;
# net add --ip2net (the module parameter's syntax, the first matching
# rule of a net wins) alike; nothing matching is refused, changing nothing
cat >"$T/ip2nets.yaml" <<'YAML'
ip2nets:
-     net-spec: tcp8
      ip-range:
            0: 10.99.*.*
-     net-spec: tcp9
      ip-range:
            0: 192.0.[1-2].*
      tunables:
            peer_credits: 16
YAML
"$LNETCTL" import "$T/ip2nets.yaml" 2>"$T/ip2nets.err" ||
	{ cat "$T/ip2nets.err"; fail "import of ip2nets rules"; }
grep -q 'rule 1 (tcp8): no interface of this node matches, skipped$' \
	"$T/ip2nets.err" || { cat "$T/ip2nets.err"; fail "import of ip2nets: no word of the rule skipped"; }
two_nis "import of ip2nets rules" 16
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (ip2nets)"
"$LNETCTL" net add --peer-credits 12 \
	--ip2net 'tcp9(eth0) 10.99.*.*; tcp9 192.0.2.[70-80] # eth0, eth0:1
tcp9(eth1) 192.0.2.*' || fail "net add --ip2net"
two_nis "net add --ip2net" 12
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (--ip2net)"
must_fail "net add --ip2net matching nothing" "no interfaces match ip2nets rules" \
	"$LNETCTL" net add --ip2net 'tcp9 10.99.*.*'
head -4 "$T/ip2nets.yaml" >"$T/ip2nets.none"
must_fail "import of ip2nets matching nothing" "no interfaces match ip2nets rules" \
	"$LNETCTL" import "$T/ip2nets.none"
must_fail "net add --ip2net of a bad range" "not ip2nets rules" \
	"$LNETCTL" net add --ip2net 'tcp9 192.0.2.[9-8]'
must_fail "tcp9 after refused ip2nets" "no network 'tcp9'" \
	"$LNETCTL" net show --net tcp9
ip addr del 192.0.2.77/24 dev eth0
ip addr del 192.0.2.78/24 dev eth0
must_fail "net add --nid with --net" "--nid excludes --net and --if" \
	"$LNETCTL" net add --nid "${!my_ip}@tcp9" --net tcp9
must_fail "net add --nid of a non-IP NID" "not an IPv4 address NID" \
	"$LNETCTL" net add --nid 5@kfi
must_fail "tcp9 after refused net add --nid" "no network 'tcp9'" \
	"$LNETCTL" net show --net tcp9
# net set --net NET --lnd-timeout S: the LND's timeout parameter
sto=/sys/module/ksocklnd/parameters/sock_timeout
sto0=$(cat $sto)
"$LNETCTL" net set --net tcp --lnd-timeout 70 || fail "net set --lnd-timeout 70"
[ "$(cat $sto)" = 70 ] || fail "--lnd-timeout 70: sock_timeout is $(cat $sto)"
[ "$("$LNETCTL" net show --net tcp -v | value timeout)" = 70 ] ||
	fail "--lnd-timeout 70: net show -v says otherwise"
must_fail "--lnd-timeout -1" "'-1': must be 0\.\.86400 seconds" \
	"$LNETCTL" net set --net tcp --lnd-timeout -1
must_fail "--lnd-timeout without --net" "goes with --net NET only" \
	"$LNETCTL" net set --all --lnd-timeout 5
must_fail "--lnd-timeout of an LND without one" "its LND has no timeout" \
	"$LNETCTL" net set --net gni --lnd-timeout 5
[ "$(cat $sto)" = 70 ] || fail "refused --lnd-timeout changed sock_timeout"
echo "$sto0" >$sto
# our own NIDs as peers: their discovery succeeds, as stock's
"$LNETCTL" discover 0@lo >"$T/disc.lo" || fail "discover 0@lo"
printf 'discover:\n-     primary nid: 0@lo\n      Multi-Rail: false\n      peer_ni:\n      -     nid: 0@lo\n' |
	diff -u - "$T/disc.lo" || fail "discover 0@lo: not the lo peer"
"$LNETCTL" discover "${!my_ip}@tcp" >"$T/disc.self" ||
	fail "discover of our own NID"
grep -q "^-     primary nid: ${!my_ip}@tcp\$" "$T/disc.self" &&
	grep -q "^      -     nid: ${!my_ip}@tcp\$" "$T/disc.self" &&
	! grep -q "0@lo" "$T/disc.self" ||
	{ cat "$T/disc.self"; fail "discover of our own NID: not our NIs"; }
# our own NID as a configured peer: accepted, as stock (sends to it still
# go through 0@lo); another peer may not take one of our NIDs
"$LNETCTL" peer add --prim_nid "${!my_ip}@tcp" --lock_prim ||
	fail "peer add of our own NID"
"$LNETCTL" ping "${!my_ip}@tcp" >/dev/null || fail "ping of our own NID, a peer"
expect_peer "peer of our own NID" "${!my_ip}@tcp"
# our NIs change (a push to every multi-rail peer): never to this one, it
# stays configured, locked and multi-rail, not discovered
"$LNETCTL" net add --net tcp9 --if eth0 || fail "net add tcp9 (own peer)"
"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (own peer)"
nap 1
"$LNETCTL" peer show -v 3 --nid "${!my_ip}@tcp" | grep -q 'peer state: 1048585$' ||
	{ "$LNETCTL" peer show -v 3 --nid "${!my_ip}@tcp"; fail "peer of our own NID discovered or pushed to"; }
must_fail "peer add taking our NID" "a NID is one of this node's" \
	"$LNETCTL" peer add --prim_nid 7.7.7.30@tcp --nid "${!my_ip}@tcp"
"$LNETCTL" peer del --prim_nid "${!my_ip}@tcp" --force ||
	fail "peer del --force of our own NID"
must_fail "peer of our own NID after del" "no peer has NID" \
	"$LNETCTL" peer show --nid "${!my_ip}@tcp"
# NID ranges, stepped ones, one including the primary NID, other nets
"$LNETCTL" peer add --prim_nid 7.7.7.7@tcp \
	--nid '7.7.7.[6-8]@tcp,[13-14/1].[13-15/2].1.1@tcp' ||
	fail "peer add --nid with NID ranges"
expect_peer "peer of NID ranges" 7.7.7.7@tcp 7.7.7.6@tcp 7.7.7.8@tcp \
	13.13.1.1@tcp 13.15.1.1@tcp 14.13.1.1@tcp 14.15.1.1@tcp
"$LNETCTL" peer add --prim_nid 9@kfi --nid '[10-12/2]@kfi' ||
	fail "peer add --nid with a numeric range"
expect_peer "peer of a kfi range" 9@kfi 10@kfi 12@kfi
"$LNETCTL" debug peer --nid 10@kfi >"$T/dbg.out" || fail "debug peer"
[ -s "$T/dbg.out" ] && { cat "$T/dbg.out"; fail "debug peer printed"; }
dmesg | grep -q "LNet: peer 9@kfi: ni 12@kfi: status up" ||
	fail "debug peer: no dump of 9@kfi in the kernel log"
must_fail "debug peer of no peer" "no peer has this NID" \
	"$LNETCTL" debug peer --nid 11@kfi
"$LNETCTL" peer del --prim_nid 9@kfi || fail "peer del 9@kfi"
must_fail "peer add of a bad range" "--nid value '7.7.7.\[9-8\]@tcp'" \
	"$LNETCTL" peer add --prim_nid 7.7.7.7@tcp --nid '7.7.7.[9-8]@tcp'
must_fail "peer add of 257 NIDs" "more than 256 NIDs" \
	"$LNETCTL" peer add --prim_nid 7.7.7.7@tcp --nid '8.8.[0-1].[0-128]@tcp'
# peer del --nid of a range: those NIDs only
"$LNETCTL" peer del --prim_nid 7.7.7.7@tcp --nid '[13-14].13.1.1@tcp' ||
	fail "peer del --nid of a range"
# import --del of some of a peer's NIDs: those NIDs only
cat >"$T/somenids.yaml" <<'YAML'
peer:
-     primary nid: 7.7.7.7@tcp
      Multi-Rail: true
      peer ni:
      -     nid: 7.7.7.6@tcp
      -     nid: 14.15.1.1@tcp
YAML
"$LNETCTL" import --del "$T/somenids.yaml" || fail "import --del of some NIDs"
expect_peer "peer after del of NIDs" 7.7.7.7@tcp 7.7.7.8@tcp 13.15.1.1@tcp
# export --backup: the peer in stock's shape (no "state" under its NIs); its
# block imported back re-creates it
"$LNETCTL" export --backup >"$T/peer.backup" || fail "export --backup (peer)"
printf 'peer:\n-     primary nid: 7.7.7.7@tcp\n      Multi-Rail: true\n      peer ni:\n' \
	>"$T/peer.want"
printf '      -     nid: %s\n' 7.7.7.7@tcp 7.7.7.8@tcp 13.15.1.1@tcp \
	>>"$T/peer.want"
sed -n '/^peer:$/,/^[a-z]/{/^peer:$/p;/^[ -]/p}' "$T/peer.backup" |
	expect_yaml "export --backup: the peer block" "$T/peer.want"
"$LNETCTL" import --del "$T/peer.want" || fail "import --del of the peer block"
must_fail "peer after import --del of its block" "no peer has NID" \
	"$LNETCTL" peer show --nid 7.7.7.7@tcp
"$LNETCTL" import "$T/peer.want" || fail "import of the peer block"
"$LNETCTL" export --backup | expect_yaml "export --backup after the peer round trip" \
	"$T/peer.backup"
"$LNETCTL" peer del --prim_nid 7.7.7.7@tcp || fail "peer del 7.7.7.7@tcp"
# a --lock_prim peer: del keeps it with its primary NID, --force deletes it
"$LNETCTL" peer add --prim_nid 7.7.7.20@tcp --nid 7.7.7.21@tcp --lock_prim ||
	fail "peer add --lock_prim"
"$LNETCTL" peer del --prim_nid 7.7.7.20@tcp || fail "peer del of a locked peer"
expect_peer "locked peer after del" 7.7.7.20@tcp
"$LNETCTL" peer del --prim_nid 7.7.7.20@tcp --force ||
	fail "peer del --force of a locked peer"
must_fail "locked peer after del --force" "no peer has NID" \
	"$LNETCTL" peer show --nid 7.7.7.20@tcp
# numa: (stock's block for lnet_numa_range) and set numa_range
P=/sys/module/lnet/parameters
printf 'numa:\n      range: 7\n' >"$T/numa.yaml"
"$LNETCTL" import "$T/numa.yaml" || fail "import of a numa block"
[ "$("$LNETCTL" global show | value numa_range)" = 7 ] && [ "$(cat $P/lnet_numa_range)" = 7 ] ||
	fail "import of numa range 7: global show or lnet_numa_range says otherwise"
"$LNETCTL" export | grep -q '^      numa_range: 7$' || fail "export: no numa_range 7"
"$LNETCTL" import --del "$T/numa.yaml" || fail "import --del of a numa block"
[ "$(cat $P/lnet_numa_range)" = 0 ] || fail "import --del of numa: range not 0"
"$LNETCTL" set numa_range 3 || fail "set numa_range 3"
[ "$(cat $P/lnet_numa_range)" = 3 ] || fail "set numa_range 3: not 3"
must_fail "set numa_range -1" "invalid numa_range value '-1'" \
	"$LNETCTL" set numa_range -1
printf 'numa:\n      range: many\n' >"$T/numa.bad"
must_fail "import of a bad numa range" "invalid numa_range value 'many'" \
	"$LNETCTL" import "$T/numa.bad"
printf 'numa:\n      span: 1\n' >"$T/numa.bad"
must_fail "import of a numa block with an unknown key" "invalid key 'span' in 'numa'" \
	"$LNETCTL" import "$T/numa.bad"
[ "$(cat $P/lnet_numa_range)" = 3 ] || fail "refused numa imports changed the range"
"$LNETCTL" import --old-api "$T/numa.yaml" || fail "import --old-api"
[ "$(cat $P/lnet_numa_range)" = 7 ] || fail "import --old-api of numa range 7: not 7"
"$LNETCTL" set numa_range 0 || fail "set numa_range 0"
# ping: and discover: blocks (what ping and discover print): run by
# import --exec only, as stock; checked, not run, by a plain import
"$LNETCTL" ping 0@lo >"$T/ping.yaml" || fail "ping 0@lo"
"$LNETCTL" discover 0@lo >>"$T/ping.yaml" || fail "discover 0@lo"
"$LNETCTL" import -e "$T/ping.yaml" | expect_yaml "import -e of ping and discover" \
	"$T/ping.yaml"
printf 'ping:\n-     primary nid: 1.2.3.4@tcp7\n      timeout: 1000\n' >"$T/ping.bad"
"$LNETCTL" import "$T/ping.bad" >"$T/ping.out" && [ ! -s "$T/ping.out" ] ||
	fail "import (not --exec) of a ping block ran it or failed"
must_fail "import --exec of a ping that fails" "failed to ping 1.2.3.4@tcp7" \
	"$LNETCTL" import --exec "$T/ping.bad"
printf 'discover:\n-     primary nid: 0@lo\n      timeout: 1\n' >"$T/ping.bad"
must_fail "a discover block with a ping key" "invalid key or value 'timeout' in 'discover'" \
	"$LNETCTL" import --exec "$T/ping.bad"
# import refusals worded as stock's, changing nothing
"$LNETCTL" export --backup >"$T/stock.before"
printf 'global:\n      retry_count: 2\n      no_such_key: 1\n' >"$T/bad1.yaml"
must_fail "import of an unknown global key" "invalid key 'no_such_key'" \
	"$LNETCTL" import "$T/bad1.yaml"
printf 'net:\n-     net type: tcp9\n      local NI(s):\n      -     interfaces:\n                  0: eth0\n            colour: blue\n' \
	>"$T/bad2.yaml"
must_fail "import of an unknown NI key" "invalid key 'colour'" \
	"$LNETCTL" import "$T/bad2.yaml"
printf 'global:\n      retry_count:\n' >"$T/bad3.yaml"
must_fail "import of a key without value" "no value: key 'retry_count'" \
	"$LNETCTL" import "$T/bad3.yaml"
printf 'net:\n-     net type: tcp9\n      local NI(s):\n      -     interfaces:\n                  0: eth0\n            CPT: "[0,1]"\n' \
	>"$T/bad4.yaml"
must_fail "import of an invalid CPT" "invalid CPT '\[0,1\]'" \
	"$LNETCTL" import "$T/bad4.yaml"
"$LNETCTL" export --backup | expect_yaml "export after refused imports" \
	"$T/stock.before"
# a ping of our own NID makes its peer, as stock's (spec features 4a: only
# 0@lo is sent before the peer NI is found or made; the ping still goes by
# 0@lo): peer show -v 4 shows that peer NI, its statistics and udsp info
"$LNETCTL" ping "${!my_ip}@tcp" >/dev/null || fail "ping of our own NID"
"$LNETCTL" peer show -v 4 --nid "${!my_ip}@tcp" >"$T/self.v4" 2>&1 &&
	grep -q "^      -     nid: ${!my_ip}@tcp\$" "$T/self.v4" &&
	grep -q '^ *get_rtt_samples: [0-9]' "$T/self.v4" &&
	grep -q '^ *udsp info:$' "$T/self.v4" ||
	{ cat "$T/self.v4"; fail "peer show -v 4 of our own NID after its ping"; }
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (stock_forms end)"
"$LNETCTL" lnet configure || fail "lnet configure (stock_forms end)"

# --- LNet in a network namespace other than the initial one (issue 40
# item 11): the modules hold one LNet, the initial namespace's.  The lnet
# lnet_selftest and nidmap families are netnsok and refuse every request
# from another namespace (EOPNOTSUPP, the reason in extack), doits and
# dumps alike (lnetctl's own words, "... is loaded there", would mean a
# family not found there).  Nothing changes in the initial one.  The
# debug kernel has no CONFIG_NET_NS (no process can be in another
# namespace there): the phase runs on the distro kernel, where a missing
# prerequisite fails it. ---
if [ "${LNET_DEBUG_KERNEL:-0}" = 1 ] && ! unshare -n true 2>/dev/null; then
	log "netns: this kernel makes no other network namespace (no CONFIG_NET_NS): no netns phase"
else
	phase netns
	command -v ip >/dev/null || fail "netns: ip (iproute2) is not installed"
	"$LNETCTL" net add --net tcp7 --if eth0 || fail "net add tcp7 (netns)"
	"$LNETCTL" net show >"$T/ns.before" || fail "net show (netns before)"
	ns=lnetns$$
	ip netns add $ns || fail "ip netns add $ns"
	ip netns exec $ns true || fail "ip netns exec $ns"
	nsmsg="LNet runs only in the initial network namespace"
	must_fail "lnet configure in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" lnet configure
	must_fail "net show in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" net show
	must_fail "net add in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" net add --net tcp8 --if lo
	must_fail "net del in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" net del --net tcp7
	must_fail "peer show in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" peer show
	must_fail "route show in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" route show
	must_fail "udsp show in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" udsp show
	must_fail "fault show in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" fault drop show
	must_fail "global show in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" global show
	must_fail "lnet unconfigure in another netns" "$nsmsg" \
		ip netns exec $ns "$LNETCTL" lnet unconfigure
	# lnet_selftest's family: its first request, and a dump
	insmod "$LNET_MODDIR/selftest/lnet_selftest.ko" ||
		fail "insmod lnet_selftest (netns)"
	for c in "new_session nsx" "list_group"; do
		# shellcheck disable=SC2086 # the command and its arguments
		if LST_SESSION=4242 ip netns exec $ns "$LNET_TOP/build/utils/static/lst" $c \
			>"$T/out" 2>&1; then
			cat "$T/out"
			fail "lst $c in another netns: accepted"
		fi
		grep -q "$nsmsg" "$T/out" ||
			{ cat "$T/out"; fail "lst $c in another netns: not refused as such"; }
		log "refused as expected: lst $c in another netns"
	done
	rmmod lnet_selftest || fail "rmmod lnet_selftest (netns)"
	nidmap_insmod
	for c in show table; do
		must_fail "nidmap $c in another netns" "$nsmsg" \
			ip netns exec $ns "$LNETCTL" nidmap $c
		! grep -q "is loaded there" "$T/err" ||
			fail "nidmap $c in another netns: no nidmap family there (not netnsok)"
	done
	rmmod lnet_nidmap || fail "rmmod lnet_nidmap (netns)"
	ip netns del $ns || fail "ip netns del $ns"
	"$LNETCTL" net show >"$T/ns.after" || fail "net show (netns after)"
	diff -u "$T/ns.before" "$T/ns.after" ||
		fail "netns: requests from another namespace changed the initial one"
	"$LNETCTL" net del --net tcp7 || fail "net del tcp7 (netns)"
fi

# --- the tool itself under valgrind (user space: the distro kernel run is
# enough, and valgrind under KASAN+kmemleak emulation is far too slow: no
# phase there, rather than one that reports ok doing nothing) ---
if [ "${LNET_DEBUG_KERNEL:-0}" != 1 ]; then
	phase valgrind
	command -v valgrind >/dev/null || fail "valgrind is not installed"
	vg() {
		local rc=0
		# The dynamic build (what the packages ship): valgrind
		# replaces malloc only in a dynamically linked program.
		valgrind -q --leak-check=full --error-exitcode=99 \
			"$LNET_TOP/build/utils/lnetctl" "$@" >/dev/null 2>"$T/vg" || rc=$?
		[ $rc -ne 99 ] || { cat "$T/vg"; fail "valgrind: lnetctl $*"; }
		return $rc
	}
	vg net show -v 2 || fail "valgrind: net show"
	vg ping 0@lo || fail "valgrind: ping"
	vg export --backup "$T/vg.yaml" || fail "valgrind: export --backup"
	vg import --del "$T/vg.yaml" || fail "valgrind: import --del"
	vg import "$T/vg.yaml" || fail "valgrind: import"
	vg import "$T/cpp.yaml" || fail "valgrind: import of lnd tunables"
	vg net show -v || fail "valgrind: net show with lnd tunables"
	"$LNETCTL" net del --net tcp9 || fail "net del tcp9 (valgrind)"
	vg net add --net gni --if eth0 && fail "valgrind: gni net added"
	log "valgrind: no memory errors or leaks in lnetctl"
fi

# --- the example files of Documentation/lnetctl.rst (issue 40): each,
# imported into a fresh LNet, exports back (--backup) unchanged, its
# blocks byte for byte.  Small router pools: the routing example enables
# forwarding.  Every example is tried before the phase fails. ---
phase doc_examples
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (doc_examples)"
lnet_unload
for m in $LNET_MODULES; do
	if [ "$m" = lnet/lnet.ko ]; then
		insmod "$LNET_MODDIR/$m" tiny_router_buffers=16 \
			small_router_buffers=8 large_router_buffers=4 \
			alive_router_check_interval=0 router_ping_timeout=0 ||
			fail "insmod $m (doc_examples)"
	else
		insmod "$LNET_MODDIR/$m" || fail "insmod $m (doc_examples)"
	fi
done
mkdir "$T/ex"
# each literal block after a ".. example: NAME" comment, unindented
awk -v dir="$T/ex" '
	/^\.\. example: / { name = $3; want = 1; next }
	want && /::$/ { want = 0; blk = 1; started = 0; next }
	blk && /^$/ { next }
	blk && /^    / { started = 1; sub(/^    /, ""); print > (dir "/" name ".yaml"); next }
	blk && started { blk = 0 }
' "$LNET_TOP/Documentation/lnetctl.rst"
n=0
bad=""
for ex in "$T"/ex/*.yaml; do
	[ -e "$ex" ] || fail "no example in Documentation/lnetctl.rst"
	name=$(basename "$ex" .yaml)
	"$LNETCTL" lnet configure || fail "lnet configure (example $name)"
	if ! "$LNETCTL" import "$ex"; then
		cat "$ex"
		bad="$bad $name(import)"
	else
		if grep -q '^routing:' "$ex"; then
			routing_settle 1
		fi
		"$LNETCTL" export --backup >"$T/ex.out" ||
			fail "export --backup (example $name)"
		# the example's top-level blocks of the export
		if ! awk 'NR == FNR { if (/^[a-z]/) want[$0] = 1; next }
			  /^[a-z]/ { keep = ($0 in want) } keep' "$ex" "$T/ex.out" |
			diff -u "$ex" - >"$T/diff"; then
			log "example $name: export --backup says:"
			cat "$T/ex.out" "$T/diff"
			bad="$bad $name"
		fi
	fi
	"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (example $name)"
	n=$((n + 1))
done
[ -z "$bad" ] || fail "examples of Documentation/lnetctl.rst not exported back unchanged:$bad"
log "doc_examples: the $n examples of Documentation/lnetctl.rst exported back unchanged"
"$LNETCTL" lnet configure || fail "lnet configure (doc_examples end)"

# --- unconfigure ---
phase unconfigure
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure"
must_fail "net show after unconfigure" "not configured" "$LNETCTL" net show
lnet_unload
must_fail "no module" "is lnet.ko loaded" "$LNETCTL" net show

# --- the routes= module parameter (routing spec 10.2, 5.2): read by
# "lnet configure --all" once the NIs of networks= are up; a gateway of
# our own makes the node a router; a gateway on no local net is skipped;
# a bad string fails the start and leaves nothing configured ---
phase routes_param
me=${!my_ip}@tcp
# rp_load ROUTES: lnet.ko with networks="tcp(eth0)" and routes="ROUTES"
# (small router pools: a router's default large pool is 1 GiB), then the
# other modules.
rp_load() {
	local m
	insmod "$LNET_MODDIR/lnet/lnet.ko" "networks=\"tcp(eth0)\"" \
		"routes=\"$1\"" alive_router_check_interval=0 \
		tiny_router_buffers=16 small_router_buffers=8 \
		large_router_buffers=4 || fail "insmod lnet.ko routes=\"$1\""
	for m in $LNET_MODULES; do
		[ "$m" = lnet/lnet.ko ] && continue
		insmod "$LNET_MODDIR/$m" || fail "insmod $m (routes_param)"
	done
}
# route_lines: "route show -v" on stdin as "net gateway hop priority"
# lines, sorted (a net's routes are in a random order, spec 2.2).
route_lines() {
	awk '/^-     net: /	{ if (net != "") print net, gw, hop, prio; net = $3 }
	     /^      gateway: /	{ gw = $2 }
	     /^      hop: /	{ hop = $2 }
	     /^      priority: /	{ prio = $2 }
	     END		{ if (net != "") print net, gw, hop, prio }' | sort
}
# Three nets by an expansion, three gateways by a stepped one, hops and a
# priority; a gateway on tcp5 (not local: skipped); a comment; a LF; our
# own NID (not added: the node becomes a router); hops 255; a route that
# exists (-EEXIST: ignored, its priority stays 0); a route to our own net
# (-EEXIST: ignored).
rp_good="o2ib[1-3] 2 192.0.2.[1-5/2]@tcp:1; tcp7 192.0.2.9@tcp 10.9.9.9@tcp5 # tcp5 is not local
tcp8 $me 192.0.2.8@tcp:3;tcp9 255 192.0.2.8@tcp ; tcp7 192.0.2.9@tcp:5; tcp 10.9.9.9@tcp5"
rp_load "$rp_good"
# ignored without --all (spec 5.2)
"$LNETCTL" lnet configure || fail "lnet configure (routes_param)"
out=$("$LNETCTL" route show) || fail "route show (routes_param, no --all)"
[ -z "$out" ] || fail "routes= applied by lnet configure without --all: $out"
"$LNETCTL" lnet configure --all || fail "lnet configure --all with routes="
cat >"$T/rp.want" <<ROUTES
o2ib1 192.0.2.1@tcp 2 1
o2ib1 192.0.2.3@tcp 2 1
o2ib1 192.0.2.5@tcp 2 1
o2ib2 192.0.2.1@tcp 2 1
o2ib2 192.0.2.3@tcp 2 1
o2ib2 192.0.2.5@tcp 2 1
o2ib3 192.0.2.1@tcp 2 1
o2ib3 192.0.2.3@tcp 2 1
o2ib3 192.0.2.5@tcp 2 1
tcp7 192.0.2.9@tcp -1 0
tcp8 192.0.2.8@tcp -1 3
tcp9 192.0.2.8@tcp 255 0
ROUTES
"$LNETCTL" route show -v >"$T/rp.show" || fail "route show -v (routes_param)"
route_lines <"$T/rp.show" | expect_yaml "routes from routes=" "$T/rp.want"
"$LNETCTL" routing show >"$T/rp.routing" || fail "routing show (routes_param)"
grep -q '^-     enable: 1$' "$T/rp.routing" ||
	{ cat "$T/rp.routing"; fail "routes= naming our own NID: not a router"; }
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure (routes_param)"
lnet_unload
# rp_bad NAME ROUTES MESSAGE: "lnet configure --all" fails, the console
# says MESSAGE, and LNet is down; "lnet configure" then shows lo alone
# and no route.
rp_bad() {
	local since
	rp_load "$2"
	since=$(dmesg | wc -l)
	must_fail "configure --all with $1" \
		"bad routes= module parameter|cannot|Invalid" \
		"$LNETCTL" lnet configure --all
	dmesg | tail -n +$((since + 1)) | grep -qF -- "$3" ||
		{ dmesg | tail -20; fail "$1: no console message '$3'"; }
	must_fail "net show after $1" "not configured" "$LNETCTL" net show
	"$LNETCTL" lnet configure || fail "lnet configure after $1"
	"$LNETCTL" net show | expect_yaml "net show after $1" "$T/show0"
	out=$("$LNETCTL" route show) || fail "route show after $1"
	[ -z "$out" ] || fail "$1 left routes: $out"
	"$LNETCTL" lnet unconfigure || fail "lnet unconfigure after $1"
	lnet_unload
}
rp_bad "a bad range" "o2ib 192.0.2.1@tcp; o2ib[3-1] 192.0.2.2@tcp" \
	'LNet: routes="o2ib 192.0.2.1@tcp; o2ib[3-1] 192.0.2.2@tcp": bad range "3-1"'
rp_bad "a gateway of 0@lo" "o2ib 0@lo" 'the gateway cannot be "0@lo"'
# the table refuses the second route (a gateway on the remote net
# itself) after it added the first: the failed start removes it
rp_bad "a route the table refuses" \
	"o2ib 192.0.2.1@tcp; tcp5 192.0.2.5@tcp5" \
	'cannot add the route to tcp5 via 192.0.2.5@tcp5: -22'
rm -rf "$T"
log "lnetctl: all checks passed"
