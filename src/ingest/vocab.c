/*
 * vocab.c - the vendor's vocabulary at run time, beside the families:
 * lookups in the tables scripts/vocab-gen.sh generates from
 * vocab/<family>.tsv (a binary search per family), and hx_vocab_scan,
 * which finds the codes and phrases one log line mentions, each in the
 * context that makes it a code (docs/VOCABULARY.md).  Pure functions of
 * bytes, no allocation; the phrase index is built once (pthread_once).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "ingest.h"

static const char *const family_ids[] = {
#define HX_VOCAB_FAMILY_ID(name, id) id,
	HX_VOCAB_FAMILY_MAP(HX_VOCAB_FAMILY_ID)
#undef HX_VOCAB_FAMILY_ID
};

static const char *const class_ids[] = {
#define HX_VOCAB_CLASS_ID(name, id) id,
	HX_VOCAB_CLASS_MAP(HX_VOCAB_CLASS_ID)
#undef HX_VOCAB_CLASS_ID
};

const char *hx_vocab_class_id(enum hx_vocab_class c)
{
	return (unsigned)c < HX_VC_COUNT ? class_ids[c] : NULL;
}

const char *hx_vocab_family_id(enum hx_vocab_family f)
{
	return (unsigned)f < HX_VF_COUNT ? family_ids[f] : NULL;
}

const struct hx_vocab_source *hx_vocab_source(const struct hx_vocab *row)
{
	return row && row->src < hx_vocab_nsources ? &hx_vocab_sources[row->src]
						   : NULL;
}

const struct hx_vocab *hx_vocab_family(enum hx_vocab_family f, size_t *n)
{
	if ((unsigned)f >= HX_VF_COUNT) {
		*n = 0;
		return NULL;
	}
	*n = hx_vocab_spans[f].count;
	return hx_vocab_rows + hx_vocab_spans[f].first;
}

/* ---- lookups ---- */

static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static int lower(int c) { return is_upper(c) ? c + 32 : c; }
static bool is_alnum(int c)
{
	return is_digit(c) || is_upper(c) || (c >= 'a' && c <= 'z');
}
static bool is_word(int c) { return is_alnum(c) || c == '_'; }

static int xval(int c)
{
	c = lower(c);
	if (is_digit(c))
		return c - '0';
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* keys compare as memcmp, a prefix first: the order of `LC_ALL=C sort` */
static int key_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int d = memcmp(a, b, an < bn ? an : bn);

	return d ? d : (an > bn) - (an < bn);
}

/* "0x%08x" of v into out (11 bytes) */
static void hex8(uint32_t v, char out[11])
{
	static const char xd[] = "0123456789abcdef";
	int i;

	out[0] = '0';
	out[1] = 'x';
	for (i = 0; i < 8; i++)
		out[2 + i] = xd[(v >> (28 - 4 * i)) & 0xf];
	out[10] = '\0';
}

size_t hx_vocab_hccl_number(uint64_t v, char out[6])
{
	unsigned c = (unsigned)(v & 0xffff);
	char tmp[6];
	size_t m = 0, i;

	if (v < 0x05000000u || v > 0x0501ffffu)
		return 0;
	do
		tmp[m++] = (char)('0' + c % 10);
	while ((c /= 10) != 0);
	for (i = 0; i < m; i++)
		out[i] = tmp[m - 1 - i];
	return m;
}

/* The value of the 1 to 8 hex digits s[0..n), into *v; false if they
 * are not that. */
static bool hex_value(const char *s, size_t n, uint32_t *v)
{
	size_t i;

	if (n < 1 || n > 8)
		return false;
	for (*v = 0, i = 0; i < n; i++) {
		if (xval((unsigned char)s[i]) < 0)
			return false;
		*v = *v << 4 | (uint32_t)xval((unsigned char)s[i]);
	}
	return true;
}

/* "0x7150050", "0X0715005A" -> "0x0715005a"; false if not 1-8 hex digits */
static bool norm_hex(const char *s, size_t n, char out[11])
{
	uint32_t v;

	if (n < 3 || s[0] != '0' || lower(s[1]) != 'x' || !hex_value(s + 2, n - 2, &v))
		return false;
	hex8(v, out);
	return true;
}

/* A task scheduler's code as the runtime prints it ("retCode=0x2A",
 * "errorCode=2a", "0x0000002a") -> "0x2a"; false if not 1-8 hex digits
 * or past the table's 0xfff. */
static bool norm_ts(const char *s, size_t n, char out[11])
{
	uint32_t v;

	if (n >= 2 && s[0] == '0' && lower(s[1]) == 'x') {
		s += 2;
		n -= 2;
	}
	if (!hex_value(s, n, &v) || v == 0 || v > 0xfff)
		return false;
	snprintf(out, 11, "0x%x", (unsigned)v);
	return true;
}

/* A MindIE code ("MIE04E02011C") that has no row of its own: the row of
 * its component's error type, its last two hex digits ("MIE04*1C"). */
static const struct hx_vocab *mie_type(const char *key)
{
	char t[8];

	memcpy(t, key, 5);
	t[5] = '*';
	memcpy(t + 6, key + 10, 2);
	return hx_vocab_code(HX_VF_MINDIE, t, 8);
}

