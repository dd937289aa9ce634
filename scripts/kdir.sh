#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the kernel build directory for: distro | lean | debug.
# lean/debug print where the cached test kernel is (or will be) built.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
case "${1:-distro}" in
distro) distro_kdir || { echo "no linux-headers-*-amd64 installed" >&2; exit 1; } ;;
lean|debug) kernel_build_dir "$1" ;;
*) echo "usage: kdir.sh distro|lean|debug" >&2; exit 2 ;;
esac
