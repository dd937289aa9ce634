#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# UDSP on one node (spec features 4d; lnet/udsp.c): lnetctl udsp add, del
# and show with their index rules; what the rules give local NIs ("net
# show -v 4") and peer NIs ("peer show -v 4": priorities, preferred
# source NIDs of a NID pair); a router preference (--dst with --rte)
# kept and shown; bad rules refused with a message and
# nothing changed; export/import round trips of an empty and of a full
# configuration (nets, a peer, rules, globals) give identical YAML; the
# rules go with unconfigure.  That selection obeys the rules is
# multirail_lib.sh's udsp phase (traffic over two rails).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

LNETCTL=$LNET_TOP/build/utils/static/lnetctl
[ -x "$LNETCTL" ] || fail "lnetctl not built: run 'make lnetctl' on the host"
T=$(mktemp -d)
. "$LNET_TOP/tests/vm/lnetctl_lib.sh"

lnet_load
"$LNETCTL" lnet configure || fail "lnet configure"

# --- export/import of an empty configuration ---
"$LNETCTL" export --backup > "$T/empty" || fail "export --backup (empty)"
grep -q '^udsp:' "$T/empty" && fail "an empty export has a udsp block"
"$LNETCTL" import < "$T/empty" || fail "import of an empty export"
"$LNETCTL" export --backup | expect_yaml "export after empty import" \
	"$T/empty"

"$LNETCTL" net add --net tcp --if eth0 || fail "net add tcp"
NID=$("$LNETCTL" net show --net tcp | sed -n 's/^ *- *nid: //p')
[ -n "$NID" ] || fail "no tcp NID"
PEER=${NID%.*}.77@tcp

# --- add, show, the index rules ---
printf 'udsp: []\n' > "$T/none"
"$LNETCTL" udsp show | expect_yaml "udsp show, no rule" "$T/none"
"$LNETCTL" udsp add --src tcp --priority 3 || fail "udsp add --src tcp"
"$LNETCTL" udsp add --dst "${PEER%.*}.[70-79]@tcp" --priority 1 ||
	fail "udsp add --dst range"
# --idx 0 goes first; the same terms again replace a rule in its place
"$LNETCTL" udsp add --src "$NID" --priority 2 --idx 0 ||
	fail "udsp add --idx 0"
"$LNETCTL" udsp add --src tcp --priority 5 || fail "udsp add again"
"$LNETCTL" udsp add --src "*@tcp" --dst "$PEER" ||
	fail "udsp add of a NID pair"
"$LNETCTL" udsp add --dst "$PEER" --rte "10.0.0.[1-2]@o2ib" ||
	fail "udsp add of a router preference"
cat > "$T/rules" <<YAML
udsp:
-     idx: 0
      src: $NID
      dst: NA
      rte: NA
      action:
            priority: 2
-     idx: 1
      src: tcp
      dst: NA
      rte: NA
      action:
            priority: 5
-     idx: 2
      src: NA
      dst: ${PEER%.*}.[70-79]@tcp
      rte: NA
      action:
            priority: 1
-     idx: 3
      src: '*@tcp'
      dst: $PEER
      rte: NA
      action: NA
-     idx: 4
      src: NA
      dst: $PEER
      rte: 10.0.0.[1-2]@o2ib
      action: NA
YAML
"$LNETCTL" udsp show | expect_yaml "udsp show" "$T/rules"
"$LNETCTL" udsp show --idx 3 | grep -q "action: NA" ||
	fail "udsp show --idx 3: not the pair"

# --- what they give: the NI's priorities, the peer NI's ---
"$LNETCTL" net show --net tcp -v 4 > "$T/ni4"
grep -A2 'udsp info:' "$T/ni4" > "$T/ni4.udsp"
cat > "$T/ni4.want" <<'YAML'
            udsp info:
                  net priority: 5
                  nid priority: 2
YAML
diff -u "$T/ni4.want" "$T/ni4.udsp" ||
	{ cat "$T/ni4"; fail "net show -v 4: udsp info"; }
must_lack "net show -v 3 shows udsp info" 'udsp info' net show --net tcp -v 3
"$LNETCTL" peer add --prim_nid "$PEER" || fail "peer add $PEER"
"$LNETCTL" peer show -v 4 --nid "$PEER" > "$T/peer4"
grep -A5 'udsp info:' "$T/peer4" > "$T/peer4.udsp"
cat > "$T/peer4.want" <<YAML
            udsp info:
                  net priority: -1
                  nid priority: 1
                  Preferred source NIDs:
                  - $NID
YAML
diff -u "$T/peer4.want" "$T/peer4.udsp" ||
	{ cat "$T/peer4"; fail "peer show -v 4: udsp info"; }

# --- bad rules: refused, said why, nothing changed ---
must_fail "--rte with --src" "goes with --dst only, not with --src" \
	"$LNETCTL" udsp add --src tcp --rte 10.0.0.1@o2ib
