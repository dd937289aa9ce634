#!/bin/busybox sh
# shellcheck shell=dash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the distro kernel's initramfs (made by scripts/distro-kernel.sh).
# Loads the distro's modules that the 9p root needs, mounts the root (the
# host's /, read-only), binds the unpacked distro module tree over
# /lib/modules and hands over to the harness's init, LNET_INIT.  Both
# paths come from the kernel command line, as environment variables.

/bin/busybox mkdir -p /proc /dev /newroot
/bin/busybox --install -s /bin

fatal() {
	echo "LNET-TEST: FATAL: initramfs: $*"
	poweroff -f
}

mount -t proc proc /proc
mount -t devtmpfs devtmpfs /dev
while read -r m; do
	insmod "/modules/$m" || fatal "insmod $m"
done < /modules.load
mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=262144,cache=loose \
	root /newroot ||
	fatal "cannot mount the 9p root"
[ -d "/newroot$LNET_DISTRO_MODULES" ] ||
	fatal "no module tree at $LNET_DISTRO_MODULES"
mount --bind "/newroot$LNET_DISTRO_MODULES" /newroot/lib/modules ||
	fatal "cannot bind the module tree over /lib/modules"
umount /proc
umount /dev
exec switch_root /newroot "$LNET_INIT"
