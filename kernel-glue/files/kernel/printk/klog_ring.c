// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The libklog record ring, compiled unchanged. */
#include "libklog/src/ring.c"
