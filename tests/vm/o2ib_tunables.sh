#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ko2iblnd LND tunables per NI; see tests/vm/o2ib_tunables.py.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

LNETCTL=$LNET_TOP/build/utils/static/lnetctl
[ -x "$LNETCTL" ] || fail "lnetctl not built: run 'make lnetctl' on the host"
T=$(mktemp -d)

. "$LNET_TOP/tests/vm/lnetctl_lib.sh"

# lnd_tail NET: "tunables:" to the end of the NI of NET in net show -v
lnd_tail() {
	"$LNETCTL" net show --net "$1" -v | sed -n '/^            tunables:$/,$p'
}

# tail_of HIW MOD CS POOL FLUSH CACHE NTX TOS: the expected lnd_tail
tail_of() {
	cat <<YAML
            tunables:
                  peer_timeout: 180
                  peer_credits: 8
                  peer_buffer_credits: 0
                  credits: 256
            lnd tunables:
                  peercredits_hiw: $1
                  map_on_demand: $2
                  concurrent_sends: $3
                  fmr_pool_size: $4
                  fmr_flush_trigger: $5
                  fmr_cache: $6
                  ntx: $7
                  conns_per_peer: 1
                  timeout: 50
                  tos: $8
YAML
}

mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
rdma link | grep -q rxe0 || fail "no rxe0"
insmod "$LNET_MODDIR/lnet/lnet.ko" || fail "insmod lnet"
insmod "$LNET_MODDIR/health/lnet_health.ko" || fail "insmod lnet_health"
insmod "$LNET_MODDIR/lnd/o2ib/ko2iblnd.ko" peer_credits=8 \
	concurrent_sends=12 fmr_pool_size=64 || fail "insmod ko2iblnd"
"$LNETCTL" lnet configure || fail "lnetctl lnet configure"

# --- defaults: the module parameters, normalised ---
"$LNETCTL" net add --net o2ib --if eth0 || fail "net add o2ib"
"$LNETCTL" net show -v
tail_of 4 1 12 64 384 1 512 -1 >"$T/def.tail"
lnd_tail o2ib | expect_yaml "net show -v: defaults of o2ib" "$T/def.tail"
out=$("$LNETCTL" net show --net o2ib)
grep -q "lnd tunables" <<<"$out" && fail "net show (detail 0) has lnd tunables"
out=$("$LNETCTL" net show --net lo -v)
grep -q "lnd tunables" <<<"$out" && fail "net show -v: lo has lnd tunables"
"$LNETCTL" net del --net o2ib || fail "net del o2ib"

# --- values from a Lustre-style import ---
cat >"$T/lustre.yaml" <<'YAML'
net:
-     net type: o2ib
      local NI(s):
      -     interfaces:
                  0: eth0
            lnd tunables:
                  peercredits_hiw: 6
                  map_on_demand: 0
                  concurrent_sends: 16
                  fmr_pool_size: 128
                  fmr_flush_trigger: 100
                  fmr_cache: 0
                  ntx: 1024
                  conns_per_peer: 1
                  timeout: 50
                  tos: 96
YAML
"$LNETCTL" import "$T/lustre.yaml" 2>"$T/imp.err" ||
	{ cat "$T/imp.err"; fail "import of o2ib lnd tunables"; }
cat "$T/imp.err"
grep -q "'lnd tunables: timeout' is not supported, ignored" "$T/imp.err" ||
	fail "import: no warning for lnd tunables: timeout"
[ "$(grep -c 'not supported' "$T/imp.err")" = 1 ] ||
	fail "import: warnings for supported lnd tunables"
tail_of 6 1 16 128 100 0 1024 96 >"$T/imp.tail"
lnd_tail o2ib | expect_yaml "net show -v: imported lnd tunables" \
	"$T/imp.tail"

# --- export --backup, import --del, import: the same NI back ---
"$LNETCTL" export --backup "$T/backup.yaml" || fail "export --backup"
cat "$T/backup.yaml"
sed -n '/^            lnd tunables:$/,/^global:$/p' "$T/backup.yaml" |
	grep -q '^                  fmr_flush_trigger: 100$' ||
	fail "export --backup: no fmr_flush_trigger: 100"
# the LND's timeout is shown, not part of a backup; tos is
sed -n '/^            lnd tunables:$/,/^global:$/p' "$T/backup.yaml" |
	grep -q '^                  timeout: ' &&
	fail "export --backup: lnd tunables with a timeout"
sed -n '/^            lnd tunables:$/,/^global:$/p' "$T/backup.yaml" |
	grep -q '^                  tos: 96$' ||
	fail "export --backup: no tos: 96"
