#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The demo, as far as the stack exists: both nodes load lnet.ko, then show
# that the link between them carries traffic.
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"

lnet_load
log "lnet.ko loaded: $(grep '^lnet ' /proc/modules)"
log "my address on net0: $(ip -4 -br addr show eth0 | awk '{print $3}')"
barrier up
for peer in $LNET_NODES; do
	[ "$peer" = "$LNET_NODE" ] && continue
	ip_var=IP_${peer}_net0
	log "ping $peer (${!ip_var})"
	ping -c 3 -W 5 "${!ip_var}" | sed "s/^/[$LNET_NODE]   /"
done
barrier done
lnet_unload
