# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Helpers for the nidmap scenarios (nidmap.sh, nidmap_relay.sh): what
# "lnetctl nidmap show" and "lnetctl nidmap table" say, in one line.
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
