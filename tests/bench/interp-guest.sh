# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/interp-guest.sh: sourced by guest-bench, in the test VM: what
# an interpreter costs, end to end.  Each workload is one whole run of an
# interpreter (vfork + execve + wait, omxbench's "run" workload), the stock
# one against the enlightened one on the same work:
#   py_pass      python3.X -c pass             omayexec-python3 -c pass
#   py_imports   python3.X imports.py          omayexec-python3 imports.py
#                (argparse, asyncio, email, http.client, json, logging,
#                subprocess, ...: the imports of a realistic program)
#   pl_pass      perl -e 1                     omayexec-perl -e 1
#   pl_uses      perl imports.pl               omayexec-perl imports.pl
#                (POSIX, File::Temp, Getopt::Long, Data::Dumper, Storable...)
#   sh_script    /bin/sh script.sh             omxsh script.omx
#                (the same short script, an included file read twice;
#                omxsh has no stock twin: the guest's /bin/sh is for scale)
#   php_page     php8.X -n page.php            the same, -d extension=
#                (page-app.sh's page: 200 classes    omayexec.so
#                autoloaded, 205 files compiled)
#   php_opcache  php_page with OPcache on      the same, -d extension=
#                (opcache.enable_cli, a file cache   omayexec.so
#                of its own, filled before: every file from the cache,
#                none compiled; the extension judges each all the same)
# The PHP rows when the guest has PHP and the build its extension
# (qemu/php-paths, userspace/php); no ini (-n): the same settings for both.
# The enlightened run's label ends in ":omx".  The scripts are in
# interp/ next to this file; they are copied to /scratch/bench/interp
# (tmpfs, mode 0755: executable for the file policy).
#
#   interp_setup US_DIR    the userspace build (omayexec, omxsh, the
#                          launchers, the -allow-stdlib scripts); prints
#                          the code files each workload reads ("M" lines),
#                          from a first run of each script
#   interp_allow_stdlib    the x bit on Python's and Perl's code files, as
#                          an administrator does before the file policy
#   interp_state STATE [restrict]
#                          every workload, $interp_reps repetitions of
#                          $interp_iters runs, in state STATE; with
#                          "restrict", each run under
#                          "omayexec run --restrict-file --" (the stock
#                          interpreter too: both pay the wrapper's exec)
# It uses guest-bench's $omxbench, $interp_reps and $interp_iters.
# A run is repeatable to about 0.5 % under icount (Python's and Perl's
# hash seeds, ASLR): the median of 3 repetitions of one run is the figure.

interp_here=$(dirname "${BASH_SOURCE[0]}")
interp_dir=/scratch/bench/interp
interp_us=
interp_py=
interp_php=

