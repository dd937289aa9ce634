#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lnet-unload: lnet.service's last stop step, and its clean-up after a
# start that failed half-way.  Drops lnetctl's hold on LNet if it still
# runs (lnetctl lnet unconfigure), then unloads every LNet module that is
# loaded, users before what they use: the test modules, nidmap, the LNDs,
# health, the core.  Fails, naming the module, if one is still in use (e.g. by
# Lustre, or an lst session).

LNETCTL=${LNETCTL:-/usr/sbin/lnetctl}
# Every module of the tree (tests/deb_check.py checks the list against
# the Kbuild files), in the order they unload.
MODULES="lnet_selftest lnet_test lnet_nidmap ko2iblnd ksocklnd lnet_health lnet"

if [ -d /sys/module/lnet ]; then
	"$LNETCTL" lnet unconfigure || exit 1
fi
for m in $MODULES; do
	[ -d "/sys/module/$m" ] || continue
	if ! rmmod "$m"; then
		echo "lnet-unload: cannot unload $m: still in use?" >&2
		exit 1
	fi
done
