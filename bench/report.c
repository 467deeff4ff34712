// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * report.c - what kbench says about a run.
 *
 * DOC: kbench report
 *
 * One table per scenario and metric, as text on stdout or as markdown
 * (--md): a row per param, a column per backend, cells "best (median)"
 * of the accepted runs, '*' where no run was accepted.  Then the
 * targets (targets.c, a table), each a quantity of this run against its
 * goal.  The CSV (scenario,param,backend,metric,value) has every number,
 * and the PNG plots (--plot-dir, with gnuplot) one bar chart per
 * scenario.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "kbench.h"
#include "targets.h"

static const struct bk_ops *const out_backends[] = {
	&bk_libklog, &bk_libklog_nolock, &bk_libklog_ns, &bk_libklog_printk,
	&bk_prb, &bk_logbuf3, &bk_logbuf5, &bk_mutex, &bk_floor, &bk_null,
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
	M_NS, M_RATE, M_FAILS, M_FAILPCT, M_SLOW, M_DELIV, M_LAG50, M_LAG99,
	M_MEM, M_OVER, M_HEAP, M_HELD, M_LOST,
};

/* "Cont+ts" -> "Cont_ts": file names of the plots. */
static void plot_name(const char *scen, char *buf, size_t n)
{
	snprintf(buf, n, "%s", scen);
	for (char *c = buf; *c; c++)
		if (*c == '+')
			*c = '_';
}