must_fail "--rte with --src and --dst" "goes with --dst only" \
	"$LNETCTL" udsp add --src tcp --dst "$PEER" --rte 10.0.0.1@o2ib
must_fail "--rte alone" "needs --dst" "$LNETCTL" udsp add --rte 10.0.0.1@o2ib
must_fail "--rte with a priority" "takes no --priority" \
	"$LNETCTL" udsp add --dst "$PEER" --rte 10.0.0.1@o2ib --priority 1
must_fail "a bad --rte" "--rte: not a net or NID range" \
	"$LNETCTL" udsp add --dst "$PEER" --rte "10.0.0.[2-1]@o2ib"
must_fail "no term" "needs --src or --dst" "$LNETCTL" udsp add --priority 1
must_fail "no priority" "priority is missing" "$LNETCTL" udsp add --src tcp1
must_fail "a pair with a priority" "takes no --priority" \
	"$LNETCTL" udsp add --src tcp --dst tcp1 --priority 1
must_fail "a bad net" "not a net or NID range" \
	"$LNETCTL" udsp add --src tcpx9 --priority 1
must_fail "a bad range" "not a net or NID range" \
	"$LNETCTL" udsp add --dst "1.2.3.[9-2]@tcp" --priority 1
must_fail "a bad priority" "invalid --priority" \
	"$LNETCTL" udsp add --src tcp --priority -1
must_fail "del of no rule" "no rule has that index" \
	"$LNETCTL" udsp del --idx 5
must_fail "del of nothing" "either --idx or --all" "$LNETCTL" udsp del
must_fail "show of no rule" "no rule has index" "$LNETCTL" udsp show --idx 9
must_fail "add without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" udsp add --src tcp --priority 0
must_fail "del without CAP_NET_ADMIN" "needs CAP_NET_ADMIN" \
	setpriv --bounding-set=-net_admin --inh-caps=-net_admin -- \
	"$LNETCTL" udsp del --all
"$LNETCTL" udsp show | expect_yaml "udsp show after bad rules" "$T/rules"

# --- export/import of a full configuration ---
"$LNETCTL" set retry_count 3 || fail "set retry_count"
"$LNETCTL" export --backup > "$T/full" || fail "export --backup (full)"
# export --backup leaves absent terms out, as stock's
grep -vE '^      (src|dst|rte): NA$' "$T/rules" > "$T/rules.backup"
sed -n '/^udsp:/,$p' "$T/full" | expect_yaml "the export's udsp block" \
	"$T/rules.backup"
"$LNETCTL" import --show < "$T/full" | sed -n '/^udsp:/,$p' |
	expect_yaml "import --show" "$T/rules"
"$LNETCTL" import --del < "$T/full" || fail "import --del (full)"
"$LNETCTL" udsp show | expect_yaml "udsp show after import --del" "$T/none"
sed -n '/^udsp:/,$p' "$T/full" > "$T/rules.yaml"
must_fail "import --del of rules that are gone" "no rule like" \
	"$LNETCTL" import --del "$T/rules.yaml"
"$LNETCTL" import < "$T/full" || fail "import (full)"
"$LNETCTL" export --backup | expect_yaml "export after import" "$T/full"
# a rule the kernel refuses undoes the whole import
"$LNETCTL" import --del < "$T/full" || fail "import --del (full), again"
"$LNETCTL" export --backup > "$T/before"
sed 's/action: NA/action:\n            priority: 1/' "$T/full" > "$T/bad"
must_fail "import of a pair with a priority" "takes no --priority" \
	"$LNETCTL" import "$T/bad"
"$LNETCTL" export --backup | expect_yaml "export after a refused import" \
	"$T/before"
"$LNETCTL" import < "$T/full" || fail "import (full), again"

# --- del ---
"$LNETCTL" udsp del --idx 0 || fail "udsp del --idx 0"
must_lack "4 rules after a del" "idx: 4" udsp show
"$LNETCTL" udsp show --idx 0 | grep -q "src: tcp$" ||
	fail "the rules did not move up"
"$LNETCTL" udsp del --all || fail "udsp del --all"
"$LNETCTL" udsp show | expect_yaml "udsp show after del --all" "$T/none"
"$LNETCTL" net show --net tcp -v 4 | grep -A2 'udsp info:' |
	grep -q 'net priority: -1' || fail "a priority outlived its rule"

# --- the rules go with unconfigure ---
"$LNETCTL" udsp add --src tcp --priority 1 || fail "udsp add"
"$LNETCTL" peer del --prim_nid "$PEER" || fail "peer del"
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure"
"$LNETCTL" lnet configure || fail "lnet configure"
"$LNETCTL" udsp show | expect_yaml "udsp show after unconfigure" "$T/none"
"$LNETCTL" set retry_count 2 || fail "set retry_count back"
"$LNETCTL" lnet unconfigure || fail "lnet unconfigure"
lnet_unload
rm -rf "$T"
log "udsp: all checks passed"