interp_setup() {
	interp_us=$1
	# The stock python3.X qemu/python-paths carried in (as /usr/bin/python3.X).
	interp_py=$(ls /usr/bin/python3.[0-9]* 2>/dev/null | head -n 1)
	[[ -x "$interp_py" ]] || return 1
	mkdir -p "$interp_dir" && cp "$interp_here"/interp/* "$interp_dir"/ &&
		chmod 0755 "$interp_dir"/* || return 1
	# "M interp_py_code_files=N interp_py_extension_modules=N ..."
	echo "M $("$interp_py" "$interp_dir/imports.py" --count | sed 's/[a-z_]*=/interp_py_&/g')"
	echo "M $(/usr/bin/perl "$interp_dir/imports.pl" --count | sed 's/[a-z_]*=/interp_pl_&/g')"
	echo "M interp_sh=$(readlink -f /bin/sh)"
	php_setup
}

# php_setup: the page (page-app.sh), and each OPcache row's file cache
# filled by a first run; interp_php stays empty without PHP or the
# extension (no PHP rows).
php_setup() {
	local php v
	php=$(ls /usr/bin/php[0-9]* 2>/dev/null | head -n 1)
	[[ -x "$php" && -f "$interp_us/php/omayexec.so" ]] || return 0
	"$interp_dir/page-app.sh" "$interp_dir" || return 1
	echo "M interp_php=$("$php" -n -r 'echo PHP_VERSION;') interp_php_code_files=$("$php" -n "$interp_dir/page.php" --count)"
	for v in stock omx; do
		mkdir -p "$interp_dir/opcache-$v" || return 1
	done
	interp_php=$php
	# OPcache caches no file changed in the last 2 s
	# (opcache.file_update_protection): the page was just written.
	sleep 3
	php_argv stock opcache && "$php" "${php_args[@]}" "$interp_dir/page.php" >/dev/null &&
		php_argv omx opcache && "$php" "${php_args[@]}" "$interp_dir/page.php" >/dev/null
}

# php_argv stock|omx [opcache]: PHP's arguments for a row, into php_args.
php_args=()
php_argv() {
	php_args=(-n)
	if [[ ${2:-} == opcache ]]; then
		php_args+=(-d zend_extension=opcache.so -d opcache.enable_cli=1
			-d "opcache.file_cache=$interp_dir/opcache-$1" -d opcache.file_cache_only=1)
	fi
	[[ $1 == omx ]] && php_args+=(-d "extension=$interp_us/php/omayexec.so")
	return 0
}

interp_allow_stdlib() {
	"$interp_us/omayexec-python3-allow-stdlib" --quiet &&
		"$interp_us/omayexec-perl-allow-stdlib" --quiet
}

# interp_run STATE LABEL COMMAND...: one workload, INTERP_REPS repetitions
# of INTERP_ITERS runs, no warm-up (the file system is in memory; the
# median leaves out a first run that would differ); when a run failed,
# the command once more, its output shown.
interp_run() {
	local state=$1 label=$2 out
	shift 2
	out=$(cd "$interp_dir" && "$omxbench" -s "$state" -n "$interp_iters" -w 0 \
		-r "$interp_reps" run "$label" "$@") || echo "# omxbench run $label failed in state $state"
	echo "$out"
	if grep -qv ' ok$' <<<"$out"; then
		echo "# $label failed in state $state: $(cd "$interp_dir" && "$@" 2>&1 </dev/null | tail -n 3 | tr '\n' ' ')"
	fi
}

# interp_each FUNCTION STATE [restrict]: FUNCTION STATE LABEL COMMAND...
# for each workload, stock then enlightened.
interp_each() {
	local f=$1 state=$2 w=() py=$interp_py pl=/usr/bin/perl
	local opy=$interp_us/omayexec-python3 opl=$interp_us/omayexec-perl
	[[ ${3:-} == restrict ]] && w=("$interp_us/omayexec" run --restrict-file --)
	set -- "$f" "$state"
	"$1" "$2" py_pass "${w[@]}" "$py" -c pass
	"$1" "$2" py_pass:omx "${w[@]}" "$opy" -c pass
	"$1" "$2" py_imports "${w[@]}" "$py" imports.py
	"$1" "$2" py_imports:omx "${w[@]}" "$opy" imports.py
	"$1" "$2" pl_pass "${w[@]}" "$pl" -e 1
	"$1" "$2" pl_pass:omx "${w[@]}" "$opl" -e 1
	"$1" "$2" pl_uses "${w[@]}" "$pl" imports.pl
	"$1" "$2" pl_uses:omx "${w[@]}" "$opl" imports.pl
	"$1" "$2" sh_script "${w[@]}" /bin/sh script.sh
	"$1" "$2" sh_script:omx "${w[@]}" "$interp_us/omxsh" script.omx
	[[ -n "$interp_php" ]] || return 0
	php_argv stock
	"$1" "$2" php_page "${w[@]}" "$interp_php" "${php_args[@]}" page.php
	php_argv omx
	"$1" "$2" php_page:omx "${w[@]}" "$interp_php" "${php_args[@]}" page.php
	php_argv stock opcache
	"$1" "$2" php_opcache "${w[@]}" "$interp_php" "${php_args[@]}" page.php
	php_argv omx opcache
	"$1" "$2" php_opcache:omx "${w[@]}" "$interp_php" "${php_args[@]}" page.php
}

interp_state() {
	echo "# interpreters, state $1 start uptime=$(cut -d' ' -f1 /proc/uptime)"
	interp_each interp_run "$@"
	echo "# interpreters, state $1 end uptime=$(cut -d' ' -f1 /proc/uptime)"
}
