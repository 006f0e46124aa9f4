/*
 * line.c - one log line at a time: the console envelope (launcher prefixes
 * around a message, docs/EVIDENCE.md), the cheap pre-filter that lets noise
 * cost almost nothing, the plog prefix grammar of log-formats.md §2 (its
 * variants P1-P21 and a lost '['), timestamps, and the key/value scanner
 * that normalises the many spellings of one field (§5).  Pure functions of
 * bytes; no allocation.  Families (families.c) build records from these.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ingest.h"

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_alnum(int c) { return is_digit(c) || is_alpha(c); }
static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

const char *hx_findn(const char *s, size_t n, const char *lit, size_t m)
{
	const char *p = s, *stop;

	if (m == 0 || m > n)
		return m == 0 ? s : NULL;
	stop = s + (n - m) + 1;
	while (p < stop && (p = memchr(p, lit[0], (size_t)(stop - p))) != NULL) {
		if (p[m - 1] == lit[m - 1] && memcmp(p + 1, lit + 1, m - 1) == 0)
			return p;
		p++;
	}
	return NULL;
}

const char *hx_find(const char *s, size_t n, const char *lit)
{
	return hx_findn(s, n, lit, strlen(lit));
}

static bool same_ci(const char *s, const char *lit, size_t m)
{
	size_t j;

	for (j = 0; j < m; j++)
		if (lower((unsigned char)s[j]) != lower((unsigned char)lit[j]))
			return false;
	return true;
}

const char *hx_find_ci(const char *s, size_t n, const char *lit)
{
	size_t m = strlen(lit), i;
	const char *p, *stop;
	int c0;

	if (m == 0 || m > n)
		return m == 0 ? s : NULL;
	c0 = lower((unsigned char)lit[0]);
	stop = s + (n - m) + 1;
	if (!is_alpha(c0)) {    /* "[opretry": its '[' is found with memchr */
		for (p = s; p < stop && (p = memchr(p, c0, (size_t)(stop - p))) != NULL; p++)
			if (same_ci(p + 1, lit + 1, m - 1))
				return p;
		return NULL;
	}
	for (i = 0; s + i < stop; i++)
		if (lower((unsigned char)s[i]) == c0 && same_ci(s + i + 1, lit + 1, m - 1))
			return s + i;
	return NULL;
}

static bool in_set(const char *set, char c)
{
	for (; *set; set++)
		if (*set == c)
			return true;
	return false;
}

bool hx_after(const char *s, size_t n, const char *lit, const char *stop,
	      const char **v, size_t *vlen)
{
	const char *p = hx_find(s, n, lit), *e, *end = s + n;

	if (!p)
		return false;
	p += strlen(lit);
	for (e = p; e < end && *e && !in_set(stop, *e); e++)
		;
	while (p < e && *p == ' ')
		p++;
	while (e > p && e[-1] == ' ')
		e--;
	*v = p;
	*vlen = (size_t)(e - p);
	return true;
}

bool hx_all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!is_digit((unsigned char)s[i]))
			return false;
	return n > 0;
}

bool hx_ellipsis(const char *s, size_t n)
{
	return (n >= 2 && s[0] == '.' && s[1] == '.') ||
	       (n >= 3 && memcmp(s, "\xe2\x80\xa6", 3) == 0);
}

bool hx_parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0, d0;
	int base = 10;

	while (i < n && s[i] == ' ')
		i++;
	if (i + 2 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i >= n)
		return false;
	d0 = i;
	for (; i < n; i++) {
		int c = (unsigned char)s[i], d;

		if (is_digit(c))
			d = c - '0';
		else if (base == 16 && lower(c) >= 'a' && lower(c) <= 'f')
			d = lower(c) - 'a' + 10;
		else
			break;
		if (__builtin_mul_overflow(v, (uint64_t)base, &v) ||
		    __builtin_add_overflow(v, (uint64_t)d, &v))
			return false;
	}
	if (i == d0)
		return false;
	if (i < n && ((base == 16 && is_alnum((unsigned char)s[i])) ||
		      ((s[i] == '.' || s[i] == '\xe2') &&
		       hx_ellipsis(s + i, n - i))))
		return false;   /* "0x…", "87…": a number a reporter cut */
	*out = v;
	return true;
}

bool hx_parse_i64(const char *s, size_t n, int64_t *out)
{
	uint64_t u;
	bool neg = false;

	while (n && *s == ' ') {
		s++;
		n--;
	}
	if (n && *s == '-') {
		neg = true;
		s++;
		n--;
	}
	if (!n || !is_digit((unsigned char)*s) || !hx_parse_u64(s, n, &u) ||
	    u > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)u : (int64_t)u;
	return true;
}

/* ---- timestamps ---- */

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static bool digits(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return true;
}

/*
 * "YYYY-MM-DD-hh:mm:ss" with ".mmm" and ".uuu" optional, or ".uuuuuu"
 * (Python's logging, ISO 8601); the separator between date and time may
 * be '-', ' ' or 'T'.
 */
/* The minute of the last time read on this thread: a log's lines mostly
 * share it, and then only the seconds are read. */
static _Thread_local struct {
	bool ok;
	char key[16];           /* "YYYY-MM-DD-hh:mm" as printed */
	int64_t secs;           /* of that minute */
} ts_minute;

static bool ts_minute_of(const char *s, int64_t *secs)
{
	unsigned y, mo, d, h, mi;

	if (ts_minute.ok && memcmp(s, ts_minute.key, 16) == 0) {
		*secs = ts_minute.secs;
		return true;
	}
	if (!digits(s, 4, &y) || !digits(s + 5, 2, &mo) ||
	    !digits(s + 8, 2, &d) || !digits(s + 11, 2, &h) ||
	    !digits(s + 14, 2, &mi) || mo < 1 || mo > 12 || d < 1 || d > 31 ||
	    h > 23 || mi > 59)
		return false;
	*secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60;
	memcpy(ts_minute.key, s, 16);
	ts_minute.secs = *secs;
	ts_minute.ok = true;
	return true;
}

int64_t hx_parse_ts(const char *s, size_t n)
{
	unsigned se, ms = 0, us = 0;
	int64_t secs;

	if (n < 19 || s[4] != '-' || s[7] != '-' ||
	    (s[10] != '-' && s[10] != ' ' && s[10] != 'T') || s[13] != ':' ||
	    s[16] != ':')
		return HX_NONE;
	if (!digits(s + 17, 2, &se) || se > 60 || !ts_minute_of(s, &secs))
		return HX_NONE;
	if (n >= 23 && s[19] == '.' && digits(s + 20, 3, &ms)) {
		if (n >= 27 && s[23] == '.' && !digits(s + 24, 3, &us))
			us = 0;
		else if (n >= 26 && s[23] != '.' && !digits(s + 23, 3, &us))
			us = 0;
	}
	return ((secs + se) * 1000000) + (int64_t)ms * 1000 + us;
}

void hx_format_ts(int64_t us, char out[32])
{
	int64_t secs = us / 1000000, frac = us % 1000000, days, rem;
	int64_t z, era, doe, yoe, y, doy, mp, d, m;

	if (frac < 0) {
		frac += 1000000;
		secs--;
	}
	days = secs / 86400;
	rem = secs % 86400;
	if (rem < 0) {
		rem += 86400;
		days--;
	}
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	if (y < 0 || y > 9999)
		y = 0;
	snprintf(out, 32, "%04u-%02u-%02uT%02u:%02u:%02u.%06u", (unsigned)y,
		 (unsigned)m % 100, (unsigned)d % 100,
		 (unsigned)(rem / 3600) % 100, (unsigned)(rem / 60 % 60),
		 (unsigned)(rem % 60), (unsigned)frac % 1000000);
}

/* ---- levels ---- */

static const char *const lvl_names[HX_LV_COUNT] = {
	"", "ERROR", "WARNING", "INFO", "DEBUG", "EVENT", "TRACE", "CRITICAL"
};

const char *hx_lvl_name(int lvl)
{
	return lvl > 0 && lvl < HX_LV_COUNT ? lvl_names[lvl] : "";
}

/* "LEVEL]" at s: a "[LEVEL]" whose '[' a paste lost. */
static int bare_level(const char *s, size_t n, size_t *end)
{
	int i;

	for (i = 1; i < HX_LV_COUNT; i++) {
		size_t m = strlen(lvl_names[i]);

		if (n > m && s[m] == ']' && memcmp(s, lvl_names[i], m) == 0) {
			*end = m + 1;
			return i;
		}
	}
	return HX_LV_NONE;
}

/* "LEVEL]" at s, lvl's name: its length with the ']', or 0. */
static size_t level_is(const char *s, size_t n, int lvl)
{
	static const unsigned char len[HX_LV_COUNT] = { 0, 5, 7, 4, 5, 5, 5, 8 };
	size_t m = len[lvl];

	return n > m && s[m] == ']' && memcmp(s, lvl_names[lvl], m) == 0
		       ? m + 1 : 0;
}

/* "[LEVEL]" at s; returns the level and sets *end past ']'.  One
 * comparison by the first letter: every line comes here. */
static int parse_level(const char *s, size_t n, size_t *end)
{
	static const signed char first[26] = {
		['C' - 'A'] = HX_LV_CRITICAL, ['D' - 'A'] = HX_LV_DEBUG,
		['E' - 'A'] = HX_LV_ERROR, ['I' - 'A'] = HX_LV_INFO,
		['T' - 'A'] = HX_LV_TRACE, ['W' - 'A'] = HX_LV_WARNING,
	};
	size_t m;
	int lv;

	if (n >= 5 && s[0] >= 'C' && s[0] <= 'W')
		return bare_level(s, n, end);
	if (n < 5 || s[0] != '[' || s[1] < 'A' || s[1] > 'Z')
		return HX_LV_NONE;
	lv = first[s[1] - 'A'];
	if (lv == HX_LV_NONE)
		return HX_LV_NONE;
	if ((m = level_is(s + 1, n - 1, lv)) != 0 ||
	    (lv == HX_LV_ERROR &&
	     (m = level_is(s + 1, n - 1, lv = HX_LV_EVENT)) != 0)) {
		*end = m + 1;
		return lv;
	}
	if (n >= 6 && memcmp(s, "[WARN]", 6) == 0) {
		*end = 6;
		return HX_LV_WARNING;
	}
	return HX_LV_NONE;
}

/* ---- the pre-filter ---- */

static bool lit_at(const char *s, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n >= l && memcmp(s, lit, l) == 0;
}

/* The message text of an HCCL line (after "[TID]", and ": " in the
 * HCCL_ENTRY_INFO form) starts a real AICPU kernel line that carries no
 * bracket the walk below knows: launch, entry, op init, launched, end,
 * suspended, KFC status, communicator status, SQ-full waits, "op is not
 * activated" (docs/HCCL-SOURCE-STRINGS.md). */
static bool kernel_text(const char *s, size_t n)
{
	if (n > 2 && s[0] == ':' && s[1] == ' ') {
		s += 2;
		n -= 2;
	}
	if (n < 16)
		return false;
	switch (s[0]) {
	case 'A':
		return lit_at(s, n, "AicpuKfcTilingDataLaunchIn ") ||
		       lit_at(s, n, "AicpuComm: ");
	case 'R':
		return lit_at(s, n, "RunAicpuRpcSrvLaunchV2 KFCTask");
	case 'H':
		return lit_at(s, n, "HcclOpExecFsmInitProcess ");
	case 'h':
		return lit_at(s, n, "hccl aicpu launch hccl op task success") ||
		       lit_at(s, n, "hccl aicpu set kfcStatus[");
	case 'e':
		return lit_at(s, n, "end RunAicpuRpcSrvLaunchV2");
	case 'a':
		return lit_at(s, n, "aicpu is suspended");
	case '[':
		return lit_at(s, n, "[LaunchTask][WaitLaunchWhileLoop]") ||
		       lit_at(s, n, "[DispatcherAicpu][WaitRtsq] Current") ||
		       lit_at(s, n, "[PrintTaskExceptionAllStreams] group[");
	default:
		return false;
	}
}

/* "[5019]" at p: the text after it starts a kernel line. */
static bool tid_then_kernel(const char *p, const char *end)
{
	const char *q = p + 1;

	while (q < end && q - p < 12 && is_digit((unsigned char)*q))
		q++;
	return q > p + 1 && q < end && *q == ']' &&
	       kernel_text(q + 1, (size_t)(end - q - 1));
}

/*
 * INFO/DEBUG/TRACE/EVENT lines matter only for a few HCCL families: the
 * communicator creation lines (rank[, ranks[, rankNum[, totalRanks[), env
 * echo ("to [", "is ["), heartbeat events (status[, "rank ["), op tags and
 * [OpRetry].  One memchr walk over the '[' of the line decides.
 */
