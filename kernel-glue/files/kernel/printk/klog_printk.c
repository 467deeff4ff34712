// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The libklog store path, compiled unchanged. */
#include "libklog/src/printk.c"
