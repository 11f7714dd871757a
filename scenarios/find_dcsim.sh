# Sourced by the shipped scripts: sets $here (the script's folder) and finds the dcsim program.
# Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING).
#
# $DCSIM if set; else the build tree's dcsim (scenarios/SET/SCRIPT.sh two
# folders below it, after make); else dcsim on the PATH (installed); else
# the script stops with status 2 and says how to point it at one.
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${DCSIM:-}" ]; then
    if [ -x "$here/../../dcsim" ]; then
        DCSIM="$here/../../dcsim"
    elif command -v dcsim >/dev/null 2>&1; then
        DCSIM=dcsim
    else
        echo "$0: dcsim not found: build it (make) or set DCSIM=/path/to/dcsim" >&2
        exit 2
    fi
fi
