/*
 * alarm.c - the follower's cheap question about one new line of a log
 * that grows: does it say that something failed, that a wait ran out, or
 * that an HCCL kernel still waits (WaitFinishWhileLoop's "Current state")?
 * watch reads the bytes each file gained since its last look, line by
 * line, and decides at once on such a line instead of at its next
 * scheduled decision.  No evidence is made: the verdict is diagnose's.
 */
#include "ingest.h"

/* Words of a failure or of a wait that ran out, in any case. */
static const char *const fail_words[] = {
	"error", "timeout", "timed out", "time out", "exception",
	"traceback", "fail", "abort", "deadlock", "fatal", NULL
};
static const char *const wait_words[] = {
	"timeout", "timed out", "time out", "deadlock", NULL
};

static bool any_ci(const char *s, size_t n, const char *const *w)
{
	for (; *w; w++)
		if (hx_find_ci(s, n, *w))
			return true;
	return false;
}

/* "EI0002", "EE9999[PID: 1]": an error-manager code opens the text. */
static bool em_head(const char *s, size_t n)
{
	size_t i;

	if (n < 6 || s[0] != 'E' || s[1] < 'A' || s[1] > 'Z')
		return false;
	for (i = 2; i < 6; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n == 6 || !(s[6] >= '0' && s[6] <= '9');
}

static bool still_waits(const char *s, size_t n)
{
	return HX_FIND_LIT(s, n, "[WaitFinishWhileLoop]Current state") != NULL;
}

static bool by_level(int lv, const char *s, size_t n)
{
	switch (lv) {
	case HX_LV_ERROR:
	case HX_LV_CRITICAL:
		return true;
	case HX_LV_WARNING:
		return any_ci(s, n, wait_words);
	default:
		return still_waits(s, n);
	}
}

int hangdx_line_alarm(const char *line, size_t n)
{
	struct hx_envelope e;
	struct hx_prefix p;
	size_t skip;

	if (!line || n == 0)
		return 0;
	e.srun_indent = false;
	skip = hx_parse_envelope(line, n, &e);
	if (hx_parse_prefix(line + skip, n - skip, &p) && p.level != HX_LV_NONE)
		return by_level(p.level, p.body, p.bodylen);
	if (e.level != HX_LV_NONE)
		return by_level(e.level, line + skip, n - skip);
	return em_head(line + skip, n - skip) ||
	       any_ci(line + skip, n - skip, fail_words);
}
