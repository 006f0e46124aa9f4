/*
 * driver.c - runs a fuzz target's entry point over files, without
 * libFuzzer: `make test` uses it to replay the seed corpus and every
 * regression input under tests/fuzz-regress/ with the ordinary build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!fp) {
		perror(path);
		return 1;
	}
	do {
		if (n == cap) {
			unsigned char *p;
			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(fp);
				return 1;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	fclose(fp);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++) {
		if (run_file(argv[i]))
			bad++;
		else
			printf("ok %d - %s\n", i, argv[i]);
	}
	printf("1..%d\n", argc - 1);
	return bad != 0;
}