const struct hx_vocab *hx_vocab_code(enum hx_vocab_family f, const char *key,
				     size_t n)
{
	char hex[11];
	size_t lo, hi;

	if ((unsigned)f >= HX_VF_COUNT || !key || !n)
		return NULL;
	if (f == HX_VF_RT_INNER) {
		if (!norm_hex(key, n, hex))
			return NULL;
		key = hex;
		n = 10;
	} else if (f == HX_VF_TS) {
		if (!norm_ts(key, n, hex))
			return NULL;
		key = hex;
		n = strlen(hex);
	}
	lo = hx_vocab_spans[f].first;
	hi = lo + hx_vocab_spans[f].count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct hx_vocab *r = &hx_vocab_rows[mid];
		int d = key_cmp(key, n, r->key, r->keylen);

		if (d == 0)
			return r;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return f == HX_VF_MINDIE && n == 12 ? mie_type(key) : NULL;
}

const struct hx_vocab *hx_vocab_key(const char *c)
{
	size_t n = c ? strlen(c) : 0;

	if (n == 0)
		return NULL;
	if (n == 6 && hx_all_digits(c, n))
		return hx_vocab_code(HX_VF_RUNTIME, c, n);
	if (n == 8 && memcmp(c, "ERR", 3) == 0 && hx_all_digits(c + 3, 5))
		return hx_vocab_code(HX_VF_TORCH_NPU, c, n);
	if (n == 6 && c[0] == 'E' && hx_all_digits(c + 2, 4))
		return hx_vocab_code(HX_VF_ERRMGR, c, n);
	if (n > 2 && n <= 5 && c[0] == '0' && (c[1] == 'x' || c[1] == 'X'))
		return hx_vocab_code(HX_VF_TS, c, n);   /* up to 0xfff */
	if (n > 2 && c[0] == '0' && (c[1] == 'x' || c[1] == 'X'))
		return hx_vocab_code(HX_VF_RT_INNER, c, n);
	if ((n == 5 || n == 6) && c[0] == '-' && hx_all_digits(c + 1, n - 1))
		return hx_vocab_code(HX_VF_DCMI, c, n);
	if (n >= 2 && n <= 4 && c[0] == '-' && hx_all_digits(c + 1, n - 1))
		return hx_vocab_code(HX_VF_ERRNO, c, n);
	if ((n == 12 || n == 8) && memcmp(c, "MIE", 3) == 0)
		return hx_vocab_code(HX_VF_MINDIE, c, n);
	return hx_vocab_code(HX_VF_FRAMEWORK, c, n);
}

/* ---- the scanner: hits in offset order ---- */

struct scan {
	const char *s;
	size_t n;
	struct hx_vocab_hit *hits;
	size_t max, nhit;
	size_t hccl;    /* offset of the first HCCL function name, or */
#define HCCL_NONE SIZE_MAX
	bool drv;       /* the line holds "drv": short runs may be drvError_t */
	bool aicpu;     /* it says "AICPU" and "errcode:": a kernel's code */
	int8_t dcmi;    /* it names DCMI ("-8020" may be its code): 1, 0, or
			 * -1 not looked for yet (looked for at a "-" run) */
	bool hccp;      /* it is HCCP's or its RoCE driver's ("ret(-12)" is
			 * -errno) */
};

static void add_hit(struct scan *sc, const struct hx_vocab *row, size_t off,
		    size_t len, enum hx_vocab_how how)
{
	size_t i;

	if (!row)
		return;
	if (sc->nhit == sc->max) {
		if (off >= sc->hits[sc->nhit - 1].off)
			return;
		sc->nhit--;     /* the furthest goes */
	}
	for (i = sc->nhit; i > 0 && sc->hits[i - 1].off > off; i--)
		sc->hits[i] = sc->hits[i - 1];
	sc->hits[i].row = row;
	sc->hits[i].off = off;
	sc->hits[i].len = len;
	sc->hits[i].how = (uint8_t)how;
	sc->nhit++;
}

/*
 * ---- result words ----
 * The words that make a number after them a code: the word before it,
 * over separators (" =:[(,->") and over "is" or "was", ends with one of
 * them, in any case ("ErrCode=", "error code is ", "runtime result = ",
 * "errno[", "hcclRet -> ", "HcclResult ", "failed: ", "failure ").  A cue marked is counts only
 * after "is" ("error code is 9").
 */
struct cue {
	const char *w;
	uint8_t len;
	bool is;
};
#define CUE(w) { w, sizeof w - 1, false }
static const struct cue result_cues[] = {
	CUE("code"), CUE("result"), CUE("ret"), CUE("errno"), CUE("error"),
	CUE("status"), CUE("return"), CUE("returned"), CUE("failed"),
	CUE("failure"),         /* onnxruntime's "CANN failure 500002: ..." */
	{ NULL, 0, false }
};
static const struct cue hccl_cues[] = {
	CUE("ret"), CUE("return"), CUE("result"), { "code", 4, true },
	{ NULL, 0, false }
};
static const struct cue hex_cues[] = {
	CUE("code"), CUE("errno"), CUE("ret"), CUE("error"), CUE("result"),
	CUE("status"), { NULL, 0, false }
};
#undef CUE

static bool is_sep(int c)
{
	switch (c) {
	case ' ': case '\t': case '=': case ':': case '[': case '(':
	case ',': case '-': case '>':
		return true;
	default:
		return false;
	}
}

