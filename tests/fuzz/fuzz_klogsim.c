// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_klogsim - the klogsim script parser and everything it drives.
 *
 * Linked with the simulator (tools/klogsim/sim.c): each input runs as a
 * script, read from an in-memory stream, in a simulation of its own
 * (sim_init() .. sim_fini()); its output goes to /dev/null.  A crash, a
 * sanitizer report or a leak is a finding; script errors are not.  So is
 * a broken invariant of a ring or its cursors (R1-R8), checked at the
 * end of every locked section, or a klog lock left held.
 */
#include "fuzz.h"
#include "sim.h"

static struct sim sim;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!getenv("FUZZ_KLOGSIM_OUTPUT"))
		(void)!freopen("/dev/null", "w", stdout);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *in;
	char *copy;

	if (!size || size > 64 * 1024)
		return 0;
	copy = malloc(size);
	FCHECK(copy);
	memcpy(copy, data, size);
	in = fmemopen(copy, size, "r");
	FCHECK(in);
	klog_testing_set_unlock_check(fuzz_check_at_unlock);
	FCHECK(!sim_init(&sim, "<fuzz>"));
	sim_run(&sim, in);
	FCHECK(klog_testing_locks_held() == 0);
	sim_fini(&sim);
	FCHECK(klog_testing_locks_held() == 0);
	klog_testing_set_unlock_check(NULL);
	fclose(in);
	free(copy);
	return 0;
}