/* HCCL's run lines of a communicator destroyed (op_base.cc, hcom.cc):
 * "op_base comm destroy complete, take time [N]us, group[G], ...",
 * "hcom destroy group[G] success.", "Destroy comm group [G] success." */
static bool destroy_before(const char *s, const char *p)
{
	size_t back = (size_t)(p - s);
	size_t k = back < 40 ? back : 40;

	return hx_find(p - k, k, "estroy") != NULL;
}

static bool info_interesting(const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	while ((p = memchr(p, '[', (size_t)(end - p))) != NULL) {
		size_t back = (size_t)(p - s);

		if (back >= 4) {
			const char *q = p - 4;

			if (memcmp(q + 1, "ank", 3) == 0 ||
			    memcmp(q, "anks", 4) == 0 ||
			    memcmp(q + 1, "Num", 3) == 0 ||
			    memcmp(q, "atus", 4) == 0 ||
			    memcmp(q, "ank ", 4) == 0 ||
			    memcmp(q + 1, "to ", 3) == 0 ||
			    memcmp(q + 1, "is ", 3) == 0 ||
			    memcmp(q + 1, "Out", 3) == 0 ||
			    (back >= 7 && memcmp(p - 7, "op tag", 6) == 0))
				return true;
			if ((memcmp(q, "ime ", 4) == 0 ||
			     memcmp(q, "roup", 4) == 0 ||
			     memcmp(q, "oup ", 4) == 0) && destroy_before(s, p))
				return true;
		}
		if (end - p > 5 && (memcmp(p + 1, "OpRe", 4) == 0 ||
				    memcmp(p + 1, "Opre", 4) == 0 ||
				    memcmp(p + 1, "HCCL_ENV", 5) == 0))
			return true;
		/* HCCL kernel lifetime lines: who holds the AICPU cores */
		if (end - p > 10 && memcmp(p + 1, "HcclCommAi", 10) == 0)
			return true;
		if (end - p > 2 && is_digit((unsigned char)p[1]) &&
		    tid_then_kernel(p, end))
			return true;
		p++;
	}
	return false;
}

/* The AICPU scheduler's task lines, "[file:line][Func][tid:N] text": a
 * TS kernel task begins or ends, a KFC task starts, the scheduler starts
 * (hicann/runtime aicpusd_event_manager.cpp, main.cpp). */
static bool ccecpu_interesting(const char *s, size_t n)
{
	const char *t = hx_find(s, n < 256 ? n : 256, "[tid:"), *end = s + n;

	if (!t || !(t = memchr(t, ']', (size_t)(end - t))))
		return false;
	while (++t < end && *t == ' ')
		;
	n = (size_t)(end - t);
	switch (n > 10 ? *t : 0) {
	case 'B':
		return lit_at(t, n, "Begin to ExecuteTsKernelTask");
	case 'E':
		return lit_at(t, n, "End send ack to Ts");
	case 'k':
		return lit_at(t, n, "kfc task, ");
	case 'A':
		return lit_at(t, n, "Aicpu schedule start");
	default:
		return false;
	}
}

static bool acl_end(const char *s, size_t n);
static bool sample_end(const char *s, size_t n);

/* INFO/DEBUG/TRACE/EVENT: only some HCCL and CCECPU lines (s after the
 * level), and the ACL samples' last line (hx_run_end's "[INFO] end to
 * finalize acl", asked for alone: every INFO line comes here) and the
 * vendor samples' ends (asked only of a line whose message starts with
 * their first byte). */
static int classify_info(const char *s, size_t n, size_t i)
{
	if (s[0] == '[' && acl_end(s, n))
		return HX_CL_BARE;
	while (i < n && s[i] == ' ')
		i++;
	if (n - i > 7 && memcmp(s + i, "CCECPU(", 7) == 0)
		return ccecpu_interesting(s + i, n - i) ? HX_CL_PREFIXED
							 : HX_CL_NOISE;
	if (n - i < 5 || memcmp(s + i, "HCCL(", 5) != 0)
		/* "[INFO]  [SUCCESS] ...", "[INFO] Test Passed!", "[INFO]
		 * Run the ... sample successfully." */
		return i < n && (s[i] == '[' || s[i] == 'T' || s[i] == 'R' || s[i] == 'S') &&
		       s[0] == '[' && sample_end(s, n) ? HX_CL_BARE : HX_CL_NOISE;
	return info_interesting(s + i, n - i) ? HX_CL_PREFIXED : HX_CL_NOISE;
}

/* "ERROR] HCCL(...": a plog line whose '[' the paste lost. */
static int classify_lost(const char *s, size_t n)
{
	size_t end;
	int lv = bare_level(s, n, &end);

	if (lv == HX_LV_NONE)
		return HX_CL_NOISE;
	if (lv == HX_LV_ERROR || lv == HX_LV_WARNING || lv == HX_LV_CRITICAL)
		return HX_CL_PREFIXED;
	return classify_info(s, n, end);
}

static int classify_bracket(const char *s, size_t n)
{
	size_t i = 1;

	switch (s[1]) {
	case 'E':
		if (s[2] == 'R')
			return HX_CL_PREFIXED;
		if (is_digit((unsigned char)s[2]))
			return HX_CL_BARE;      /* c10 "[E324 13:00:25.428 ...]" */
		break;          /* EVENT */
	case 'W':
	case 'C':
		return HX_CL_PREFIXED;
	case 'P':
		return HX_CL_BARE;      /* "[PID: n] ts Title(EIxxxx):" */
	case 'S':               /* a vendor sample's end */
		return sample_end(s, n) ? HX_CL_BARE : HX_CL_NOISE;
	case 'I':
	case 'D':
	case 'T':
		break;
	default:
		return HX_CL_NOISE;
	}
	while (i < n && i < 12 && s[i] != ']')
		i++;
	if (++i >= n)
		return HX_CL_NOISE;
	if (s[i] == '[')                /* watchdog form */
		return hx_find(s, n, "watchdog") ? HX_CL_PREFIXED : HX_CL_NOISE;
	return classify_info(s, n, i);
}

/* "EI0002:", "EE9999  text", "EE9999[PID: 4242]": an error-manager code
 * at the start of a line, as a header or as a body line of its block. */
static bool is_em_code(const char *s, size_t n)
{
	size_t i;

	if (n < 7 || s[0] != 'E')
		return false;
	for (i = 1; i < 6; i++)
		if (!is_alnum((unsigned char)s[i]))
			return false;
	return (s[6] == ':' || s[6] == ' ' || s[6] == '[') &&
	       is_digit((unsigned char)s[5]);
}

/* A benchmark's result banner: "==== Serving Benchmark Result ====" on
 * one line, or its title alone between lines of "=", centred with spaces
 * ("          TTS Speed Benchmark Result          "). */
static bool bench_banner(const char *s, size_t n)
{
	while (n && s[n - 1] == ' ')
		n--;
	if (n && s[0] == '=')
		return hx_find(s, n, " Benchmark Result ") != NULL;
	return n > 17 && n < 72 && memcmp(s + n - 17, " Benchmark Result", 17) == 0 &&
	       !memchr(s, ':', n) && !memchr(s, '[', n);
}

/* pytest's last line when every test ran and none failed ("=== 6 passed,
 * 1 skipped in 42.17s ===", _pytest/terminal.py: the counts, " in ",
 * the seconds): the session ended.  A count of failed or error tests is
 * no such end here (a test may have timed out). */
static int two(const char *s)
{
	return is_digit((unsigned char)s[0]) && is_digit((unsigned char)s[1])
	       ? (s[0] - '0') * 10 + (s[1] - '0') : -1;
}

/* "MM-DD" ending at s[e] (exclusive), "YYYY-MM-DD", or glog's
 * "[IWEF]MMDD": the day's index, *kind 1 without the year, 2 with it; -1
 * if none. */
static int64_t clock_day(const char *s, size_t e, int *kind)
{
	int mo, dd, y1, y2;

	if (e >= 5 && s[e - 3] == '-' && (mo = two(s + e - 5)) > 0 &&
	    (dd = two(s + e - 2)) > 0) {
		*kind = 1;
		if (e >= 10 && s[e - 6] == '-' && (y1 = two(s + e - 10)) >= 0 &&
		    (y2 = two(s + e - 8)) >= 0) {
			*kind = 2;
			return ((int64_t)(y1 * 100 + y2) * 12 + mo) * 31 + dd;
		}
		return mo * 31 + dd;
	}
	if (e >= 5 && (s[e - 5] == 'I' || s[e - 5] == 'W' || s[e - 5] == 'E' ||
		       s[e - 5] == 'F') && (mo = two(s + e - 4)) > 0 &&
	    (dd = two(s + e - 2)) > 0 && (e == 5 || !is_alnum((unsigned char)s[e - 6]))) {
		*kind = 1;
		return mo * 31 + dd;
	}
	return -1;
}

bool hx_line_clock(const char *s, size_t n, int64_t *clk, int *dated)
{
	size_t lim = n < 96 ? n : 96, j;
	const char *c = s;
	int hh, mm, ss, kind = 0;
	int64_t day;

	while ((c = memchr(c, ':', lim - (size_t)(c - s))) != NULL) {
		j = (size_t)(c - s);
		c++;
		if (j < 2 || j + 6 > n || s[j + 3] != ':' ||
		    (hh = two(s + j - 2)) < 0 || hh > 23 ||
		    (mm = two(s + j + 1)) < 0 || mm > 59 ||
		    (ss = two(s + j + 4)) < 0 || ss > 60 ||
		    (j > 2 && is_digit((unsigned char)s[j - 3])))
			continue;
		*clk = hh * 3600 + mm * 60 + ss;
		day = j > 3 && (s[j - 3] == ' ' || s[j - 3] == '-' ||
				s[j - 3] == 'T') ? clock_day(s, j - 3, &kind) : -1;
		*dated = day >= 0 ? kind : 0;
		if (day >= 0)
			*clk += day * 86400;
		return true;
	}
	return false;
}

/* llama.cpp's last timing line, "llama_perf_context_print:       total
 * time =  231911.05 ms /   413 tokens" (llama_print_timings: before it),
 * printed as its program exits (llama-context.cpp, llama_perf_context_print),
 * and whisper.cpp's ("whisper_print_timings:    total time =  2854.32 ms"):
 * a normal end. */
static bool llama_total(const char *s, size_t n)
{
	static const char a[] = "llama_perf_context_print:", b[] = "llama_print_timings:",
			  w[] = "whisper_print_timings:";
	size_t k;

	if (n > sizeof a && memcmp(s, a, sizeof a - 1) == 0)
		k = sizeof a - 1;
	else if (n > sizeof b && memcmp(s, b, sizeof b - 1) == 0)
		k = sizeof b - 1;
	else if (n > sizeof w && memcmp(s, w, sizeof w - 1) == 0)
		k = sizeof w - 1;
	else
		return false;
	while (k < n && s[k] == ' ')
		k++;
	return n - k > 12 && memcmp(s + k, "total time =", 12) == 0;
}

/* pytest's summary of a session in which no test failed ("=== 6 passed in
 * 42.17s ==="): a normal end. */
static bool pytest_passed(const char *s, size_t n)
{
	const char *in;

	if (n < 24 || memcmp(s, "===", 3) != 0 || s[n - 1] != '=' ||
	    !HX_FIND_LIT(s, n, " passed") || HX_FIND_LIT(s, n, "failed") ||
	    HX_FIND_LIT(s, n, "error"))
		return false;
	in = hx_find(s, n, " in ");
	return in && in + 4 < s + n && in[4] >= '0' && in[4] <= '9' &&
	       hx_find(in, (size_t)(s + n - in), "s ") != NULL;
}

/* A row of hccl_test's result table: "8192   |  764.55  |  0.00998  |
 * success", its size, blanks and a bar. */
static bool hccl_test_row(const char *s, size_t n)
{
	size_t k = 0;

	while (k < n && k < 20 && s[k] >= '0' && s[k] <= '9')
		k++;
	if (k == 0 || k == 20)
		return false;
	while (k < n && s[k] == ' ')
		k++;
	return k < n && s[k] == '|';
}

/* The head of lm-evaluation-harness's table of results ("|  Tasks
 * |Version|Filter|n-shot|Metric|   |Value |   |Stderr|", lm_eval/utils.py
 * make_table; "Groups" for its table of groups), printed once every task
 * was evaluated.  pytablewriter pads each head to its column's width
 * ("|     Filter     |"); a paste may lose the first bar. */