static size_t skip_sep_back(const char *s, size_t j)
{
	size_t k;

	for (k = 0; j > 0 && k < 6 && is_sep((unsigned char)s[j - 1]); k++)
		j--;
	return j;
}

/* s[j - m, j) is lit (lower case), in any case */
static bool tail_is(const char *s, size_t j, const char *lit, size_t m)
{
	size_t i;

	if (j < m)
		return false;
	for (i = 0; i < m; i++)
		if (lower((unsigned char)s[j - m + i]) != lit[i])
			return false;
	return true;
}

/* the word ending at j is exactly lit */
static bool word_is(const char *s, size_t j, const char *lit, size_t m)
{
	return tail_is(s, j, lit, m) &&
	       (j == m || !is_word((unsigned char)s[j - m - 1]));
}

static bool letter_at(const char *s, size_t j)
{
	return j > 0 && is_alnum((unsigned char)s[j - 1]) &&
	       !is_digit((unsigned char)s[j - 1]);
}

static bool cue_before(const char *s, size_t a, const struct cue *cues)
{
	size_t j = skip_sep_back(s, a);
	bool is = false;
	int last;

	if (j == a || !letter_at(s, j))
		return false;
	last = lower((unsigned char)s[j - 1]);
	if (last == 's' &&
	    (word_is(s, j, "is", 2) || word_is(s, j, "was", 3))) {
		is = true;
		j = skip_sep_back(s, j - (word_is(s, j, "is", 2) ? 2u : 3u));
		if (!letter_at(s, j))
			return false;
		last = lower((unsigned char)s[j - 1]);
	}
	for (; cues->w; cues++)
		if (cues->w[cues->len - 1] == last && (is || !cues->is) &&
		    tail_is(s, j, cues->w, cues->len))
			return true;
	return false;
}

/* ---- numbers ---- */

/* a number of len digits at a, as a word of its own */
static bool number_alone(const struct scan *sc, size_t a, size_t len)
{
	const char *s = sc->s;

	if (a > 0 && (is_word((unsigned char)s[a - 1]) || s[a - 1] == '-' ||
		      s[a - 1] == '.'))
		return false;
	return a + len == sc->n || !is_word((unsigned char)s[a + len]);
}

/* An HCCL function name at k ("HcclAllReduce", "hcclRet",
 * "[hccl_socket_manager.cc:54]", "HCCL function error"): "ccl" at k + 1,
 * a word starting at k; not the word "hccl" in a sentence of another
 * component's ("hccl communication failed, return 1": its own code). */
static void hccl_at(struct scan *sc, size_t k)
{
	const char *s = sc->s;

	if (k < sc->hccl && (s[k] == 'H' || s[k] == 'h') &&
	    (k == 0 || !is_alnum((unsigned char)s[k - 1])) &&
	    !(s[k] == 'h' && k + 4 < sc->n && s[k + 4] == ' '))
		sc->hccl = k;
}

/* The driver's result word ends at the separators before a: the runtime
 * and its tools print a drvError_t as "drvRetCode=87" or "drvErr=87". */
static bool drv_cue(const char *s, size_t a)
{
	size_t j = skip_sep_back(s, a);

	return j < a && (word_is(s, j, "drvretcode", 10) ||
			 word_is(s, j, "drverr", 6) ||
			 word_is(s, j, "drverrcode", 10));
}

/* The device's report of an AICPU kernel's end: "... during AICPU
 * execution, stream_id:2, task_id:19, errcode:21008, msg:inner error". */
static bool aicpu_cue(const char *s, size_t a)
{
	return a >= 8 && memcmp(s + a - 8, "errcode:", 8) == 0 &&
	       hx_find(s, a - 8, "AICPU") != NULL;
}

/* DCMI's negative codes: a run of four or five digits after a '-' (not
 * inside a word), in a line that names DCMI ("dcmi model initialized
 * failed, because the device is used. ret is -8020"); the line is looked
 * at for "dcmi" only when it has such a run. */
static void dcmi_at(struct scan *sc, size_t a, size_t len)
{
	const char *s = sc->s;

	if ((len != 4 && len != 5) || a == 0 || s[a - 1] != '-' ||
	    (a >= 2 && is_word((unsigned char)s[a - 2])) ||
	    (a + len < sc->n && is_word((unsigned char)s[a + len])))
		return;
	if (sc->dcmi < 0)
		sc->dcmi = hx_findn(s, sc->n, "dcmi", 4) || hx_findn(s, sc->n, "DCMI", 4);
	if (sc->dcmi)
		add_hit(sc, hx_vocab_code(HX_VF_DCMI, s + a - 1, len + 1), a - 1,
			len + 1, HX_VH_RESULT);
}

/* -errno as HCCP and its RoCE driver return it: one to three digits
 * after a '-' after a result word ("create qp fail, ret(-12)",
 * "hal_alloc_buf failed ret = -12"), in a line of those modules. */
static void errno_at(struct scan *sc, size_t a, size_t len)
{
	const char *s = sc->s;

	if (len > 3 || a < 2 || s[a - 1] != '-' ||
	    is_word((unsigned char)s[a - 2]) ||
	    (a + len < sc->n && is_word((unsigned char)s[a + len])) ||
	    !cue_before(s, a, result_cues))
		return;
	add_hit(sc, hx_vocab_code(HX_VF_ERRNO, s + a - 1, len + 1), a - 1,
		len + 1, HX_VH_RESULT);
}

