// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The libklog /dev/kmsg and /proc/kmsg, compiled unchanged. */
#include "libklog/src/kmsg.c"
