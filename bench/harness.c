// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * harness.c - how kbench runs and measures.
 *
 * DOC: kbench harness
 *
 * A point (one scenario, param and backend) is a job: one to MAX_THREADS
 * threads, each pinned to its own CPU and in one role (writer, paced
 * writer, following reader, scanning reader, writer of line fragments),
 * started together and run for --time-ms.  A run is accepted when every
 * thread got at least CPU_OK of its wall time on a CPU; a point is
 * measured until it has --runs accepted runs or twice as many attempts,
 * and its numbers are the best and the median of the accepted runs (of
 * all runs, marked, if none was accepted).  The points of one step of a
 * scenario are measured in turn, one run each, so that a busy moment of
 * the machine hits every backend alike.  Results are kept here, by
 * (scenario, param, backend), for the report.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kbench.h"

/* The lowest CPU share of its wall time a thread of an accepted run had. */
#define CPU_OK 0.95

/* ---- results ------------------------------------------------------ */

const struct metric_def mdef[NMETRICS] = {
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
	[M_HELD] = { "held", VALUE, "records read back" },
	[M_LOST] = { "lost", VALUE, "records lost silently" },
};

struct result *results;
size_t nresults;
static size_t capresults;

struct result *result_new(const char *scen, const char *param,
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

struct result *result_find(const char *scen, const char *param,
			   const struct bk_ops *be)
{
	for (size_t i = 0; i < nresults; i++)
		if (!strcmp(results[i].scen, scen) &&
		    !strcmp(results[i].param, param) && results[i].be == be)
			return &results[i];
	return NULL;
}

double result_get(const char *scen, const char *param,
		  const struct bk_ops *be, enum metric m)
{
	struct result *r = result_find(scen, param, be);

	return r && r->has[m] ? r->best[m] : NAN;
}

void set_value(struct result *r, enum metric m, double v)
{
	r->has[m] = true;
	r->best[m] = r->med[m] = v;
}

/* ---- the text of the records ------------------------------------- */

char text[4096];
uint16_t lens_fixed[NLENS];
uint16_t lens_mixed[NLENS];

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

uint64_t rng(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

void init_text(void)
{
	static const char alpha[] =
		"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		"0123456789 .:=-_[]()";

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = alpha[rng() % (sizeof(alpha) - 1)];
	for (unsigned i = 0; i < NLENS; i++)
		lens_mixed[i] = 16 + rng() % (256 - 16 + 1);
}

void set_fixed(uint16_t len)
{
	for (unsigned i = 0; i < NLENS; i++)
		lens_fixed[i] = len;
}

/* ---- threads ------------------------------------------------------ */

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
			void *ring = j->rings[j->ring_of ?
					      j->ring_of[i % NRING_OF] : 0];

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

/* ---- measuring a point: best and median of the accepted runs ------ */

struct runv {
	bool has[NMETRICS];
	double v[NMETRICS];
	double cpu;
	bool ok;
};

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

struct point *point_new(const char *scen, const char *param,
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

static void progress(const struct result *r)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "\r\033[K%s %s: %u of %u runs rejected so far",
		r->scen, r->param, cfg.rejected, cfg.attempts);
}

void measure_all(struct point **ps, unsigned n)
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

void eval_writers(struct job *j, struct worker *ws, struct runv *v)
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

void eval_follow(struct job *j, struct worker *ws, struct runv *v)
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

void eval_readers(struct job *j, struct worker *ws, struct runv *v)
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

/* ---- reading back what two writers stored ------------------------- */

/*
 * The W2 check does not trust write()'s return value: two writers store
 * self-describing records into a fresh ring for one run's time, then the
 * ring is read back.  A record is "W<writer><12 hex digits of its index>"
 * and a tail of the shared text, 64 bytes in all.  Each writer's records
 * must appear in index order, intact, with no gap that write() did not
 * report as a failed store, and its last record must be there (or have
 * failed).  lost counts every record missing without a reported failure,
 * and every corrupt or unknown one.
 */
#define VRF_LEN 64
#define VRF_HDR 14		/* 'W', the writer, 12 hex digits */
#define VRF_WINDOW 65536	/* each writer writes at least twice this */
/*
 * Failures remembered per writer: every store's, so that a record the
 * ring kept from long ago (a prb writer preempted between reserve and
 * commit pins its descriptor) is checked as any other.  A writer stops
 * at this many stores (16 MiB of bitmap, touched as it is written).
 */
#define VRF_MAX (1ull << 27)

struct vrf_writer {
	pthread_t tid;
	const struct bk_ops *be;
	void *ring;
	_Atomic int *stop;
	int cpu;
	unsigned index;
	uint64_t n, fails;
	_Atomic uint64_t progress;
	uint8_t *failed;	/* bit i: store i failed */
};

static void vrf_make(char *buf, unsigned w, uint64_t i)
{
	static const char hex[] = "0123456789abcdef";

	buf[0] = 'W';
	buf[1] = (char)('0' + w);
	for (int k = 0; k < 12; k++)
		buf[2 + k] = hex[(i >> (44 - 4 * k)) & 15];
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts))
		;
}

