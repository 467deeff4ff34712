// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The libklog namespace object, compiled unchanged. */
#include "libklog/src/ns.c"