/* A run of len digits at a: one to six, an AICPU kernel's code after the
 * device report's errcode; six, a runtime code after a result word;
 * one to three, a drvError_t after the driver's own; one to four, an
 * HcclResult after a result word, in a line that named an HCCL function
 * before it. */
static void run_at(struct scan *sc, size_t a, size_t len)
{
	const char *s = sc->s;

	if (!number_alone(sc, a, len))
		return;
	if (len <= 6 && aicpu_cue(s, a))
		add_hit(sc, hx_vocab_code(HX_VF_AICPU, s + a, len), a, len,
			HX_VH_AICPU);
	else if (len == 6 && cue_before(s, a, result_cues))
		add_hit(sc, hx_vocab_code(HX_VF_RUNTIME, s + a, 6), a, 6,
			HX_VH_RESULT);
	else if (len <= 3 && drv_cue(s, a))
		add_hit(sc, hx_vocab_code(HX_VF_DRV, s + a, len), a, len,
			HX_VH_DRV);
	else if (len <= 4 && sc->hccl < a && cue_before(s, a, hccl_cues))
		add_hit(sc, hx_vocab_code(HX_VF_HCCL, s + a, len), a, len,
			HX_VH_HCCL);
}

/* The runtime's words for a task's return code from the task scheduler
 * ("retCode=0x2a", "errorCode=0x91"): a ts_error_t; so is the "error
 * code" of the driver's dump of an exception task ("Other info[0]:...,
 * function=proc_aicpu_task_done, line=970, error code=0x2a"). */
static bool ts_cue(const char *s, size_t n, size_t a)
{
	size_t j = skip_sep_back(s, a);

	if (word_is(s, j, "retcode", 7) || word_is(s, j, "errorcode", 9))
		return true;
	return word_is(s, j, "code", 4) && j >= 5 &&
	       word_is(s, skip_sep_back(s, j - 4), "error", 5) &&
	       hx_findn(s, n, "Other info[", 11) != NULL;
}

/* "0x..." at a: an inner runtime code (0x07xxxxxx), a task scheduler's
 * code (up to 0xfff, after retCode or errorCode) or an HCCL error number
 * (module 5, sub-module 0 or 1: HCCL_ERROR_CODE), after a cue. */
static void hex_at(struct scan *sc, size_t a)
{
	const char *s = sc->s;
	uint64_t v = 0;
	size_t k, nd, m;
	char key[11];

	for (k = a + 2, nd = 0; k < sc->n && nd <= 16 &&
	     xval((unsigned char)s[k]) >= 0; k++, nd++)
		v = v << 4 | (uint64_t)xval((unsigned char)s[k]);
	if (!nd || nd > 16 || (k < sc->n && is_word((unsigned char)s[k])) ||
	    !cue_before(s, a, hex_cues))
		return;
	if (v >= 0x07000000u && v <= 0x07ffffffu) {
		hex8((uint32_t)v, key);
		add_hit(sc, hx_vocab_code(HX_VF_RT_INNER, key, 10), a, k - a,
			HX_VH_HEX);
	} else if (v <= 0xfff && ts_cue(s, sc->n, a)) {
		add_hit(sc, hx_vocab_code(HX_VF_TS, s + a, k - a), a, k - a,
			HX_VH_HEX);
	} else if ((m = hx_vocab_hccl_number(v, key)) != 0) {
		add_hit(sc, hx_vocab_code(HX_VF_HCCL, key, m), a, k - a,
			HX_VH_HEX);
	}
}

/* ---- codes by their shape ---- */

static bool digits_at(const char *s, size_t n, size_t i, size_t k)
{
	if (i + k > n)
		return false;
	while (k--)
		if (!is_digit((unsigned char)s[i++]))
			return false;
	return true;
}

/* "ERR02200", then the sub-module word torch_npu prints after it */
static void err_at(struct scan *sc, size_t i)
{
	const char *s = sc->s;
	size_t j = i + 9, w;

	add_hit(sc, hx_vocab_code(HX_VF_TORCH_NPU, s + i, 8), i, 8, HX_VH_CODE);
	if (j >= sc->n || s[i + 8] != ' ')
		return;
	w = j;
	while (w < sc->n && w - j <= 8 && is_upper((unsigned char)s[w]))
		w++;
	if (w - j >= 2 && (w == sc->n || !is_word((unsigned char)s[w])))
		add_hit(sc, hx_vocab_code(HX_VF_TORCH_NPU, s + j, w - j), j,
			w - j, HX_VH_CODE);
}

static bool is_uhex(int c) { return is_digit(c) || (c >= 'A' && c <= 'F'); }

/*
 * A MindIE code whose "MIE" ends at the 'E' at i: "MIE", the component
 * (two digits), the level, six hex digits (MindIE's log definitions:
 * product, component, level, then the component's own code).  An error
 * (E) or a critical one (C) is looked up whole, else by its component and
 * error type, the last two hex digits ("MIE04*1C", the server's); an info
 * or warning line's code is no failure.
 */
__attribute__((noinline))
static void mie_at(struct scan *sc, size_t i)
{
	const char *s = sc->s;
	size_t a = i - 2, k;

	if (a + 12 > sc->n || (a > 0 && is_word((unsigned char)s[a - 1])) ||
	    (a + 12 < sc->n && is_word((unsigned char)s[a + 12])) ||
	    !digits_at(s, sc->n, a + 3, 2) || (s[a + 5] != 'E' && s[a + 5] != 'C'))
		return;
	for (k = a + 6; k < a + 12; k++)
		if (!is_uhex((unsigned char)s[k]))
			return;
	add_hit(sc, hx_vocab_code(HX_VF_MINDIE, s + a, 12), a, 12, HX_VH_CODE);
}