/*
 * --plant-loss: the write of every 97th record returns 0 without
 * storing it, a silent loss the check must count.
 */
static const struct bk_ops *planted_be;

static int planted_write(void *ring, const struct bk_msg *m)
{
	if (m->ts % 97 == 1)
		return 0;
	return planted_be->write(ring, m);
}

static void *vrf_main(void *arg)
{
	struct vrf_writer *v = arg;
	struct bk_msg m = { .caller = 1000 + v->index, .part = BK_WHOLE,
			    .len = VRF_LEN };
	char buf[VRF_LEN];
	uint64_t i = 0;

	pin(v->cpu);
	memcpy(buf, text, VRF_LEN);
	m.text = buf;
	while (!atomic_load_explicit(v->stop, memory_order_relaxed) &&
	       i < VRF_MAX) {
		vrf_make(buf, v->index, i);
		m.ts = i;
		if (v->be->write(v->ring, &m)) {
			v->failed[i / 8] |= 1u << (i % 8);
			v->fails++;
		}
		i++;
		atomic_store_explicit(&v->progress, i, memory_order_relaxed);
	}
	v->n = i;
	return NULL;
}

static bool vrf_failed(const struct vrf_writer *v, uint64_t i)
{
	return v->failed[i / 8] & (1u << (i % 8));
}

/*
 * Parse a record read back: its writer and index, or false if it is not
 * one vrf_main() wrote (wrong length, header or tail).
 */
static bool vrf_parse(const struct bk_rec *r, unsigned nw, unsigned *w,
		      uint64_t *i)
{
	uint64_t x = 0;

	if (r->len != VRF_LEN || r->text[0] != 'W' ||
	    r->text[1] < '0' || (unsigned)(r->text[1] - '0') >= nw)
		return false;
	for (int k = 0; k < 12; k++) {
		char c = r->text[2 + k];

		if (c >= '0' && c <= '9')
			x = x << 4 | (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			x = x << 4 | (uint64_t)(c - 'a' + 10);
		else
			return false;
	}
	if (memcmp(r->text + VRF_HDR, text + VRF_HDR, VRF_LEN - VRF_HDR))
		return false;
	*w = (unsigned)(r->text[1] - '0');
	*i = x;
	return true;
}

bool verify_writers(const struct bk_ops *be, uint32_t size, unsigned nw,
		    uint64_t dur_ns, uint64_t *held, uint64_t *lost,
		    uint64_t *fails)
{
	struct vrf_writer v[MAX_THREADS];
	uint64_t last[MAX_THREADS];
	bool seen[MAX_THREADS] = { false };
	char scratch[BK_SCRATCH];
	struct bk_cursor c = { .scratch = scratch };
	struct bk_rec r;
	_Atomic int stop = 0;
	struct bk_ops planted;
	void *ring = be->create(size);

	if (!ring || nw > MAX_THREADS || nw > cfg.ncpu)
		die("verify_writers: cannot run %s", be->name);
	if (cfg.plant_loss) {
		planted = *be;
		planted.write = planted_write;
		planted_be = be;
	}
	*held = *lost = *fails = 0;
	for (unsigned w = 0; w < nw; w++) {
		v[w] = (struct vrf_writer){
			.be = cfg.plant_loss ? &planted : be,
			.ring = ring,
			.stop = &stop,
			.cpu = cfg.cpus[w],
			.index = w,
		};
		v[w].failed = calloc(VRF_MAX / 8, 1);
		if (!v[w].failed ||
		    pthread_create(&v[w].tid, NULL, vrf_main, &v[w]))
			die("verify_writers: no memory or thread");
	}
	/* both writers past two windows (the ring has wrapped), then stop */
	sleep_ns(dur_ns);
	for (unsigned w = 0; w < nw; w++)
		while (atomic_load(&v[w].progress) < 2 * VRF_WINDOW)
			sleep_ns(100000);	/* (VRF_MAX is far above) */
	atomic_store(&stop, 1);
	for (unsigned w = 0; w < nw; w++) {
		pthread_join(v[w].tid, NULL);
		*fails += v[w].fails;
	}

	be->cursor_first(ring, &c);
	while (be->read(ring, &c, &r)) {
		unsigned w;
		uint64_t i;

		(*held)++;
		if (!vrf_parse(&r, nw, &w, &i)) {
			(*lost)++;	/* corrupt, or not written */
			continue;
		}
		if (!seen[w]) {
			seen[w] = true;
			last[w] = i;
			continue;
		}
		if (i <= last[w]) {
			(*lost)++;	/* out of order or twice */
			continue;
		}
		for (uint64_t g = last[w] + 1; g < i; g++)
			*lost += !vrf_failed(&v[w], g);
		last[w] = i;
	}
	for (unsigned w = 0; w < nw; w++) {
		/*
		 * The tail: everything after the last one read.  A writer with
		 * no record left may have been overwritten by the other after
		 * it stopped: that is no loss, and nothing to count from.
		 */
		for (uint64_t g = last[w] + 1; seen[w] && g < v[w].n; g++)
			*lost += !vrf_failed(&v[w], g);
		free(v[w].failed);
	}
	be->destroy(ring);
	return true;
}
