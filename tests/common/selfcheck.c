// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * selfcheck.c - the self-checking record text of the stress tests.
 *
 * The format is described in selfcheck.h.
 */
#include <stdio.h>
#include <string.h>

#include "selfcheck.h"

uint32_t sc_fnv(uint32_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

static uint32_t sc_crc(const struct sc_frag *fr, const char *fill,
		       uint32_t n)
{
	uint32_t v[5] = { fr->w, fr->s, fr->f, fr->k, n };

	return sc_fnv(sc_fnv(SC_FNV_INIT, v, sizeof(v)), fill, n);
}

size_t sc_format(char *buf, const struct sc_frag *fr, const char *fill,
		 uint32_t n)
{
	int len;

	len = snprintf(buf, SC_HDR_MAX, "W%u S%u F%u/%u L%u C%08x ", fr->w,
		       fr->s, fr->f, fr->k, n, sc_crc(fr, fill, n));
	memcpy(buf + len, fill, n);
	len += n;
	buf[len++] = '|';
	buf[len] = '\0';
	return len;
}

bool sc_parse_u32(const char **p, const char *end, uint32_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9') {
		x = x * 10 + (uint64_t)(*s++ - '0');
		if (x > 0xffffffffu)
			return false;
	}
	*v = (uint32_t)x;
	*p = s;
	return true;
}

bool sc_expect(const char **p, const char *end, char c)
{
	if (*p >= end || **p != c)
		return false;
	(*p)++;
	return true;
}

/* Eight lowercase hex digits at *@p. */
static bool sc_parse_hex8(const char **p, const char *end, uint32_t *v)
{
	const char *q = *p;
	uint32_t x = 0;
	int i, d;

	for (i = 0; i < 8; i++, q++) {
		if (q >= end)
			return false;
		if (*q >= '0' && *q <= '9')
			d = *q - '0';
		else if (*q >= 'a' && *q <= 'f')
			d = *q - 'a' + 10;
		else
			return false;
		x = x << 4 | (uint32_t)d;
	}
	*v = x;
	*p = q;
	return true;
}

bool sc_parse(const char **p, const char *end, struct sc_frag *fr,
	      const char **why)
{
	const char *q = *p;
	uint32_t n, crc;

	if (!sc_expect(&q, end, 'W') || !sc_parse_u32(&q, end, &fr->w) ||
	    !sc_expect(&q, end, ' ') || !sc_expect(&q, end, 'S') ||
	    !sc_parse_u32(&q, end, &fr->s) || !sc_expect(&q, end, ' ') ||
	    !sc_expect(&q, end, 'F') || !sc_parse_u32(&q, end, &fr->f) ||
	    !sc_expect(&q, end, '/') || !sc_parse_u32(&q, end, &fr->k) ||
	    !sc_expect(&q, end, ' ') || !sc_expect(&q, end, 'L') ||
	    !sc_parse_u32(&q, end, &n) || !sc_expect(&q, end, ' ') ||
	    !sc_expect(&q, end, 'C')) {
		*why = "bad fragment header";
		return false;
	}
	if (!sc_parse_hex8(&q, end, &crc)) {
		*why = "bad checksum";
		return false;
	}
	if (!sc_expect(&q, end, ' ')) {
		*why = "bad fragment header";
		return false;
	}
	if (n > SC_FILL_MAX || (size_t)(end - q) < (size_t)n + 1 ||
	    q[n] != '|') {
		*why = "fragment length";
		return false;
	}
	if (fr->f < 1 || fr->f > fr->k) {
		*why = "fragment number out of range";
		return false;
	}
	if (sc_crc(fr, q, n) != crc) {
		*why = "checksum mismatch";
		return false;
	}
	*p = q + n + 1;
	return true;
}
