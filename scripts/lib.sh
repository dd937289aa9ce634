# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the project's scripts: where the per-machine cache is,
# where the Debian kernel source and headers are.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LNET_CACHE=${LNET_CACHE:-/var/cache/lnet-test}

# Version of Debian's linux-source-6.1 package; part of every cache key.
kernel_src_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null
}

# Extracted kernel source tree (checkpatch, kunit.py, test-kernel builds).
kernel_src_dir() {
	echo "$LNET_CACHE/src-$(kernel_src_version)/linux-source-6.1"
}

# Newest installed Debian distro kernel headers (linux-headers-amd64).
distro_kdir() {
	local d
	d=$(find /usr/src -maxdepth 1 -name 'linux-headers-*-amd64' | sort -V |
		tail -n 1)
	[ -n "$d" ] || return 1
	echo "$d"
}

# Bump when scripts/test-kernel.sh changes how a kernel is built: the cache
# key covers the source version, the fragments and this recipe number.
KERNEL_RECIPE=2

# Cache key of a test-kernel flavour.
kernel_key() {
	local flavour=$1
	{ kernel_src_version; echo "$KERNEL_RECIPE"; cat "$TOP/kernel/$flavour.config"; } |
		sha256sum | cut -c1-12
}

kernel_build_dir() {
	echo "$LNET_CACHE/kernel-$1-$(kernel_key "$1")"
}

# The distro flavour's cache directory (scripts/distro-kernel.sh): keyed by
# the headers' kernel and package version and by the scripts that make it.
distro_kernel_dir() {
	local kdir kver key
	kdir=$(distro_kdir) || return 1
	kver=${kdir##*/linux-headers-}
	key=$({ dpkg-query -W -f='${Version}' "linux-headers-$kver"
		cat "$TOP/scripts/distro-kernel.sh" \
		    "$TOP/tests/harness/initramfs-init.sh"; } |
		sha256sum | cut -c1-12)
	echo "$LNET_CACHE/distro-$kver-$key"
}
