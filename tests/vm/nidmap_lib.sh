# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the nidmap scenarios (nidmap.sh, nidmap_relay.sh,
# nidmap_auth.sh): loading the module with a key, and what "lnetctl
# nidmap show" and "lnetctl nidmap table" say, in one line.
# Source it after guest-lib.sh:
#	. "$LNET_TOP/tests/vm/nidmap_lib.sh"

# nm_field KEY: "KEY: N" of lnetctl nidmap show (the first match).
nm_field() {
	"$LNETCTL" nidmap show | sed -n "s/^ *$1: //p" | head -1
}

# nm_table [--copy]: the published table (or this node's copy), one line
# per entry, "name version nid,nid..." (NIDs in failover order).
nm_table() {
	"$LNETCTL" nidmap table "$@" | awk '
		/^ *-? *name: / { if (n) print n, v, s; n = $NF; v = ""; s = "" }
		/^ *version: / { v = $NF }
		/^ *- [^ ]*@/ { s = s (s ? "," : "") $NF }
		END { if (n) print n, v, s }'
}

# nm_load: load lnet_nidmap and give it the test key (id 1).  nidmap
# takes only messages signed with a key the node holds, and a node
# without one starts no role (Documentation/nidmap.rst, "Trust").
nm_load() {
	nidmap_insmod
	printf 'nidmap-test-key-0123456789abcdef\n' > /tmp/nidmap-test.key
	chmod 600 /tmp/nidmap-test.key
	"$LNETCTL" nidmap key add --id 1 --secret-file /tmp/nidmap-test.key ||
		fail "nidmap key add"
}
