#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install, by Debian package name only, everything the build, the test
# kernels, the VM tests and the benchmarks need.  Idempotent: packages that
# are already installed are skipped, so a warm run costs one dpkg query.
set -euo pipefail

PKGS=(
	# module build against the distro kernel
	linux-headers-amd64 build-essential make gcc kmod
	# the debug test kernel, built from Debian's kernel source; the distro
	# one is Debian's linux-image, fetched by scripts/distro-kernel.sh and
	# booted through a busybox initramfs
	linux-source-6.1 bc bison flex libelf-dev libssl-dev cpio xz-utils
	dwarves rsync busybox-static
	# static checks
	sparse perl shellcheck flake8
	# the man pages' check (tests/man_check.py)
	groff-base
	# make deb: the Debian packages (debian/), lintian checked
	debhelper dh-dkms lintian
	# the package test (tests/vm/deb_dkms.py): dkms builds lnet-dkms
	dkms
	# lnet.service's check (tests/service_check.py): systemd-analyze
	systemd
	# fuzzing the parsers (fuzz/): libFuzzer, ASan and UBSan
	clang libclang-rt-14-dev
	# the user tool under valgrind (VM test lnetctl)
	valgrind
	# VMs and what runs inside them (the guest's root is this host's /)
	qemu-system-x86 iproute2 iputils-ping procps util-linux
	# RDMA (soft-RoCE) and benchmarks
	rdma-core ibverbs-utils perftest iperf3 librdmacm-dev libibverbs-dev
	# user tool
	libnl-3-dev libnl-genl-3-dev libyaml-dev pkg-config
	# nidmap's DNS backend: lnet-nid-resolver (libkeyutils, libresolv),
	# request-key in the VMs, and the test's DNS server (the binary only:
	# no host service)
	libkeyutils-dev keyutils dnsmasq-base
	# harness and KUnit parser
	python3
)

missing=()
for p in "${PKGS[@]}"; do
	case "$p" in \#*) continue ;; esac
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
	     grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PKGS[@]} packages present"
	exit 0
fi

echo "deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: need root to install packages" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
