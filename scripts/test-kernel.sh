#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once per machine) the debug test kernel from Debian's
# linux-source-6.1 and print its build directory.
# Usage: test-kernel.sh debug [--path]
# (The other flavour, distro, is Debian's own kernel: scripts/distro-kernel.sh.)
#
# The build lives in $LNET_CACHE (default /var/cache/lnet-test), keyed by a
# hash of the source version, the config fragments and this script, so a
# warm run only prints the path.  An interrupted build resumes where make
# stopped: nothing is marked done before it is.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:?usage: test-kernel.sh debug [--path]}
case "$flavour" in debug) ;; *) echo "unknown flavour $flavour" >&2; exit 2 ;; esac
out=$(kernel_build_dir "$flavour")
if [ "${2:-}" = --path ]; then
	echo "$out"
	exit 0
fi
if [ -f "$out/.lnet-built" ]; then
	echo "$out"
	exit 0
fi

log() { echo "test-kernel[$flavour]: $*" >&2; }

# One kernel build per machine at a time (two would only fight over 2
# cores, and two in one directory corrupt it): a second caller waits, then
# finds the kernel built (or resumes the build itself).
mkdir -p "$LNET_CACHE"
exec 9> "$LNET_CACHE/.lock"
if ! flock -n 9; then
	log "another test-kernel build is running; waiting for it"
	flock 9
fi
if [ -f "$out/.lnet-built" ]; then
	echo "$out"
	exit 0
fi

src=$(kernel_src_dir)
if [ ! -f "$src/.lnet-extracted" ]; then
	log "extracting /usr/src/linux-source-6.1.tar.xz"
	parent=$(dirname "$src")
	rm -rf "$parent.tmp"
	mkdir -p "$parent.tmp"
	tar -C "$parent.tmp" -xJf /usr/src/linux-source-6.1.tar.xz
	touch "$parent.tmp/linux-source-6.1/.lnet-extracted"
	rm -rf "$parent"
	mv "$parent.tmp" "$parent"
fi

mkdir -p "$out"
if [ ! -f "$out/.lnet-configured" ]; then
	log "configuring in $out"
	frags=("$TOP/kernel/$flavour.config")
	# From nothing: every option not in the fragment is off (even the
	# defaults of what it makes visible), so the fragment names every
	# option the VMs need and nothing else gets built.
	make -s -C "$src" O="$out" KCONFIG_ALLCONFIG="${frags[0]}" \
		allnoconfig >/dev/null
	# Every option the fragment asks for must have survived Kconfig.
	bad=0
	for f in "${frags[@]}"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) want=$line ;;
			"# CONFIG_"*" is not set") want=$line ;;
			*) continue ;;
			esac
			opt=${want#\# }; opt=${opt%%[= ]*}
			got=$(grep -E "^($opt=|# $opt is not set)" "$out/.config" || true)
			if [ "$want" != "$got" ] &&
			   ! { [ -z "$got" ] && [ "${want#\# }" != "$want" ]; }; then
				log "config: wanted '$want', got '${got:-<absent>}'"
				bad=1
			fi
		done < "$f"
	done
	[ $bad -eq 0 ] || { log "fragment not satisfied"; exit 1; }
	touch "$out/.lnet-configured"
fi

jobs=$(nproc)
log "building with -j$jobs (log: $out/build.log)"
start=$(date +%s)
(
	while sleep 30; do
		n=$(grep -c '^  CC' "$out/build.log" 2>/dev/null || true)
		log "$(( $(date +%s) - start ))s, $n objects compiled"
	done
) &
mon=$!
trap 'kill $mon 2>/dev/null || true' EXIT
if ! make -C "$src" O="$out" -j"$jobs" bzImage modules > "$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	log "build failed"
	exit 1
fi
touch "$out/.lnet-built"
log "done in $(( $(date +%s) - start ))s"
echo "$out"
