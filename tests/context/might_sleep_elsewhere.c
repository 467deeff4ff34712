// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * might_sleep_elsewhere.c - check-context.py must fail: kl_might_sleep()
 * in a function that is not documented "Context: process context".
 */

/* A helper is no place for it: its callers' contexts decide. */
static void helper(void)
{
	kl_might_sleep();
}

/**
 * slow() - may sleep.
 *
 * Context: process context.
 */
void slow(void)
{
	kl_might_sleep();
	helper();
}
