/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Stand-in for the kernel header of this name: see ../../prb_shim.h. */
#include "../../prb_shim.h"
