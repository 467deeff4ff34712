// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * scenarios.c - what kbench measures.
 *
 * DOC: kbench scenarios
 *
 *   W1-size      one writer; 16/64/200/512/1024-byte and mixed 16-256
 *                records; 128 KiB and 1 MiB rings.
 *   W2-contend   two writers on one ring: aggregate rate, failed stores.
 *   W1R1-follow  a writer and a reader with its own cursor: the writer's
 *                slowdown, % of records delivered; with the writer paced
 *                at 1 M records/s, the reader's lag p50/p99.
 *   R-scan       a prefilled 1 MiB ring read by 1 and by 2 readers.
 *   NS-scale     N = 1/8/64/512 rings of 64 KiB written round-robin and
 *                hot-spot (90% to one); bytes of memory per ring.
 *   Cont+ts      a timestamp per record, 30% of the lines in 2-3
 *                continuation fragments.
 *
 * Each makes the rings of every backend it compares, fills them, and
 * hands its points to the harness (harness.c) step by step.
 */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbench.h"

/* The ring of each record in NS-scale (struct job's @ring_of). */
static uint16_t ring_of[NRING_OF];

/* ---- rings -------------------------------------------------------- */

static void **make_rings(const struct bk_ops *be, unsigned n, uint32_t size)
{
	void **rings = calloc(n, sizeof(void *));

	if (!rings)
		die("out of memory");
	for (unsigned i = 0; i < n; i++) {
		rings[i] = be->create(size);
		if (!rings[i])
			die("%s: cannot create a ring of %u bytes", be->name,
			    size);
	}
	return rings;
}

static void free_rings(const struct bk_ops *be, void **rings, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		be->destroy(rings[i]);
	free(rings);
}

/*
 * Fill every ring past one wrap so that runs measure the steady state.
 * Rings are filled in turn, then ring r gets a few more records
 * ((13 r mod 97) + 1): rings written round-robin with equal records would
 * otherwise all sit at the same offset and, allocated at a 64 KiB stride,
 * alias to the same cache sets, a pathology no real set of namespaces
 * keeps up.
 */
static void warm(struct job *j, uint32_t size)
{
	struct bk_msg m = { .caller = 999, .part = BK_WHOLE };
	uint64_t n, i = 0;

	if (cfg.smoke)
		return;
	n = (uint64_t)j->nrings * (2 * size / 48 + 64);
	for (; i < n; i++) {
		m.len = j->lens[i % NLENS];
		m.text = text + ((i * 61) & 1023);
		m.ts = i;
		j->be->write(j->rings[i % j->nrings], &m);
	}
	for (unsigned r = 1; r < j->nrings; r++) {
		for (unsigned k = 0; k <= (13 * r) % 97; k++, i++) {
			m.len = j->lens[i % NLENS];
			m.text = text + ((i * 61) & 1023);
			m.ts = i;
			j->be->write(j->rings[r], &m);
		}
	}
}

/* ---- the scenarios ------------------------------------------------ */

static const char *size_name(uint32_t size, char *buf, size_t n)
{
	if (size >= MiB)
		snprintf(buf, n, "%uM", size / MiB);
	else
		snprintf(buf, n, "%uK", size / KiB);
	return buf;
}

static void scen_w1(void)
{
	static const int sizes[] = { 16, 64, 200, 512, 1024, 0 };
	static const uint32_t rings[] = { 128 * KiB, 1 * MiB };
	static const enum role roles[] = { R_WRITE };
	static const struct bk_ops *const bes[] = {
		&bk_libklog, &bk_libklog_nolock, &bk_libklog_ns, &bk_prb,
		&bk_logbuf3, &bk_logbuf5, &bk_mutex, &bk_floor, &bk_null,
	};
#define NW1 (sizeof(bes) / sizeof(bes[0]))

	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (unsigned rs = 0; rs < 2; rs++) {
			struct point *ps[NW1];
			void **rg[NW1];
			char param[24], sz[8];
			unsigned np = 0;

			if (cfg.smoke && (rs || (sizes[s] && sizes[s] != 64)))
				continue;
			if (sizes[s])
				snprintf(param, sizeof(param), "%d/%s",
					 sizes[s],
					 size_name(rings[rs], sz, sizeof(sz)));
			else
				snprintf(param, sizeof(param), "mixed/%s",
					 size_name(rings[rs], sz, sizeof(sz)));
			if (sizes[s])
				set_fixed(sizes[s]);
			for (unsigned b = 0; b < NW1; b++) {
				struct job j = {
					.be = bes[b], .nrings = 1,
					.nthreads = 1, .dur_ns = cfg.dur_ns,
					.lens = sizes[s] ? lens_fixed
							 : lens_mixed,
				};

				if (!be_on(bes[b]))
					continue;
				j.rings = rg[np] = make_rings(bes[b], 1,
							      rings[rs]);
				warm(&j, rings[rs]);
				ps[np++] = point_new("W1-size", param, &j,
						     roles, eval_writers);
			}
			measure_all(ps, np);
			for (unsigned i = 0, b = 0; b < NW1; b++)
				if (be_on(bes[b]))
					free_rings(bes[b], rg[i++], 1);
		}
	}
}

