#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build directory for: distro | debug.
# debug prints where the cached test kernel is (or will be) built.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
case "${1:-distro}" in
distro) distro_kdir || { echo "no linux-headers-*-amd64 installed" >&2; exit 1; } ;;
debug) kernel_build_dir "$1" ;;
*) echo "usage: kdir.sh distro|debug" >&2; exit 2 ;;
esac
