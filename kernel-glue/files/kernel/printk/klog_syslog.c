// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The libklog syslog(2) actions, compiled unchanged. */
#include "libklog/src/syslog.c"