/*
 * The six backends of every scenario, with their rings of @size (R-scan
 * adds one more).
 */
struct set {
	const struct bk_ops *be[NBACKENDS + 1];
	void **rings[NBACKENDS + 1];
	unsigned n, nrings;
	const uint16_t *ring_of;
};

static void set_make(struct set *st, unsigned nrings, uint32_t size,
		     const uint16_t *tg)
{
	memset(st, 0, sizeof(*st));
	st->nrings = nrings;
	st->ring_of = tg;
	for (unsigned b = 0; b < NBACKENDS; b++) {
		struct job j = {
			.be = all_backends[b], .nrings = nrings,
			.lens = lens_fixed, .ring_of = tg,
		};

		if (!be_on(all_backends[b]))
			continue;
		j.rings = make_rings(all_backends[b], nrings, size);
		warm(&j, size);
		st->be[st->n] = all_backends[b];
		st->rings[st->n++] = j.rings;
	}
}

static void set_free(struct set *st)
{
	for (unsigned i = 0; i < st->n; i++)
		free_rings(st->be[i], st->rings[i], st->nrings);
}

/* A job of @nthreads on the rings of backend @i of @st. */
static void set_job(struct job *j, const struct set *st, unsigned i,
		    unsigned nthreads)
{
	memset(j, 0, sizeof(*j));
	j->be = st->be[i];
	j->rings = st->rings[i];
	j->nrings = st->nrings;
	j->ring_of = st->ring_of;
	j->lens = lens_fixed;
	j->dur_ns = cfg.dur_ns;
	j->nthreads = nthreads;
}

/*
 * How the two-thread scenarios start: 64-byte records, one 128 KiB ring
 * of each backend.  False, and nothing made, with fewer than 2 CPUs.
 */
static bool set_make_pair(struct set *st, const char *scen)
{
	if (cfg.ncpu < 2) {
		fprintf(stderr, "%s skipped: needs 2 cores\n", scen);
		return false;
	}
	set_fixed(64);
	set_make(st, 1, 128 * KiB, NULL);
	return true;
}

static void scen_w2(void)
{
	static const enum role roles[] = { R_WRITE, R_WRITE };
	struct point *ps[NBACKENDS];
	struct set st;

	if (!set_make_pair(&st, "W2-contend"))
		return;
	for (unsigned i = 0; i < st.n; i++) {
		struct job j;

		set_job(&j, &st, i, 2);
		ps[i] = point_new("W2-contend", "64", &j, roles,
				  eval_writers);
	}
	measure_all(ps, st.n);
	/*
	 * "0 lost" is read back, not taken from write()'s return value.  The
	 * floor cannot be read back once it has wrapped (its ->full()).
	 */
	for (unsigned i = 0; i < st.n; i++) {
		struct result *r = result_find("W2-contend", "64", st.be[i]);
		uint64_t held, lost, fails;

		if (st.be[i]->full || !r)
			continue;
		verify_writers(st.be[i], 128 * KiB, 2, cfg.dur_ns, &held,
			       &lost, &fails);
		set_value(r, M_HELD, (double)held);
		set_value(r, M_LOST, (double)lost);
	}
	set_free(&st);
}

static void scen_w1r1(void)
{
	static const enum role alone[] = { R_WRITE };
	static const enum role follow[] = { R_WRITE, R_FOLLOW };
	static const enum role paced[] = { R_PACED, R_FOLLOW };
	struct point *ps[3 * NBACKENDS];
	struct set st;
	unsigned np = 0;

	if (!set_make_pair(&st, "W1R1-follow"))
		return;
	for (unsigned i = 0; i < st.n; i++) {
		struct job j;

		set_job(&j, &st, i, 1);
		ps[np++] = point_new("W1R1-follow", "64-alone", &j, alone,
				     eval_writers);
		j.nthreads = 2;
		ps[np++] = point_new("W1R1-follow", "64-free", &j, follow,
				     eval_follow);
		j.lag = true;
		ps[np++] = point_new("W1R1-follow", "64-paced1M", &j, paced,
				     eval_follow);
	}
	measure_all(ps, np);
	for (unsigned i = 0; i < st.n; i++) {
		struct result *ra = result_find("W1R1-follow", "64-alone",
						st.be[i]);
		struct result *rf = result_find("W1R1-follow", "64-free",
						st.be[i]);

		if (ra && rf && ra->has[M_NS] && rf->has[M_NS])
			set_value(rf, M_SLOW, rf->best[M_NS] / ra->best[M_NS]);
	}
	set_free(&st);
}