static bool lm_eval_table(const char *s, size_t n)
{
	static const char head[] = "|Version|Filter|n-shot|Metric|";
	char b[sizeof head + 8];
	size_t i, k = 0, m = sizeof head - 1;

	if (n < 40)
		return false;
	if (s[0] == '|')        /* the first cell: its padding, its name */
		s++, n--;
	for (i = 0; i < n && s[i] == ' '; i++)
		;
	if (n - i > 6 && memcmp(s + i, "Tasks", 5) == 0)
		i += 5;
	else if (n - i > 7 && memcmp(s + i, "Groups", 6) == 0)
		i += 6;
	else
		return false;
	for (; i < n && k < m; i++)     /* the heads, padded to their columns */
		if (s[i] != ' ')
			b[k++] = s[i];
	return k == m && memcmp(b, head, m) == 0;
}

/* The last line of the vendor's ACL samples and the tools built on them
 * (msame, ais_bench, msit benchmark) as they release the device:
 * "[INFO] end to finalize acl" (Ascend/samples sample_process.cpp,
 * DestroyResource); and ATC's "ATC run success, welcome to the next use."
 * (hicann/ge api/atc/main_impl.cc).  Normal ends of their programs. */
static bool acl_end(const char *s, size_t n)
{
	static const char end[] = "end to finalize acl";
	size_t k = 6, m = sizeof end - 1;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n < k + 1 + m || memcmp(s, "[INFO]", k) != 0 || s[k] != ' ')
		return false;
	while (k < n && s[k] == ' ')
		k++;
	return n - k == m && memcmp(s + k, end, m) == 0;
}

/* The vendor's samples as they end: the runtime's (hicann/runtime
 * example/, its run.sh and INFO_LOG) "[SUCCESS] result correct", "[INFO]
 * [SUCCESS] Context query sample completed successfully", "Sample run
 * successfully!", "Run the simple_queue sample successfully."; HCCL's
 * (hicann/hccl examples/, testcase/main.cc) "[INFO] Test Passed!".
 * Normal ends of their programs. */
static bool sample_end(const char *s, size_t n)
{
	static const char ok[] = "[SUCCESS]", run[] = "Sample run successfully",
			  the[] = "Run the ", tail[] = " sample successfully.",
			  passed[] = "Test Passed!";
	bool info = n > 7 && memcmp(s, "[INFO]", 6) == 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (info)
		for (s += 6, n -= 6; n && *s == ' '; s++, n--)
			;
	if (n > sizeof ok && memcmp(s, ok, sizeof ok - 1) == 0)
		return s[sizeof ok - 1] == ' ' || s[sizeof ok - 1] == ':';
	if (n >= sizeof run - 1 && memcmp(s, run, sizeof run - 1) == 0)
		return true;
	if (info && n == sizeof passed - 1 && memcmp(s, passed, n) == 0)
		return true;
	return n > sizeof the + sizeof tail && memcmp(s, the, sizeof the - 1) == 0 &&
	       memcmp(s + n - (sizeof tail - 1), tail, sizeof tail - 1) == 0;
}

/* The first row of a serving benchmark's result, "Successful requests:",
 * pasted without its banner (vllm benchmarks/serve.py; sglang's
 * bench_serving): a normal end. */
static bool served_row(const char *s, size_t n)
{
	return n > 21 && memcmp(s, "Successful requests: ", 21) == 0;
}

static bool atc_success(const char *s, size_t n)
{
	return n >= 41 && memcmp(s, "ATC run success, welcome to the next use", 40) == 0;
}

/* A whole line: head, then a number with three decimals ("%.3f"), then
 * tail; trailing blanks aside. */
static bool fixed3_line(const char *s, size_t n, const char *head,
			const char *tail)
{
	size_t h = strlen(head), t = strlen(tail), d, k;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n < h + 5 + t || memcmp(s, head, h) != 0)
		return false;
	for (d = h; d < n && s[d] >= '0' && s[d] <= '9'; d++)
		;
	if (d == h || d + 4 + t != n || s[d] != '.' ||
	    memcmp(s + d + 4, tail, t) != 0)
		return false;
	for (k = d + 1; k < d + 4; k++)
		if (s[k] < '0' || s[k] > '9')
			return false;
	return true;
}

/* An evaluation's result as it ends: "Total latency: 315.435 s", the
 * line sglang's simple evals print last but one or two (test/run_eval.py,
 * its Score or throughput after it), a whole line, three decimals. */
static bool eval_latency(const char *s, size_t n)
{
	return fixed3_line(s, n, "Total latency: ", " s");
}

/* The share of answers that did not parse, the middle line of the result
 * sglang's benchmarks print as they end (benchmark/gsm8k/bench_sglang.py
 * and its kin: "Accuracy: 0.945", "Invalid: 0.000", "Latency: 44.533 s"),
 * a whole line, three decimals. */
static bool bench_invalid(const char *s, size_t n)
{
	return fixed3_line(s, n, "Invalid: ", "");
}

/* What the Hugging Face Trainer's train() returns, as a script prints it
 * ("TrainOutput(global_step=375, training_loss=1.05, metrics={...})"). */
static bool train_output(const char *s, size_t n)
{
	return n > 26 && memcmp(s, "TrainOutput(global_step=", 24) == 0 &&
	       s[24] >= '0' && s[24] <= '9';
}

/* vLLM's offline example once generate() returned: "Prompt: 'Hello, my
 * name is', Generated text: ' Lucy ...'" (examples/offline_inference). */
static bool prompt_generated(const char *s, size_t n)
{
	return n > 30 && memcmp(s, "Prompt: ", 8) == 0 &&
	       (s[8] == '\'' || s[8] == '"') &&
	       HX_FIND_LIT(s + 9, n - 9, ", Generated text: ") != NULL;
}

/* the next word of s from *k, over blanks: lit */
static bool next_word(const char *s, size_t n, size_t *k, const char *lit)
{
	size_t m = strlen(lit), j = *k;

	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (j == *k || n - j < m || memcmp(s + j, lit, m) != 0 ||
	    (j + m < n && s[j + m] != ' ' && s[j + m] != '\t'))
		return false;
	*k = j + m;
	return true;
}

/* The head of the summary table OpenCompass and AISBench print as an
 * evaluation ends: "dataset  version  metric  mode  <model>...". */
static bool eval_summary(const char *s, size_t n)
{
	size_t k = 7;

	return n > 30 && memcmp(s, "dataset", 7) == 0 &&
	       next_word(s, n, &k, "version") && next_word(s, n, &k, "metric") &&
	       next_word(s, n, &k, "mode") && k < n;
}

/* tqdm's bar of vLLM's offline LLM.generate once every prompt is done:
 * "Processed prompts: 100%|█████| 8/8 [00:03<00:00, ...]" (vllm,
 * entrypoints/llm.py, desc="Processed prompts"): the counts equal. */
static bool prompts_done(const char *s, size_t n)
{
	const char *bar;
	size_t k, i, j;

	if (n < 28 || memcmp(s, "Processed prompts: 100%|", 24) != 0 ||
	    !(bar = memchr(s + 24, '|', n - 24)))
		return false;
	for (k = (size_t)(bar - s) + 1; k < n && s[k] == ' '; k++)
		;
	for (i = k; i < n && is_digit((unsigned char)s[i]); i++)
		;
	if (i == k || i == n || s[i] != '/')
		return false;
	for (j = i + 1; j < n && is_digit((unsigned char)s[j]); j++)
		;
	return j - i - 1 == i - k && memcmp(s + k, s + i + 1, i - k) == 0 &&
	       (j == n || s[j] == ' ');
}

/* verl's trainers print their last validation as fit() returns, through
 * pprint, which may wrap it in ("...") */
static bool verl_final(const char *s, size_t n)
{
	size_t k = n > 2 && s[0] == '(' && (s[1] == '"' || s[1] == '\'') ? 2 : 0;

	return n - k > 26 && memcmp(s + k, "Final validation metrics: ", 26) == 0;
}

const char *hx_run_end(const char *s, size_t n)
{
	const char *what = NULL;

	if (n < 8)
		return NULL;
	switch (s[0]) {
	case 'T':
		what = n > 18 && memcmp(s, "Training completed", 18) == 0
		       ? "training_completed"
		       : train_output(s, n) ? "train_output"
		       : lm_eval_table(s, n) ? "lm_eval_results"
		       : eval_latency(s, n) ? "benchmark_result" : NULL;
		break;
	case 'G':
	case '|':
		what = lm_eval_table(s, n) ? "lm_eval_results" : NULL;
		break;
	case 'F':
	case '(':
		what = verl_final(s, n) ? "final_validation" : NULL;
		break;
	case 'P':
		what = prompts_done(s, n) ? "prompts_done"
		       : prompt_generated(s, n) ? "prompts_generated" : NULL;
		break;
	case 'l':
	case 'w':
		what = llama_total(s, n) ? "llama_perf" : NULL;
		break;
	case 'S':
		what = served_row(s, n) ? "benchmark_result"
		       : sample_end(s, n) ? "sample_passed" : NULL;
		break;
	case 'R':
		what = sample_end(s, n) ? "sample_passed" : NULL;
		break;
	case '[':       /* no banner holds a '[' */
		return acl_end(s, n) ? "acl_finalized"
		       : sample_end(s, n) ? "sample_passed" : NULL;
	case 'A':
		what = atc_success(s, n) ? "atc_success" : NULL;
		break;
	case 'I':
		what = bench_invalid(s, n) ? "benchmark_result" : NULL;
		break;
	case 'd':
		what = eval_summary(s, n) ? "benchmark_result" : NULL;
		break;
	case '=':
		what = pytest_passed(s, n) ? "pytest_passed" : NULL;
		break;
	default:
		break;
	}
	/* a banner, or its title centred alone on its line */
	return what ? what : bench_banner(s, n) ? "benchmark_result" : NULL;
}

static int classify_line(const char *s, size_t n)
{
	const char *b;

	if (n < 3)
		return n && s[0] == ']' ? HX_CL_BARE : HX_CL_NOISE;
	switch (s[0]) {
	case '[':
		return classify_bracket(s, n);
	case ' ':
	case '\t':
	case ']':
	case '#':
		return HX_CL_BARE;
	case 'E':
		if (is_em_code(s, n))
			return HX_CL_BARE;
		return classify_lost(s, n);
	case 'T':       /* the Hugging Face Trainer's end of training; a
			 * Python traceback's first line; lm-eval's table
			 * whose first bar the paste lost; an eval's result;
			 * HCCL's failed task wrapped under its head */
		if (hx_traceback_head(s, n) || hx_run_end(s, n) ||
		    (n > 40 &&
		     memcmp(s, "Task run failed, base information is", 36) == 0))
			return HX_CL_BARE;
		return classify_lost(s, n);
	case 'F':       /* verl's trainers: the last validation, at the end */
	case '(':       /* ... as pprint wraps it: ("Final validation ... */
	case 'G':       /* lm-evaluation-harness's groups, the first bar lost */
	case 'A':       /* ATC's end */
	case '|':       /* lm-evaluation-harness's results */
	case 'S':       /* a serving benchmark's result, its first row */
	case 'P':       /* vLLM's offline generate, every prompt done */
		if (hx_run_end(s, n))
			return HX_CL_BARE;
		break;
	case 'I':       /* sglang's benchmarks' result */
		if (hx_run_end(s, n))
			return HX_CL_BARE;
		return classify_lost(s, n);
	case 'W':
	case 'D':
	case 'C':
		return classify_lost(s, n);
	case 'h':       /* HCCL's examples and hccl_test: a call failed */
		if (n > 26 && memcmp(s, "hccl interface return err ", 26) == 0)
			return HX_CL_BARE;
		break;
	case 'a':       /* hccl_test: an ACL call failed */
		if (n > 25 && memcmp(s, "acl interface return err ", 25) == 0)
			return HX_CL_BARE;
		break;
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return hccl_test_row(s, n) ? HX_CL_BARE : HX_CL_NOISE;
	case 'l':       /* llama.cpp's timings as its program exits; a
			 * rank's failed check of hccl_test */
		return hx_run_end(s, n) ||
		       (n > 40 && memcmp(s, "local rank_id ", 14) == 0)
			       ? HX_CL_BARE : HX_CL_NOISE;
	case 'w':       /* whisper.cpp's, as its program exits */
	case 'd':       /* an evaluation's summary table */
		return hx_run_end(s, n) ? HX_CL_BARE : HX_CL_NOISE;
	case 'N':       /* vLLM: the engine waits for its workers */
		return n > 30 && memcmp(s, "No available shared memory", 26) == 0
			       ? HX_CL_BARE : HX_CL_NOISE;
	case 'p':
		return n > 4 && memcmp(s, "pos=", 4) == 0 ? HX_CL_BARE
							   : HX_CL_NOISE;
	case 's':
		return n > 10 && memcmp(s, "stream_id=", 10) == 0
			       ? HX_CL_BARE : HX_CL_NOISE;
	case 'R':       /* torch elastic's summary: the rank that failed;
			 * a vendor sample's end */
		return (n > 13 && memcmp(s, "RuntimeError:", 13) == 0) ||
		       (n >= 36 && memcmp(s, "Root Cause (first observed failure):", 36) == 0) ||
		       hx_run_end(s, n)
			       ? HX_CL_BARE : HX_CL_NOISE;
	case 't':       /* C++'s "terminate called after throwing ..." too */
		return (n > 13 && memcmp(s, "there are(is)", 13) == 0) ||
		       (n > 16 && memcmp(s, "the minbytes is ", 16) == 0) ||
		       (n > 6 && memcmp(s, "torch.", 6) == 0) ||
		       (n > 16 && memcmp(s, "terminate called", 16) == 0)
			       ? HX_CL_BARE : HX_CL_NOISE;
	default:
		if (s[0] == '=' && (hx_run_end(s, n) ||     /* vLLM's benchmark */
				    (n > 8 && memcmp(s, "==> ", 4) == 0)))  /* tail's */
			return HX_CL_BARE;                      /* "==> PATH <==" */
		break;
	}
	/* `grep -rn` output: "path:[LEVEL]..." or "path:123:[LEVEL]..." */
	b = memchr(s, '[', n < 1024 ? n : 1024);
	if (b && b > s && b[-1] == ':' && !memchr(s, ' ', (size_t)(b - s)))
		return classify_line(b, n - (size_t)(b - s)) != HX_CL_NOISE
			       ? HX_CL_PREFIXED : HX_CL_NOISE;
	return HX_CL_NOISE;
}

