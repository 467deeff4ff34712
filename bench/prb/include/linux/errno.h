/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Stand-in for <linux/errno.h>: the real one (libc needs it) plus ../../prb_shim.h. */
#include_next <linux/errno.h>
#include "../../prb_shim.h"