/* An error-manager code at i ("EI0002", "E30008", "WE0001"), or "ERR"
 * and five digits; or the end of a MindIE code's "MIE". */
static void em_at(struct scan *sc, size_t i)
{
	const char *s = sc->s;
	size_t n = sc->n;

	if (i > 0 && is_word((unsigned char)s[i - 1])) {
		if (i >= 2 && s[i - 1] == 'I' && s[i - 2] == 'M' && s[i] == 'E')
			mie_at(sc, i);
		return;
	}
	if (s[i] == 'E' && i + 8 <= n && s[i + 1] == 'R' && s[i + 2] == 'R' &&
	    digits_at(s, n, i + 3, 5) &&
	    (i + 8 == n || !is_word((unsigned char)s[i + 8]))) {
		err_at(sc, i);
		return;
	}
	if (i + 6 <= n && (is_upper((unsigned char)s[i + 1]) ||
			   is_digit((unsigned char)s[i + 1])) &&
	    digits_at(s, n, i + 2, 4) &&
	    (i + 6 == n || !is_word((unsigned char)s[i + 6])))
		add_hit(sc, hx_vocab_code(HX_VF_ERRMGR, s + i, 6), i, 6,
			HX_VH_CODE);
}

/*
 * ---- phrases ----
 * Each phrase of framework.tsv, and each torch_npu sub-module as "[PTA]",
 * is anchored on one byte of it; a byte of a line that is an anchor, 'E',
 * 'W' (codes) or 'x' (of "0x") is "marked" (tab[]).  The anchors are as
 * few bytes as will do, each rare in CANN logs (rarity[], rarest first,
 * as counted in `hangdx simulate` debug logs and ../shared/samples):
 * first 'x' and 'W', marked anyway; then, among the first HX_VOCAB_RARE
 * bytes of rarity[], the one found in the most phrases not yet anchored
 * (the rarer on a tie), until none is left; a phrase with none of these
 * is anchored on its rarest byte.  A '*' in a phrase stands for up to
 * HX_VOCAB_GAP bytes of the line.  test_vocab.c finds every phrase: the
 * ceilings below are large enough for the tables.
 */
#define HX_VOCAB_MAXLIT 256
#define HX_VOCAB_MAXMOD 8
#define HX_VOCAB_MAXANCHOR 32
#define HX_VOCAB_GAP 256

static const char rarity[] =
	"!\"$&'*+<>?@JQZ\\^`j{|}~;zXY/b#WPwKS%kfFOHxAGBV=DTMyv()LN4mIqsU8C,hEg"
	"R9d5ua6l-_7[]p3n.iotr:2e c10";
#define HX_VOCAB_RARE 41        /* rarity[] up to 'x' */

struct lit {
	const struct hx_vocab *row;
	const char *p1, *p2;        /* p2: the text after '*', or NULL */
	size_t n1, n2, aoff;        /* aoff: the anchor's offset in p1 */
	int after;                  /* the byte after the anchor, -1: none */
};

enum {
	T_EM = 1,       /* 'E', 'W': error-manager and ERR codes */
	T_HEX = 2,      /* 'x' of "0x" */
	T_LIT = 4       /* the anchor of a phrase */
};

static struct lit lits[HX_VOCAB_MAXLIT];   /* by anchor byte */
static size_t nlit;
static uint16_t lfirst[257];    /* lits of byte c: [lfirst[c], lfirst[c+1]) */
static char modkeys[HX_VOCAB_MAXMOD][12];
static uint8_t tab[256];        /* T_* of each byte */
static uint8_t pairs[8192];     /* bit (anchor << 8 | byte after it) */
static unsigned char marks[HX_VOCAB_MAXANCHOR];    /* the marked bytes */
static size_t nmarks;
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static unsigned char lit_anchor(const struct lit *l)
{
	return (unsigned char)l->p1[l->aoff];
}

static void lit_add(const struct hx_vocab *row, const char *key, size_t n)
{
	const char *star = memchr(key, '*', n);
	struct lit *l;

	if (nlit == HX_VOCAB_MAXLIT)
		return;
	l = &lits[nlit++];
	l->row = row;
	l->p1 = key;
	l->n1 = star ? (size_t)(star - key) : n;
	l->p2 = star ? star + 1 : NULL;
	l->n2 = star ? n - l->n1 - 1 : 0;
	l->aoff = SIZE_MAX;
}

/* "[PTA]" for each sub-module row ("PTA") of torch_npu */
static void lit_modules(void)
{
	size_t n, i, m = 0;
	const struct hx_vocab *r = hx_vocab_family(HX_VF_TORCH_NPU, &n);

	for (i = 0; i < n && m < HX_VOCAB_MAXMOD; i++) {
		if (r[i].keylen > 8 || !is_upper((unsigned char)r[i].key[0]) ||
		    memcmp(r[i].key, "ERR", 3) == 0)
			continue;
		modkeys[m][0] = '[';
		memcpy(modkeys[m] + 1, r[i].key, r[i].keylen);
		modkeys[m][r[i].keylen + 1] = ']';
		modkeys[m][r[i].keylen + 2] = '\0';
		lit_add(&r[i], modkeys[m], (size_t)r[i].keylen + 2);
		m++;
	}
}

