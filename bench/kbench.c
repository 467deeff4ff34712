// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kbench.c - libklog's ring against the upstream printk ringbuffer and the
 * classic rings, with the machine's floor, in one run.
 *
 * DOC: kbench
 *
 * Every scenario runs every backend (bench.h) in the same process, one
 * after the other, with threads pinned one per core and never more
 * threads than cores.  A run lasts --time-ms; each point is measured until
 * it has --runs accepted runs (at most twice as many attempts), and
 * reported as the best and the median of the accepted ones.  A run is
 * rejected when any of its threads got less than 95% of its wall time on
 * a CPU (it was preempted, or slept in a lock): rejected runs are counted
 * and shown, and a point with no accepted run is marked with '*'.
 *
 * Scenarios (docs/performance.md, "Scenarios"):
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
 * Output: a table on stdout, a CSV (scenario,param,backend,metric,value),
 * optionally a markdown fragment (--md) and PNG plots (--plot-dir, with
 * gnuplot).  --smoke runs everything with tiny counts and checks nothing
 * but that it runs: no timing is ever asserted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "klog/klog.h"
#include "internal.h"

#include "bench.h"

#define MAX_THREADS 2
#define KiB 1024u
#define MiB (1024u * 1024u)
#define CPU_OK 0.95

static const struct bk_ops *const all_backends[] = {
	&bk_libklog, &bk_libklog_ns, &bk_prb, &bk_spin, &bk_mutex, &bk_floor,
	&bk_libklog_nolock, &bk_libklog_printk, &bk_null,
};
#define NALL (sizeof(all_backends) / sizeof(all_backends[0]))
#define NBACKENDS 6	/* the first six run in every scenario */

/* ------------------------------------------------------------------ */
/* settings                                                            */

static struct {
	bool smoke;
	unsigned runs;
	uint64_t dur_ns;
	unsigned ncpu;
	int cpus[MAX_THREADS];
	const char *csv;
	const char *md;
	const char *plots;
	const char *note;
	const char *only;
	double load_start;
	uint64_t t_start;
	unsigned attempts, rejected;
	bool be_on[NALL];
} cfg = {
	.runs = 5,
	.dur_ns = 60 * 1000000ull,
	.csv = "results.csv",
};

