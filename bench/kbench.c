// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * kbench.c - libklog's ring against the upstream printk ringbuffer and the
 * classic rings, with the machine's floor, in one run.
 *
 * DOC: kbench
 *
 * Every scenario (scenarios.c) runs every backend (bench.h, one be_*.c
 * each) in the same process, one after the other, with threads pinned
 * one per core and never more threads than cores.  How a point is
 * measured, and when a run is rejected, is harness.c; what is written
 * about it, report.c.  Here: the settings and main().
 *
 * Output: a table on stdout, a CSV (scenario,param,backend,metric,value),
 * optionally a markdown fragment (--md) and PNG plots (--plot-dir, with
 * gnuplot).  --smoke runs everything with tiny counts and checks nothing
 * but that it runs: no timing is ever asserted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbench.h"

const struct bk_ops *const all_backends[] = {
	&bk_libklog, &bk_libklog_ns, &bk_prb, &bk_logbuf3, &bk_mutex, &bk_floor,
	&bk_libklog_nolock, &bk_libklog_printk, &bk_logbuf5, &bk_null,
};

struct settings cfg = {
	.runs = 5,
	.dur_ns = 60 * 1000000ull,
	.csv = "results.csv",
};

/* Whether @name is one of the comma-separated @list. */
static bool listed(const char *list, const char *name)
{
	const char *p = list;
	size_t n = strlen(name);

	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return false;
}

bool be_on(const struct bk_ops *be)
{
	for (unsigned i = 0; i < NALL; i++)
		if (all_backends[i] == be)
			return cfg.be_on[i];
	return true;
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "kbench: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void usage(void)
{
	printf("usage: kbench [--smoke] [--csv FILE] [--md FILE] "
	       "[--plot-dir DIR]\n"
	       "              [--time-ms N] [--runs N] [--only SCEN,...] "
	       "[--backends NAME,...]\n"
	       "              [--note TEXT] [--plant-loss]\n"
	       "scenarios:");
	for (unsigned s = 0; s < NSCEN; s++)
		printf(" %s", scenarios[s].name);
	printf("\n");
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
		{ "plant-loss", no_argument, NULL, 'L' },
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
		case 'L':
			cfg.plant_loss = true;
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
	for (unsigned b = 0; b < NALL; b++)
		cfg.be_on[b] = !bes || listed(bes, all_backends[b]->name);

	/* The CPUs this process may use, one thread on each. */
	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	for (int i = 0; i < CPU_SETSIZE && cfg.ncpu < MAX_THREADS; i++)
		if (CPU_ISSET(i, &set))
			cfg.cpus[cfg.ncpu++] = i;

	init_text();
	cfg.load_start = loadavg();
	cfg.t_start = bk_now();
	for (unsigned s = 0; s < NSCEN; s++)
		if (!cfg.only || listed(cfg.only, scenarios[s].name))
			scenarios[s].run();
	secs = (bk_now() - cfg.t_start) / 1e9;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");

	printf("kbench: %u runs of %.0f ms per point, best (median); "
	       "%u of %u runs rejected (thread CPU < 95%% of wall); %.1f s\n",
	       cfg.runs, cfg.dur_ns / 1e6, cfg.rejected, cfg.attempts, secs);
	report_tables(stdout, false);
	report_targets(stdout, false);
	report_csv(cfg.csv);
	if (cfg.md)
		report_md(cfg.md, secs);
	if (cfg.plots)
		report_plots(cfg.plots);
	return 0;
}

