#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once per machine) a test kernel from Debian's linux-source-6.1 and
# print its build directory.  Usage: test-kernel.sh lean|debug [--path]
#
# The build lives in $LNET_CACHE (default /var/cache/lnet-test), keyed by a
# hash of the source version, the config fragments and this script, so a
# warm run only prints the path.  An interrupted build resumes where make
# stopped: nothing is marked done before it is.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:?usage: test-kernel.sh lean|debug [--path]}
case "$flavour" in lean|debug) ;; *) echo "unknown flavour $flavour" >&2; exit 2 ;; esac
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
	frags=("$TOP/kernel/lean.config")
	[ "$flavour" = debug ] && frags+=("$TOP/kernel/debug.config")
	make -s -C "$src" O="$out" x86_64_defconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "${frags[@]}" >/dev/null)
	make -s -C "$src" O="$out" olddefconfig >/dev/null
	# Every option a fragment asks for must have survived olddefconfig.
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
