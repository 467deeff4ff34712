// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * process_without_might_sleep.c - check-context.py must fail: a function
 * documented "Context: process context" does not start with
 * kl_might_sleep().
 */

/**
 * slow() - may sleep, but does not say so first.
 * @n: bytes.
 *
 * Context: process context (allocates).
 * Return: the memory.
 */
void *slow(u32 n)
{
	void *p;

	p = kl_alloc(n);
	kl_might_sleep();
	return p;
}
