#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host half of the package test (tests/vm/deb_dkms.py): what an admin's
# machine does between "make deb" and a boot, in a scratch tree.
#
#   tests/deb_dkms_build.sh OUT
#
# 1. make deb: lnet-dkms and lnet-utils, lintian clean (build/deb/);
# 2. lnet-dkms's files unpacked into OUT/dkms-pkg, then dkms add, build and
#    install of its /usr/src/lnet-VERSION against Debian's kernel headers
#    (scripts/kdir.sh distro, the distro test kernel's), with dkms's own
#    --dkmstree, --sourcetree and --installtree in OUT and --no-depmod:
#    the modules land in OUT/root/lib/modules/KVER/updates/dkms, signed
#    with a key made in OUT; then depmod -b OUT/root KVER, as dkms runs
#    depmod on an installed system;
# 3. lnet-utils' files unpacked into OUT/utils (lnetctl, lst, lnet.service,
#    its helpers, /etc/default/lnet, the example lnet.conf).
#
# Never touches the host's /lib/modules, /var/lib/dkms nor /boot: the
# script fails if /lib/modules/KVER changed.  A missing tool (dkms,
# dpkg-buildpackage, lintian, depmod) fails it: scripts/deps.sh installs
# them.  Prints KEY=VALUE lines for the VM's nodes last.
set -euo pipefail
out=${1:?usage: deb_dkms_build.sh OUT}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

for tool in dkms dpkg-buildpackage dpkg-deb lintian depmod; do
	command -v "$tool" > /dev/null ||
		{ echo "deb_dkms: $tool missing (scripts/deps.sh installs it)" >&2; exit 1; }
done
kdir=$(scripts/kdir.sh distro)
kver=${kdir##*/linux-headers-}
# What the host's module tree for that kernel holds before: unchanged after.
snapshot() {
	find "/lib/modules/$kver" /var/lib/dkms -printf '%p %s %T@\n' 2>/dev/null | sort
}
before=$(snapshot)

t0=$SECONDS
make -s deb > "$out.deb.log" 2>&1 ||
	{ tail -n 30 "$out.deb.log" >&2; echo "deb_dkms: make deb failed" >&2; exit 1; }
t_deb=$((SECONDS - t0))
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
dkms_deb=build/deb/lnet-dkms_${version}_all.deb
utils_deb=$(echo build/deb/lnet-utils_"${version}"_*.deb)
[ -f "$dkms_deb" ] && [ -f "$utils_deb" ] ||
	{ echo "deb_dkms: make deb made no $dkms_deb or lnet-utils_${version}_*.deb" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/root/lib/modules/$kver" "$out/dkms"
dpkg-deb -x "$dkms_deb" "$out/dkms-pkg"
dpkg-deb -x "$utils_deb" "$out/utils"

# dkms reads its signing key's place from the environment when
# /etc/dkms/framework.conf does not set it: a key of this run's own.
export mok_signing_key=$out/mok.key mok_certificate=$out/mok.pub
dkms=(dkms --dkmstree "$out/dkms" --sourcetree "$out/dkms-pkg/usr/src"
      --installtree "$out/root/lib/modules")
t0=$SECONDS
{
	"${dkms[@]}" add -m lnet -v "$version" &&
	"${dkms[@]}" build -m lnet -v "$version" -k "$kver" \
		--kernelsourcedir "$kdir" -j "$(nproc)" &&
	"${dkms[@]}" install -m lnet -v "$version" -k "$kver" \
		--kernelsourcedir "$kdir" --no-depmod &&
	"${dkms[@]}" status -m lnet -v "$version" -k "$kver"
} > "$out.dkms.log" 2>&1 || {
	tail -n 40 "$out.dkms.log" >&2
	find "$out/dkms" -name make.log -exec tail -n 40 {} + >&2 || true
	echo "deb_dkms: dkms failed" >&2
	exit 1
}
t_dkms=$((SECONDS - t0))
grep -q "^lnet/$version, $kver, [^:]*: installed" "$out.dkms.log" ||
	{ cat "$out.dkms.log" >&2; echo "deb_dkms: dkms status does not say installed" >&2; exit 1; }
mods=$out/root/lib/modules/$kver/updates/dkms
want=$(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"/\1/p' \
	"$out/dkms-pkg/usr/src/lnet-$version/dkms.conf" | sort)
got=$(find "$mods" -name '*.ko' -printf '%f\n' | sed 's/\.ko$//' | sort)
[ -n "$want" ] && [ "$want" = "$got" ] ||
	{ echo "deb_dkms: dkms installed '$got', dkms.conf builds '$want'" >&2; exit 1; }
for m in "$mods"/*.ko; do
	modinfo -F vermagic "$m" | grep -q "^$kver " ||
		{ echo "deb_dkms: $m is not built for $kver" >&2; exit 1; }
	modinfo -F signer "$m" | grep -q . ||
		{ echo "deb_dkms: $m is not signed" >&2; exit 1; }
done
# The kernel's own lists: none here (the guest's modprobe falls back to
# the distro tree for the kernel's modules).
for f in modules.order modules.builtin modules.builtin.modinfo; do
	: > "$out/root/lib/modules/$kver/$f"
done
depmod -b "$out/root" "$kver"
grep -q "^updates/dkms/ksocklnd.ko: updates/dkms/lnet.ko" \
	"$out/root/lib/modules/$kver/modules.dep" ||
	{ echo "deb_dkms: depmod: ksocklnd does not depend on lnet" >&2; exit 1; }

if [ "$(snapshot)" != "$before" ]; then
	echo "deb_dkms: the host's /lib/modules/$kver or /var/lib/dkms changed" >&2
	exit 1
fi
for f in usr/sbin/lnetctl usr/sbin/lst lib/systemd/system/lnet.service \
	 usr/lib/lnet/lnet-wait-interfaces usr/lib/lnet/lnet-unload etc/default/lnet; do
	[ -e "$out/utils/$f" ] || { echo "deb_dkms: lnet-utils has no /$f" >&2; exit 1; }
done
example=$out/utils/usr/share/doc/lnet-utils/examples/lnet.conf.example
[ -f "$example" ] || { echo "deb_dkms: lnet-utils has no $example" >&2; exit 1; }

echo "deb_dkms: make deb ${t_deb} s, dkms add+build+install ${t_dkms} s (${kver})"
echo "LNET_PKG_ROOT=$out/root"
echo "LNET_PKG_UTILS=$out/utils"
echo "LNET_PKG_EXAMPLE=$example"
echo "LNET_PKG_KVER=$kver"
