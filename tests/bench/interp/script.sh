# SPDX-License-Identifier: GPL-2.0
# tests/bench/interp/script.sh: script.omx's work in /bin/sh, for scale
# (the guest's /bin/sh), the included file read with ".".
name=bench
greeting="hello $name"
. ./lib.sh
echo "$greeting: $who"
. ./lib.sh
echo "$greeting again, $who"
exit 0