/* A plog line of a level that is filtered above ("[INFO] ..."), not
 * a bracket that only starts like one ("[TP0]", sglang's rank). */
static bool plog_level(const char *s, size_t n)
{
	if (n < 6 || s[0] != '[')
		return false;
	switch (s[1]) {
	case 'I':
		return memcmp(s, "[INFO]", 6) == 0;
	case 'D':
		return n >= 7 && memcmp(s, "[DEBUG]", 7) == 0;
	case 'E':
		return n >= 7 && (memcmp(s, "[ERROR]", 7) == 0 ||
				  memcmp(s, "[EVENT]", 7) == 0);
	case 'T':
		return n >= 7 && memcmp(s, "[TRACE]", 7) == 0;
	default:
		return false;
	}
}

int hx_classify(const char *s, size_t n)
{
	int c = classify_line(s, n);

	/* console text (launcher prefixes, messages not at the start of
	 * the line): families.c has the last word */
	if (c == HX_CL_NOISE && !plog_level(s, n) && hx_field_candidate(s, n))
		return HX_CL_BARE;
	return c;
}

/* ---- the prefix ---- */

/* "[file:123]" at s[i]: true with the content bounds. */
static bool src_bracket(const char *s, size_t n, size_t i, size_t *cb,
			size_t *ce, size_t *after)
{
	const char *e;
	size_t j;

	*cb = *ce = *after = 0;
	if (i >= n || s[i] != '[')
		return false;
	e = memchr(s + i, ']', n - i < 512 ? n - i : 512);
	if (!e)
		return false;
	j = (size_t)(e - s);
	*cb = i + 1;
	*ce = j;
	*after = j + 1;
	if (j == i + 1 || !is_digit((unsigned char)s[j - 1]))
		return false;
	while (j > i + 1 && is_digit((unsigned char)s[j - 1]))
		j--;
	return j > i + 2 && s[j - 1] == ':';
}

static size_t skip_sp(const char *s, size_t n, size_t i)
{
	while (i < n && s[i] == ' ')
		i++;
	return i;
}

/* Read decimal digits at s[i]; returns the index after them. */
static size_t read_num(const char *s, size_t n, size_t i, int64_t *v)
{
	size_t j = i;

	while (j < n && is_digit((unsigned char)s[j]) && j - i < 19)
		j++;
	if (j > i && !hx_parse_i64(s + i, j - i, v))
		return i;
	return j;
}

/* The thread id after the source location, in any of its forms. */
static size_t parse_tid(const char *s, size_t n, size_t i,
			struct hx_prefix *p)
{
	size_t j = skip_sp(s, n, i), k;
	int64_t v, v2;

	if (j < n && s[j] == '[') {
		k = read_num(s, n, j + 1, &v);
		if (k > j + 1 && k < n && s[k] == ']') {
			p->tid = v;
			j = k + 1;
			if (j < n && s[j] == '[') {
				k = read_num(s, n, j + 1, &v2);
				if (k > j + 1 && k < n && s[k] == ']' &&
				    v == p->pid) {
					p->tid = v2;
					j = k + 1;
				}
			}
			return j;
		}
		return i;
	}
	if (j < n && is_digit((unsigned char)s[j])) {
		k = read_num(s, n, j, &v);
		if (k > j && (k >= n || s[k] == ' ')) {
			p->tid = v;
			return skip_sp(s, n, k);
		}
		return i;
	}
	if (n - j > 5 && memcmp(s + j, "(tid:", 5) == 0) {
		k = read_num(s, n, j + 5, &v);
		if (k > j + 5 && k < n && s[k] == ')') {
			p->tid = v;
			return skip_sp(s, n, k + 1);
		}
	}
	if (n - j > 4 && memcmp(s + j, "tid:", 4) == 0) {
		k = read_num(s, n, j + 4, &v);
		if (k > j + 4 && k < n && s[k] == ',') {
			p->tid = v;
			return k + 1;
		}
	}
	return i;
}

/* TSCH: "3986 (dieid:0,cpuid:0) stars_timewheel.c:90 func: text" */
static bool parse_tsch_src(const char *s, size_t n, size_t i,
			   struct hx_prefix *p, size_t *after)
{
	size_t j = i, fb;

	while (j < n && is_digit((unsigned char)s[j]))
		j++;
	if (j == i || j + 8 > n || memcmp(s + j, " (dieid:", 8) != 0)
		return false;
	while (j < n && s[j] != ')')
		j++;
	j = skip_sp(s, n, j + 1);
	fb = j;
	while (j < n && s[j] != ' ')
		j++;
	if (j == fb)
		return false;
	p->src = s + fb;
	p->srclen = j - fb;
	*after = skip_sp(s, n, j);
	p->form = HX_PF_TSCH;
	return true;
}

/* "[INFO][pid:2241703][awatchdog_monitor.c:145](tid:2245407) text" */
static bool parse_watchdog(const char *s, size_t n, size_t i,
			   struct hx_prefix *p)
{
	size_t k, cb, ce, after;
	int64_t v;

	if (n - i < 6 || memcmp(s + i, "[pid:", 5) != 0)
		return false;
	k = read_num(s, n, i + 5, &v);
	if (k == i + 5 || k >= n || s[k] != ']')
		return false;
	p->pid = v;
	if (!src_bracket(s, n, k + 1, &cb, &ce, &after))
		return false;
	p->src = s + cb;
	p->srclen = ce - cb;
	after = parse_tid(s, n, after, p);
	p->body = s + after;
	p->bodylen = n - after;
	p->form = HX_PF_WATCHDOG;
	return true;
}

/* MODULE(pid[,thread],pname):TS ; returns index after TS or 0. */
static size_t parse_head(const char *s, size_t n, size_t i,
			 struct hx_prefix *p)
{
	size_t mb = i, k, cp, c1, c2;
	int64_t v;

	while (i < n && (is_alnum((unsigned char)s[i]) || s[i] == '_'))
		i++;
	if (i == mb || i - mb > 32 || i >= n || s[i] != '(')
		return 0;
	p->mod = s + mb;
	p->modlen = i - mb;
	k = i + 1;
	if (k < n && s[k] == '-')
		k++;
	c1 = read_num(s, n, k, &v);
	if (c1 == k || c1 >= n || s[c1] != ',')
		return 0;
	p->pid = s[i + 1] == '-' ? -v : v;
	cp = c1 + 1;
	while (cp < n && cp - c1 < 256 && s[cp] != ')')
		cp++;
	if (cp >= n || s[cp] != ')')
		return 0;
	c2 = c1 + 1;
	while (c2 < cp && s[c2] != ',')
		c2++;
	if (c2 < cp) {          /* MindSpore: pid,thread,pname */
		uint64_t t = 0;
		size_t q;
		bool ok = c2 - c1 - 1 > 0 && c2 - c1 - 1 <= 15;

		for (q = c1 + 1; ok && q < c2; q++) {
			int h = lower((unsigned char)s[q]);

			if (is_digit(h))
				t = t * 16 + (uint64_t)(h - '0');
			else if (h >= 'a' && h <= 'f')
				t = t * 16 + (uint64_t)(h - 'a' + 10);
			else
				ok = false;
		}
		if (ok)
			p->tid = (int64_t)t;
		c1 = c2;
	}
	p->pname = s + c1 + 1;
	p->pnamelen = cp - c1 - 1;
	k = cp + 1;
	if (k >= n || s[k] != ':')
		return 0;
	k++;
	p->ts = hx_parse_ts(s + k, n - k);
	if (p->ts == HX_NONE)
		return 0;
	k += 19;
	while (k < n && (s[k] == '.' || is_digit((unsigned char)s[k])))
		k++;
	return k;
}

bool hx_parse_prefix(const char *s, size_t n, struct hx_prefix *p)
{
	size_t i = 0, end, cb, ce, after;
	int tries;

	memset(p, 0, sizeof *p);
	p->pid = p->tid = p->ts = p->gline = HX_NONE;
	if (n && s[0] != '[' && bare_level(s, n, &end) == HX_LV_NONE) {
		const char *b = memchr(s, '[', n < 1024 ? n : 1024);
		size_t gl, j;

		if (!b || b == s || b[-1] != ':' ||
		    memchr(s, ' ', (size_t)(b - s)))
			return false;
		gl = (size_t)(b - s) - 1;
		j = gl;
		while (j > 0 && is_digit((unsigned char)s[j - 1]))
			j--;
		/* "path:N:[", or "N:[" (grep -n of one file: no path) */
		if (j < gl && (j == 0 || s[j - 1] == ':')) {
			read_num(s, gl, j, &p->gline);
			gl = j ? j - 1 : 0;
		}
		p->gpath = gl ? s : NULL;
		p->gpathlen = gl;
		i = (size_t)(b - s);
	}
	p->level = parse_level(s + i, n - i, &end);
	if (p->level == HX_LV_NONE)
		return false;
	i += end;
	if (i < n && s[i] == '[')
		return parse_watchdog(s, n, i, p);
	i = skip_sp(s, n, i);
	i = parse_head(s, n, i, p);
	if (!i)
		return false;
	p->form = HX_PF_PLOG;
	i = skip_sp(s, n, i);
	for (tries = 0; tries < 3; tries++) {
		if (src_bracket(s, n, i, &cb, &ce, &after)) {
			p->src = s + cb;
			p->srclen = ce - cb;
			break;
		}
		if (i < n && s[i] == '[' && ce > cb) {  /* "[status:init]" */
			i = skip_sp(s, n, after);
			continue;
		}
		if (parse_tsch_src(s, n, i, p, &after))
			break;
		after = i;      /* no source location */
		break;
	}
	if (tries == 3)
		after = i;
	if (p->form != HX_PF_TSCH)
		after = parse_tid(s, n, after, p);
	after = skip_sp(s, n, after);
	p->body = s + after;
	p->bodylen = n - after;
	if (p->tid == HX_NONE) {
		const char *t = hx_find(p->body, p->bodylen < 160 ? p->bodylen
								   : 160, "[tid:");
		int64_t v;

		if (t && read_num(t, (size_t)(p->body + p->bodylen - t), 5, &v) > 5)
			p->tid = v;
	}
	return true;
}

/* ---- colour a paste kept ---- */

/*
 * Terminals colour launcher prefixes and logger heads: vLLM's
 * "\x1b[1;36m(EngineCore_DP0 pid=224)\x1b[0;0m " and "\x1b[31mERROR\x1b[0m",
 * Ray's "\x1b[36m(TaskRunner pid=7)\x1b[0m", grep --color's
 * "\x1b[35m\x1b[Kpath\x1b[m\x1b[K".  A log written to a file keeps the
 * ESC bytes; a web page or a copy loses them and keeps "[0;36m"; "cat -v"
 * or an editor shows them in caret notation, "^[[0;36m".  All go before
 * anything reads the line.
 */

/* An SGR without its ESC at s ('['): digits and ';' with a digit among
 * them, then 'm'.  Its length, or 0. */
static size_t bare_sgr(const char *s, size_t n)
{
	size_t i = 1;
	bool digit = false;

	while (i < n && i < 24 && (is_digit((unsigned char)s[i]) || s[i] == ';'))
		digit |= is_digit((unsigned char)s[i++]);
	return digit && i < n && s[i] == 'm' ? i + 1 : 0;
}