"$LNETCTL" import --del "$T/backup.yaml" || fail "import --del"
must_fail "import --del left o2ib" "no network 'o2ib'" \
	"$LNETCTL" net show --net o2ib
"$LNETCTL" import "$T/backup.yaml" || fail "import of the backup"
"$LNETCTL" export --backup | expect_yaml "export after the round trip" \
	"$T/backup.yaml"
lnd_tail o2ib | expect_yaml "net show -v after the round trip" \
	"$T/imp.tail"

# --- out of range: refused, nothing changed ---
bad() {
	sed "s/^\(                  $1:\) .*/\1 $2/; s/net type: o2ib$/net type: o2ib1/" \
		"$T/backup.yaml" >"$T/bad.yaml"
	grep -q "^                  $1: $2$" "$T/bad.yaml" ||
		fail "bad $1: no such key in the backup"
}
bad map_on_demand 258
must_fail "import of map_on_demand 258" "invalid map_on_demand '258'" \
	"$LNETCTL" import "$T/bad.yaml"
bad fmr_cache 2
must_fail "import of fmr_cache 2" "invalid fmr_cache '2'" \
	"$LNETCTL" import "$T/bad.yaml"
bad ntx 0
must_fail "import of ntx 0" "invalid ntx '0'" \
	"$LNETCTL" import "$T/bad.yaml"
bad fmr_pool_size 16385
must_fail "import of fmr_pool_size 16385" "invalid fmr_pool_size" \
	"$LNETCTL" import "$T/bad.yaml"
# in range, but not consistent with peer_credits 8: refused by the kernel
bad peercredits_hiw 8
must_fail "import of peercredits_hiw 8" "peercredits_hiw must be below peer_credits" \
	"$LNETCTL" import "$T/bad.yaml"
bad concurrent_sends 17
must_fail "import of concurrent_sends 17" "concurrent_sends exceeds twice peer_credits" \
	"$LNETCTL" import "$T/bad.yaml"
must_fail "a refused import added o2ib1" "no network 'o2ib1'" \
	"$LNETCTL" net show --net o2ib1
"$LNETCTL" export --backup | expect_yaml "export after refused imports" \
	"$T/backup.yaml"

# --- a ksocklnd NI shows conns_per_peer, timeout and tos only ---
insmod "$LNET_MODDIR/lnd/sock/ksocklnd.ko" || fail "insmod ksocklnd"
"$LNETCTL" net add --net tcp --if eth0 || fail "net add tcp"
"$LNETCTL" net show --net tcp -v >"$T/tcp.show" || fail "net show --net tcp -v"
sed -n '/^            lnd tunables:$/,$p' "$T/tcp.show" >"$T/tcp.lnd"
cat "$T/tcp.lnd"
[ "$(sed -n 's/^                  \([a-z_]*\): .*/\1/p' "$T/tcp.lnd" |
	tr '\n' ' ')" = "conns_per_peer timeout tos " ] ||
	fail "tcp NI: lnd tunables other than conns_per_peer, timeout, tos"
"$LNETCTL" net del --net tcp || fail "net del tcp"

"$LNETCTL" net del --net o2ib || fail "net del o2ib"

# --- a device without fast registration: refused (no global rkey) ---
# Before, sinks were then advertised with the PD's global rkey: every
# peer could read and write all of our memory.
echo 1 > /sys/kernel/debug/ko2iblnd/test_no_fastreg
rc=0
"$LNETCTL" net add --net o2ib --if eth0 >"$T/nofr.out" 2>"$T/nofr.err" || rc=$?
echo 0 > /sys/kernel/debug/ko2iblnd/test_no_fastreg
[ $rc != 0 ] || fail "net add o2ib on a device without fast registration: accepted"
cat "$T/nofr.err"
grep -q '^ *errno: -95$' "$T/nofr.err" ||
	fail "net add without fast registration: not -EOPNOTSUPP"
dmesg | grep -q "ko2iblnd: rxe0: no fast memory registration" ||
	fail "no kernel log line naming the device without fast registration"
must_fail "a refused net add left an o2ib NI" "no network 'o2ib'" \
	"$LNETCTL" net show --net o2ib
log "refused as expected: a device without fast registration"
"$LNETCTL" lnet unconfigure || fail "lnetctl lnet unconfigure"
rmmod ksocklnd || fail "rmmod ksocklnd"
rmmod ko2iblnd || fail "rmmod ko2iblnd"
rmmod lnet_health || fail "rmmod lnet_health"
rmmod lnet || fail "rmmod lnet"
log "o2ib tunables OK"
