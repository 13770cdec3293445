# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/fapolicyd-guest.sh: sourced by guest-bench, in the test VM, to
# start and stop the peer, fapolicyd (Debian's package, unpacked on the host
# by run-bench and copied into the guest with its libraries; the path of the
# unpacked tree is in the file "root" next to this one).
#
# The configuration (fapolicyd.conf, fapolicyd.rules next to this file):
# watch tmpfs and rootfs mounts (/scratch, and the guest's root), trust
# backend "file" only, with /scratch/bench/prog, /scratch/bench/data and
# every file of the interpreter workloads (under /scratch/bench/interp) in the trust
# database, and a rule set that vets every open and execute under
# /scratch/bench: allowed when the file is trusted, denied otherwise;
# anything else (the interpreters' own code files among it) is allowed
# after its permission event.
#
#   fapolicyd_start   start the daemon, wait until it listens; 1 on failure
#   fapolicyd_stop    stop it

fapolicyd_here=$(dirname "${BASH_SOURCE[0]}")
fapolicyd_pid=

fapolicyd_start() {
	local i size sum f root
	root=$(cat "$fapolicyd_here/root") || return 1
	# The daemon looks for its magic database at its packaged path.
	mkdir -p /usr/share/fapolicyd &&
		cp "$root/usr/share/fapolicyd/fapolicyd-magic.mgc" /usr/share/fapolicyd/ || return 1
	mkdir -p /etc/fapolicyd/rules.d /etc/fapolicyd/trust.d /var/lib/fapolicyd \
		/run/fapolicyd /var/log || return 1
	cp "$fapolicyd_here/fapolicyd.conf" /etc/fapolicyd/fapolicyd.conf || return 1
	cp "$fapolicyd_here/fapolicyd.rules" /etc/fapolicyd/compiled.rules || return 1
	: >/etc/fapolicyd/fapolicyd.trust
	# The interpreter workloads' every file, in subdirectories too: the
	# PHP page's classes (interp/app/) and OPcache's file caches.
	while IFS= read -r -d '' f; do
		size=$(stat -c %s "$f") && sum=$(sha256sum "$f" | cut -d' ' -f1) || return 1
		echo "$f $size $sum" >>/etc/fapolicyd/fapolicyd.trust
	done < <(find /scratch/bench/prog /scratch/bench/data /scratch/bench/interp \
		-type f -print0 2>/dev/null)
	grep -q '^fapolicyd:' /etc/group || echo 'fapolicyd:x:990:' >>/etc/group
	grep -q '^fapolicyd:' /etc/passwd ||
		echo 'fapolicyd:x:990:990:fapolicyd:/var/lib/fapolicyd:/bin/false' >>/etc/passwd
	chown 990:990 /var/lib/fapolicyd /run/fapolicyd
	# --debug-deny: stay in the foreground, report only denials (stderr).
	"$root/usr/sbin/fapolicyd" --debug-deny >/tmp/fapolicyd.log 2>&1 &
	fapolicyd_pid=$!
	for ((i = 0; i < 600; i++)); do
		if grep -q 'Starting to listen for events' /tmp/fapolicyd.log 2>/dev/null; then
			echo "# fapolicyd started (pid $fapolicyd_pid)"
			sed 's/^/# fapolicyd: /' /tmp/fapolicyd.log | head -n 40
			return 0
		fi
		kill -0 "$fapolicyd_pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "# fapolicyd did not start:"
	sed 's/^/# fapolicyd: /' /tmp/fapolicyd.log | tail -n 40
	kill "$fapolicyd_pid" 2>/dev/null
	return 1
}

fapolicyd_stop() {
	[[ -n "$fapolicyd_pid" ]] || return 0
	kill "$fapolicyd_pid" 2>/dev/null
	wait "$fapolicyd_pid" 2>/dev/null
	echo "# fapolicyd stopped; its last lines:"
	tail -n 20 /tmp/fapolicyd.log | sed 's/^/# fapolicyd: /'
	fapolicyd_pid=
}
