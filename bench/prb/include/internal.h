/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Stand-in for kernel/printk/internal.h: see ../prb_shim.h. */
#include "../prb_shim.h"
