// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * any_sleeps.c - check-context.py must fail: a function documented for
 * any context reaches kl_alloc() through a wait condition (named, not
 * called) and a helper.
 */

/* Not documented: its callers' contexts decide. */
static void *grow(u32 n)
{
	return kl_alloc(n);
}

static bool ready(void *arg)
{
	return grow(8) != NULL;
}

/**
 * quick() - documented for any context, but it may sleep.
 * @ns: a namespace.
 *
 * Context: any that may take a spinlock.
 */
void quick(struct klog_ns *ns)
{
	poll_until(ns, ready);
}