/* the phrases not yet anchored that hold c; with on, anchor them on it */
static size_t lit_cover(unsigned char c, bool on)
{
	size_t i, k = 0;
	const char *p;

	for (i = 0; i < nlit; i++) {
		if (lits[i].aoff != SIZE_MAX ||
		    !(p = memchr(lits[i].p1, c, lits[i].n1)))
			continue;
		k++;
		if (on)
			lits[i].aoff = (size_t)(p - lits[i].p1);
	}
	return k;
}

static void lit_anchors(void)
{
	size_t r, best, k, bestk, i, j;

	lit_cover('x', true);
	lit_cover('W', true);
	do {
		for (r = 0, bestk = 0, best = 0; r < HX_VOCAB_RARE; r++) {
			k = lit_cover((unsigned char)rarity[r], false);
			if (k > bestk) {
				bestk = k;
				best = r;
			}
		}
		if (bestk)
			lit_cover((unsigned char)rarity[best], true);
	} while (bestk);
	for (i = 0; i < nlit; i++)
		for (j = 0; lits[i].aoff == SIZE_MAX && rarity[j]; j++)
			lit_cover((unsigned char)rarity[j], true);
	for (i = 0; i < nlit; i++)
		if (lits[i].aoff == SIZE_MAX)   /* no printable byte */
			lits[i].aoff = 0;
}

/* An anchor and the byte after it, as a bit of pairs[]: a phrase whose
 * anchor ends it takes every byte after it. */
static void pair_add(struct lit *l)
{
	unsigned a = lit_anchor(l), c, k;

	l->after = l->aoff + 1 < l->n1 ? (unsigned char)l->p1[l->aoff + 1] : -1;
	for (c = 0; c < 256; c++)
		if (l->after < 0 || (unsigned)l->after == c) {
			k = a << 8 | c;
			pairs[k >> 3] |= (uint8_t)(1u << (k & 7));
		}
}

/* lits sorted by anchor byte (insertion: a few dozen), indexed by it */
static void lit_index(void)
{
	size_t i, j, c;

	for (i = 1; i < nlit; i++) {
		struct lit t = lits[i];

		for (j = i; j > 0 && lit_anchor(&lits[j - 1]) > lit_anchor(&t);
		     j--)
			lits[j] = lits[j - 1];
		lits[j] = t;
	}
	for (c = 0, i = 0; c < 256; c++) {
		lfirst[c] = (uint16_t)i;
		while (i < nlit && lit_anchor(&lits[i]) == c)
			i++;
		if (i > lfirst[c])
			tab[c] |= T_LIT;
	}
	lfirst[256] = (uint16_t)i;
	for (i = 0; i < nlit; i++)
		pair_add(&lits[i]);
}

static void lit_at(struct scan *sc, const struct lit *l, size_t i)
{
	const char *s = sc->s, *q;
	size_t start, from, lim;

	if (i < l->aoff)
		return;
	start = i - l->aoff;
	if (start + l->n1 > sc->n || s[start] != l->p1[0] ||
	    s[start + l->n1 - 1] != l->p1[l->n1 - 1] ||
	    memcmp(s + start, l->p1, l->n1) != 0)
		return;
	if (!l->p2) {
		add_hit(sc, l->row, start, l->n1, HX_VH_PHRASE);
		return;
	}
	from = start + l->n1;
	lim = sc->n - from < HX_VOCAB_GAP ? sc->n - from : HX_VOCAB_GAP;
	q = memmem(s + from, lim, l->p2, l->n2);
	if (q)
		add_hit(sc, l->row, start, (size_t)(q - s) + l->n2 - start,
			HX_VH_PHRASE);
}

/* byte i of the line is marked */
static void marked(struct scan *sc, size_t i)
{
	const char *s = sc->s;
	unsigned c = (unsigned char)s[i], t = tab[c];
	size_t k;

	if (t & T_EM)
		em_at(sc, i);
	if ((t & T_HEX) && i > 0 && s[i - 1] == '0' &&
	    (i < 2 || !is_word((unsigned char)s[i - 2])))
		hex_at(sc, i - 1);
	if (t & T_LIT) {
		int after = i + 1 < sc->n ? (unsigned char)s[i + 1] : -1;
		unsigned p = c << 8 | (unsigned)(after & 0xff);

		if (after < 0 || !(pairs[p >> 3] >> (p & 7) & 1))
			return;
		for (k = lfirst[c]; k < lfirst[c + 1]; k++)
			if (lits[k].after < 0 || lits[k].after == after)
				lit_at(sc, &lits[k], i);
	}
}

/*
 * ---- blocks ----
 * A line is looked at 64 bytes at a time, as bit masks (bit k: byte k):
 * the digits, the marked bytes, and the 'c' and 'l' of "ccl".  With SSE2,
 * sixteen bytes a step (compare, movemask); elsewhere the digits eight
 * bytes a step (SWAR) and the rest by a table.
 */
struct masks {
	uint64_t digit, mark, c, l;
};

#if defined(__SSE2__)
#include <emmintrin.h>
static __m128i markv[HX_VOCAB_MAXANCHOR];
#endif

