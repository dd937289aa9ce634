# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# lnet.service in a guest that runs no systemd (lnet_service.sh, the tree's
# unit; deb_dkms.sh, lnet-utils' unit): the unit's Exec* lines in order as
# systemd would (Environment=, then the settings file as EnvironmentFile=,
# ${VAR} expanded; the first failing line fails the step; ExecStopPost=
# after a failed start), and modprobe through a module tree of our own.
# Source it after guest-lib.sh, with set:
#   T        a scratch directory ($T/default is the settings file)
#   UNIT     the unit file
#   LNETCTL  the lnetctl the unit's helpers run
# and with unit_command CMD defined: sets UNIT_CMD to the path to run for
# the unit's command CMD, or fails for one the test does not map.

# use_modroot ROOT: modprobe, the unit's and the kernel's request_module()
# (ksocklnd for a tcp net), loads our modules from ROOT/lib/modules/KVER
# (depmod -b ROOT done), the kernel's own from the real tree.  Every
# modprobe that loads one of ours leaves its insmod line in
# $T/modprobe.log (the kernel's -q dropped for that).
use_modroot() {
	cat > "$T/modprobe" <<SH
#!/bin/sh
for a; do shift; [ "\$a" = -q ] || set -- "\$@" "\$a"; done
/sbin/modprobe -v -d "$1" "\$@" >> "$T/modprobe.log" 2>&1 || exec /sbin/modprobe -q "\$@"
SH
	chmod +x "$T/modprobe"
	: > "$T/modprobe.log"
	read -r KERNEL_MODPROBE < /proc/sys/kernel/modprobe
	echo "$T/modprobe" > /proc/sys/kernel/modprobe
	trap restore_modprobe EXIT
}

restore_modprobe() {
	echo "$KERNEL_MODPROBE" > /proc/sys/kernel/modprobe
}

# unit_lines KEY: the lines of KEY= in the unit, in order, into
# $T/lines (the guest has no /dev/fd for a process substitution).
unit_lines() {
	sed -n "s/^$1=//p" "$UNIT" > "$T/lines"
}

# unit_env: the unit's Environment= lines, then the settings file
# ($T/default, as EnvironmentFile=-/etc/default/lnet), into the shell.
unit_env() {
	local line
	unit_lines Environment
	while read -r line; do
		# shellcheck disable=SC2163
		for a in $line; do export "$a"; done
	done < "$T/lines"
	set -a
	# shellcheck disable=SC1091
	[ -e "$T/default" ] && . "$T/default"
	set +a
}

# run_unit KEY: run KEY='s lines as systemd does, output in $T/out.
# A line starting with "-" may fail.  Stops at the first failure.
run_unit() {
	local key=$1 line cmd ignore argv lines
	: > "$T/out"
	unit_lines "$key"
	exec {lines}< "$T/lines"
	while read -r -u "$lines" line; do
		ignore=0
		[ "${line:0:1}" = - ] && { ignore=1; line=${line:1}; }
		# shellcheck disable=SC2016
		line=${line//'${LNET_CONF}'/$LNET_CONF}
		read -r -a argv <<< "$line"
		unit_command "${argv[0]}" ||
			fail "$key: '${argv[0]}': a command this test does not know"
		cmd=$UNIT_CMD
		echo "+ $line" >> "$T/out"
		if ! LNETCTL=$LNETCTL "$cmd" "${argv[@]:1}" < /dev/null >> "$T/out" 2>&1; then
			[ $ignore = 1 ] && continue
			echo "$key failed: $line" >> "$T/out"
			exec {lines}<&-
			return 1
		fi
	done
	exec {lines}<&-
}

# service start|stop|reload: systemctl's view: a failed start runs
# ExecStopPost=, a stop ExecStop= then ExecStopPost=.
service() {
	local rc=0
	case $1 in
	start)
		run_unit ExecStart || rc=1
		cp "$T/out" "$T/out.start"
		if [ $rc != 0 ]; then
			run_unit ExecStopPost || { cat "$T/out"; fail "ExecStopPost after a failed start"; }
		fi
		cp "$T/out.start" "$T/out"
		;;
	stop)
		run_unit ExecStop || rc=1
		cp "$T/out" "$T/out.stop"
		run_unit ExecStopPost || rc=1
		cat "$T/out" >> "$T/out.stop"
		cp "$T/out.stop" "$T/out"
		;;
	reload)
		run_unit ExecReload || rc=1
		;;
	esac
	return $rc
}

# none_loaded WHEN: no module of ours is loaded.
none_loaded() {
	local m
	for m in lnet_selftest lnet_test lnet_nidmap ko2iblnd ksocklnd lnet_health lnet; do
		module_loaded "$m" && fail "$1: $m still loaded"
	done
	return 0
}
