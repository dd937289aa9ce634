#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nidmap's DNS backend (Documentation/nidmap.rst, "DNS backend"): a runs
# a DNS server (dnsmasq) on its test link with lnet1 TXT records under
# lnet.test; b, which neither subscribes nor publishes, has dns_domain
# set, its resolver pointed at a and request-key's lnetnids: keys sent
# to lnet-nid-resolver.  b looks oss0 up (a's NID first, then one of
# nobody: failover order kept) and PUTs to it by name, checked byte for
# byte in a's sink; records malformed at the helper (a character no NID
# holds) and in the kernel (an address out of range), a name with only
# another TXT record and a name with none are refused as such; with
# dns_dnssec on, an answer without the AD bit (dnsmasq validates
# nothing) is refused.  Each outcome is counted (debugfs nidmap/dns).
set -euo pipefail
. "$LNET_TOP/tests/harness/guest-lib.sh"
. "$LNET_TOP/tests/vm/sock_lib.sh"
. "$LNET_TOP/tests/vm/nidmap_lib.sh"

NMDBG=/sys/kernel/debug/nidmap
P=/sys/module/lnet_nidmap/parameters
T=$(mktemp -d)
A=$(nid_of a)
AIP=${A%@tcp}
X1=192.0.2.99@tcp	# a NID of nobody: second in oss0's failover order
RESOLVER=$LNET_TOP/build/utils/lnet-nid-resolver

[ -x "$RESOLVER" ] || fail "no $RESOLVER (make -C utils)"
command -v dnsmasq > /dev/null || fail "no dnsmasq (scripts/deps.sh: dnsmasq-base)"
[ -x /sbin/request-key ] || fail "no /sbin/request-key (scripts/deps.sh: keyutils)"

# lookup NAME: "NID,NID..." of "lnetctl nidmap lookup", or its error
# output (it must fail) in $T/err.
lookup() {
	"$LNETCTL" nidmap lookup --name "$1" 2> "$T/err" | awk '
		/^ *- [^ ]*@/ { s = s (s ? "," : "") $NF }
		END { print s }'
}

# dns_diag: what the path from the kernel to the helper looks like.
dns_diag() {
	cat /etc/request-key.d/*.conf /etc/resolv.conf || true
	"$RESOLVER" -D lnetnids:oss0.lnet.test || true
	grep -i "dns_resolver\|lnetnids" /proc/keys || true
	cat "$NMDBG/dns" || true
	cat "$T/rk.log" || true
}

# refused NAME WHY: b's lookup of NAME fails saying WHY.
refused() {
	if "$LNETCTL" nidmap lookup --name "$1" > "$T/out" 2> "$T/err"; then
		cat "$T/out"
		fail "lookup $1 succeeded"
	fi
	grep -q "$2" "$T/err" || fail "lookup $1: $(cat "$T/err"), want '$2'"
	log "lookup $1 refused: $2"
}

sock_load
nm_load
if [ "$LNET_NODE" = a ]; then
	cat > "$T/dnsmasq.conf" <<CONF
txt-record=oss0.lnet.test,"v=lnet1 nids=$A,$X1"
txt-record=oss1.lnet.test,"v=lnet1 nids=$A"
txt-record=badchar.lnet.test,"v=lnet1 nids=192.0.2.1%@tcp"
txt-record=badaddr.lnet.test,"v=lnet1 nids=192.0.2.300@tcp"
txt-record=other.lnet.test,"v=spf1 -all"
CONF
	dnsmasq --conf-file="$T/dnsmasq.conf" --listen-address="$AIP" \
		--bind-interfaces --port=53 --no-resolv --no-hosts \
		--local=/lnet.test/ --local-ttl=60 --user=root \
		--pid-file="$T/dnsmasq.pid" --log-facility="$T/dnsmasq.log" \
		--log-queries ||
		fail "dnsmasq"
	echo on > "$NMDBG/sink" || fail "sink on"
fi
barrier nm_dns_up
if [ "$LNET_NODE" = b ]; then
	printf 'nameserver %s\noptions trust-ad timeout:2 attempts:2\n' "$AIP" \
		> "$T/resolv.conf"
	mount --bind "$T/resolv.conf" /etc/resolv.conf ||
		fail "bind mount resolv.conf"
	mkdir "$T/rk"
	# The helper through a wrapper that keeps its complaints (stderr).
	cat > "$T/wrap" <<WRAP
#!/bin/sh
echo "key \$1" >> $T/rk.log
exec $RESOLVER "\$@" 2>> $T/rk.log
WRAP
	chmod +x "$T/wrap"
	printf 'create dns_resolver lnetnids:* * %s %%k\n' "$T/wrap" \
		> "$T/rk/lnet.conf"
	mount --bind "$T/rk" /etc/request-key.d || fail "bind mount request-key.d"
	refused oss0 "neither subscribes nor publishes, and has no DNS domain"
	echo lnet.test > $P/dns_domain || fail "dns_domain"
	echo 0 > $P/dns_dnssec || fail "dns_dnssec 0"
	t1=${EPOCHREALTIME/./}
	got=$(lookup oss0) || true
	[ "$got" = "$A,$X1" ] ||
		{ dns_diag; fail "lookup oss0: [$got] $(cat "$T/err"), want [$A,$X1]"; }
	log "lookup oss0 through DNS: $got in $(((${EPOCHREALTIME/./} - t1) / 1000)) ms"
	"$LNETCTL" nidmap lookup --name oss0 | grep -q "^ *source: dns$" ||
		fail "lookup oss0: source is not dns"
	# The key cached: the send resolves without an upcall.
	echo "oss0 3000 41" > "$NMDBG/send" ||
		fail "send by name to oss0: $(cat "$NMDBG/send")"
	got=$(cat "$NMDBG/send")
	[ "$got" = "rc=0 nid=$A version=0 resolves=1 skipped=0 failed=0" ] ||
		fail "send by name to oss0: $got"
	refused badchar "malformed DNS record"
	refused badaddr "malformed DNS record"
	refused other "no such target"
	refused missing "no such target"
	refused 'bad..name' "no such target"
	echo 1 > $P/dns_dnssec || fail "dns_dnssec 1"
	refused oss1 "DNS answer not validated"
	got=$(tr '\n' ' ' < "$NMDBG/dns")
	want="domain lnet.test dnssec 1 lookups 8 found 3 missing 2 refused 1 failed 0 malformed 2 "
	[ "$got" = "$want" ] || fail "counters: [$got] want [$want]"
	umount /etc/request-key.d /etc/resolv.conf
fi
barrier nm_dns_done
if [ "$LNET_NODE" = a ]; then
	[ "$(cat "$NMDBG/sink")" = "puts=1 bad=0" ] ||
		fail "a's sink: $(cat "$NMDBG/sink")"
	echo off > "$NMDBG/sink" || fail "sink off"
	kill "$(cat "$T/dnsmasq.pid")" || fail "kill dnsmasq"
	grep -c "query\[TXT\]" "$T/dnsmasq.log" || true
fi
rmmod lnet_nidmap || fail "rmmod lnet_nidmap"
sock_unload
