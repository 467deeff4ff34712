// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The kernel half of the libklog platform seam, compiled unchanged. */
#include "libklog/src/platform/kernel.c"
