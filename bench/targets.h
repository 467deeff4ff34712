/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * targets.h - the goals kbench checks a run against, as data.
 *
 * The table itself is targets.c; report.c evaluates it after a run and
 * prints one line per target: its goal, the value measured, whether the
 * goal was met and the target's details.
 */
#ifndef KBENCH_TARGETS_H
#define KBENCH_TARGETS_H

/**
 * struct target_ref - one number of the run, by the names of the CSV.
 * @scen: the scenario ("W1-size"); NULL: no number
 * @param: the point within it ("64/128K"); "*": the target's worst point
 * @backend: the backend's name ("libklog")
 * @metric: the metric's name ("ns_per_rec")
 */
struct target_ref {
	const char *scen;
	const char *param;
	const char *backend;
	const char *metric;
};

/**
 * struct target_num - a quantity: (@num - @base) / (@den - @base).
 * @label: what it is, in a target's details
 * @num: the number
 * @den: divides it, if set: the quantity is a ratio
 * @base: subtracted from @num and @den first, if set
 */
struct target_num {
	const char *label;
	struct target_ref num;
	struct target_ref den;
	struct target_ref base;
};

#define TARGET_DETAILS 6

/**
 * struct target - a goal for one quantity of the run.
 * @what: the quantity, for people
 * @op: "<=", ">=" or "==": how @value must compare with @goal
 * @goal: the bound
 * @value: the quantity.  A param "*" in it makes the target the worst
 *	point of the scenario, the one whose value is furthest from @goal;
 *	a param "*" in a detail is that point.
 * @detail: up to TARGET_DETAILS more quantities shown with it
 * @elsewhere: set for a target kbench does not measure: where it is
 */
struct target {
	const char *what;
	const char *op;
	double goal;
	struct target_num value;
	struct target_num detail[TARGET_DETAILS];
	const char *elsewhere;
};

#define NTARGETS 10
extern const struct target targets[NTARGETS];

#endif /* KBENCH_TARGETS_H */