static bool scen_on(const char *name)
{
	const char *p = cfg.only;
	size_t n = strlen(name);

	if (!p)
		return true;
	while (*p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	return false;
}

static bool be_on(const struct bk_ops *be)
{
	for (unsigned i = 0; i < NALL; i++)
		if (all_backends[i] == be)
			return cfg.be_on[i];
	return true;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "kbench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/* ------------------------------------------------------------------ */
/* results                                                             */

enum metric {
	M_NS,		/* ns per record (per line in Cont+ts) */
	M_RATE,		/* records per second, aggregate */
	M_FAILS,	/* failed stores, summed over accepted runs */
	M_FAILPCT,	/* % of the stores attempted in a run */
	M_DELIV,	/* % of the written records the reader got */
	M_SLOW,		/* writer's ns/rec with a reader over without */
	M_LAG50,	/* reader's lag, ns */
	M_LAG99,
	M_MEM,		/* bytes of one ring with all its metadata */
	M_OVER,		/* M_MEM minus the text ring */
	M_HEAP,		/* heap bytes per ring measured with mallinfo2 */
	NMETRICS
};

enum mkind { LOWER, HIGHER, SUM, VALUE };

static const struct {
	const char *name;
	enum mkind kind;
	const char *unit;
} mdef[NMETRICS] = {
	[M_NS] = { "ns_per_rec", LOWER, "ns/record" },
	[M_RATE] = { "rec_per_s", HIGHER, "records/s" },
	[M_FAILS] = { "fails", SUM, "failed stores" },
	[M_FAILPCT] = { "fail_pct", LOWER, "% failed" },
	[M_DELIV] = { "delivered_pct", HIGHER, "% delivered" },
	[M_SLOW] = { "slowdown", VALUE, "x" },
	[M_LAG50] = { "lag_p50_ns", LOWER, "ns" },
	[M_LAG99] = { "lag_p99_ns", LOWER, "ns" },
	[M_MEM] = { "mem_bytes", VALUE, "bytes" },
	[M_OVER] = { "overhead_bytes", VALUE, "bytes" },
	[M_HEAP] = { "heap_bytes", VALUE, "bytes" },
};

struct result {
	char scen[16];
	char param[24];
	const struct bk_ops *be;
	bool has[NMETRICS];
	double best[NMETRICS];
	double med[NMETRICS];
	unsigned ok, rejected;
	double cpu_min;
};

static struct result *results;
static size_t nresults, capresults;

static struct result *result_new(const char *scen, const char *param,
				 const struct bk_ops *be)
{
	struct result *r;

	if (nresults == capresults) {
		capresults = capresults ? 2 * capresults : 256;
		results = realloc(results, capresults * sizeof(*results));
		if (!results)
			die("out of memory");
	}
	r = &results[nresults++];
	memset(r, 0, sizeof(*r));
	snprintf(r->scen, sizeof(r->scen), "%s", scen);
	snprintf(r->param, sizeof(r->param), "%s", param);
	r->be = be;
	r->cpu_min = 1;
	return r;
}

static struct result *result_find(const char *scen, const char *param,
				  const struct bk_ops *be)
{
	for (size_t i = 0; i < nresults; i++)
		if (!strcmp(results[i].scen, scen) &&
		    !strcmp(results[i].param, param) && results[i].be == be)
			return &results[i];
	return NULL;
}

static double get(const char *scen, const char *param,
		  const struct bk_ops *be, enum metric m)
{
	struct result *r = result_find(scen, param, be);

	return r && r->has[m] ? r->best[m] : NAN;
}

static void set_value(struct result *r, enum metric m, double v)
{
	r->has[m] = true;
	r->best[m] = r->med[m] = v;
}

/* ------------------------------------------------------------------ */
/* the text of the records                                             */

static char text[4096];
#define NLENS 4096
static uint16_t lens_fixed[NLENS];
static uint16_t lens_mixed[NLENS];
#define NTARGETS 65536
static uint16_t targets[NTARGETS];

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static void init_text(void)
{
	static const char alpha[] =
		"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"0123456789 .:=-_[]()";

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = alpha[rng() % (sizeof(alpha) - 1)];
	for (unsigned i = 0; i < NLENS; i++)
		lens_mixed[i] = 16 + rng() % (256 - 16 + 1);
}

static void set_fixed(uint16_t len)
{
	for (unsigned i = 0; i < NLENS; i++)
		lens_fixed[i] = len;
}

/* ------------------------------------------------------------------ */
/* threads                                                             */

enum role { R_WRITE, R_PACED, R_FOLLOW, R_SCAN, R_CONT };

struct job;

struct worker {
	pthread_t tid;
	struct job *job;
	unsigned index;
	int cpu;
	enum role role;
	uint64_t ops, fails;
	uint64_t wall_ns, cpu_ns;
	uint64_t *lag;
	size_t nlag, caplag;
	struct bk_cursor cur;
	_Alignas(64) char scratch[BK_SCRATCH];
};

struct job {
	const struct bk_ops *be;
	void **rings;
	unsigned nrings;
	const uint16_t *targets;	/* ring of each record, or NULL */
	const uint16_t *lens;
	uint64_t dur_ns;
	unsigned nthreads;
	bool lag;			/* the reader samples its lag */
	_Atomic int stop;
	pthread_barrier_t barrier;
	struct worker *w[MAX_THREADS];
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		die("cannot pin a thread to CPU %d", cpu);
}

static inline bool time_up(struct job *j, struct worker *w, uint64_t t0)
{
	if (w->index == 0) {
		if (bk_now() - t0 < j->dur_ns)
			return false;
		atomic_store_explicit(&j->stop, 1, memory_order_relaxed);
		return true;
	}
	return atomic_load_explicit(&j->stop, memory_order_relaxed);
}

#define BATCH 128

static void loop_write(struct job *j, struct worker *w, uint64_t t0)
{
	const struct bk_ops *be = j->be;
	struct bk_msg m = { .caller = 1000 + w->index, .part = BK_WHOLE };
	uint64_t i = w->index * 7919ull, ops = 0, fails = 0;

	for (;;) {
		for (unsigned k = 0; k < BATCH; k++, i++) {
			void *ring = j->rings[j->targets ?
					      j->targets[i % NTARGETS] : 0];

			m.len = j->lens[i % NLENS];
			m.text = text + ((i * 61) & 1023);
			m.ts = i;
			fails += be->write(ring, &m) != 0;
		}
		ops += BATCH;
		if (time_up(j, w, t0))
			break;
	}
	w->ops = ops;
	w->fails = fails;
}

/* One record per microsecond, timestamped by the backend. */
static void loop_paced(struct job *j, struct worker *w, uint64_t t0)
{
	const struct bk_ops *be = j->be;
	struct bk_msg m = { .caller = 1000, .part = BK_WHOLE, .ts = BK_TS_NOW };
	uint64_t i = 0, fails = 0, next = t0, now;

	for (;;) {
		while ((now = bk_now()) < next)
			bk_relax();
		m.len = j->lens[i % NLENS];
		m.text = text + ((i * 61) & 1023);
		fails += be->write(j->rings[0], &m) != 0;
		i++;
		next += 1000;
		if (now - t0 >= j->dur_ns)
			break;
	}
	atomic_store_explicit(&j->stop, 1, memory_order_relaxed);
	w->ops = i;
	w->fails = fails;
}

static void loop_follow(struct job *j, struct worker *w, uint64_t t0)
{
	const struct bk_ops *be = j->be;
	struct bk_rec r;
	uint64_t n = 0;

	(void)t0;
	for (;;) {
		if (be->read(j->rings[0], &w->cur, &r)) {
			n++;
			if (j->lag && w->nlag < w->caplag)
				w->lag[w->nlag++] = bk_now() - r.ts;
			continue;
		}
		if (atomic_load_explicit(&j->stop, memory_order_acquire)) {
			/* The writer is done: take what is left, then stop. */
			while (be->read(j->rings[0], &w->cur, &r))
				n++;
			break;
		}
		bk_relax();
	}
	w->ops = n;
}

static void loop_scan(struct job *j, struct worker *w, uint64_t t0)
{
	const struct bk_ops *be = j->be;
	struct bk_rec r;
	uint64_t n = 0;
	unsigned k;

	for (;;) {
		be->cursor_first(j->rings[0], &w->cur);
		for (k = 1; be->read(j->rings[0], &w->cur, &r); k++) {
			n++;
			if (!(k % 256) && time_up(j, w, t0))
				goto out;
		}
		if (time_up(j, w, t0))
			break;
	}
out:
	w->ops = n;
}

/*
 * Lines of the Cont+ts scenario: of every 10, 7 are whole, 2 come in two
 * fragments and 1 in three (30%).
 */
static const uint8_t cont_pieces[10] = { 1, 1, 2, 1, 1, 3, 1, 1, 2, 1 };

static void loop_cont(struct job *j, struct worker *w, uint64_t t0)
{
	const struct bk_ops *be = j->be;
	struct bk_msg m = { .caller = 1000 + w->index, .ts = BK_TS_NOW };
	uint64_t i = 0, fails = 0;

	for (;;) {
		for (unsigned k = 0; k < BATCH; k++, i++) {
			unsigned pieces = cont_pieces[i % 10];
			uint32_t len = j->lens[i % NLENS], off = 0;
			const char *t = text + ((i * 61) & 1023);

			for (unsigned p = 0; p < pieces; p++) {
				uint32_t n = p + 1 < pieces ? len / pieces
							    : len - off;

				m.text = t + off;
				m.len = n;
				m.part = pieces == 1 ? BK_WHOLE :
					 p == 0 ? BK_FIRST :
					 p + 1 < pieces ? BK_MID : BK_LAST;
				fails += be->write_part(j->rings[0], &m) != 0;
				off += n;
			}
		}
		if (time_up(j, w, t0))
			break;
	}
	w->ops = i;
	w->fails = fails;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct job *j = w->job;
	uint64_t t0, c0;
	struct bk_rec r;

	pin(w->cpu);
	w->cur.scratch = w->scratch;
	if (w->role == R_FOLLOW) {
		/* Start at the end of what is already there. */
		j->be->cursor_first(j->rings[0], &w->cur);
		while (j->be->read(j->rings[0], &w->cur, &r))
			;
	}
	pthread_barrier_wait(&j->barrier);
	t0 = bk_now();
	c0 = thread_cpu_ns();
	switch (w->role) {
	case R_WRITE:
		loop_write(j, w, t0);
		break;
	case R_PACED:
		loop_paced(j, w, t0);
		break;
	case R_FOLLOW:
		loop_follow(j, w, t0);
		break;
	case R_SCAN:
		loop_scan(j, w, t0);
		break;
	case R_CONT:
		loop_cont(j, w, t0);
		break;
	}
	w->cpu_ns = thread_cpu_ns() - c0;
	w->wall_ns = bk_now() - t0;
	return NULL;
}

/* One run: start the workers, wait for them.  Return the lowest CPU share. */
static double run_once(struct job *j, struct worker *ws, const enum role *roles)
{
	double cpu = 1;

	atomic_store(&j->stop, 0);
	pthread_barrier_init(&j->barrier, NULL, j->nthreads);
	for (unsigned t = 0; t < j->nthreads; t++) {
		struct worker *w = &ws[t];

		w->job = j;
		w->index = t;
		w->cpu = cfg.cpus[t];
		w->role = roles[t];
		w->ops = w->fails = 0;
		w->nlag = 0;
		j->w[t] = w;
		if (pthread_create(&w->tid, NULL, worker_main, w))
			die("pthread_create failed");
	}
	for (unsigned t = 0; t < j->nthreads; t++) {
		struct worker *w = &ws[t];
		double share;

		pthread_join(w->tid, NULL);
		share = w->wall_ns ? (double)w->cpu_ns / (double)w->wall_ns : 0;
		if (share < cpu)
			cpu = share;
	}
	pthread_barrier_destroy(&j->barrier);
	return cpu;
}

/* ------------------------------------------------------------------ */
/* measuring a point: best and median of the accepted runs             */

struct runv {
	bool has[NMETRICS];
	double v[NMETRICS];
	double cpu;
	bool ok;
};

typedef void (*eval_fn)(struct job *j, struct worker *ws, struct runv *rv);

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void aggregate(struct result *res, struct runv *rv, unsigned n)
{
	double vals[64];

	for (unsigned m = 0; m < NMETRICS; m++) {
		unsigned k = 0;
		double sum = 0;

		for (unsigned i = 0; i < n && k < 64; i++) {
			if (!rv[i].has[m])
				continue;
			/* Use accepted runs only, unless there are none. */
			if (res->ok && !rv[i].ok)
				continue;
			vals[k++] = rv[i].v[m];
			sum += rv[i].v[m];
		}
		if (!k)
			continue;
		qsort(vals, k, sizeof(double), cmp_double);
		res->has[m] = true;
		res->med[m] = k % 2 ? vals[k / 2]
				    : (vals[k / 2 - 1] + vals[k / 2]) / 2;
		switch (mdef[m].kind) {
		case LOWER:
			res->best[m] = vals[0];
			break;
		case HIGHER:
			res->best[m] = vals[k - 1];
			break;
		case SUM:
			res->best[m] = res->med[m] = sum;
			break;
		case VALUE:
			res->best[m] = res->med[m] = vals[0];
			break;
		}
	}
}

/*
 * A point is one (scenario, param, backend).  The points of a scenario
 * step are measured interleaved, one run of each in turn, so that a busy
 * moment of the shared machine hits every backend alike.
 */
struct point {
	struct result *res;
	struct job j;
	const enum role *roles;
	eval_fn eval;
	struct runv rv[64];
	unsigned n;
	struct worker *ws;
};

static struct point *point_new(const char *scen, const char *param,
			       const struct job *j, const enum role *roles,
			       eval_fn eval)
{
	struct point *p = calloc(1, sizeof(*p));

	if (!p)
		die("out of memory");
	p->res = result_new(scen, param, j->be);
	p->j = *j;
	p->roles = roles;
	p->eval = eval;
	p->ws = aligned_alloc(64, sizeof(*p->ws) * MAX_THREADS);
	if (!p->ws)
		die("out of memory");
	memset(p->ws, 0, sizeof(*p->ws) * MAX_THREADS);
	for (unsigned t = 0; t < j->nthreads; t++) {
		if (roles[t] != R_FOLLOW)
			continue;
		p->ws[t].caplag = j->dur_ns / 1000 + 4096;
		p->ws[t].lag = malloc(p->ws[t].caplag * sizeof(uint64_t));
		if (!p->ws[t].lag)
			die("out of memory");
	}
	return p;
}

static bool point_done(const struct point *p)
{
	unsigned max_attempts = cfg.runs * 2;

	if (max_attempts > 64)
		max_attempts = 64;
	return p->res->ok >= cfg.runs || p->n >= max_attempts;
}

static void point_once(struct point *p)
{
	struct result *res = p->res;
	struct runv *v = &p->rv[p->n++];

	memset(v, 0, sizeof(*v));
	v->cpu = run_once(&p->j, p->ws, p->roles);
	v->ok = v->cpu >= CPU_OK;
	p->eval(&p->j, p->ws, v);
	cfg.attempts++;
	if (v->ok) {
		res->ok++;
		if (v->cpu < res->cpu_min)
			res->cpu_min = v->cpu;
	} else {
		res->rejected++;
		cfg.rejected++;
	}
}

static void point_finish(struct point *p)
{
	struct result *res = p->res;

	if (!res->ok) {
		for (unsigned i = 0; i < p->n; i++)
			if (p->rv[i].cpu < res->cpu_min)
				res->cpu_min = p->rv[i].cpu;
	}
	aggregate(res, p->rv, p->n);
	for (unsigned t = 0; t < MAX_THREADS; t++)
		free(p->ws[t].lag);
	free(p->ws);
	free(p);
}

static void progress(const struct result *r);

/* Measure points round-robin until each has its runs; free them. */
static void measure_all(struct point **ps, unsigned n)
{
	bool more = true;

	while (more) {
		more = false;
		for (unsigned i = 0; i < n; i++) {
			if (point_done(ps[i]))
				continue;
			point_once(ps[i]);
			more = true;
		}
		if (n)
			progress(ps[0]->res);
	}
	for (unsigned i = 0; i < n; i++)
		point_finish(ps[i]);
}

static void put(struct runv *v, enum metric m, double x)
{
	v->has[m] = true;
	v->v[m] = x;
}

/* Writers: aggregate ns per record over all writers. */
static void eval_writers(struct job *j, struct worker *ws, struct runv *v)
{
	uint64_t ops = 0, fails = 0, wall = 0;

	for (unsigned t = 0; t < j->nthreads; t++) {
		ops += ws[t].ops;
		fails += ws[t].fails;
		if (ws[t].wall_ns > wall)
			wall = ws[t].wall_ns;
	}
	if (!ops)
		return;
	put(v, M_NS, (double)wall / (double)ops);
	put(v, M_RATE, (double)ops * 1e9 / (double)wall);
	put(v, M_FAILS, (double)fails);
	put(v, M_FAILPCT, 100.0 * (double)fails / (double)ops);
}

/* Writer 0 and reader 1. */
static void eval_follow(struct job *j, struct worker *ws, struct runv *v)
{
	struct worker *wr = &ws[0], *rd = &ws[1];

	if (!wr->ops)
		return;
	if (wr->role == R_WRITE)
		put(v, M_NS, (double)wr->wall_ns / (double)wr->ops);
	put(v, M_FAILS, (double)wr->fails);
	put(v, M_DELIV, 100.0 * (double)rd->ops / (double)wr->ops);
	if (j->lag && rd->nlag) {
		qsort(rd->lag, rd->nlag, sizeof(uint64_t), cmp_u64);
		put(v, M_LAG50, (double)rd->lag[rd->nlag / 2]);
		put(v, M_LAG99, (double)rd->lag[rd->nlag * 99 / 100]);
	}
}

/* Readers: ns per record per reader (mean), aggregate rate. */
static void eval_readers(struct job *j, struct worker *ws, struct runv *v)
{
	double ns = 0, rate = 0;

	for (unsigned t = 0; t < j->nthreads; t++) {
		if (!ws[t].ops)
			return;
		ns += (double)ws[t].wall_ns / (double)ws[t].ops;
		rate += (double)ws[t].ops * 1e9 / (double)ws[t].wall_ns;
	}
	put(v, M_NS, ns / j->nthreads);
	put(v, M_RATE, rate);
}

/* ------------------------------------------------------------------ */
/* scenarios                                                           */

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

static void progress(const struct result *r)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K%s %s: %u of %u runs rejected so far",
		r->scen, r->param, cfg.rejected, cfg.attempts);
}

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
		&bk_spin, &bk_mutex, &bk_floor, &bk_null,
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