static void scen_rscan(void)
{
	static const enum role roles[] = { R_SCAN, R_SCAN };
	const uint32_t size = 1 * MiB;
	struct point *ps[2 * (NBACKENDS + 1)];
	unsigned np = 0;
	struct set st;

	set_fixed(64);
	/* Prefilled below, not warmed. */
	memset(&st, 0, sizeof(st));
	st.nrings = 1;
	/* Every scenario's backends, and spin-caller: libklog's record. */
	for (unsigned b = 0; b < NBACKENDS + 1; b++) {
		const struct bk_ops *be = b < NBACKENDS ? all_backends[b]
							: &bk_logbuf5;
		struct bk_msg m = { .caller = 999, .part = BK_WHOLE };
		void **rings;

		if (!be_on(be))
			continue;
		rings = make_rings(be, 1, size);
		/* Prefill: two wraps, or up to the end for the floor. */
		for (uint64_t i = 0; i < 2 * size / 64; i++) {
			m.len = 64;
			m.text = text + ((i * 61) & 1023);
			m.ts = i;
			if (be->full && be->full(rings[0], m.len))
				break;
			be->write(rings[0], &m);
		}
		st.be[st.n] = be;
		st.rings[st.n++] = rings;
	}
	for (unsigned i = 0; i < st.n; i++) {
		for (unsigned n = 1; n <= 2; n++) {
			struct job j;

			if (n > cfg.ncpu)
				continue;
			set_job(&j, &st, i, n);
			ps[np++] = point_new("R-scan", n == 1 ? "1r" : "2r",
					     &j, roles, eval_readers);
		}
	}
	if (cfg.ncpu < 2)
		fprintf(stderr, "R-scan 2r skipped: needs 2 cores\n");
	measure_all(ps, np);
	set_free(&st);
}

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static void scen_ns(void)
{
	static const unsigned ns[] = { 1, 8, 64, 512 };
	static const enum role roles[] = { R_WRITE };
	const uint32_t size = 64 * KiB;

	set_fixed(64);
	/* Memory per namespace: 64 rings of 64 KiB. */
	for (unsigned b = 0; b < NBACKENDS; b++) {
		const struct bk_ops *be = all_backends[b];
		struct result *r;
		size_t h0, h1;
		void **rings;

		if (!be_on(be))
			continue;
		h0 = heap_in_use();
		rings = make_rings(be, 64, size);
		h1 = heap_in_use();
		r = result_new("NS-scale", "mem-64K", be);
		set_value(r, M_MEM, (double)be->mem(rings[0]));
		set_value(r, M_OVER, (double)be->mem(rings[0]) - size);
		set_value(r, M_HEAP, (double)(h1 - h0) / 64);
		free_rings(be, rings, 64);
	}
	for (unsigned n = 0; n < sizeof(ns) / sizeof(ns[0]); n++) {
		for (unsigned hot = 0; hot < 2; hot++) {
			struct point *ps[NBACKENDS];
			struct set st;
			char param[24];

			if (ns[n] == 1 && hot)
				continue;
			if (cfg.smoke && ns[n] > 8)
				continue;
			if (ns[n] == 1)
				snprintf(param, sizeof(param), "1");
			else
				snprintf(param, sizeof(param), "%u-%s", ns[n],
					 hot ? "hot" : "rr");
			for (unsigned i = 0; i < NRING_OF; i++) {
				if (!hot)
					ring_of[i] = i % ns[n];
				else if (rng() % 10)
					ring_of[i] = 0;
				else
					ring_of[i] = 1 + rng() % (ns[n] - 1);
			}
			set_make(&st, ns[n], size, ring_of);
			for (unsigned i = 0; i < st.n; i++) {
				struct job j;

				set_job(&j, &st, i, 1);
				ps[i] = point_new("NS-scale", param, &j, roles,
						  eval_writers);
			}
			measure_all(ps, st.n);
			set_free(&st);
		}
	}
}

static void scen_cont(void)
{
	static const enum role roles[] = { R_CONT };
	static const struct bk_ops *const bes[] = {
		&bk_libklog_ns, &bk_libklog_printk, &bk_prb, &bk_logbuf3,
		&bk_mutex, &bk_floor,
	};
	struct point *ps[6];
	void **rg[6];
	unsigned np = 0;

	set_fixed(64);
	for (unsigned b = 0; b < 6; b++) {
		struct job j = {
			.be = bes[b], .nrings = 1, .nthreads = 1,
			.dur_ns = cfg.dur_ns, .lens = lens_fixed,
		};

		if (!be_on(bes[b]))
			continue;
		j.rings = rg[np] = make_rings(bes[b], 1, 128 * KiB);
		warm(&j, 128 * KiB);
		ps[np++] = point_new("Cont+ts", "64", &j, roles,
				     eval_writers);
	}
	measure_all(ps, np);
	for (unsigned i = 0, b = 0; b < 6; b++)
		if (be_on(bes[b]))
			free_rings(bes[b], rg[i++], 1);
}

const struct scenario scenarios[] = {
	{ "W1-size", scen_w1 },
	{ "W2-contend", scen_w2 },
	{ "W1R1-follow", scen_w1r1 },
	{ "R-scan", scen_rscan },
	{ "NS-scale", scen_ns },
	{ "Cont+ts", scen_cont },
};
