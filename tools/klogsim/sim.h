/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * sim.h - the klogsim simulator: libklog driven by a script.
 *
 * DOC: klogsim simulation
 *
 * A struct sim is one simulated machine: a host log, the namespaces and
 * files a script made, the settings and the virtual time.  Every script
 * line runs against it; tools/klogsim/klogsim.c runs a script file and
 * tests/fuzz/fuzz_klogsim.c runs each fuzz input, both through
 * sim_init(), sim_run() and sim_fini().  The language is described in
 * docs/man/klogsim.1.md.
 *
 * The library's test clock (klog_testing_set_clock()) takes no argument,
 * so one simulation at a time runs in a process: sim_init() points the
 * clock at its own, sim_fini() takes it back.
 */
#ifndef KLOGSIM_SIM_H
#define KLOGSIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "klog/klog.h"

#define SIM_MAX_NS 64
#define SIM_MAX_FD 64

/**
 * struct sim_ns - a syslog namespace of the script, and who stands for it.
 * @name: the script's name for it
 * @ns: the namespace; NULL once "put"
 * @parent: the creator (owner of the parent log)
 * @user: the entry that stands for its user namespace
 * @privileged: root in its user namespace
 * @created: namespaces it unshared, for the quota
 */
struct sim_ns {
	char name[32];
	struct klog_ns *ns;
	struct sim_ns *parent;
	struct sim_ns *user;
	bool privileged;
	int created;
};

/**
 * struct sim_fd - an open /dev/kmsg or /proc/kmsg file of the script.
 * @name: the script's name for it
 * @open: the slot is in use
 * @proc: /proc/kmsg (@ctx only) rather than /dev/kmsg (@f)
 * @f: the /dev/kmsg file
 * @ctx: the caller that opened it
 * @who: the namespace it was opened in
 */
struct sim_fd {
	char name[32];
	bool open;
	bool proc;
	struct klog_kmsg f;
	struct klog_syslog_ctx ctx;
	struct sim_ns *who;
};

/**
 * struct sim - one simulation.
 * @ns: the namespaces; @ns[0] is the host
 * @nr_ns: entries of @ns in use
 * @fd: the open files
 * @file: the script's name, for messages
 * @line: the script line running
 * @errors: script errors so far
 * @quota: namespaces one entry may unshare
 * @cfg: the settings of every namespace ("set")
 * @now: the virtual time, ns
 * @scratch: the syslog contexts' scratch buffer
 */
struct sim {
	struct sim_ns ns[SIM_MAX_NS];
	int nr_ns;
	struct sim_fd fd[SIM_MAX_FD];
	const char *file;
	int line;
	int errors;
	int quota;
	struct klog_config cfg;
	uint64_t now;
	char scratch[KLOG_MESSAGE_MAX];
};

/**
 * sim_init() - a new simulation: the host log, time at 1 s.
 * @sim: the simulation, overwritten
 * @file: the script's name, for messages
 *
 * Return: 0, or -1 if the host log cannot be made (said on stderr).
 */
int sim_init(struct sim *sim, const char *file);

/**
 * sim_run() - run every line of @in.
 * @sim: the simulation
 * @in: the script
 *
 * Each line first moves the virtual time on by 1 ms.  Output goes to
 * stdout; script errors are counted in @sim->errors.
 */
void sim_run(struct sim *sim, FILE *in);

/**
 * sim_fini() - close the files, drop the namespaces, give the clock back.
 * @sim: the simulation
 */
void sim_fini(struct sim *sim);

#endif /* KLOGSIM_SIM_H */
