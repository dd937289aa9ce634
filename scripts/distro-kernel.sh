#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The distro test kernel: Debian's own linux-image matching the installed
# linux-headers-amd64, so the VM tests run the very .ko files a user builds
# and installs, on the kernel they run.  Prints the directory holding
#
#   vmlinuz            the distro's kernel image
#   initrd.gz          a small initramfs made here (see below)
#   lib/modules/<ver>  the distro's module tree, with its modules.dep
#
# The package is fetched with `apt-get download` and unpacked into the cache
# ($LNET_CACHE); it is never installed on this host and never touches its
# boot or its /lib/modules.  In the guest, the initramfs loads what mounting
# the 9p root needs, binds the unpacked module tree over /lib/modules (so
# modprobe finds rdma_rxe, sch_netem, ...) and switches to the harness's
# init.  Usage: distro-kernel.sh [--path]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$(distro_kernel_dir)
if [ "${1:-}" = --path ]; then
	echo "$out"
	exit 0
fi
if [ -f "$out/.lnet-built" ]; then
	echo "$out"
	exit 0
fi

log() { echo "distro-kernel: $*" >&2; }

kdir=$(distro_kdir) || { log "no linux-headers-*-amd64 installed"; exit 1; }
kver=${kdir##*/linux-headers-}
pkg=linux-image-$kver
ver=$(dpkg-query -W -f='${Version}' "linux-headers-$kver")

mkdir -p "$LNET_CACHE"
exec 9> "$LNET_CACHE/.lock-distro"
flock 9
if [ -f "$out/.lnet-built" ]; then
	echo "$out"
	exit 0
fi

tmp="$out.tmp"
rm -rf "$tmp"
mkdir -p "$tmp/dl"
log "fetching $pkg=$ver"
# apt drops privileges to _apt for the download: give it a directory it
# may write.
chmod 777 "$tmp/dl"
if ! (cd "$tmp/dl" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1); then
	log "apt-get download $pkg=$ver failed (stale package lists? apt-get update)"
	exit 1
fi
dpkg-deb -x "$tmp"/dl/*.deb "$tmp/pkg"
mkdir -p "$tmp/lib"
mv "$tmp/pkg/lib/modules" "$tmp/lib/modules"
mv "$tmp/pkg/boot/vmlinuz-$kver" "$tmp/vmlinuz"
cp "$tmp/pkg/boot/config-$kver" "$tmp/config"
rm -rf "$tmp/dl" "$tmp/pkg"
depmod -b "$tmp" "$kver"

# The initramfs: busybox, the init below, and the modules that mounting
# the 9p root and the first NIC need, in load order (modprobe resolves
# the dependencies from the tree's own modules.dep).
ird="$tmp/initramfs"
mkdir -p "$ird/bin" "$ird/modules"
cp /bin/busybox "$ird/bin/busybox"
: > "$ird/modules.load"
modprobe -d "$tmp" -S "$kver" --show-depends -a \
	virtio_pci virtio_net 9pnet_virtio 9p |
while read -r word path _; do
	[ "$word" = insmod ] || continue
	name=${path##*/}
	grep -qx "$name" "$ird/modules.load" && continue
	cp "$path" "$ird/modules/$name"
	echo "$name" >> "$ird/modules.load"
done
for m in virtio_pci.ko virtio_net.ko 9pnet_virtio.ko 9p.ko; do
	grep -qx "$m" "$ird/modules.load" ||
		{ log "initramfs: $m not found in $pkg"; exit 1; }
done
cp "$TOP/tests/harness/initramfs-init.sh" "$ird/init"
chmod 755 "$ird/init" "$ird/bin/busybox"
(cd "$ird" && find . | cpio -o -H newc --quiet) | gzip -1 > "$tmp/initrd.gz"
rm -rf "$ird"

touch "$tmp/.lnet-built"
rm -rf "$out"
mv "$tmp" "$out"
log "$pkg $ver ready in $out"
echo "$out"
