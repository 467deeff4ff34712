// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The libklog 6.12 text formats, compiled unchanged. */
#include "libklog/src/format.c"
