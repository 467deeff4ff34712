// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * fuzz_klogsim - the klogsim script parser and everything it drives.
 *
 * tools/klogsim/sim.c is compiled into this file with its main()
 * renamed, and each input runs as a script read from standard input
 * (an in-memory stream).  The simulator's global state is reset before
 * every run; its output goes to /dev/null.  A crash, a sanitizer report
 * or a leak is a finding; script errors (exit status 1) are not.
 */
#include "fuzz.h"

int klogsim_main(int argc, char **argv);

#define main klogsim_main
#include "../../tools/klogsim/sim.c"
#undef main

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
	char *args[] = { "klogsim", "-", NULL };
	FILE *saved = stdin, *in;
	char *copy;

	if (!size || size > 64 * 1024)
		return 0;
	copy = malloc(size);
	memcpy(copy, data, size);
	in = fmemopen(copy, size, "r");
	FCHECK(in);
	memset(&sim, 0, sizeof(sim));
	sim_now = 1000000000ull;
	stdin = in;
	(void)klogsim_main(2, args);
	stdin = saved;
	fclose(in);
	free(copy);
	klog_testing_set_clock(NULL);
	return 0;
}
