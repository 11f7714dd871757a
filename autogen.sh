#!/bin/sh
# dcsim - discrete-event simulator of AI datacenters.  Copyright (C) 2026 the dcsim developers.
# SPDX-License-Identifier: GPL-3.0-or-later
# Generates configure and Makefile.in from configure.ac and Makefile.am.
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
autoreconf --install --force