/* An ESC sequence at s (s[0] is ESC): a CSI "ESC [ params final", a
 * character set "ESC ( B", else ESC and the byte after it, or ESC alone. */
static size_t esc_seq(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 2)
		return 1;
	if (s[1] == '[') {
		while (i < n && i < 32 && s[i] >= 0x20 && s[i] <= 0x3f)
			i++;
		return i < n && s[i] >= 0x40 && s[i] <= 0x7e ? i + 1 : 1;
	}
	if ((s[1] == '(' || s[1] == ')') && n > 2)
		return 3;
	return s[1] >= 0x40 && s[1] <= 0x5f ? 2 : 1;
}

/* Colour at s[i]; after: a sequence ends at i (grep's "[K" then goes
 * too).  Its length, or 0. */
static size_t colour_at(const char *s, size_t n, size_t i, bool after)
{
	size_t k;

	if (s[i] == 0x1b)
		return esc_seq(s + i, n - i);
	if (s[i] == '^') {      /* caret notation, "cat -v": "^[[0;36m" */
		if (n - i < 4 || s[i + 1] != '[' || s[i + 2] != '[')
			return 0;
		if ((k = bare_sgr(s + i + 2, n - i - 2)) != 0)
			return 2 + k;
		return s[i + 3] == 'm' || s[i + 3] == 'K' ? 4 : 0;
	}
	if (s[i] != '[' || n - i < 2)
		return 0;
	if ((k = bare_sgr(s + i, n - i)) != 0)
		return k;
	if (n - i >= 4 && memcmp(s + i, "[m[K", 4) == 0)
		return 4;
	return after && s[i + 1] == 'K' ? 2 : 0;
}

/* The length of a blank a web page left at s (U+00A0 no-break space,
 * U+3000 ideographic space), or 0. */
static size_t wide_blank(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (n >= 2 && u[0] == 0xc2 && u[1] == 0xa0)
		return 2;
	if (n >= 3 && u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80)
		return 3;
	return 0;
}

static bool has_wide_blank(const char *s, size_t n)
{
	static const unsigned char lead[] = { 0xc2, 0xe3 };
	const char *p, *end = s + n;
	size_t i;

	for (i = 0; i < sizeof lead; i++)
		for (p = s; (p = memchr(p, lead[i], (size_t)(end - p))) != NULL; p++)
			if (wide_blank(p, (size_t)(end - p)))
				return true;
	return false;
}

bool hx_coloured(const char *s, size_t n)
{
	const char *p, *end;

	if (n < 3 || (s[0] == '[' && s[1] >= 'A' && s[1] <= 'Z' &&
		      s[2] >= 'A' && s[2] <= 'Z'))      /* a plog line: CANN */
		return has_wide_blank(s, n < 64 ? n : 64);  /* prints no colour */
	if (memchr(s, 0x1b, n) || has_wide_blank(s, n))
		return true;
	end = s + (n < 256 ? n : 256);
	for (p = s; (p = memchr(p, '[', (size_t)(end - p))) != NULL; p++)
		if (p + 1 < s + n &&
		    (is_digit((unsigned char)p[1]) || p[1] == 'm') &&
		    colour_at(s, n, (size_t)(p - s), false))
			return true;
	return false;
}

size_t hx_decolour(const char *s, size_t n, char *out)
{
	size_t i = 0, m = 0, k;
	bool after = false;

	while (i < n) {
		if ((k = wide_blank(s + i, n - i)) != 0) {
			out[m++] = ' ';
			i += k;
			continue;
		}
		k = s[i] == 0x1b || s[i] == '[' || s[i] == '^'
		    ? colour_at(s, n, i, after) : 0;
		after = k != 0;
		if (k) {
			i += k;
			continue;
		}
		out[m++] = s[i++];
	}
	return m;
}

/* ---- the console envelope ---- */

/*
 * What launchers and pastes put around a log line, outermost first, in
 * any nesting: a grep "path:N:" (or a context line "path-N-"), docker
 * compose's "service  | ", pdsh's "worker-1: " or "10.0.0.1: ", torchrun's
 * "[rank3]:", Open MPI's "[1,3]<stderr>:", vLLM's and Ray's "(VllmWorker
 * TP1 pid=961) " / "[Worker_DP0_TP1_EP1 pid=40968] " / "(TaskRunner pid=7,
 * ip=10.0.0.1) ", vLLM's logger "ERROR 03-25 06:14:02 [file.py:880] ",
 * and page indentation before any of them or before a plog prefix.
 */

static bool tok_char(int c)
{
	return is_alnum(c) || c == '-' || c == '_' || c == '.';
}

static size_t skip_tok(const char *s, size_t n, size_t i)
{
	size_t j = i;

	while (j < n && j - i < 64 && tok_char((unsigned char)s[j]))
		j++;
	return j;
}

/* "[rank3]:" then one optional space */
static size_t env_rank(const char *s, size_t n, size_t i,
		       struct hx_envelope *e)
{
	int64_t v;
	size_t k;

	if (n - i < 8 || memcmp(s + i, "[rank", 5) != 0)
		return 0;
	k = read_num(s, n, i + 5, &v);
	if (k == i + 5 || k + 1 >= n || s[k] != ']' || s[k + 1] != ':')
		return 0;
	e->rank = v;
	e->forms |= HX_EV_RANK;
	k += 2;
	return k < n && s[k] == ' ' ? k + 1 : k;
}

/* Open MPI --tag-output: "[1,3]<stderr>:" (job, rank) */
static size_t env_mpi(const char *s, size_t n, size_t i,
		      struct hx_envelope *e)
{
	int64_t job, v;
	size_t k = read_num(s, n, i + 1, &job), j;

	if (k == i + 1 || k >= n || s[k] != ',')
		return 0;
	j = read_num(s, n, k + 1, &v);
	if (j == k + 1 || j + 1 >= n || s[j] != ']' || s[j + 1] != '<')
		return 0;
	for (k = j + 2; k < n && k - j < 12 && is_alnum((unsigned char)s[k]); k++)
		;
	if (k + 1 >= n || s[k] != '>' || s[k + 1] != ':')
		return 0;
	e->rank = v;
	e->forms |= HX_EV_MPI;
	k += 2;
	return k < n && s[k] == ' ' ? k + 1 : k;
}

/* "(Name pid=N)", "(Name rank=3 pid=N)", "(Name pid=N, ip=X)",
 * "[Name pid=N]"; s[i] is the opening bracket. */
static size_t env_worker(const char *s, size_t n, size_t i,
			 struct hx_envelope *e)
{
	char close = s[i] == '(' ? ')' : ']';
	const char *end = memchr(s + i, close, n - i < 160 ? n - i : 160);
	const char *pid, *ip;
	size_t k, nl;
	int64_t v;

	if (!end)
		return 0;
	k = (size_t)(end - s);
	pid = hx_find(s + i + 1, k - i - 1, "pid=");
	if (!pid || (pid > s + i + 1 && pid[-1] != ' '))
		return 0;
	if (read_num(s, k, (size_t)(pid + 4 - s), &v) == (size_t)(pid + 4 - s))
		return 0;
	for (nl = i + 1; nl < k; nl++)
		if (!tok_char((unsigned char)s[nl]) && s[nl] != ' ' &&
		    s[nl] != '=' && s[nl] != ',' && s[nl] != ':')
			return 0;
	nl = (size_t)(pid - s);
	while (nl > i + 1 && s[nl - 1] == ' ')
		nl--;
	e->worker = s + i + 1;
	e->workerlen = nl - i - 1;
	e->pid = v;
	ip = hx_find(pid, k - (size_t)(pid - s), "ip=");
	if (ip) {
		e->node = ip + 3;
		e->nodelen = skip_tok(s, k, (size_t)(ip + 3 - s)) -
			     (size_t)(ip + 3 - s);
	}
	e->forms |= HX_EV_WORKER;
	k++;
	return k < n && s[k] == ' ' ? k + 1 : k;
}

/* A dotted quad. */
static bool ipv4(const char *s, size_t n)
{
	size_t i = 0, part, k;
	int64_t v;

	for (part = 0; part < 4; part++) {
		k = read_num(s, n, i, &v);
		if (k == i || k - i > 3 || v > 255)
			return false;
		i = k;
		if (part < 3 && (i >= n || s[i++] != '.'))
			return false;
	}
	return i == n;
}

/* A host name as pdsh prints it: has a digit, and is not a code such as
 * EE9999, ERR00100, EL0004 (capitals then digits). */
static bool host_name(const char *s, size_t n)
{
	size_t i = 0, digits = 0;

	if (ipv4(s, n))
		return true;
	while (i < n && s[i] >= 'A' && s[i] <= 'Z')
		i++;
	if (i > 0 && i < n && is_digit((unsigned char)s[i])) {
		size_t j = i;

		while (j < n && is_alnum((unsigned char)s[j]))
			j++;
		if (j == n)
			return false;
	}
	for (i = 0; i < n; i++)
		digits += is_digit((unsigned char)s[i]);
	return digits > 0 && digits < n && is_alnum((unsigned char)s[0]);
}

static bool log_level_word(const char *s, size_t n)
{
	static const char *const w[] = { "DEBUG", "INFO", "WARNING", "ERROR",
					 "CRITICAL" };
	size_t i;

	for (i = 0; i < HX_ARRAY_LEN(w); i++)
		if (strlen(w[i]) == n && memcmp(s, w[i], n) == 0)
			return true;
	return false;
}

/* vLLM's logger: "ERROR 03-25 06:14:02 [multiproc_executor.py:880] ",
 * older "ERROR 05-29 20:52:26 worker_base.py:581] ", or without its time
 * "ERROR [multiproc_executor.py:800] " (Python's logging with a format of
 * level and place only); one space then the message.  s[i..t) is the
 * level word. */
static size_t env_logger(const char *s, size_t n, size_t i, size_t t,
			 struct hx_envelope *e)
{
	size_t k = t + 1, b;
	const char *rb;
	bool timeless;

	if (!log_level_word(s + i, t - i) || n - k < 16)
		return 0;
	timeless = s[k] == '[';
	if (!timeless &&
	    (!is_digit((unsigned char)s[k]) || s[k + 2] != '-' ||
	     s[k + 5] != ' ' || s[k + 8] != ':' || s[k + 11] != ':' ||
	     s[k + 14] != ' '))
		return 0;
	b = timeless ? k : k + 15;
	rb = memchr(s + b, ']', n - b < 128 ? n - b : 128);
	if (!rb || rb == s + b || !is_digit((unsigned char)rb[-1]) ||
	    (timeless && !hx_find(s + b, (size_t)(rb - s - b), ".py:")))
		return 0;
	e->level = s[i] == 'E' ? HX_LV_ERROR : s[i] == 'W' ? HX_LV_WARNING
		 : s[i] == 'I' ? HX_LV_INFO : s[i] == 'D' ? HX_LV_DEBUG
		 : HX_LV_CRITICAL;
	e->forms |= HX_EV_LOGGER;
	k = (size_t)(rb - s) + 1;
	return k < n && s[k] == ' ' ? k + 1 : k;
}

/*
 * grep's prefixes, outermost: "path:N:" and a context line "path-N-"
 * (-n), "path:" and "path-" (several files, no -n), "N:" and "N-" (-n,
 * one file).  A path is one word up to the separator; "path-" needs a
 * log file's name, "path:" that or a '/'.
 */

/* A log file's name ends s[0..j): ".log", ".txt", ".out". */
static bool log_name(const char *s, size_t j)
{
	return j > 4 && (memcmp(s + j - 4, ".log", 4) == 0 ||
			 memcmp(s + j - 4, ".txt", 4) == 0 ||
			 memcmp(s + j - 4, ".out", 4) == 0);
}

/* What grep printed after its prefix: a line, not a number or a blank
 * (an indented line: two blanks or a tab). */
static bool grep_text(const char *s, size_t n, size_t k)
{
	if (k >= n || is_digit((unsigned char)s[k]))
		return false;
	if (s[k] == ' ')
		return k + 1 < n && s[k + 1] == ' ';
	return true;
}

/* A grep prefix found: the path's length (0: none), the line number
 * (HX_NONE: none), where the line grep printed starts (0: no prefix). */
struct gcut {
	size_t pathlen, at;
	int64_t line;
};

static size_t grep_set(struct hx_envelope *e, const char *s,
		       const struct gcut *g)
{
	e->gpath = g->pathlen ? s : NULL;
	e->gpathlen = g->pathlen;
	e->gline = g->line;
	e->forms |= HX_EV_GREP;
	return g->at;
}

/* "N:" or "N-" (grep -n of one file): no path, a line number. */
static bool grep_lineno(const char *s, size_t n, struct gcut *g)
{
	size_t k = read_num(s, n, 0, &g->line);

	if (k == 0 || k > 10 || k >= n || (s[k] != ':' && s[k] != '-') ||
	    !grep_text(s, n, k + 1) || s[k + 1] == ':' || s[k + 1] == '-')
		return false;
	g->pathlen = 0;
	g->at = k + 1;
	return true;
}

