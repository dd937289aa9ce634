#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lnet.service (systemd/) on one node.  The guest runs no systemd: this
# runs the unit's Exec* lines in order as systemd would (Environment=,
# then the settings file as EnvironmentFile=, ${VAR} expanded; the first
# failing line fails the step; ExecStopPost= after a failed start), with
# the installed paths mapped to the tree's files and modprobe to a module
# tree of our modules made by depmod, as lnet-dkms installs them.
#   start: LNet configured from the file, eth0's NID, a ping; reload
#   applies a changed file; stop: no module of ours left;
#   late: eth0 down and without its address at start, back 3 s later:
#   the wait names it, then LNet gets eth0's NID;
#   timeout: eth0 never comes up: start fails naming it, nothing loaded;
#   bad_file: an import that fails after the modules are loaded: the
#   clean-up after the failed start leaves nothing loaded.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/service_lib.sh"

LNETCTL=$LNET_TOP/build/utils/static/lnetctl
UNIT=$LNET_TOP/systemd/lnet.service
[ -x "$LNETCTL" ] || fail "lnetctl not built: run 'make lnetctl' on the host"
T=$(mktemp -d)
IF=eth0
CIDR=""
for nic in $LNET_NICS; do
	[ "${nic%%=*}" = "$IF" ] && CIDR=${nic#*=}
done
[ -n "$CIDR" ] || fail "no address of $IF in LNET_NICS '$LNET_NICS'"
NID=${CIDR%/*}@tcp

# --- modprobe as on an installed system: our modules under extra/ of a
# module tree of their own (service_lib.sh's use_modroot).
MODROOT=$T/modroot
KVER=$(uname -r)
mkdir -p "$MODROOT/lib/modules/$KVER/extra"
for m in lnet/lnet.ko health/lnet_health.ko lnd/sock/ksocklnd.ko \
	 lnd/o2ib/ko2iblnd.ko lnettest/lnet_test.ko selftest/lnet_selftest.ko; do
	cp "$LNET_MODDIR/$m" "$MODROOT/lib/modules/$KVER/extra/" || fail "copy $m"
done
# The kernel's lists of its own modules: none here (the fallback has them).
for f in modules.order modules.builtin modules.builtin.modinfo; do
	: > "$MODROOT/lib/modules/$KVER/$f"
done
depmod -b "$MODROOT" "$KVER" || fail "depmod of our modules"
use_modroot "$MODROOT"

# unit_command CMD: the unit's installed paths mapped to the tree's files.
unit_command() {
	case $1 in
	/usr/sbin/lnetctl) UNIT_CMD=$LNETCTL ;;
	/usr/lib/lnet/*) UNIT_CMD=$LNET_TOP/systemd/${1##*/}.sh ;;
	/sbin/modprobe) UNIT_CMD=$T/modprobe ;;
	*) return 1 ;;
	esac
}

# has_nid: LNet runs with eth0's NID on net tcp.
has_nid() {
	local got
	got=$("$LNETCTL" net show --net tcp | sed -n 's/^ *- *nid: //p')
	[ "$got" = "$NID" ] || fail "$1: net tcp has NID '$got', not $NID"
}

write_conf() {
	cat > "$T/lnet.conf" <<YAML
net:
-     net type: tcp
      local NI(s):
      -     interfaces:
                  0: $IF
            tunables:
                  peer_timeout: 180
                  peer_credits: $1
                  peer_buffer_credits: 0
                  credits: 256
global:
      retry_count: 2
YAML
}

# The settings file, and an lnet module option naming eth0 (the wait
# takes both: it waits for eth0 as "tcp" and as "tcp0").
echo "LNET_CONF=$T/lnet.conf" > "$T/default"
echo "LNET_MODPROBE_DIR=$T/modprobe.d" >> "$T/default"
mkdir "$T/modprobe.d"
echo "options lnet networks=\"tcp0(${IF}[0])\"" > "$T/modprobe.d/lnet.conf"
unit_env
write_conf 8
none_loaded "before start"

phase start
service start || { cat "$T/out"; fail "start"; }
grep -q "interface $IF (net tcp) is ready" "$T/out" &&
	grep -q "interface $IF (net tcp0) is ready" "$T/out" ||
	{ cat "$T/out"; fail "start: the wait did not report $IF ready"; }
has_nid start
for m in lnet lnet_health ksocklnd; do
	module_loaded "$m" || fail "start: $m not loaded (modprobe, softdep, request_module)"
done
"$LNETCTL" ping "$NID" > "$T/ping" 2>&1 || { cat "$T/ping"; fail "ping $NID"; }
grep -q "nid: $NID" "$T/ping" || { cat "$T/ping"; fail "ping $NID: no reply from it"; }

phase reload
write_conf 16
service reload || { cat "$T/out"; fail "reload"; }
has_nid reload
"$LNETCTL" net show --net tcp -v > "$T/show"
grep -q "peer_credits: 16" "$T/show" ||
	{ cat "$T/show"; fail "reload: peer_credits of the new file not applied"; }

phase stop
service stop || { cat "$T/out"; fail "stop"; }
none_loaded stop

phase late
ip addr del "$CIDR" dev "$IF"
ip link set "$IF" down
( nap 3; ip link set "$IF" up; ip addr add "$CIDR" dev "$IF" ) &
late=$!
service start || { cat "$T/out"; fail "start with $IF late"; }
wait $late || fail "bringing $IF back"
grep -q "waiting for interface $IF (net tcp): it is down" "$T/out" ||
	{ cat "$T/out"; fail "late: no message naming $IF"; }
has_nid late
service stop || { cat "$T/out"; fail "stop after late"; }
none_loaded "stop after late"

phase timeout
ip link set "$IF" down
echo "LNET_WAIT_TIMEOUT=2" >> "$T/default"
unit_env
if service start; then
	ip link set "$IF" up
	fail "timeout: start succeeded with $IF down"
fi
ip link set "$IF" up
grep -q "interface $IF (net tcp) is not ready after 2 s: it is down; LNet not started" "$T/out" ||
	{ cat "$T/out"; fail "timeout: no message naming $IF"; }
none_loaded "failed start"
for ((i = 0; i < 50; i++)); do
	read -r oper < "/sys/class/net/$IF/operstate"
	[ "$oper" = up ] && break
	nap 0.1
done
[ "$oper" = up ] || fail "$IF not up again"

phase bad_file
write_conf 8
echo "bogus: 1" >> "$T/lnet.conf"
service start && fail "bad_file: start succeeded with a bad file"
grep -q "'bogus' blocks are not supported" "$T/out" &&
	grep -q "ExecStart failed: /usr/sbin/lnetctl import" "$T/out" ||
	{ cat "$T/out"; fail "bad_file: no import error naming the bad key"; }
none_loaded "failed import"
log "lnet.service: start, reload, stop, late interface, timeout, bad file"