/* The six backends of every scenario, with their rings of @size. */
struct set {
	const struct bk_ops *be[NBACKENDS];
	void **rings[NBACKENDS];
	unsigned n, nrings;
};

static void set_make(struct set *st, unsigned nrings, uint32_t size,
		     const uint16_t *tg)
{
	memset(st, 0, sizeof(*st));
	st->nrings = nrings;
	for (unsigned b = 0; b < NBACKENDS; b++) {
		struct job j = {
			.be = all_backends[b], .nrings = nrings,
			.lens = lens_fixed, .targets = tg,
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

static void scen_w2(void)
{
	static const enum role roles[] = { R_WRITE, R_WRITE };
	struct point *ps[NBACKENDS];
	struct set st;

	if (cfg.ncpu < 2) {
		fprintf(stderr, "W2-contend skipped: needs 2 cores\n");
		return;
	}
	set_fixed(64);
	set_make(&st, 1, 128 * KiB, NULL);
	for (unsigned i = 0; i < st.n; i++) {
		struct job j = {
			.be = st.be[i], .rings = st.rings[i], .nrings = 1,
			.nthreads = 2, .dur_ns = cfg.dur_ns,
			.lens = lens_fixed,
		};

		ps[i] = point_new("W2-contend", "64", &j, roles,
				  eval_writers);
	}
	measure_all(ps, st.n);
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

	if (cfg.ncpu < 2) {
		fprintf(stderr, "W1R1-follow skipped: needs 2 cores\n");
		return;
	}
	set_fixed(64);
	set_make(&st, 1, 128 * KiB, NULL);
	for (unsigned i = 0; i < st.n; i++) {
		struct job j = {
			.be = st.be[i], .rings = st.rings[i], .nrings = 1,
			.nthreads = 1, .dur_ns = cfg.dur_ns,
			.lens = lens_fixed,
		};

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
	struct point *ps[2 * NBACKENDS];
	unsigned np = 0;
	struct set st;

	set_fixed(64);
	/* Prefilled below, not warmed. */
	memset(&st, 0, sizeof(st));
	st.nrings = 1;
	for (unsigned b = 0; b < NBACKENDS; b++) {
		const struct bk_ops *be = all_backends[b];
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
			struct job j = {
				.be = st.be[i], .rings = st.rings[i],
				.nrings = 1, .nthreads = n,
				.dur_ns = cfg.dur_ns, .lens = lens_fixed,
			};

			if (n > cfg.ncpu)
				continue;
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
			for (unsigned i = 0; i < NTARGETS; i++) {
				if (!hot)
					targets[i] = i % ns[n];
				else if (rng() % 10)
					targets[i] = 0;
				else
					targets[i] = 1 + rng() % (ns[n] - 1);
			}
			set_make(&st, ns[n], size, targets);
			for (unsigned i = 0; i < st.n; i++) {
				struct job j = {
					.be = st.be[i], .rings = st.rings[i],
					.nrings = ns[n], .nthreads = 1,
					.dur_ns = cfg.dur_ns,
					.lens = lens_fixed,
					.targets = targets,
				};

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
		&bk_libklog_ns, &bk_libklog_printk, &bk_prb, &bk_spin,
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
/* ------------------------------------------------------------------ */
/* output                                                              */

static const char *const scen_names[] = {
	"W1-size", "W2-contend", "W1R1-follow", "R-scan", "NS-scale", "Cont+ts",
};
#define NSCEN (sizeof(scen_names) / sizeof(scen_names[0]))

static const struct bk_ops *const out_backends[] = {
	&bk_libklog, &bk_libklog_nolock, &bk_libklog_ns, &bk_libklog_printk,
	&bk_prb, &bk_spin, &bk_mutex, &bk_floor, &bk_null,
};
#define NOUT (sizeof(out_backends) / sizeof(out_backends[0]))

/* Params of a scenario that have metric @m, in order of appearance. */
static unsigned params_of(const char *scen, enum metric m, const char **out,
			  unsigned max)
{
	unsigned n = 0;

	for (size_t i = 0; i < nresults; i++) {
		unsigned k;

		if (strcmp(results[i].scen, scen) || !results[i].has[m])
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(out[k], results[i].param))
				break;
		if (k == n && n < max)
			out[n++] = results[i].param;
	}
	return n;
}

static bool backend_has(const char *scen, enum metric m,
			const struct bk_ops *be)
{
	for (size_t i = 0; i < nresults; i++)
		if (!strcmp(results[i].scen, scen) && results[i].be == be &&
		    results[i].has[m])
			return true;
	return false;
}

static void fmt_num(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (v != 0 && fabs(v) < 0.1)
		snprintf(buf, n, "%.2g", v);
	else if (fabs(v) >= 1e6)
		snprintf(buf, n, "%.3g", v);
	else if (fabs(v) >= 100)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.1f", v);
}

static void fmt_cell(char *buf, size_t n, const struct result *r,
		     enum metric m)
{
	char a[24], b[24];

	if (!r || !r->has[m]) {
		snprintf(buf, n, "-");
		return;
	}
	fmt_num(a, sizeof(a), r->best[m]);
	if (mdef[m].kind == LOWER || mdef[m].kind == HIGHER) {
		fmt_num(b, sizeof(b), r->med[m]);
		snprintf(buf, n, "%s (%s)%s", a, b, r->ok ? "" : "*");
	} else {
		snprintf(buf, n, "%s%s", a, r->ok || !r->rejected ? "" : "*");
	}
}

/* Whether a table of @m says something for @scen. */
static bool worth(const char *scen, enum metric m)
{
	switch (m) {
	case M_RATE:
		return !strcmp(scen, "W2-contend") || !strcmp(scen, "R-scan");
	case M_FAILPCT:
		return !strcmp(scen, "W2-contend");
	case M_FAILS:
		if (!strcmp(scen, "W2-contend"))
			return true;
		for (size_t i = 0; i < nresults; i++)
			if (!strcmp(results[i].scen, scen) &&
			    results[i].has[M_FAILS] && results[i].best[M_FAILS])
				return true;
		return false;
	default:
		return true;
	}
}

static void table(FILE *f, bool md, const char *scen, enum metric m)
{
	const char *params[64];
	unsigned np = params_of(scen, m, params, 64);
	char cell[64];

	if (!np || !worth(scen, m))
		return;
	if (md) {
		fprintf(f, "\n**%s**, %s%s\n\n| param |", scen, mdef[m].name,
			mdef[m].kind == LOWER || mdef[m].kind == HIGHER ?
			", best (median)" : "");
		for (unsigned b = 0; b < NOUT; b++)
			if (backend_has(scen, m, out_backends[b]))
				fprintf(f, " %s |", out_backends[b]->name);
		fprintf(f, "\n|---|");
		for (unsigned b = 0; b < NOUT; b++)
			if (backend_has(scen, m, out_backends[b]))
				fprintf(f, "---:|");
		fprintf(f, "\n");
	} else {
		fprintf(f, "\n%s: %s%s\n%-12s", scen, mdef[m].name,
			mdef[m].kind == LOWER || mdef[m].kind == HIGHER ?
			", best (median) of the accepted runs" : "", "param");
		for (unsigned b = 0; b < NOUT; b++)
			if (backend_has(scen, m, out_backends[b]))
				fprintf(f, " %15s", out_backends[b]->name);
		fprintf(f, "\n");
	}
	for (unsigned p = 0; p < np; p++) {
		fprintf(f, md ? "| %s |" : "%-12s", params[p]);
		for (unsigned b = 0; b < NOUT; b++) {
			if (!backend_has(scen, m, out_backends[b]))
				continue;
			fmt_cell(cell, sizeof(cell),
				 result_find(scen, params[p], out_backends[b]),
				 m);
			fprintf(f, md ? " %s |" : " %15s", cell);
		}
		fprintf(f, "\n");
	}
}

static const enum metric shown[] = {
	M_NS, M_RATE, M_FAILS, M_FAILPCT, M_SLOW, M_DELIV, M_LAG50, M_LAG99, M_MEM,
	M_OVER, M_HEAP,
};

/* "Cont+ts" -> "Cont_ts": file names of the plots. */
static void plot_name(const char *scen, char *buf, size_t n)
{
	snprintf(buf, n, "%s", scen);
	for (char *c = buf; *c; c++)
		if (*c == '+')
			*c = '_';
}

static void tables(FILE *f, bool md)
{
	const char *params[64];

	for (unsigned s = 0; s < NSCEN; s++) {
		const char *scen = scen_names[s];
		char file[64];

		if (!params_of(scen, M_NS, params, 64))
			continue;
		if (md) {
			plot_name(scen, file, sizeof(file));
			fprintf(f, "\n#### %s\n", scen);
			if (cfg.plots)
				fprintf(f, "\n![%s](perf/%s.png)\n", scen, file);
			if (cfg.plots && !strcmp(scen, "W1R1-follow"))
				fprintf(f, "\n![%s lag](perf/%s-lag.png)\n",
					scen, file);
			if (cfg.plots && !strcmp(scen, "NS-scale"))
				fprintf(f, "\n![%s memory](perf/%s-mem.png)\n",
					scen, file);
		}
		for (unsigned k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
			table(f, md, scen, shown[k]);
	}
}

/* The targets (docs/performance.md, "Summary"), as ratios of this run. */
struct target {
	const char *what;
	const char *goal;
	double value;
	bool met;
	char detail[200];
};

static unsigned targets_eval(struct target *t)
{
	static const char *const w1p[] = {
		"16/128K", "64/128K", "200/128K", "512/128K", "1024/128K",
		"mixed/128K", "16/1M", "64/1M", "200/1M", "512/1M",
		"1024/1M", "mixed/1M",
	};
	unsigned n = 0;
	double v, a, b, worst = INFINITY;
	const char *worst_p = "";

	/* W1: libklog <= 1.3x floor at 64 bytes. */
	a = get("W1-size", "64/128K", &bk_libklog, M_NS);
	b = get("W1-size", "64/128K", &bk_floor, M_NS);
	v = a / b;
	t[n] = (struct target){ "W1 libklog / floor, 64 B, 128 KiB ring",
				"<= 1.3", v, v <= 1.3 };
	v = get("W1-size", "64/128K", &bk_null, M_NS);
	snprintf(t[n].detail, sizeof(t[n].detail),
		 "libklog %.1f ns, floor %.1f ns, harness %.1f ns (net of it "
		 "%.2f); 1 MiB ring: %.2f; ring without lock: %.2f", a, b, v,
		 (a - v) / (b - v),
		 get("W1-size", "64/1M", &bk_libklog, M_NS) /
		 get("W1-size", "64/1M", &bk_floor, M_NS),
		 get("W1-size", "64/128K", &bk_libklog_nolock, M_NS) / b);
	n++;

	/* W1: >= 5x faster than prb at every size. */
	for (unsigned i = 0; i < sizeof(w1p) / sizeof(w1p[0]); i++) {
		v = get("W1-size", w1p[i], &bk_prb, M_NS) /
		    get("W1-size", w1p[i], &bk_libklog, M_NS);
		if (!isnan(v) && v < worst) {
			worst = v;
			worst_p = w1p[i];
		}
	}
	t[n] = (struct target){ "W1 prb / libklog, worst size", ">= 5",
				worst, worst >= 5 };
	snprintf(t[n].detail, sizeof(t[n].detail), "worst at %s, where even "
		 "the floor is only %.2fx faster than prb; at 64/128K %.2f",
		 worst_p, get("W1-size", worst_p, &bk_prb, M_NS) /
		 get("W1-size", worst_p, &bk_floor, M_NS),
		 get("W1-size", "64/128K", &bk_prb, M_NS) /
		 get("W1-size", "64/128K", &bk_libklog, M_NS));
	n++;

	/* R-scan: libklog <= 0.6x prb. */
	v = get("R-scan", "1r", &bk_libklog, M_NS) /
	    get("R-scan", "1r", &bk_prb, M_NS);
	t[n] = (struct target){ "R-scan libklog / prb, 1 reader", "<= 0.6", v,
				v <= 0.6 };
	snprintf(t[n].detail, sizeof(t[n].detail),
		 "2 readers: %.2f; libklog-ns 1 reader: %.2f",
		 get("R-scan", "2r", &bk_libklog, M_NS) /
		 get("R-scan", "2r", &bk_prb, M_NS),
		 get("R-scan", "1r", &bk_libklog_ns, M_NS) /
		 get("R-scan", "1r", &bk_prb, M_NS));
	n++;

	/* NS-scale: 1 -> 64 namespaces <= 1.2x. */
	v = get("NS-scale", "64-rr", &bk_libklog_ns, M_NS) /
	    get("NS-scale", "1", &bk_libklog_ns, M_NS);
	t[n] = (struct target){ "NS-scale libklog-ns, 64 / 1 namespaces, "
				"round-robin", "<= 1.2", v, v <= 1.2 };
	snprintf(t[n].detail, sizeof(t[n].detail),
		 "hot-spot %.2f; libklog ring rr %.2f; prb rr %.2f; "
		 "512 rr %.2f",
		 get("NS-scale", "64-hot", &bk_libklog_ns, M_NS) /
		 get("NS-scale", "1", &bk_libklog_ns, M_NS),
		 get("NS-scale", "64-rr", &bk_libklog, M_NS) /
		 get("NS-scale", "1", &bk_libklog, M_NS),
		 get("NS-scale", "64-rr", &bk_prb, M_NS) /
		 get("NS-scale", "1", &bk_prb, M_NS),
		 get("NS-scale", "512-rr", &bk_libklog_ns, M_NS) /
		 get("NS-scale", "1", &bk_libklog_ns, M_NS));
	n++;

	/* Memory per namespace <= ring + 2 KiB. */
	v = get("NS-scale", "mem-64K", &bk_libklog_ns, M_OVER);
	t[n] = (struct target){ "memory per namespace - 64 KiB ring (bytes)",
				"<= 2048", v, v <= 2048 };
	snprintf(t[n].detail, sizeof(t[n].detail),
		 "measured heap %.0f B per namespace; prb metadata %.2fx its "
		 "text ring",
		 get("NS-scale", "mem-64K", &bk_libklog_ns, M_HEAP) -
		 64.0 * KiB,
		 get("NS-scale", "mem-64K", &bk_prb, M_OVER) / (64.0 * KiB));
	n++;

	/* W2: aggregate >= prb's with zero lost records. */
	a = get("W2-contend", "64", &bk_libklog, M_RATE);
	b = get("W2-contend", "64", &bk_prb, M_RATE);
	v = a / b;
	t[n] = (struct target){ "W2 libklog / prb aggregate records/s", ">= 1",
				v, v >= 1 &&
				get("W2-contend", "64", &bk_libklog,
				    M_FAILS) == 0 };
	snprintf(t[n].detail, sizeof(t[n].detail),
		 "libklog %.3g/s with %.0f lost, prb %.3g/s with %.0f failed "
		 "reservations", a, get("W2-contend", "64", &bk_libklog,
					M_FAILS), b,
		 get("W2-contend", "64", &bk_prb, M_FAILS));
	n++;
	return n;
}

static void print_targets(FILE *f, bool md)
{
	struct target t[8];
	unsigned n = targets_eval(t);

	if (md) {
		fprintf(f, "\n| target | goal | measured | met | detail |\n"
			"|---|---|---:|---|---|\n");
		for (unsigned i = 0; i < n; i++)
			fprintf(f, "| %s | %s | %.2f | %s | %s |\n", t[i].what,
				t[i].goal, t[i].value,
				isnan(t[i].value) ? "n/a" :
				t[i].met ? "yes" : "**no**", t[i].detail);
		fprintf(f, "| in guest: child /dev/kmsg write / host's | "
			"<= 1.1 | - | see below | not measured by kbench: "
			"`make bench-guest` (In-guest ratios) |\n");
		return;
	}
	fprintf(f, "\nTargets, best of the accepted runs:\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "  %-52s %-8s %8.2f  %-4s %s\n", t[i].what,
			t[i].goal, t[i].value,
			isnan(t[i].value) ? "n/a" : t[i].met ? "ok" : "MISS",
			t[i].detail);
	fprintf(f, "  %-52s %-8s %8s  %-4s %s\n",
		"in guest: child /dev/kmsg write / host's", "<= 1.1", "-",
		"n/a", "make bench-guest (QEMU, not kbench)");
}

static void write_csv(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	fprintf(f, "scenario,param,backend,metric,value\n");
	for (size_t i = 0; i < nresults; i++) {
		const struct result *r = &results[i];

		for (unsigned m = 0; m < NMETRICS; m++) {
			if (!r->has[m])
				continue;
			fprintf(f, "%s,%s,%s,%s,%.6g\n", r->scen, r->param,
				r->be->name, mdef[m].name, r->best[m]);
			if (mdef[m].kind == LOWER || mdef[m].kind == HIGHER)
				fprintf(f, "%s,%s,%s,%s_median,%.6g\n", r->scen,
					r->param, r->be->name, mdef[m].name,
					r->med[m]);
		}
		if (r->ok || r->rejected) {
			fprintf(f, "%s,%s,%s,runs_ok,%u\n", r->scen, r->param,
				r->be->name, r->ok);
			fprintf(f, "%s,%s,%s,runs_rejected,%u\n", r->scen,
				r->param, r->be->name, r->rejected);
			fprintf(f, "%s,%s,%s,cpu_pct_min,%.1f\n", r->scen,
				r->param, r->be->name, 100 * r->cpu_min);
		}
	}
	if (fclose(f))
		die("cannot write %s", path);
}

/* One clustered-bar PNG: rows are (label, param, metric). */
struct prow {
	const char *label;
	const char *param;
	enum metric m;
};

static void plot(const char *dir, const char *file, const char *scen,
		 const char *title, const char *ylabel, bool logy,
		 const struct prow *rows, unsigned nrows)
{
	/* One colour per backend in every plot. */
	static const char *const colour[NOUT] = {
		"#9400d3", "#c080ff", "#009e73", "#56b4e9", "#e69f00",
		"#f0e442", "#0072b2", "#e51e10", "#404040",
	};
	const struct bk_ops *bes[NOUT];
	char png[4096], colours[NOUT * 10 + 1] = "";
	unsigned nb = 0;
	FILE *g;

	for (unsigned b = 0; b < NOUT; b++) {
		for (unsigned r = 0; r < nrows; r++) {
			if (!isnan(get(scen, rows[r].param, out_backends[b],
				       rows[r].m))) {
				bes[nb++] = out_backends[b];
				strcat(colours, " ");
				strcat(colours, colour[b]);
				break;
			}
		}
	}
	if (!nb || !nrows)
		return;
	snprintf(png, sizeof(png), "%s/%s.png", dir, file);
	g = popen("gnuplot", "w");
	if (!g)
		die("cannot run gnuplot");
	fprintf(g, "$data << EOD\nparam");
	for (unsigned b = 0; b < nb; b++)
		fprintf(g, " %s", bes[b]->name);
	fprintf(g, "\n");
	for (unsigned r = 0; r < nrows; r++) {
		fprintf(g, "\"%s\"", rows[r].label);
		for (unsigned b = 0; b < nb; b++) {
			double v = get(scen, rows[r].param, bes[b], rows[r].m);

			if (isnan(v) || (logy && v <= 0))
				fprintf(g, " ?");
			else
				fprintf(g, " %.6g", v);
		}
		fprintf(g, "\n");
	}
	fprintf(g, "EOD\n"
		"set terminal pngcairo size 960,480 font 'sans,10'\n"
		"set output '%s'\n"
		"set title \"%s\"\n"
		"set datafile missing '?'\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.85 border -1\n"
		"set boxwidth 0.9\n"
		"set ylabel '%s'\n"
		"set yrange [%s:*]\n"
		"%s"
		"set grid ytics\n"
		"set key outside right top\n"
		"set xtics nomirror rotate by -25\n"
		"colours = '%s'\n"
		"plot for [c=2:%u] $data using c:xtic(1) "
		"title columnheader(c) lc rgb word(colours, c - 1)\n",
		png, title, ylabel, logy ? "" : "0",
		logy ? "set logscale y\n" : "", colours, nb + 1);
	if (pclose(g))
		fprintf(stderr, "kbench: gnuplot failed for %s\n", png);
}

static void plots(const char *dir)
{
	const char *params[64];
	struct prow rows[64];
	unsigned np;

	for (unsigned s = 0; s < NSCEN; s++) {
		const char *scen = scen_names[s];
		char title[160], file[64];

		np = params_of(scen, M_NS, params, 64);
		for (unsigned p = 0; p < np; p++)
			rows[p] = (struct prow){ params[p], params[p], M_NS };
		snprintf(title, sizeof(title), "%s: ns per record, best of %u "
			 "(lower is better)", scen, cfg.runs);
		plot_name(scen, file, sizeof(file));
		plot(dir, file, scen, title, "ns per record", true, rows, np);
	}
	rows[0] = (struct prow){ "p50", "64-paced1M", M_LAG50 };
	rows[1] = (struct prow){ "p99", "64-paced1M", M_LAG99 };
	plot(dir, "W1R1-follow-lag", "W1R1-follow",
	     "W1R1-follow: reader lag with the writer at 1 M records/s, ns",
	     "ns from store to read", true, rows, 2);
	rows[0] = (struct prow){ "64 KiB ring", "mem-64K", M_MEM };
	plot(dir, "NS-scale-mem", "NS-scale",
	     "NS-scale: bytes of memory per 64 KiB ring, all metadata",
	     "bytes", false, rows, 1);
}

static double loadavg(void)
{
	double l = NAN;
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = NAN;
		fclose(f);
	}
	return l;
}

static void cpu_model(char *buf, size_t n)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, n, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !p)
			continue;
		p += 2;
		p[strcspn(p, "\n")] = 0;
		snprintf(buf, n, "%s", p);
		break;
	}
	fclose(f);
}

static void write_md(const char *path, double secs)
{
	FILE *f = fopen(path, "w");
	char cpu[128], date[64];
	struct utsname u;
	time_t now = time(NULL);

	if (!f)
		die("cannot write %s", path);
	cpu_model(cpu, sizeof(cpu));
	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(f, "Run of %s on %s, %u cores used (%s), Linux %s; "
		"%u runs of %.0f ms per point; %.0f s in all.  "
		"Load average %.2f at the start, %.2f at the end; "
		"%u of %u runs rejected for less than 95%% CPU.\n",
		date, cpu, cfg.ncpu, u.machine, u.release, cfg.runs,
		cfg.dur_ns / 1e6, secs, cfg.load_start, loadavg(),
		cfg.rejected, cfg.attempts);
	if (cfg.note)
		fprintf(f, "\n%s\n", cfg.note);
	fprintf(f, "\n### Targets\n");
	print_targets(f, true);
	fprintf(f, "\n### Results\n\nCells are best (median) of the "
		"accepted runs; `*` marks a point whose runs were all "
		"rejected (its numbers come from rejected runs).\n");
	tables(f, true);
	fclose(f);
}

static void usage(void)
{
	printf("usage: kbench [--smoke] [--csv FILE] [--md FILE] "
	       "[--plot-dir DIR]\n"
	       "              [--time-ms N] [--runs N] [--only SCEN,...] "
	       "[--backends NAME,...]\n"
	       "              [--note TEXT]\n"
	       "scenarios: W1-size W2-contend W1R1-follow R-scan NS-scale "
	       "Cont+ts\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "smoke", no_argument, NULL, 's' },
		{ "csv", required_argument, NULL, 'c' },
		{ "md", required_argument, NULL, 'm' },
		{ "plot-dir", required_argument, NULL, 'p' },
		{ "time-ms", required_argument, NULL, 't' },
		{ "runs", required_argument, NULL, 'r' },
		{ "only", required_argument, NULL, 'o' },
		{ "backends", required_argument, NULL, 'b' },
		{ "note", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bes = NULL;
	cpu_set_t set;
	double secs;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			cfg.smoke = true;
			break;
		case 'c':
			cfg.csv = optarg;
			break;
		case 'm':
			cfg.md = optarg;
			break;
		case 'p':
			cfg.plots = optarg;
			break;
		case 't':
			cfg.dur_ns = strtoull(optarg, NULL, 10) * 1000000ull;
			break;
		case 'r':
			cfg.runs = strtoul(optarg, NULL, 10);
			break;
		case 'o':
			cfg.only = optarg;
			break;
		case 'b':
			bes = optarg;
			break;
		case 'n':
			cfg.note = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return 2;
		}
	}
	if (cfg.smoke) {
		cfg.runs = 1;
		cfg.dur_ns = 1000000;
	}
	if (!cfg.runs || cfg.runs > 32 || !cfg.dur_ns)
		die("--runs must be 1-32 and --time-ms positive");
	for (unsigned b = 0; b < NALL; b++) {
		const char *name = all_backends[b]->name, *p = bes;
		size_t n = strlen(name);

		cfg.be_on[b] = !bes;
		while (p && *p) {
			if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
				cfg.be_on[b] = true;
			p = strchr(p, ',');
			p = p ? p + 1 : NULL;
		}
	}

	/* The CPUs this process may use, one thread on each. */
	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	for (int i = 0; i < CPU_SETSIZE && cfg.ncpu < MAX_THREADS; i++)
		if (CPU_ISSET(i, &set))
			cfg.cpus[cfg.ncpu++] = i;

	init_text();
	cfg.load_start = loadavg();
	cfg.t_start = bk_now();
	if (scen_on("W1-size"))
		scen_w1();
	if (scen_on("W2-contend"))
		scen_w2();
	if (scen_on("W1R1-follow"))
		scen_w1r1();
	if (scen_on("R-scan"))
		scen_rscan();
	if (scen_on("NS-scale"))
		scen_ns();
	if (scen_on("Cont+ts"))
		scen_cont();
	secs = (bk_now() - cfg.t_start) / 1e9;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");

	printf("kbench: %u runs of %.0f ms per point, best (median); "
	       "%u of %u runs rejected (thread CPU < 95%% of wall); %.1f s\n",
	       cfg.runs, cfg.dur_ns / 1e6, cfg.rejected, cfg.attempts, secs);
	tables(stdout, false);
	print_targets(stdout, false);
	write_csv(cfg.csv);
	if (cfg.md)
		write_md(cfg.md, secs);
	if (cfg.plots)
		plots(cfg.plots);
	return 0;
}
