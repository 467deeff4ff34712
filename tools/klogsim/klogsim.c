// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * klogsim [SCRIPT] - run a klogsim script, from SCRIPT or standard input,
 * and show what each namespace's clients see.  The language is described
 * in docs/man/klogsim.1.md; the simulator is sim.c.
 *
 * Exit status: 0, 1 if the script had errors, 2 if it could not run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim.h"

/* Large: a static rather than main()'s stack. */
static struct sim sim;

int main(int argc, char **argv)
{
	const char *file = "<stdin>";
	FILE *in = stdin;

	if (argc > 2 || (argc == 2 && !strcmp(argv[1], "--help"))) {
		fprintf(stderr, "usage: klogsim [SCRIPT]\n"
			"Runs a klogsim script (docs/man/klogsim.1.md); "
			"reads stdin without SCRIPT.\n");
		return 2;
	}
	if (argc == 2 && strcmp(argv[1], "-")) {
		in = fopen(argv[1], "r");
		if (!in) {
			fprintf(stderr, "klogsim: %s: %s\n", argv[1],
				strerror(errno));
			return 2;
		}
		file = argv[1];
	}
	if (sim_init(&sim, file))
		return 2;
	sim_run(&sim, in);
	if (in != stdin)
		fclose(in);
	sim_fini(&sim);
	if (sim.errors)
		fprintf(stderr, "klogsim: %d error(s) in %s\n", sim.errors,
			sim.file);
	return sim.errors ? 1 : 0;
}