static void tab_init(void)
{
	size_t n, i, c;
	const struct hx_vocab *r = hx_vocab_family(HX_VF_FRAMEWORK, &n);

	for (i = 0; i < n; i++)
		lit_add(&r[i], r[i].key, r[i].keylen);
	lit_modules();
	lit_anchors();
	lit_index();
	tab['E'] |= T_EM;
	tab['W'] |= T_EM;
	tab['x'] |= T_HEX;
	for (c = 0; c < 256 && nmarks < HX_VOCAB_MAXANCHOR; c++)
		if (tab[c]) {
#if defined(__SSE2__)
			markv[nmarks] = _mm_set1_epi8((char)c);
#endif
			marks[nmarks++] = (unsigned char)c;
		}
}

static uint64_t digit_bits(const unsigned char *p)
{
	const uint64_t lo7 = 0x7f7f7f7f7f7f7f7fULL, hi = ~lo7;
	uint64_t bits = 0, x, m;
	unsigned w;

	for (w = 0; w < 8; w++) {
		memcpy(&x, p + 8 * w, 8);
		m = ((x & lo7) + 0x5050505050505050ULL) &   /* >= '0' */
		    ~((x & lo7) + 0x4646464646464646ULL) &  /* <= '9' */
		    ~x & hi;                                /* ASCII */
		bits |= ((m * 0x0002040810204081ULL) >> 56) << (8 * w);
	}
	return bits;
}

static void block_portable(const unsigned char *p, struct masks *m)
{
	unsigned k;

	m->digit = digit_bits(p);
	m->mark = m->c = m->l = 0;
	for (k = 0; k < 64; k++) {
		m->mark |= (uint64_t)(tab[p[k]] != 0) << k;
		m->c |= (uint64_t)(p[k] == 'c') << k;
		m->l |= (uint64_t)(p[k] == 'l') << k;
	}
}

#if defined(__SSE2__)
static uint64_t movemask(__m128i v, unsigned q)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(v) << (16 * q);
}

