// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * no_context.c - check-context.py must fail: a kernel-doc comment without
 * a Context: line.
 */

/**
 * quiet() - says nothing of its context.
 * @n: a number.
 *
 * Return: @n.
 */
int quiet(int n)
{
	return n;
}
