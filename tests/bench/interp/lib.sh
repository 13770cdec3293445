# SPDX-License-Identifier: GPL-2.0
# tests/bench/interp/lib.sh: included by script.sh.
who="the included file"
echo "included by $0"
