#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lnet-wait-interfaces [CONF]: lnet.service's first step.  Wait until
# every interface LNet is told to use exists, is up and has an IPv4
# address (our NIs, tcp and o2ib, are IPv4), so that LNet never starts
# before the network and never binds a NID to the wrong address.  The
# interfaces are those of CONF (default $LNET_CONF, else /etc/lnet.conf):
# the "interfaces:" of each net, in the YAML "lnetctl export" writes, and
# those of the lnet module's networks= option in /etc/modprobe.d/*.conf
# ($LNET_MODPROBE_DIR), e.g. "tcp0(eth0),o2ib(ib0)".  Gives up after
# $LNET_WAIT_TIMEOUT seconds (default 60; /etc/default/lnet) with the
# interface and what it lacks; the service then fails before any module
# is loaded.

CONF=${1:-${LNET_CONF:-/etc/lnet.conf}}
TIMEOUT=${LNET_WAIT_TIMEOUT:-60}
MODPROBE_DIR=${LNET_MODPROBE_DIR:-/etc/modprobe.d}
ME=lnet-wait-interfaces

case $TIMEOUT in
'' | *[!0-9]*)
	echo "$ME: LNET_WAIT_TIMEOUT='$TIMEOUT': a number of seconds, please" >&2
	exit 2
	;;
esac
if [ ! -r "$CONF" ]; then
	echo "$ME: cannot read $CONF: LNet's configuration (man 5 lnet.conf)" >&2
	exit 1
fi

# conf_interfaces FILE: "NET IFACE" per interface of each net's local
# NIs.  The block YAML of lnetctl export (indent 6, "-     " items):
#	net:
#	-     net type: tcp
#	      local NI(s):
#	      -     interfaces:
#	                  0: eth0
# and the flow form "interfaces: [eth0, eth1]".  Indentation counts the
# "-" of a sequence item, so a key's children are the lines indented
# deeper than the key.
conf_interfaces() {
	awk '
	function depth(s) { match(s, /^[ -]*/); return RLENGTH }
	function unquote(s) { gsub(/^[ \t"'\'']+|[ \t"'\'']+$/, "", s); return s }
	{ sub(/[ \t]+#.*$/, ""); sub(/^#.*$/, "") }
	/^[ \t]*$/ { next }
	/^[^ -]/ { in_net = ($0 ~ /^net:[ \t]*$/); in_if = 0; next }
	!in_net { next }
	in_if && depth($0) <= if_depth { in_if = 0 }
	in_if {
		line = $0
		sub(/^[ -]*/, "", line)
		sub(/^[0-9]+:/, "", line)
		print net, unquote(line)
		next
	}
	/^[ -]*net type:/ { net = $0; sub(/^[ -]*net type:/, "", net); net = unquote(net); next }
	/^[ -]*interfaces:[ \t]*\[/ {
		line = $0
		sub(/^[^[]*\[/, "", line); sub(/\].*$/, "", line)
		n = split(line, ifs, ",")
		for (i = 1; i <= n; i++)
			if (unquote(ifs[i]) != "")
				print net, unquote(ifs[i])
		next
	}
	/^[ -]*interfaces:[ \t]*$/ { in_if = 1; if_depth = depth($0) }
	' "$1"
}

# modprobe_interfaces: "NET IFACE" per interface of "options lnet
# networks=..." lines: NET(IF[,IF...]) items, separated by commas or
# spaces (then quoted), CPT lists "[0,1]" dropped.  A net without
# interfaces lets LNet pick one: nothing to wait for.
modprobe_interfaces() {
	for f in "$MODPROBE_DIR"/*.conf; do
		[ -r "$f" ] || continue
		awk '
		$1 == "options" && $2 == "lnet" && match($0, /networks=("[^"]*"|[^ \t]*)/) {
			v = substr($0, RSTART + 9, RLENGTH - 9)
			gsub(/"/, "", v)
			gsub(/\[[^]]*\]/, "", v)
			while (match(v, /[a-z0-9]+\([^)]*\)/)) {
				item = substr(v, RSTART, RLENGTH)
				v = substr(v, RSTART + RLENGTH)
				net = item; sub(/\(.*/, "", net)
				sub(/^[^(]*\(/, "", item); sub(/\)$/, "", item)
				n = split(item, ifs, ",")
				for (i = 1; i <= n; i++)
					if (ifs[i] != "")
						print net, ifs[i]
			}
		}' "$f"
	done
}

# missing IFACE: what IFACE lacks to carry an NI, or nothing when ready.
missing() {
	if [ ! -e "/sys/class/net/$1" ]; then
		echo "no such interface"
		return
	fi
	read -r flags < "/sys/class/net/$1/flags"
	if [ $((flags & 1)) = 0 ]; then
		echo "it is down"
		return
	fi
	read -r oper < "/sys/class/net/$1/operstate"
	case $oper in
	up | unknown) ;;
	*)
		echo "no link (operstate $oper)"
		return
		;;
	esac
	if [ -z "$(ip -4 -o addr show dev "$1" 2>/dev/null)" ]; then
		echo "no IPv4 address"
	fi
}

uptime_s() {
	read -r up _ < /proc/uptime
	echo "${up%.*}"
}

wanted=$( (conf_interfaces "$CONF"; modprobe_interfaces) | sort -u)
if [ -z "$wanted" ]; then
	echo "$ME: $CONF and the networks= option name no interface: nothing to wait for"
	exit 0
fi

deadline=$(($(uptime_s) + TIMEOUT))
last=""
for pair in $(echo "$wanted" | tr ' ' '/'); do
	net=${pair%%/*}
	ifname=${pair#*/}
	while :; do
		why=$(missing "$ifname")
		[ -z "$why" ] && break
		if [ "$(uptime_s)" -ge "$deadline" ]; then
			echo "$ME: interface $ifname (net $net) is not ready after ${TIMEOUT} s: $why; LNet not started" >&2
			exit 1
		fi
		if [ "$last" != "$ifname: $why" ]; then
			echo "$ME: waiting for interface $ifname (net $net): $why"
			last="$ifname: $why"
		fi
		sleep 0.5
	done
	echo "$ME: interface $ifname (net $net) is ready"
done
