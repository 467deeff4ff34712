// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * replay.c - run a fuzz target on files, without libFuzzer.
 *
 * usage: fuzz_TARGET_replay PATH...   (files, or directories of files)
 *
 * The meson tests replay the committed corpus and every regression input
 * under gcc (plain, ASan + UBSan, valgrind); run.sh uses libFuzzer.
 * The first PATH is the corpus: exit status 1 if it is missing or holds
 * no input (a missing regression directory is fine).
 */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static long runs;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		if (!got)
			break;
		n += got;
	}
	fclose(f);
	/* An exact-size copy, so that reads past the end are caught. */
	{
		uint8_t *exact = malloc(n ? n : 1);

		memcpy(exact, buf, n);
		LLVMFuzzerTestOneInput(exact, n);
		free(exact);
	}
	free(buf);
	runs++;
	return 0;
}

static int run_path(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int err = 0;

	if (stat(path, &st)) {
		/* A target without regressions yet has no directory. */
		return errno == ENOENT ? 0 : 1;
	}
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	d = opendir(path);
	if (!d)
		return 1;
	while ((e = readdir(d))) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		err |= run_path(sub);
	}
	closedir(d);
	return err;
}

int main(int argc, char **argv)
{
	int i, err = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	/*
	 * The corpus (the first path) must be there and hold inputs;
	 * regressions may not be there yet.
	 */
	if (argc < 2 || access(argv[1], R_OK)) {
		fprintf(stderr, "replay: no corpus at %s\n",
			argc < 2 ? "(none given)" : argv[1]);
		return 1;
	}
	err |= run_path(argv[1]);
	if (!runs) {
		fprintf(stderr, "replay: the corpus %s holds no input\n",
			argv[1]);
		return 1;
	}
	for (i = 2; i < argc; i++)
		err |= run_path(argv[i]);
	fprintf(stderr, "replay: %ld inputs\n", runs);
	if (!runs) {
		fprintf(stderr, "replay: no input replayed\n");
		return 1;
	}
	return err;
}