/* "path:N:" or "path:" (the path ends at the first ':'). */
static bool grep_colon(const char *s, size_t n, struct gcut *g)
{
	size_t j = 0, k, t;

	while (j < n && j < 512 && s[j] != ' ' && s[j] != ':')
		j++;
	if (j == 0 || j >= n || s[j] != ':')
		return false;
	g->pathlen = j;
	k = read_num(s, n, j + 1, &g->line);
	if (k > j + 1 && k < n && s[k] == ':') {
		for (t = 0; t < j && !(s[t] == '/' || (s[t] >= 'a' && s[t] <= 'z') ||
				       (s[t] >= 'A' && s[t] <= 'Z')); t++)
			;
		g->at = k + 1;
		return t < j;   /* "2024-07-03-11:28:40": a time, no path */
	}
	g->line = HX_NONE;
	g->at = j + 1;
	return (memchr(s, '/', j) || log_name(s, j)) && k == j + 1 &&
	       (grep_text(s, n, j + 1) || (j + 1 < n && s[j + 1] == '\t'));
}

/* "path-N-" or "path-" (a context line): the first '-' that ends such a
 * prefix. */
static bool grep_dash(const char *s, size_t n, struct gcut *g)
{
	size_t j, k;

	for (j = 1; j + 2 < n && j < 512 && s[j] != ' '; j++) {
		if (s[j] != '-')
			continue;
		g->pathlen = j;
		k = read_num(s, n, j + 1, &g->line);
		if (k > j + 1 && k < n && s[k] == '-' &&
		    (memchr(s, '/', j) || hx_find(s, j, ".log"))) {
			g->at = k + 1;
			return true;
		}
		g->line = HX_NONE;
		g->at = j + 1;
		if (k == j + 1 && log_name(s, j) && grep_text(s, n, j + 1))
			return true;
	}
	return false;
}

/* How much a cut looks like grep's: a log file's name, a line number. */
static int grep_score(const char *s, const struct gcut *g)
{
	return 2 * log_name(s, g->pathlen) + (g->line != HX_NONE);
}

/* grep's prefix; both a ':' and a '-' may end one
 * ("logs/train.log-5-EI0002:The wait"): the one that ends a log file's
 * name and gives a line number, else the first. */
static size_t env_grep(const char *s, size_t n, struct hx_envelope *e)
{
	struct gcut c, d;
	bool hc, hd;
	size_t j;

	/* most lines have neither separator in their first word */
	for (j = 0; j < n && j < 512 && s[j] != ' ' && s[j] != ':' &&
		    s[j] != '-'; j++)
		;
	if (j + 2 >= n || j >= 512 || s[j] == ' ' ||
	    (s[j] == ':' && s[j + 1] == ' ' && s[j + 2] != ' '))
		return 0;       /* "pos=41: stream_id=3", "worker-1: " ... */
	if (is_digit((unsigned char)s[0]) && grep_lineno(s, n, &c))
		return grep_set(e, s, &c);
	hc = grep_colon(s, n, &c);
	hd = grep_dash(s, n, &d);
	if (hc && hd && (grep_score(s, &d) > grep_score(s, &c) ||
			 (grep_score(s, &d) == grep_score(s, &c) &&
			  d.pathlen < c.pathlen)))
		hc = false;
	return hc ? grep_set(e, s, &c) : hd ? grep_set(e, s, &d) : 0;
}

/* A label before the line, kept as the worker's name but never as a rank
 * (a local rank or a parallel group's index is not the global rank):
 * torchrun's --tee "[default0]:" (role and local rank), a rank bracket a
 * server or a reporter wrote ("[TP0] ", "[DP1 TP0] ", "[Worker_DP0_TP1] "):
 * words of letters and digits joined by '_' or a blank, the last ending in
 * a digit, a closing bracket, then ':' or a blank.  A plog level
 * ("[ERROR]") has no digits; a c10 head ("[E612 10:00:01...]") a ':'. */
static size_t env_label(const char *s, size_t n, size_t i,
			struct hx_envelope *e)
{
	size_t k = i + 1, w;

	for (;;) {
		w = k;
		while (k < n && k - w < 16 && is_alpha((unsigned char)s[k]))
			k++;
		if (k == w)
			return 0;
		w = k;
		while (k < n && k - w < 6 && is_digit((unsigned char)s[k]))
			k++;
		if (k >= n)
			return 0;
		if (s[k] == ']' && k > w)
			break;
		if ((s[k] != ' ' && s[k] != '_') || k - i > 32)
			return 0;
		k++;
	}
	if (k + 1 >= n || (s[k + 1] != ':' && s[k + 1] != ' '))
		return 0;
	e->worker = s + i + 1;
	e->workerlen = k - i - 1;
	e->forms |= HX_EV_LABEL;
	k += 2;
	return s[k - 1] == ':' && k < n && s[k] == ' ' ? k + 1 : k;
}

/* Slurm's srun --label: the task's number (up to three digits), a colon
 * and a blank (grep -n's "N:" has none), then the task's line: not a
 * blank unless the file had the label before text (e->srun_indent; an
 * error-manager block's body, a traceback's frames keep their indentation
 * behind it; else "4:    text" is grep -n's), nor what follows an
 * error-manager code ("9999: Inner Error!", "99: [PID: 7] ...": the tail
 * of a wrapped "EE9999:"). */
static size_t env_srun(const char *s, size_t n, struct hx_envelope *e)
{
	size_t k = 0;

	while (k < n && k < 4 && is_digit((unsigned char)s[k]))
		k++;
	if (k == 0 || k > 3 || k + 2 >= n || s[k] != ':' || s[k + 1] != ' ' ||
	    ((s[k + 2] == ' ' || s[k + 2] == '\t') && !e->srun_indent) ||
	    (n - k - 2 >= 5 && (memcmp(s + k + 2, "[PID:", 5) == 0 ||
				memcmp(s + k + 2, "Inner", 5) == 0)))
		return 0;
	e->worker = s;
	e->workerlen = k;
	e->forms |= HX_EV_LABEL | HX_EV_SRUN;
	return k + 2;
}

/* kubectl logs --prefix: "[pod/NAME/CONTAINER] ", kept as the worker. */
static size_t env_kube(const char *s, size_t n, size_t i,
		       struct hx_envelope *e)
{
	size_t k = i + 5, slash = 0;

	if (n - i < 9 || memcmp(s + i, "[pod/", 5) != 0)
		return 0;
	while (k < n && k - i < 160 && (tok_char((unsigned char)s[k]) || s[k] == '/'))
		slash += s[k++] == '/';
	if (slash != 1 || k + 1 >= n || s[k] != ']' || s[k + 1] != ' ')
		return 0;
	e->worker = s + i + 1;
	e->workerlen = k - i - 1;
	e->forms |= HX_EV_KUBE;
	return k + 2;
}

/* The time kubectl logs --timestamps and docker logs -t put first, Go's
 * RFC 3339 in UTC: "2025-01-01T00:00:08.123456789Z ". */
static size_t env_utc(const char *s, size_t n, struct hx_envelope *e)
{
	size_t k = 19;

	if (n < 22 || s[10] != 'T' || hx_parse_ts(s, 19) == HX_NONE)
		return 0;
	if (s[k] == '.')
		for (k++; k < n && k < 30 && is_digit((unsigned char)s[k]); k++)
			;
	if (k + 1 >= n || s[k] != 'Z' || s[k + 1] != ' ')
		return 0;
	e->forms |= HX_EV_KUBE;
	return k + 2;
}

/* A level word at s[k] ("ERROR", "[ERROR]", "WARN", "FATAL", padded)
 * and its separator (" - ", ": ", " | ", a blank): the index after, or
 * 0. */
static size_t time_level(const char *s, size_t n, size_t k)
{
	static const char *const lv[] = {
		"ERROR", "WARNING", "WARN", "INFO", "DEBUG", "CRITICAL", "FATAL",
	};
	size_t i, l, j;
	bool br = k < n && s[k] == '[';

	if (br && hx_plog_start(s + k, n - k))
		return 0;       /* "[ERROR] HCCL(...)": a plog line's own */
	for (i = 0; i < HX_ARRAY_LEN(lv); i++) {
		l = strlen(lv[i]);
		j = k + br;
		if (n - j <= l + 1 || memcmp(s + j, lv[i], l) != 0)
			continue;
		j += l;
		if (br && s[j++] != ']')
			continue;
		if (s[j] == ':')        /* "ERROR: " */
			j++;
		for (l = j; j < n && s[j] == ' '; j++)  /* loguru pads it */
			;
		if (j == l || (j + 2 < n && is_digit((unsigned char)s[j]) && s[j + 2] == '-'))
			continue;       /* "WARNING 01-14 11:06:50 [f.py:20]": vLLM's */
		if (j + 1 < n && (s[j] == '-' || s[j] == '|') && s[j + 1] == ' ')
			j += 2;
		/* taken off, not kept: a wrapper that logs what the job
		 * printed says nothing of a line by its level (a launcher's
		 * logger writes a traceback at ERROR, open_level) */
		return j;
	}
	return 0;
}

/*
 * A logger's time head first on the line: "2025-03-26 13:49:01,670 - ",
 * "[2025-03-26 13:49:01] ", "[2025-09-22 20:20:40 TP4] " (a label after
 * the time), a fraction after '.' or ',', a zone ("Z", "+08:00"); then a
 * level word, and Python's default "NAME - LEVEL - ".  The date and the
 * time apart by a blank or a 'T' (CANN's own "2024-07-03-11:28:40.419"
 * is no head: it starts a message's own text).
 */
static size_t env_time(const char *s, size_t n, struct hx_envelope *e)
{
	size_t k, b = s[0] == '[', j;

	if (n < b + 22 || (s[b + 10] != ' ' && s[b + 10] != 'T') ||
	    hx_parse_ts(s + b, 19) == HX_NONE)
		return 0;
	k = b + 19;
	if (s[k] == '.' || s[k] == ',')
		for (k++; k < n && k - b < 30 && is_digit((unsigned char)s[k]); k++)
			;
	if (k < n && s[k] == 'Z')
		k++;
	else if (k + 6 <= n && (s[k] == '+' || s[k] == '-') && is_digit((unsigned char)s[k + 1]) &&
		 is_digit((unsigned char)s[k + 2]))
		k += s[k + 3] == ':' ? 6 : 5;
	if (b) {
		const char *rb = memchr(s + k, ']', n - k < 24 ? n - k : 24);

		if (!rb)
			return 0;
		for (j = k; s + j < rb; j++)    /* " TP4": a label */
			if (!is_alnum((unsigned char)s[j]) && s[j] != ' ' && s[j] != '_')
				return 0;
		k = (size_t)(rb - s) + 1;
	}
	if (k + 3 < n && s[k] == ' ' && (s[k + 1] == '-' || s[k + 1] == '|') && s[k + 2] == ' ')
		k += 3;
	else if (k < n && s[k] == ' ')
		k++;
	else
		return 0;
	if ((j = time_level(s, n, k)) != 0) {
		k = j;
	} else {        /* "NAME - LEVEL - " */
		for (j = k; j < n && j - k < 64 && s[j] != ' '; j++)
			;
		if (j + 3 < n && j > k && memcmp(s + j, " - ", 3) == 0 &&
		    (b = time_level(s, n, j + 3)) != 0)
			k = b;
	}
	/* where the logger was called, after the level: lmdeploy's
	 * "__init__.py:17 - ", loguru's "magic_pdf.tools.cli:parse_doc:130 - " */
	for (j = k; j < n && j - k < 96 && (hx_name_byte(s[j]) || s[j] == '.' ||
					      s[j] == '/' || s[j] == ':'); j++)
		;
	if (j > k + 2 && is_digit((unsigned char)s[j - 1]) &&
	    j + 3 < n && memcmp(s + j, " - ", 3) == 0) {
		for (b = j; b > k && is_digit((unsigned char)s[b - 1]); b--)
			;
		if (b > k + 1 && s[b - 1] == ':')
			k = j + 3;
	}
	if (k >= n)
		return 0;
	e->forms |= HX_EV_LOGGER;
	return k;
}

/* syslog's and journalctl's head: "Jan  5 10:00:01 HOST IDENT[PID]: "
 * (the host kept as the node, the pid as the process's). */
