/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * kbench.h - the parts of kbench: settings (kbench.c), the harness that
 * runs and measures (harness.c), the scenarios (scenarios.c) and the
 * report (report.c).  The backends measured are behind bench.h.
 */
#ifndef KBENCH_KBENCH_H
#define KBENCH_KBENCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#define MAX_THREADS 2
#define KiB 1024u
#define MiB (1024u * 1024u)

/* ---- settings (kbench.c) ----------------------------------------- */

/*
 * Every backend, in the order runs are made.  The first NBACKENDS run in
 * every scenario; the others in those that name them.
 */
#define NALL 10
#define NBACKENDS 6
extern const struct bk_ops *const all_backends[NALL];

/**
 * struct settings - what the command line said, and the run's counters.
 * @smoke: tiny counts, nothing but that everything runs
 * @runs: accepted runs wanted per point
 * @dur_ns: the length of one run
 * @ncpu: CPUs used, at most MAX_THREADS
 * @cpus: the CPU of each thread
 * @csv: the CSV file written
 * @md: the markdown fragment written, or NULL
 * @plots: the directory of the PNG plots, or NULL
 * @note: a paragraph for the markdown fragment, or NULL
 * @only: the scenarios to run, comma-separated, or NULL for all
 * @load_start: the load average when the run started
 * @t_start: when the run started (bk_now())
 * @attempts: runs made so far
 * @rejected: of which rejected for too little CPU
 * @be_on: whether each of all_backends[] runs
 * @plant_loss: the W2 read-back check's control: a write that drops every
 *              97th record and says it stored it
 */
struct settings {
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
	bool plant_loss;
};

extern struct settings cfg;

/* Whether @be was asked for (--backends). */
bool be_on(const struct bk_ops *be);

__attribute__((format(printf, 1, 2), noreturn))
void die(const char *fmt, ...);

/* ---- results (harness.c) ----------------------------------------- */

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
	M_HELD,		/* records read back after two writers (W2) */
	M_LOST,		/* of the records written, missing without a failed
			 * store, or read back corrupt (W2) */
	NMETRICS
};

/* How the runs of a point make its number: the lowest, the highest... */
enum mkind { LOWER, HIGHER, SUM, VALUE };

/**
 * struct metric_def - a metric's name in the CSV, kind and unit.
 * @name: the CSV's metric column
 * @kind: how runs are combined and which way is better
 * @unit: for people
 */
struct metric_def {
	const char *name;
	enum mkind kind;
	const char *unit;
};

extern const struct metric_def mdef[NMETRICS];

/**
 * struct result - the numbers of one (scenario, param, backend).
 * @scen: the scenario
 * @param: the point within it
 * @be: the backend
 * @has: which metrics it has
 * @best: the best of the accepted runs (LOWER, HIGHER), or the value
 * @med: the median of the accepted runs
 * @ok: accepted runs
 * @rejected: rejected runs
 * @cpu_min: the lowest CPU share of an accepted run (of any, if none)
 */
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

extern struct result *results;
extern size_t nresults;

struct result *result_new(const char *scen, const char *param,
			  const struct bk_ops *be);
struct result *result_find(const char *scen, const char *param,
			   const struct bk_ops *be);
/* The best value of a metric, or NAN if there is none. */
double result_get(const char *scen, const char *param,
		  const struct bk_ops *be, enum metric m);
void set_value(struct result *r, enum metric m, double v);

/* ---- the text of the records (harness.c) -------------------------- */

#define NLENS 4096
#define NRING_OF 65536

extern char text[4096];
extern uint16_t lens_fixed[NLENS];
extern uint16_t lens_mixed[NLENS];

/* The run's one random sequence (xorshift64). */
uint64_t rng(void);
void init_text(void);
/* Every record of lens_fixed @len bytes. */
void set_fixed(uint16_t len);

/* ---- running and measuring (harness.c) ---------------------------- */

enum role { R_WRITE, R_PACED, R_FOLLOW, R_SCAN, R_CONT };

struct worker;
struct runv;

/**
 * struct job - what the threads of one point do.
 * @be: the backend
 * @rings: its rings
 * @nrings: how many
 * @ring_of: the ring of each record (NRING_OF of them), or NULL: ring 0
 * @lens: the length of each record (NLENS of them)
 * @dur_ns: the length of one run
 * @nthreads: threads, one per CPU
 * @lag: the reader samples its lag
 * @stop: set when the run is over
 * @barrier: the threads start together
 * @w: the threads
 */
struct job {
	const struct bk_ops *be;
	void **rings;
	unsigned nrings;
	const uint16_t *ring_of;
	const uint16_t *lens;
	uint64_t dur_ns;
	unsigned nthreads;
	bool lag;
	_Atomic int stop;
	pthread_barrier_t barrier;
	struct worker *w[MAX_THREADS];
};

/* What a run of a point yields: see eval_writers() and the others. */
typedef void (*eval_fn)(struct job *j, struct worker *ws, struct runv *rv);

/*
 * @nw writers (one per CPU of cfg.cpus) store self-describing records into
 * a fresh @be ring of @size bytes for @dur_ns, then everything is read
 * back: @held records were there, @lost were missing though their store
 * succeeded (or were corrupt), @fails stores reported failure.
 */
bool verify_writers(const struct bk_ops *be, uint32_t size, unsigned nw,
		    uint64_t dur_ns, uint64_t *held, uint64_t *lost,
		    uint64_t *fails);

/* Writers: aggregate ns per record over all writers. */
void eval_writers(struct job *j, struct worker *ws, struct runv *v);
/* Writer 0 and reader 1. */
void eval_follow(struct job *j, struct worker *ws, struct runv *v);
/* Readers: ns per record per reader (mean), aggregate rate. */
void eval_readers(struct job *j, struct worker *ws, struct runv *v);

struct point;

/* One (scenario, param, backend) to measure: @j's threads in @roles. */
struct point *point_new(const char *scen, const char *param,
			const struct job *j, const enum role *roles,
			eval_fn eval);
/* Measure points round-robin until each has its runs; free them. */
void measure_all(struct point **ps, unsigned n);

/* ---- scenarios (scenarios.c) -------------------------------------- */

/**
 * struct scenario - a scenario, run by kbench.c, reported by report.c.
 * @name: as on the command line (--only) and in the CSV
 * @run: measures every point of it
 */
struct scenario {
	const char *name;
	void (*run)(void);
};

#define NSCEN 6
extern const struct scenario scenarios[NSCEN];

/* ---- the report (report.c) ---------------------------------------- */

/* The tables of every scenario, as text or as markdown. */
void report_tables(FILE *f, bool md);
/* The targets (targets.c) evaluated on this run, as text or markdown. */
void report_targets(FILE *f, bool md);
void report_csv(const char *path);
void report_md(const char *path, double secs);
void report_plots(const char *dir);
/* The 1-minute load average, or NAN. */
double loadavg(void);

#endif /* KBENCH_KBENCH_H */
