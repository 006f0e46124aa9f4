/*
 * touch.c - what the machine charges for memory: writing 1 GiB of fresh
 * anonymous memory (each page faulted in and zeroed, under a virtual
 * machine by its host too), then writing it again; with 4 KiB pages and
 * with transparent huge pages asked for.  hangdx's time at 100,000 ranks
 * follows the first number (docs/PERFORMANCE.md, docs/ARCHITECTURE.md).
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int run(const char *label, int huge, size_t n)
{
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	double t0, t1, t2;

	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
#ifdef MADV_HUGEPAGE
	if (huge)
		madvise(p, n, MADV_HUGEPAGE);
#endif
	t0 = now();
	memset(p, 1, n);
	t1 = now();
	memset(p, 2, n);
	t2 = now();
	printf("%-40s %10.3f %10.3f %10.1f\n", label, t1 - t0, t2 - t1,
	       (t1 - t0) / (t2 - t1 > 1e-9 ? t2 - t1 : 1e-9));
	munmap(p, n);
	return 0;
}

int main(void)
{
	size_t n = (size_t)1 << 30;

	printf("%-40s %10s %10s %10s\n", "benchmark (1 GiB)", "first s",
	       "again s", "ratio");
	return run("write fresh memory, 4 KiB pages", 0, n) |
	       run("write fresh memory, huge pages asked", 1, n);
}