static size_t env_syslog(const char *s, size_t n, struct hx_envelope *e)
{
	static const char mon[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t k, h, id;
	int64_t v;
	int m;

	if (n < 24 || s[3] != ' ')
		return 0;
	for (m = 0; m < 12 && memcmp(s, mon + 3 * m, 3) != 0; m++)
		;
	if (m == 12)
		return 0;
	/* the day: "Jan  5" (padded) or "Jan 15" */
	if (s[4] == ' ' && is_digit((unsigned char)s[5]) && s[6] == ' ')
		k = 7;
	else if (is_digit((unsigned char)s[4]) && is_digit((unsigned char)s[5]) &&
		 s[6] == ' ')
		k = 7;
	else if (is_digit((unsigned char)s[4]) && s[5] == ' ')
		k = 6;
	else
		return 0;
	if (k + 9 >= n || s[k + 2] != ':' || s[k + 5] != ':' || s[k + 8] != ' ' ||
	    !is_digit((unsigned char)s[k]) || !is_digit((unsigned char)s[k + 7]))
		return 0;
	h = k + 9;
	k = skip_tok(s, n, h);
	if (k == h || k >= n || s[k] != ' ')
		return 0;
	id = ++k;
	while (k < n && k - id < 64 && (tok_char((unsigned char)s[k]) || s[k] == '/'))
		k++;
	if (k == id || k >= n)
		return 0;
	if (s[k] == '[') {
		size_t j = read_num(s, n, k + 1, &v);

		if (j == k + 1 || j >= n || s[j] != ']')
			return 0;
		e->pid = v;
		k = j + 1;
	}
	if (k + 1 >= n || s[k] != ':' || s[k + 1] != ' ')
		return 0;
	e->node = s + h;
	e->nodelen = skip_tok(s, n, h) - h;
	e->forms |= HX_EV_NODE;
	return k + 2;
}

/* A word at the start: "worker-1: ", "service  | ", "ERROR 03-25 ...". */
static size_t env_word(const char *s, size_t n, size_t i, bool first,
		       struct hx_envelope *e)
{
	size_t t = skip_tok(s, n, i), k;

	if (t == i || t >= n)
		return 0;
	if (s[t] == ':' && t + 1 < n && s[t + 1] == ' ' &&
	    host_name(s + i, t - i)) {
		e->node = s + i;
		e->nodelen = t - i;
		e->forms |= HX_EV_NODE;
		return t + 2;
	}
	if (s[t] == ' ') {
		k = t;
		while (k < n && s[k] == ' ')
			k++;
		/* a number before the bar is a table's cell (hccl_test's
		 * "8192   |  764.55  | ..."), not a service */
		if (first && k < n && s[k] == '|' && !hx_all_digits(s + i, t - i) &&
		    (k + 1 == n || s[k + 1] == ' ')) {
			e->worker = s + i;
			e->workerlen = t - i;
			e->forms |= HX_EV_COMPOSE;
			return k + 1 < n ? k + 2 : k + 1;
		}
		return env_logger(s, n, i, t, e);
	}
	return 0;
}

/* What a log line starts with, after a reporter's sentence: a bracket (a
 * plog prefix, a rank, a time), an error-manager code, a traceback, an
 * exception's class ("RuntimeError: ...", "torch.OutOfMemoryError: "), a
 * report's heading of stars (msaicerr's "*****Root cause conclusion"). */
static bool log_head(const char *s, size_t n)
{
	size_t k;

	if (n < 8)
		return false;
	if (s[0] == '>' && s[1] == ' ')         /* quoted as well */
		return log_head(s + 2, n - 2);
	if (s[0] == '[')        /* not a Python list: "['a', 'b']" */
		return hx_plog_start(s, n) || is_digit((unsigned char)s[1]) ||
		       memcmp(s, "[rank", 5) == 0 || memcmp(s, "[PID: ", 6) == 0;
	if (is_em_code(s, n) || memcmp(s, "Traceback", 8) == 0 ||
	    memcmp(s, "*****", 5) == 0)     /* a tool's report heading */
		return true;
	for (k = 0; k < n && k < 96 && (is_alnum((unsigned char)s[k]) ||
					s[k] == '_' || s[k] == '.'); k++)
		;
	return k >= 5 && k < n && s[k] == ':' &&
	       ((memcmp(s + k - 5, "Error", 5) == 0) ||
		(k >= 9 && memcmp(s + k - 9, "Exception", 9) == 0));
}

/*
 * A reporter's sentence before the first log line on the same line ("I
 * got this error: [ERROR] RUNTIME(...)...", "报错如下：EI0002: ..."):
 * three words or more of letters (or two CJK characters or more), ended
 * by a colon, ASCII or full width; then the log line.
 */
static size_t env_prose(const char *s, size_t n, struct hx_envelope *e)
{
	static const char wide_colon[] = "\xef\xbc\x9a";
	size_t i, words = 0, cjk = 0, end = n < 160 ? n : 160, k;
	const char *c = memchr(s, ':', end), *w = memchr(s, 0xef, end);

	/* the colon, and a log line after it, first: most lines have none */
	if (w && (!c || w < c) && (size_t)(w - s) + 3 <= n &&
	    memcmp(w, wide_colon, 3) == 0)
		k = (size_t)(w - s) + 3;
	else if (c)
		k = (size_t)(c - s) + 1;
	else
		return 0;
	end = k - (s[k - 1] == ':' ? 1 : 3);
	/* a key and its value in brackets: "... base information is
	 * streamID:[1740], taskID[23]" (HCCL's own words) */
	if (s[k - 1] == ':' && k + 1 < n && s[k] == '[' &&
	    is_digit((unsigned char)s[k + 1]))
		return 0;
	k = skip_sp(s, n, k);
	if (!log_head(s + k, n - k))
		return 0;
	for (i = 0; i < end; i++) {
		unsigned char b = (unsigned char)s[i];

		if (b >= 0xe0 && b < 0xf0)
			cjk++;
		else if (b == ' ' && i > 0 && s[i - 1] != ' ')
			words++;
		else if (!(b >= 0x80 || is_alnum(b) || b == ',' || b == '\'' ||
			   b == '-' || b == '(' || b == ')'))
			return 0;
	}
	if ((words < 3 && cjk < 2) ||
	    /* a message of its own: "Error executing job with overrides: [...]" */
	    memcmp(s, "Error", 5) == 0 || memcmp(s, "ERROR", 5) == 0 ||
	    memcmp(s, "Failed", 6) == 0 || memcmp(s, "Exception", 9) == 0)
		return 0;
	e->forms |= HX_EV_QUOTE;
	return k;
}

/* One envelope element at s[i]: the index after it, or 0. */
static size_t env_one(const char *s, size_t n, size_t i, bool first,
		      struct hx_envelope *e)
{
	size_t k;

	switch (s[i]) {
	case '>':
		/* "> [ERROR] ...": a line quoted in an issue's Markdown (the
		 * reader takes the marks off a line's start, unquote; these are
		 * the ones after a reporter's sentence) */
		if (i + 2 < n && (first || (e->forms & HX_EV_QUOTE))) {
			e->forms |= HX_EV_QUOTE;
			return s[i + 1] == ' ' ? i + 2 : i + 1;
		}
		return 0;
	case '-':
	case '*':
	case '+':
		/* "- EI0002: ...": a Markdown list item, quoted or not */
		if ((first || (e->forms & HX_EV_QUOTE)) && i + 2 < n &&
		    s[i + 1] == ' ') {
			e->forms |= HX_EV_QUOTE;
			return i + 2;
		}
		return 0;
	case '`':
		/* "`EI0002: ...`": a line quoted as code in a sentence; the
		 * closing backquote is the reader's (logical_line) */
		for (k = i; k < n && k - i < 3 && s[k] == '`'; k++)
			;
		if (k < n && s[k] != '`' && skip_sp(s, n, k) < n &&
		    (first || (e->forms & HX_EV_QUOTE))) {
			e->forms |= HX_EV_QUOTE;
			return k;
		}
		return 0;
	case '[':
		if (i + 1 < n && s[i + 1] == 'r' && (k = env_rank(s, n, i, e)) != 0)
			return k;
		if (i + 1 < n && s[i + 1] == 'p' && (k = env_kube(s, n, i, e)) != 0)
			return k;
		if ((!first || i == 0) && n - i > 6 && s[i + 5] == '-' &&
		    (k = env_time(s + i, n - i, e)) != 0)
			return i + k;   /* a logger's time, also after a label */
		if (i + 1 < n && is_digit((unsigned char)s[i + 1]))
			return env_mpi(s, n, i, e);
		if (i + 1 < n && s[i + 1] >= 'A' && s[i + 1] <= 'Z' &&
		    hx_find(s + i, n - i < 160 ? n - i : 160, " pid=") &&
		    parse_level(s + i, n - i, &(size_t){ 0 }) == HX_LV_NONE)
			return env_worker(s, n, i, e);
		return env_label(s, n, i, e);
	case '(':
		return env_worker(s, n, i, e);
	default:
		if (first && i == 0 && is_digit((unsigned char)s[0]) &&
		    ((k = env_srun(s, n, e)) != 0 || (k = env_utc(s, n, e)) != 0 ||
		     (k = env_time(s, n, e)) != 0))
			return k;
		if (!first && is_digit((unsigned char)s[i]) &&
		    (k = env_time(s + i, n - i, e)) != 0)
			return i + k;   /* "0: 2025-09-29 07:21:54,670 - ..." */
		if (first && i == 0 && s[0] >= 'A' && s[0] <= 'S' &&
		    (k = env_syslog(s, n, e)) != 0)
			return k;
		if (first && i == 0 && (is_alnum((unsigned char)s[0]) ||
					s[0] == '.' || s[0] == '/') &&
		    (k = env_grep(s, n, e)) != 0)
			return k;
		if (first && i == 0 && (is_alnum((unsigned char)s[0]) ||
					(unsigned char)s[0] >= 0xe0) &&
		    (k = env_prose(s, n, e)) != 0)
			return k;
		if (is_alnum((unsigned char)s[i]))
			return env_word(s, n, i, first, e);
		return 0;
	}
}

/* Blanks at s[i] before something the envelope or the plog prefix knows. */
static size_t env_indent(const char *s, size_t n, size_t i,
			 struct hx_envelope *e)
{
	size_t j = i, end;
	struct hx_envelope t;

	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (j >= n || j - i > 16)
		return 0;
	t = *e;
	if ((s[j] == '[' && parse_level(s + j, n - j, &end) != HX_LV_NONE) ||
	    ((s[j] == '[' || s[j] == '(') && env_one(s, n, j, false, &t))) {
		e->forms |= HX_EV_INDENT;
		return j;
	}
	return 0;
}

size_t hx_parse_envelope(const char *s, size_t n, struct hx_envelope *e)
{
	size_t i = 0, k;
	int round;

	e->skip = e->first = 0;
	e->forms = 0;
	e->rank = -1;
	e->pid = HX_NONE;
	e->workerlen = e->nodelen = e->gpathlen = 0;
	e->level = HX_LV_NONE;
	if (n < 3 || hx_plog_start(s, n))
		return 0;       /* "[DEBUG] ...": nothing around it */
	e->worker = e->node = e->gpath = NULL;
	for (round = 0; round < 8 && i < n; round++) {
		if (s[i] == ' ' || s[i] == '\t')
			k = env_indent(s, n, i, e);
		else
			k = env_one(s, n, i, round == 0, e);
		if (!k)
			break;
		if (round == 0)
			e->first = k;
		i = k;
	}
	e->skip = i;
	return i;
}

/* ---- key/value scanning ---- */

struct keyname {
	const char *norm;       /* lower case, no '_' or ' ' */
	int key;
};

static struct keyname keytab[] = {
	{ "streamid", HX_KV_STREAM }, { "taskid", HX_KV_TASK },
	{ "sqid", HX_KV_SQ }, { "rtsqid", HX_KV_SQ }, { "cqid", HX_KV_CQ },
	{ "head", HX_KV_HEAD }, { "sqhead", HX_KV_HEAD },
	{ "tail", HX_KV_TAIL }, { "sqtail", HX_KV_TAIL },
	{ "curhead", HX_KV_CUR_HEAD }, { "waitsqehead", HX_KV_WAIT_SQE_HEAD },
	{ "notifyid", HX_KV_NOTIFY }, { "eventid", HX_KV_EVENT },
	{ "eventflag", HX_KV_EVENT_FLAG },
	{ "deviceid", HX_KV_DEVICE }, { "devid", HX_KV_DEVID },
	{ "devicelogicid", HX_KV_LOGIC_DEV }, { "logicdevid", HX_KV_LOGIC_DEV },
	{ "devlogicid", HX_KV_LOGIC_DEV }, { "phydevid", HX_KV_PHY_DEV },
	{ "devphyid", HX_KV_PHY_DEV }, { "devicephyid", HX_KV_PHY_DEV },
	{ "chipid", HX_KV_CHIP }, { "dieid", HX_KV_DIE },
	{ "device", HX_KV_DEVICE_PLAIN },
	{ "remoterank", HX_KV_REMOTE_RANK }, { "peerrank", HX_KV_REMOTE_RANK },
	{ "dstrank", HX_KV_REMOTE_RANK },
	{ "localrank", HX_KV_LOCAL_RANK }, { "rankid", HX_KV_RANK_ID },
	{ "rank", HX_KV_RANK }, { "ranks", HX_KV_RANK_SIZE },
	{ "ranknum", HX_KV_RANK_SIZE }, { "totalranks", HX_KV_RANK_SIZE },
	{ "ranksize", HX_KV_RANK_SIZE },
	{ "tag", HX_KV_TAG }, { "index", HX_KV_INDEX },
	{ "opindex", HX_KV_INDEX }, { "group", HX_KV_GROUP },
	{ "identifier", HX_KV_IDENTIFIER }, { "tasktype", HX_KV_TASK_TYPE },
	{ "type", HX_KV_TYPE }, { "stage", HX_KV_STAGE },
	{ "linktype", HX_KV_LINK_TYPE }, { "src", HX_KV_SRC },
	{ "srcaddr", HX_KV_SRC }, { "dst", HX_KV_DST },
	{ "dstaddr", HX_KV_DST }, { "size", HX_KV_SIZE },
	{ "count", HX_KV_COUNT }, { "datatype", HX_KV_DATA_TYPE },
	{ "optype", HX_KV_OP_TYPE }, { "reducetype", HX_KV_REDUCE_TYPE },
	{ "rootid", HX_KV_ROOT }, { "timestamp", HX_KV_TIMESTAMP },
	{ "userdefineinformation", HX_KV_USER_DEFINE },
	{ "flipnum", HX_KV_FLIP }, { "timeout", HX_KV_TIMEOUT },
	{ "exetime", HX_KV_EXE_TIME }, { "curwaittime", HX_KV_WAIT_TIME },
	{ "sqpid", HX_KV_SQ_PID }, { "sqfsm", HX_KV_SQ_FSM },
	{ "pid", HX_KV_PID }, { "contextid", HX_KV_CONTEXT },
	{ "threadid", HX_KV_THREAD }, { "errtype", HX_KV_ERR_TYPE },
	{ "errortype", HX_KV_ERROR_TYPE }, { "errorcode", HX_KV_ERROR_CODE },
	{ "retcode", HX_KV_RET_CODE }, { "rtcode", HX_KV_RET_CODE },
	{ "errcode", HX_KV_ERR_CODE }, { "innercode", HX_KV_INNER_CODE },
	{ "sqetype", HX_KV_SQE_TYPE }, { "sqswstatus", HX_KV_SQ_SW_STATUS },
	{ "addr1high", HX_KV_ADDR1_HIGH }, { "addr1low", HX_KV_ADDR1_LOW },
	{ "addr2high", HX_KV_ADDR2_HIGH }, { "addr2low", HX_KV_ADDR2_LOW },
	{ "commid", HX_KV_COMM_ID }, { "server", HX_KV_SERVER },
	{ "serverid", HX_KV_SERVER }, { "deviceip", HX_KV_DEVICE_IP },
	{ "status", HX_KV_STATUS }, { "modelid", HX_KV_MODEL_ID },
	{ "pos", HX_KV_POS }, { "nowtick", HX_KV_NOW_TICK },
	{ "starttick", HX_KV_START_TICK }, { "tickfreq", HX_KV_TICK_FREQ },
	{ "serialno", HX_KV_SERIAL_NO }, { "threadindex", HX_KV_THREAD_INDEX },
	{ "opname", HX_KV_OP_NAME }, { "retrycnt", HX_KV_RETRY_CNT },
	{ "rertrycnt", HX_KV_RETRY_CNT }, { "reason", HX_KV_REASON },
	{ "desc", HX_KV_DESC }, { "excepcode", HX_KV_EXCEP_CODE },
	{ "remotephysicid", HX_KV_REMOTE_PHY }, { "role", HX_KV_ROLE },
	{ "myrole", HX_KV_ROLE }, { "ip", HX_KV_IP },
	{ "stucknotifynum", HX_KV_STUCK_NUM },
	{ "hostip", HX_KV_IGNORE }, { "remoteip", HX_KV_IP }, { "result", HX_KV_RET_CODE },
	{ "return", HX_KV_RET_CODE },
};

/*
 * The key table as an open-addressing hash on a polynomial taken from the
 * end of the string, so that the hashes of every word-suffix of a key
 * text come out of one backward pass.
 */
#define KEYHASH_SLOTS 512
static struct { uint32_t h; int16_t idx; } keyhash[KEYHASH_SLOTS];
static pthread_once_t keytab_once = PTHREAD_ONCE_INIT;

static uint32_t rhash(const char *s, size_t n)
{
	uint32_t h = 0;

	while (n)
		h = h * 131 + (unsigned char)s[--n];
	return h;
}

/* The classes of a byte for the key/value scanner, made with keytab. */
enum { KC_KEY = 1, KC_MARK = 2, KC_NUM = 4, KC_END = 8 };
static uint8_t kclass[256];

static void kclass_build(void)
{
	int c;

	for (c = 0; c < 256; c++) {
		uint8_t k = 0;

		if (is_alnum(c) || c == '_' || c == ' ')
			k |= KC_KEY;            /* a key's text */
		if (c == '=' || c == ':' || c == '[')
			k |= KC_MARK;           /* after a key */
		if (is_alnum(c) || strchr("._-/%*", c))
			k |= KC_NUM;            /* in a number (NUL too, as before) */
		if (strchr(",;)}]([", c))
			k |= KC_END;            /* ends a word value (NUL too) */
		kclass[c] = k;
	}
}

static void keytab_build(void)
{
	size_t i;

	kclass_build();
	for (i = 0; i < KEYHASH_SLOTS; i++)
		keyhash[i].idx = -1;
	for (i = 0; i < HX_ARRAY_LEN(keytab); i++) {
		uint32_t h = rhash(keytab[i].norm, strlen(keytab[i].norm));
		size_t j = h % KEYHASH_SLOTS;

		while (keyhash[j].idx >= 0)
			j = (j + 1) % KEYHASH_SLOTS;
		keyhash[j].h = h;
		keyhash[j].idx = (int16_t)i;
	}
}

static int key_find(const char *norm, size_t n, uint32_t h)
{
	size_t j = h % KEYHASH_SLOTS;

	for (; keyhash[j].idx >= 0; j = (j + 1) % KEYHASH_SLOTS) {
		const char *k = keytab[keyhash[j].idx].norm;

		if (keyhash[j].h == h && strlen(k) == n && memcmp(k, norm, n) == 0)
			return keytab[keyhash[j].idx].key;
	}
	return -1;
}

/*
 * Normalise the key text (lower case, '_' and ' ' dropped) and look it up,
 * dropping leading words until something matches: "Task run failed, para
 * information is notify id" ends in the key "notify id".
 */
static int key_lookup_slow(const char *k, size_t n)
{
	char norm[64];
	size_t starts[16], ns = 0, m = 0, i, w;
	uint32_t hs[16], h = 0;
	bool word = false;

	for (i = 0; i < n && m < sizeof norm - 1; i++) {
		int c = (unsigned char)k[i];

		if (c == ' ') {
			word = false;
			continue;
		}
		if (!word && ns < HX_ARRAY_LEN(starts))
			starts[ns++] = m;
		word = true;
		if (c != '_')
			norm[m++] = (char)lower(c);
	}
	if (i < n || !ns)
		return -1;
	/* suffix hashes, last word first */
	for (w = ns, i = m; w-- > 0;) {
		while (i > starts[w])
			h = h * 131 + (unsigned char)norm[--i];
		hs[w] = h;
	}
	for (w = 0; w < ns; w++) {
		int key = key_find(norm + starts[w], m - starts[w], hs[w]);

		if (key >= 0)
			return key;
	}
	return -1;
}

/*
 * Most key texts recur verbatim line after line ("stream_id", "rank"):
 * a small per-thread cache of raw spellings skips the normalising
 * look-up for them.
 */
#define KCACHE_SLOTS 512
#define KCACHE_LEN 40
struct kcache {
	uint8_t n;              /* 0: empty */
	int16_t key;
	char s[KCACHE_LEN];
};
static _Thread_local struct kcache kcache[KCACHE_SLOTS];

static int key_lookup(const char *k, size_t n)
{
	uint32_t h = 2166136261u;
	struct kcache *c;
	size_t i;

	if (n > KCACHE_LEN)
		return key_lookup_slow(k, n);
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)k[i]) * 16777619u;
	c = &kcache[h % KCACHE_SLOTS];
	if (c->n == n && memcmp(c->s, k, n) == 0)
		return c->key;
	c->key = (int16_t)key_lookup_slow(k, n);
	c->n = (uint8_t)n;
	memcpy(c->s, k, n);
	return c->key;
}

