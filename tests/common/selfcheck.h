/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * selfcheck.h - the self-checking record text of the stress tests.
 *
 * DOC: self-checking records
 *
 * The threaded stress run of the library (tests/stress/stress.c) and the
 * in-guest helper (tests/guest/klogstress.c) write records whose text
 * proves, on its own, where it came from and that it arrived whole.  A
 * record is one or more fragments; each fragment is::
 *
 *	W<w> S<s> F<f>/<k> L<n> C<crc> <n filler bytes>|
 *
 * fragment @f of @k of message @s of writer @w, with @n filler bytes.
 * @crc is eight lowercase hex digits: FNV-1a over the five numbers (as
 * five 32-bit words in host order) and then the filler.  A reader parses
 * the fragments of a record with sc_parse() and so detects corruption,
 * truncation and records joined or split in the wrong place; the writer
 * and message numbers give it order, duplicates and loss.
 *
 * The code is plain C with no dependency on the library: klogstress is
 * built with "gcc -static" for the guest from tests/guest/klogstress.c
 * and tests/common/selfcheck.c alone.
 */
#ifndef KLOG_TEST_SELFCHECK_H
#define KLOG_TEST_SELFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Filler bytes in one fragment at most. */
#define SC_FILL_MAX 900
/* The header "W.. S.. F../.. L.. C........ " at most. */
#define SC_HDR_MAX 64
/* One fragment with its '|' and a terminating NUL. */
#define SC_FRAG_MAX (SC_HDR_MAX + SC_FILL_MAX + 2)

/* FNV-1a's offset basis: the hash of nothing. */
#define SC_FNV_INIT 2166136261u

/**
 * struct sc_frag - the numbers of one fragment.
 * @w: the writer
 * @s: the writer's message, from 0
 * @f: this fragment, 1 to @k
 * @k: the message's fragments
 */
struct sc_frag {
	uint32_t w, s, f, k;
};

/**
 * sc_fnv() - FNV-1a, 32 bits, continued from @h.
 * @h: SC_FNV_INIT, or the hash of what came before
 * @p: the bytes
 * @n: their count
 *
 * Return: the hash of what came before followed by @p.
 */
uint32_t sc_fnv(uint32_t h, const void *p, size_t n);

/**
 * sc_format() - one fragment as text.
 * @buf: SC_FRAG_MAX bytes
 * @fr: its numbers
 * @fill: @n filler bytes (they should not contain '|' or a newline)
 * @n: at most SC_FILL_MAX
 *
 * Return: the length of the text in @buf, which is NUL-terminated.
 */
size_t sc_format(char *buf, const struct sc_frag *fr, const char *fill,
		 uint32_t n);

/**
 * sc_parse() - parse and verify one fragment.
 * @p: where the fragment starts; on success, moved past its '|'
 * @end: the end of the text
 * @fr: the fragment's numbers, on success
 * @why: on failure, what was wrong (a constant string)
 *
 * The header must be well formed, 1 <= f <= k, the filler no longer than
 * SC_FILL_MAX and followed by '|', and the checksum must match.  What the
 * numbers may be beyond that is the caller's to check.
 *
 * Return: true for a good fragment.
 */
bool sc_parse(const char **p, const char *end, struct sc_frag *fr,
	      const char **why);

/**
 * sc_parse_u32() - a decimal number at *@p.
 * @p: moved past the digits on success
 * @end: the end of the text
 * @v: the number
 *
 * Return: true if there is at least one digit and the number fits.
 */
bool sc_parse_u32(const char **p, const char *end, uint32_t *v);

/**
 * sc_expect() - the character @c at *@p.
 * @p: moved past it on success
 * @end: the end of the text
 * @c: the character
 *
 * Return: true if *@p is @c.
 */
bool sc_expect(const char **p, const char *end, char c);

#endif /* KLOG_TEST_SELFCHECK_H */
