#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The packages as an admin installs them (tests/vm/deb_dkms.py): the
# modules dkms built and installed from lnet-dkms against Debian's headers
# (tests/deb_dkms_build.sh, in a scratch tree: $LNET_PKG_ROOT) and the
# files of lnet-utils ($LNET_PKG_UTILS), nothing of the tree's own build.
# Each node starts LNet with lnet-utils' lnet.service (its Exec* lines run
# as systemd would: service_lib.sh) from the package's example lnet.conf
# with the peer's NID put in, modprobe loading the dkms-installed
# modules; pings the other node with the packaged lnetctl; PUTs 1 MiB x 10
# to it with lnet_test (from the dkms tree too), every byte checked at the
# receiver; runs LNet selftest as an admin would (the packaged lst on a,
# lnet_selftest from the dkms tree on both: brw write of 1 MiB with every
# byte checked, one lst stat, no error); stops the service: no module of
# ours left.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/service_lib.sh"

PKG=${LNET_PKG_UTILS:?not run by deb_dkms.py}
ROOT=${LNET_PKG_ROOT:?not run by deb_dkms.py}
LNETCTL=$PKG/usr/sbin/lnetctl
LST=$PKG/usr/sbin/lst
UNIT=$PKG/lib/systemd/system/lnet.service
RUN=/sys/kernel/debug/lnet_test/run
TARGET=/sys/kernel/debug/lnet_test/target
T=$(mktemp -d)
KVER=$(uname -r)
[ "$KVER" = "$LNET_PKG_KVER" ] ||
	fail "the VM runs $KVER, dkms built for $LNET_PKG_KVER"
DKMS_DIR=$ROOT/lib/modules/$KVER/updates/dkms

# unit_command CMD: the unit's paths into lnet-utils' files.
unit_command() {
	case $1 in
	/usr/sbin/* | /usr/lib/lnet/*) UNIT_CMD=$PKG$1 ;;
	/sbin/modprobe) UNIT_CMD=$T/modprobe ;;
	*) return 1 ;;
	esac
}

# indent: stdin, as show prints a command's output.
indent() {
	sed "s/^/[$LNET_NODE]   /"
}

show() {
	log "\$ $*"
	"$@" 2>&1 | indent
	return "${PIPESTATUS[0]}"
}

peer=""
for n in $LNET_NODES; do
	[ "$n" = "$LNET_NODE" ] || peer=$n
done
ip_var=IP_${LNET_NODE}_net0
NID=${!ip_var}@tcp
ip_var=IP_${peer}_net0
PEER_NID=${!ip_var}@tcp

phase start
log "host: make deb, dkms add+build+install: ${LNET_PKG_PREPARE_SECS:-?} s"
use_modroot "$ROOT"
# /etc/default/lnet as shipped, then the admin's line: where the file is.
cp "$PKG/etc/default/lnet" "$T/default"
echo "LNET_CONF=$T/lnet.conf" >> "$T/default"
# /etc/lnet.conf: the package's example, its peer made the other node.
ex=$(grep -c '192\.0\.2\.2@tcp' "$LNET_PKG_EXAMPLE") ||
	fail "the example lnet.conf names no peer 192.0.2.2@tcp"
sed "s/192\\.0\\.2\\.2@tcp/$PEER_NID/g" "$LNET_PKG_EXAMPLE" > "$T/lnet.conf"
log "lnet.conf: the package's example, its peer ($ex lines) $PEER_NID"
unit_env
none_loaded "before start"
service start || { cat "$T/out"; fail "lnet.service start"; }
for m in lnet ksocklnd; do
	grep -q "^insmod $DKMS_DIR/$m.ko" "$T/modprobe.log" ||
		{ cat "$T/modprobe.log"; fail "$m was not loaded from dkms's tree $DKMS_DIR"; }
done
show "$LNETCTL" net show
got=$("$LNETCTL" net show --net tcp | sed -n 's/^ *- *nid: //p')
[ "$got" = "$NID" ] || fail "net tcp has NID '$got', not $NID"
"$LNETCTL" peer show --nid "$PEER_NID" > "$T/peer" 2>&1 ||
	{ cat "$T/peer"; fail "the imported peer $PEER_NID is not there"; }
"$T/modprobe" lnet_test || fail "modprobe lnet_test"
grep -q "^insmod $DKMS_DIR/lnet_test.ko" "$T/modprobe.log" ||
	fail "lnet_test was not loaded from dkms's tree"
echo serve > $RUN
barrier up

phase ping
show "$LNETCTL" ping --timeout 10 "$PEER_NID" | tee "$T/ping" ||
	fail "ping $PEER_NID"
grep -q "nid: $PEER_NID" "$T/ping" || fail "ping $PEER_NID: no reply from it"

phase put
echo "put $PEER_NID 1048576 10 4" > $RUN || fail "put: $(cat $RUN)"
log "lnet_test: 10 x 1 MiB PUT to $PEER_NID: $(cat $RUN)"
barrier done
# The other node's PUTs: each landed once, every byte as sent.
t=$(cat $TARGET)
log "lnet_test target: $t"
case " $t " in
*" puts=10 bad=0 "*) ;;
*) fail "target: want 10 PUTs landed intact: $t" ;;
esac
barrier checked

phase lst
"$T/modprobe" lnet_selftest || fail "modprobe lnet_selftest"
grep -q "^insmod $DKMS_DIR/lnet_selftest.ko" "$T/modprobe.log" ||
	fail "lnet_selftest was not loaded from dkms's tree"
barrier lst-ready
if [ "$LNET_NODE" = a ]; then
	export LST_SESSION=$$
	show "$LST" new_session pkg || fail "lst new_session"
	show "$LST" add_group clients "$NID" || fail "lst add_group clients"
	show "$LST" add_group servers "$PEER_NID" || fail "lst add_group servers"
	show "$LST" add_batch bulk || fail "lst add_batch"
	show "$LST" add_test --batch bulk --concurrency 4 --from clients \
		--to servers brw write check=full size=1M || fail "lst add_test"
	show "$LST" run bulk || fail "lst run"
	out=$("$LST" stat --count 1 --delay 5 --bw clients) ||
		fail "lst stat: $out"
	indent <<< "$out"
	mibps=$(sed -n 's/^\[W\] Avg: *\([0-9.]*\).*/\1/p' <<< "$out" | head -1)
	[ -n "$mibps" ] && [ "${mibps%.*}" -gt 0 ] ||
		fail "lst stat: the clients wrote nothing (W Avg '${mibps}')"
	show "$LST" stop bulk || fail "lst stop"
	errs=$("$LST" show_error clients servers 2>&1) || fail "lst show_error: $errs"
	indent <<< "$errs"
	for g in clients servers; do
		grep -q "^Total 0 error nodes in $g$" <<< "$errs" ||
			fail "lst show_error: errors in $g (brw write check=full)"
	done
	show "$LST" end_session || fail "lst end_session"
	log "lst: brw write 1 MiB check=full, $mibps MiB/s, no error"
fi
barrier lst-done 120
rmmod lnet_selftest || fail "rmmod lnet_selftest"

phase stop
echo unserve > $RUN
service stop || { cat "$T/out"; fail "lnet.service stop"; }
none_loaded "lnet.service stop"
log "packages: dkms modules and lnet-utils: start, ping, 10 MiB PUT checked, lst brw write checked, stop"