static size_t bracket_end(const char *s, size_t n, size_t i)
{
	int depth = 0;

	for (; i < n; i++) {
		if (s[i] == '[')
			depth++;
		else if (s[i] == ']' && --depth == 0)
			return i;
	}
	return n;
}

/* A scalar value at s[i]: numbers stop at the first non-word character,
 * words at a list punctuation. */
static size_t scalar_end(const char *s, size_t n, size_t i)
{
	size_t j = i;

	if (j < n && (is_digit((unsigned char)s[j]) ||
		      (s[j] == '-' && j + 1 < n &&
		       is_digit((unsigned char)s[j + 1])))) {
		j++;
		while (j < n && (kclass[(unsigned char)s[j]] & KC_NUM))
			j++;
		/* "87…": the cut goes with the value, which then parses as
		 * none */
		return j < n && s[j] == '\xe2' && hx_ellipsis(s + j, n - j)
			       ? j + 3 : j;
	}
	while (j < n && j - i < 256 && !(kclass[(unsigned char)s[j]] & KC_END))
		j++;
	return j;
}

size_t hx_kv_scan(const char *s, size_t n, struct hx_kv *kv, size_t max)
{
	size_t i = 0, nk = 0;

	pthread_once(&keytab_once, keytab_build);
	while (i < n && nk < max) {
		size_t ke, kb, j, vb, ve, next;
		char c = s[i];
		int key;

		if (!(kclass[(unsigned char)c] & KC_MARK)) {
			i++;
			continue;
		}
		ke = i;
		while (ke > 0 && s[ke - 1] == ' ')
			ke--;
		kb = ke;
		while (kb > 0 && ke - kb < 60 && (kclass[(unsigned char)s[kb - 1]] & KC_KEY))
			kb--;
		while (kb < ke && s[kb] == ' ')
			kb++;
		key = ke > kb ? key_lookup(s + kb, ke - kb) : -1;
		if (key < 0) {
			i++;
			continue;
		}
		j = c == '[' ? i : skip_sp(s, n, i + 1);
		if (j < n && s[j] == '[') {
			vb = j + 1;
			ve = bracket_end(s, n, j);
			next = ve < n ? ve + 1 : n;
		} else {
			vb = j;
			ve = scalar_end(s, n, j);
			next = ve;
			/* "Timeout: sq_pid=80029": no value, another key */
			if (ve > vb && (memchr(s + vb, '=', ve - vb) ||
					memchr(s + vb, ':', ve - vb)) &&
			    !(s[vb] >= '0' && s[vb] <= '9')) {
				i++;
				continue;
			}
		}
		/* blanks and a full stop go ("timeout=1868."); an ellipsis
		 * stays ("task_id=87...", "..."): the value was cut */
		while (ve > vb && s[ve - 1] == ' ')
			ve--;
		if (ve > vb && s[ve - 1] == '.' &&
		    (ve - vb < 2 || s[ve - 2] != '.'))
			ve--;
		kv[nk].key = (uint16_t)key;
		kv[nk].v = s + vb;
		kv[nk].vlen = ve - vb;
		kv[nk].at = kb;
		nk++;
		i = next > i ? next : i + 1;
	}
	return nk;
}

const struct hx_kv *hx_kv_get(const struct hx_kv *kv, size_t n, int key,
			      int nth)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (kv[i].key == key && nth-- == 0)
			return &kv[i];
	return NULL;
}

int hangdx_line_time(const char *line, size_t n, int64_t *us)
{
	struct hx_envelope e;
	struct hx_prefix p;
	size_t skip;

	if (!line || !us)
		return HANGDX_EINVAL;
	e.srun_indent = false;
	skip = hx_parse_envelope(line, n, &e);
	if ((hx_parse_prefix(line + skip, n - skip, &p) && p.ts != HX_NONE) ||
	    (skip && hx_parse_prefix(line, n, &p) && p.ts != HX_NONE)) {
		*us = p.ts;
		return HANGDX_OK;
	}
	return HANGDX_ENOTFOUND;
}