static __m128i load16(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* the digits, 'c' and 'l' of sixteen bytes, at bit 16q of m */
static void classes16(__m128i v, unsigned q, struct masks *m)
{
	const __m128i y = _mm_sub_epi8(v, _mm_set1_epi8('0'));
	const __m128i le9 = _mm_min_epu8(y, _mm_set1_epi8(9));

	m->digit |= movemask(_mm_cmpeq_epi8(le9, y), q);
	m->c |= movemask(_mm_cmpeq_epi8(v, _mm_set1_epi8('c')), q);
	m->l |= movemask(_mm_cmpeq_epi8(v, _mm_set1_epi8('l')), q);
}

static void block_sse2(const unsigned char *p, struct masks *m)
{
	const __m128i v0 = load16(p), v1 = load16(p + 16),
		      v2 = load16(p + 32), v3 = load16(p + 48);
	__m128i k0 = _mm_setzero_si128(), k1 = k0, k2 = k0, k3 = k0;
	size_t a;

	for (a = 0; a < nmarks; a++) {  /* each mark once a block */
		const __m128i mv = markv[a];

		k0 = _mm_or_si128(k0, _mm_cmpeq_epi8(v0, mv));
		k1 = _mm_or_si128(k1, _mm_cmpeq_epi8(v1, mv));
		k2 = _mm_or_si128(k2, _mm_cmpeq_epi8(v2, mv));
		k3 = _mm_or_si128(k3, _mm_cmpeq_epi8(v3, mv));
	}
	memset(m, 0, sizeof *m);
	m->mark = movemask(k0, 0) | movemask(k1, 1) | movemask(k2, 2) |
		  movemask(k3, 3);
	classes16(v0, 0, m);
	classes16(v1, 1, m);
	classes16(v2, 2, m);
	classes16(v3, 3, m);
}
#endif

static void block_masks(const unsigned char *p, bool portable, struct masks *m)
{
#if defined(__SSE2__)
	if (!portable) {
		block_sse2(p, m);
		return;
	}
#endif
	(void)portable;
	block_portable(p, m);
}

void hx_vocab_block_masks(const unsigned char *p, bool portable,
			  uint64_t out[4])
{
	struct masks m;

	pthread_once(&tab_once, tab_init);
	block_masks(p, portable, &m);
	out[0] = m.digit;
	out[1] = m.mark;
	out[2] = m.c;
	out[3] = m.l;
}

/* In HCCP's lines, the runs of one to three digits (b the block's digits
 * at i, starts where runs start) two bytes after no digit (not a date's
 * "-06"), for "ret(-12)": errno_at wants a '-' before.  Apart from
 * scan_block, which every line runs through. */
__attribute__((noinline))
static void errno_runs(struct scan *sc, size_t i, uint64_t b, uint64_t starts)
{
	uint64_t x;
	unsigned p;

	for (x = starts & ~(b >> 1 & b >> 2 & b >> 3) & ~(b << 2); x;
	     x &= x - 1) {
		p = (unsigned)__builtin_ctzll(x);
		if (i + p > 0 && sc->s[i + p - 1] == '-')
			errno_at(sc, i + p, (size_t)__builtin_ctzll(~(b >> p)));
	}
}

/*
 * Blocks overlap by eight bytes (a block starts 56 bytes after the one
 * before), so that a run of up to eight digits starting in a block is
 * seen whole in it; a block owns what starts in its first 56 bytes, the
 * last one all of its own.  The last block is copied into 64 zeros, so
 * that no read passes the line.  In a block: the HCCL names first, then
 * the runs of six digits (and of one to four after an HCCL name or in a
 * line that says "drv", of one to five in a line that says "AICPU" and
 * "errcode:"; of four or five after a '-', DCMI's; of one to three after
 * a '-', HCCP's -errno), then the marked bytes.
 */
static void scan_block(struct scan *sc, size_t i, bool last, uint64_t *before)
{
	const unsigned char *s = (const unsigned char *)sc->s;
	unsigned char blk[64];
	uint64_t own = last ? ~0ULL : (1ULL << 56) - 1, b, x, starts;
	struct masks m;
	unsigned p;

	if (last) {
		memset(blk, 0, sizeof blk);
		memcpy(blk, s + i, sc->n - i);
	}
	block_masks(last ? blk : s + i, false, &m);
	for (x = m.c & m.c >> 1 & m.l >> 2 & own; x; x &= x - 1)
		if (i + (size_t)__builtin_ctzll(x) >= 1)
			hccl_at(sc, i + (size_t)__builtin_ctzll(x) - 1);
	b = m.digit;
	starts = b & ~(b << 1 | *before) & own;
	x = starts & b >> 1 & b >> 2 & b >> 3 & b >> 4 & b >> 5 & ~(b >> 6);
	if (sc->hccl != HCCL_NONE || sc->drv)   /* and the runs of one to four */
		x |= starts & ~(b >> 1 & b >> 2 & b >> 3 & b >> 4);
	if (sc->aicpu)                          /* and of one to five */
		x |= starts & ~(b >> 1 & b >> 2 & b >> 3 & b >> 4 & b >> 5);
	for (; x; x &= x - 1) {
		p = (unsigned)__builtin_ctzll(x);
		run_at(sc, i + p, (size_t)__builtin_ctzll(~(b >> p)));
	}
	/* the runs of four or five digits, for DCMI's "-8020" */
	for (x = starts & b >> 1 & b >> 2 & b >> 3 & ~(b >> 5); sc->dcmi && x;
	     x &= x - 1) {
		p = (unsigned)__builtin_ctzll(x);
		dcmi_at(sc, i + p, (size_t)__builtin_ctzll(~(b >> p)));
	}
	if (sc->hccp)
		errno_runs(sc, i, b, starts);
	for (x = m.mark & own; x; x &= x - 1)
		marked(sc, i + (size_t)__builtin_ctzll(x));
	*before = b >> 55 & 1;
}

static size_t scan_line(const char *s, size_t n, size_t hccl, bool hccp,
			struct hx_vocab_hit *hits, size_t max)
{
	struct scan sc = { s, n, hits, max, 0, hccl, false, false, -1, hccp };
	uint64_t before = 0;
	size_t i;

	if (!s || !n || !max)
		return 0;
	sc.drv = hx_findn(s, n, "drv", 3) != NULL;
	sc.aicpu = hx_findn(s, n, "AICPU", 5) != NULL &&
		   hx_findn(s, n, "errcode:", 8) != NULL;
	pthread_once(&tab_once, tab_init);
	for (i = 0; n - i > 64; i += 56)
		scan_block(&sc, i, false, &before);
	scan_block(&sc, i, true, &before);
	return sc.nhit;
}

size_t hx_vocab_scan(const char *s, size_t n, struct hx_vocab_hit *hits,
		     size_t max)
{
	return scan_line(s, n, HCCL_NONE, false, hits, max);
}

size_t hx_vocab_scan_mod(const char *s, size_t n, enum hx_vocab_mod mod,
			 struct hx_vocab_hit *hits, size_t max)
{
	return scan_line(s, n, mod == HX_VM_HCCL ? 0 : HCCL_NONE,
			 mod == HX_VM_HCCP, hits, max);
}

/* An HcclResult whose words say a call to another layer failed, not
 * what happened: HCCL_E_RUNTIME "call runtime api fail", HCCL_E_DRV,
 * HCCL_E_NETWORK, HCCL_E_SYSCALL ..., and HCCL_E_INTERNAL. */
static bool call_failed(const struct hx_vocab *row)
{
	return row->family == HX_VF_HCCL &&
	       (strncmp(row->meaning, "call ", 5) == 0 ||
		strcmp(row->name, "HCCL_E_INTERNAL") == 0);
}

const struct hx_vocab *hx_vocab_line_row(const char *s, size_t n,
					 enum hx_vocab_mod mod,
					 const struct hx_vocab **any)
{
	struct hx_vocab_hit hits[8];
	size_t i, j, k = hx_vocab_scan_mod(s, n, mod, hits, 8);

	if (any)
		*any = k ? hits[0].row : NULL;
	for (i = 0; i < k; i++) {
		if (hits[i].row->cls == HX_VC_UNKNOWN)
			continue;
		/* HCCL's error number that says only that a call failed
		 * ("call runtime api fail", "internal error"): the runtime's
		 * or HCCP's code it printed after it says how
		 * ("errNo[0x...500000f] ... return[507046]") */
		if (call_failed(hits[i].row))
			for (j = i + 1; j < k; j++)
				if (hits[j].row->family == HX_VF_RUNTIME &&
				    hits[j].row->cls != HX_VC_UNKNOWN)
					return hits[j].row;
		return hits[i].row;
	}
	return NULL;
}