void report_tables(FILE *f, bool md)
{
	const char *params[64];

	for (unsigned s = 0; s < NSCEN; s++) {
		const char *scen = scenarios[s].name;
		char file[64];

		if (!params_of(scen, M_NS, params, 64))
			continue;
		if (md) {
			plot_name(scen, file, sizeof(file));
			fprintf(f, "\n#### %s\n", scen);
			if (cfg.plots)
				fprintf(f, "\n![%s](perf/%s.png)\n", scen,
					file);
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

/* ---- targets (targets.c) ----------------------------------------- */

static const struct bk_ops *backend_named(const char *name)
{
	for (unsigned b = 0; b < NALL; b++)
		if (!strcmp(all_backends[b]->name, name))
			return all_backends[b];
	die("targets: no backend %s", name);
}

static enum metric metric_named(const char *name)
{
	for (unsigned m = 0; m < NMETRICS; m++)
		if (!strcmp(mdef[m].name, name))
			return m;
	die("targets: no metric %s", name);
}

/* The number @r names, its param "*" standing for the point @at. */
static double ref_value(const struct target_ref *r, const char *at)
{
	const char *param = strcmp(r->param, "*") ? r->param : at;

	if (!param)
		return NAN;
	return result_get(r->scen, param, backend_named(r->backend),
			  metric_named(r->metric));
}

static double num_value(const struct target_num *q, const char *at)
{
	double base = q->base.scen ? ref_value(&q->base, at) : 0;
	double v = ref_value(&q->num, at) - base;

	if (q->den.scen)
		v /= ref_value(&q->den, at) - base;
	return v;
}

/* How far @v is from meeting @t: positive if it misses. */
static double shortfall(const struct target *t, double v)
{
	if (!strcmp(t->op, "<="))
		return v - t->goal;
	if (!strcmp(t->op, ">="))
		return t->goal - v;
	if (!strcmp(t->op, "=="))
		return fabs(v - t->goal);
	die("targets: no operator %s", t->op);
}

/* The point of the scenario where @t's value is furthest from its goal. */
static const char *worst_point(const struct target *t, double *v)
{
	const struct target_ref *r = &t->value.num;
	const char *params[64], *at = NULL;
	unsigned np = params_of(r->scen, metric_named(r->metric), params, 64);

	*v = NAN;
	for (unsigned i = 0; i < np; i++) {
		double x = num_value(&t->value, params[i]);

		if (isnan(x))
			continue;
		if (!at || shortfall(t, x) > shortfall(t, *v)) {
			at = params[i];
			*v = x;
		}
	}
	return at;
}

/* @t's value in this run, and its details as one line into @buf. */
static double target_eval(const struct target *t, char *buf, size_t size)
{
	const char *at = NULL;
	size_t len = 0;
	double v;

	buf[0] = '\0';
	if (t->elsewhere) {
		snprintf(buf, size, "%s", t->elsewhere);
		return NAN;
	}
	if (!strcmp(t->value.num.param, "*")) {
		at = worst_point(t, &v);
		len = snprintf(buf, size, "worst at %s", at ? at : "-");
	} else {
		v = num_value(&t->value, NULL);
	}
	for (unsigned d = 0; d < TARGET_DETAILS && len < size; d++) {
		const struct target_num *q = &t->detail[d];
		char num[24];
		double x;

		if (!q->label)
			break;
		x = num_value(q, at);
		if (q->den.scen && !isnan(x))
			snprintf(num, sizeof(num), "%.2f", x);
		else
			fmt_num(num, sizeof(num), x);
		len += snprintf(buf + len, size - len, "%s%s %s",
				len ? "; " : "", q->label, num);
	}
	return v;
}

void report_targets(FILE *f, bool md)
{
	if (md)
		fprintf(f, "\n| target | goal | measured | met | detail |\n"
			"|---|---|---:|---|---|\n");
	else
		fprintf(f, "\nTargets, best of the accepted runs:\n");
	for (unsigned i = 0; i < NTARGETS; i++) {
		const struct target *t = &targets[i];
		char goal[24], value[24], detail[320];
		double v = target_eval(t, detail, sizeof(detail));
		const char *met;

		snprintf(goal, sizeof(goal), "%s %g", t->op, t->goal);
		if (t->elsewhere)
			snprintf(value, sizeof(value), "-");
		else
			snprintf(value, sizeof(value), "%.2f", v);
		if (t->elsewhere || isnan(v))
			met = "n/a";
		else if (shortfall(t, v) <= 0)
			met = md ? "yes" : "ok";
		else
			met = md ? "**no**" : "MISS";
		if (md)
			fprintf(f, "| %s | %s | %s | %s | %s |\n", t->what,
				goal, value, met, detail);
		else if (detail[0])
			fprintf(f, "  %-52s %-8s %8s  %-4s %s\n", t->what,
				goal, value, met, detail);
		else
			fprintf(f, "  %-52s %-8s %8s  %s\n", t->what, goal,
				value, met);
	}
}

void report_csv(const char *path)
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
	static const char *const colour[] = {
		"#9400d3", "#c080ff", "#009e73", "#56b4e9", "#e69f00",
		"#f0e442", "#a89c00", "#0072b2", "#e51e10", "#404040",
	};
	_Static_assert(sizeof(colour) / sizeof(colour[0]) == NOUT,
		       "one colour per backend of out_backends[]");
	const struct bk_ops *bes[NOUT];
	char png[4096], colours[NOUT * 10 + 1] = "";
	unsigned nb = 0;
	FILE *g;

	for (unsigned b = 0; b < NOUT; b++) {
		for (unsigned r = 0; r < nrows; r++) {
			if (!isnan(result_get(scen, rows[r].param,
					      out_backends[b], rows[r].m))) {
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
			double v = result_get(scen, rows[r].param, bes[b],
					      rows[r].m);

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

void report_plots(const char *dir)
{
	const char *params[64];
	struct prow rows[64];
	unsigned np;

	for (unsigned s = 0; s < NSCEN; s++) {
		const char *scen = scenarios[s].name;
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

double loadavg(void)
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

void report_md(const char *path, double secs)
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
	report_targets(f, true);
	fprintf(f, "\n### Results\n\nCells are best (median) of the "
		"accepted runs; `*` marks a point whose runs were all "
		"rejected (its numbers come from rejected runs).\n");
	report_tables(f, true);
	fclose(f);
}
