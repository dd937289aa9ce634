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

LNETCTL=$LNET_TOP/build/utils/lnetctl
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
OUR_MODULES="lnet_selftest lnet_test lnet_nidmap ko2iblnd ksocklnd lnet_health lnet"

# --- modprobe as on an installed system: our modules under extra/ of a
# module tree of their own; the kernel's request_module() (ksocklnd for
# a tcp net) goes through it too, falling back to the real modprobe.
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
cat > "$T/modprobe" <<SH
#!/bin/sh
/sbin/modprobe -q -d "$MODROOT" "\$@" || exec /sbin/modprobe "\$@"
SH
chmod +x "$T/modprobe"
read -r KERNEL_MODPROBE < /proc/sys/kernel/modprobe
echo "$T/modprobe" > /proc/sys/kernel/modprobe
restore_modprobe() {
	echo "$KERNEL_MODPROBE" > /proc/sys/kernel/modprobe
}
trap restore_modprobe EXIT

# unit_lines KEY: the lines of KEY= in the unit, in order, into
# $T/lines (the guest has no /dev/fd for a process substitution).
unit_lines() {
	sed -n "s/^$1=//p" "$UNIT" > "$T/lines"
}

# unit_env: the unit's Environment= lines, then the settings file
# ($T/default, as EnvironmentFile=-/etc/default/lnet), into the shell.
unit_env() {
	local line
	unit_lines Environment
	while read -r line; do
		# shellcheck disable=SC2163
		for a in $line; do export "$a"; done
	done < "$T/lines"
	set -a
	# shellcheck disable=SC1091
	[ -e "$T/default" ] && . "$T/default"
	set +a
}

# run_unit KEY: run KEY='s lines as systemd does, output in $T/out.
# A line starting with "-" may fail.  Stops at the first failure.
run_unit() {
	local key=$1 line cmd ignore argv lines
	: > "$T/out"
	unit_lines "$key"
	exec {lines}< "$T/lines"
	while read -r -u "$lines" line; do
		ignore=0
		[ "${line:0:1}" = - ] && { ignore=1; line=${line:1}; }
		# shellcheck disable=SC2016
		line=${line//'${LNET_CONF}'/$LNET_CONF}
		read -r -a argv <<< "$line"
		cmd=${argv[0]}
		case $cmd in
		/usr/sbin/lnetctl) cmd=$LNETCTL ;;
		/usr/lib/lnet/*) cmd=$LNET_TOP/systemd/${cmd##*/}.sh ;;
		/sbin/modprobe) cmd=$T/modprobe ;;
		*) fail "$key: '$cmd': a command this test does not know" ;;
		esac
		echo "+ $line" >> "$T/out"
		if ! LNETCTL=$LNETCTL "$cmd" "${argv[@]:1}" < /dev/null >> "$T/out" 2>&1; then
			[ $ignore = 1 ] && continue
			echo "$key failed: $line" >> "$T/out"
			exec {lines}<&-
			return 1
		fi
	done
	exec {lines}<&-
}

# service start|stop|reload: systemctl's view: a failed start runs
# ExecStopPost=, a stop ExecStop= then ExecStopPost=.
service() {
	local rc=0
	case $1 in
	start)
		run_unit ExecStart || rc=1
		cp "$T/out" "$T/out.start"
		if [ $rc != 0 ]; then
			run_unit ExecStopPost || { cat "$T/out"; fail "ExecStopPost after a failed start"; }
		fi
		cp "$T/out.start" "$T/out"
		;;
	stop)
		run_unit ExecStop || rc=1
		cp "$T/out" "$T/out.stop"
		run_unit ExecStopPost || rc=1
		cat "$T/out" >> "$T/out.stop"
		cp "$T/out.stop" "$T/out"
		;;
	reload)
		run_unit ExecReload || rc=1
		;;
	esac
	return $rc
}

# none_loaded WHEN: no module of ours is loaded.
none_loaded() {
	local m
	for m in $OUR_MODULES; do
		module_loaded "$m" && fail "$1: $m still loaded"
	done
	return 0
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
