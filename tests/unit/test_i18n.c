/* test_i18n.c - unit tests of translated messages: the column-counting
 * word wrap of the text report (src/report/wrap.c), translation on and off,
 * and the language tag read from the catalogue (src/core/i18n.c). */
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include "testutil.h"
#include "core/core.h"
#include "report/report.h"

static char *wrap_str(const char *text, int indent, int hang, int width)
{
	char *p;
	FILE *fp = tmpfile();
	long n;

	assert_non_null(fp);
	hx_wrap(fp, text, indent, hang, width);
	n = ftell(fp);
	assert_true(n >= 0);
	p = calloc(1, (size_t)n + 1);
	assert_non_null(p);
	rewind(fp);
	assert_int_equal(fread(p, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return p;
}

/* Display columns of one line: CJK and fullwidth forms take two. */
static int line_cols(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	int cols = 0;
	size_t i = 0;

	while (i < n) {
		if (p[i] < 0x80) {
			cols++;
			i++;
		} else if ((p[i] & 0xf0) == 0xe0) {
			unsigned cp = ((p[i] & 0x0fu) << 12) | ((p[i + 1] & 0x3fu) << 6) |
				      (p[i + 2] & 0x3fu);
			cols += (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xff00 && cp <= 0xff60)
				? 2 : 1;
			i += 3;
		} else {
			cols++;
			i += (p[i] & 0xe0) == 0xc0 ? 2 : 4;
		}
	}
	return cols;
}

static void check_lines(const char *out, int width)
{
	const char *l = out, *nl;

	while ((nl = strchr(l, '\n'))) {
		assert_true(line_cols(l, (size_t)(nl - l)) <= width);
		/* no line starts with closing or ends with opening punctuation */
		assert_false(strncmp(l + strspn(l, " "), "\xef\xbc\x8c", 3) == 0);  /* ， */
		assert_false(strncmp(l + strspn(l, " "), "\xe3\x80\x82", 3) == 0);  /* 。 */
		assert_false(strncmp(l + strspn(l, " "), "\xef\xbc\x89", 3) == 0);  /* ） */
		assert_false(nl - l >= 3 && strncmp(nl - 3, "\xef\xbc\x88", 3) == 0); /* （ */
		l = nl + 1;
	}
}

/* The wrap of the text report before it counted columns: bytes, breaks
 * at spaces only.  English must come out the same. */
static void old_wrap(FILE *fp, const char *text, int indent, int hang, int width)
{
	int col_at = indent;
	const char *p = text;

	fprintf(fp, "%*s", indent, "");
	while (*p) {
		const char *w = p;
		int n;
		while (*p && *p != ' ')
			p++;
		n = (int)(p - w);
		if (col_at > indent && col_at + 1 + n > width) {
			fprintf(fp, "\n%*s", indent + hang, "");
			col_at = indent + hang;
		} else if (col_at > indent) {
			fputc(' ', fp);
			col_at++;
		}
		fwrite(w, 1, (size_t)n, fp);
		col_at += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', fp);
}

/* English wraps at spaces exactly as before: words never split. */
static void test_wrap_english(void **state)
{
	static const char *const en[] = {
		"- Turn op retry off if it is not needed: HCCL_OP_RETRY_ENABLE=\"L0:0,L1:0,L2:0\"; "
		"each HCCL kernel then leaves its AICPU core right after expansion.",
		"Hang caused by a lost rank: rank 2 stopped (heartbeat LOST, "
		"tests/data/samples/02-hccl-doc-heartbeat-lost-and-stuck.log:3); the other "
		"ranks waited (EI0002). 2 ranks reported lost.",
		"a  b   c (x) [y], z; done.",
	};
	size_t i;
	int width;

	(void)state;
	for (i = 0; i < HX_ARRAY_LEN(en); i++)
		for (width = 10; width <= 90; width += 7) {
			char *got = wrap_str(en[i], 2, 2, width), *want;
			FILE *fp = tmpfile();
			long n;
			old_wrap(fp, en[i], 2, 2, width);
			n = ftell(fp);
			want = calloc(1, (size_t)n + 1);
			rewind(fp);
			assert_int_equal(fread(want, 1, (size_t)n, fp), (size_t)n);
			fclose(fp);
			assert_string_equal(got, want);
			free(got);
			free(want);
		}
}

static const char zh[] =
	"死锁，已在根据日志重建的 device 状态上证明：rank 0（另有 1 个 rank 情况相同）"
	"上 HCCL kernel 占满全部 6 个 AICPU 核，并且在主流排空前一直常驻（算子重执行已"
	"开启）；与此同时通信流经由 event 等待一个普通 AICPU 算子，而该算子永远拿不到 "
	"AICPU 核。环路形成后没有任何任务能再推进。";

/* A Chinese paragraph has no spaces to break at: it breaks between wide
 * characters, counts two columns for each, and keeps punctuation in
 * place; in the C locale (wcwidth knows no CJK) and in C.UTF-8. */
static void test_wrap_chinese(void **state)
{
	const char *ctype[] = { "C", "C.UTF-8" };
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		char *out;
		if (!setlocale(LC_CTYPE, ctype[i]))
			continue;
		out = wrap_str(zh, 2, 0, 78);
		check_lines(out, 78);
		assert_true(strchr(out, '\n') != strrchr(out, '\n'));  /* wrapped */
		assert_true(line_cols(out, (size_t)(strchr(out, '\n') - out)) > 70);
		free(out);
		out = wrap_str(zh, 2, 2, 30);
		check_lines(out, 30);
		free(out);
	}
	setlocale(LC_CTYPE, "C");
}

/* Log text keeps its place: control bytes dropped, bad bytes U+FFFD. */
static void test_wrap_clean(void **state)
{
	char *out;

	(void)state;
	out = wrap_str("a\x1b[31mb \xff c", 0, 0, 78);
	assert_string_equal(out, "a[31mb \xef\xbf\xbd c\n");
	free(out);
}

/* Translation: on by default, through the catalogue of the build tree;
 * off, the message itself; the language tag from the catalogue header. */
static void test_translate(void **state)
{
	static const char *const dirs[] = { "build/locale", "../locale", "locale" };
	const char *dir = NULL;
	char probe[256];
	size_t i;

	(void)state;
	assert_string_equal(hx_tr(""), "");
	assert_string_equal(hx_lang_tag(), "en");           /* C locale */
	assert_string_equal(hx_tr("fix"), "fix");
	for (i = 0; i < HX_ARRAY_LEN(dirs) && !dir; i++) {
		FILE *fp;
		snprintf(probe, sizeof probe, "%s/zh_CN/LC_MESSAGES/hangdx.mo", dirs[i]);
		if ((fp = fopen(probe, "rb"))) {
			fclose(fp);
			dir = dirs[i];
		}
	}
	if (!dir || !setlocale(LC_MESSAGES, "C.UTF-8")) {
		/* a skip, but under CI (CI=true) what the build makes and the
		 * system has must be there: a failure */
		const char *ci = getenv("CI");

		if (ci && (!strcmp(ci, "true") || !strcmp(ci, "1") || !strcmp(ci, "yes")))
			fail_msg("%s", !dir ? "no zh_CN catalogue under build/locale (make all builds it)"
					    : "no C.UTF-8 locale");
		skip();
	}
	setenv("LANGUAGE", "zh_CN", 1);
	bindtextdomain(HANGDX_TEXTDOMAIN, dir);
	bind_textdomain_codeset(HANGDX_TEXTDOMAIN, "UTF-8");
	assert_string_equal(hx_tr("fix"), "\xe4\xbf\xae\xe5\xa4\x8d\xe5\xbb\xba\xe8\xae\xae");
	assert_string_equal(hx_lang_tag(), "zh-CN");
	assert_string_equal(hangdx_strerror(HANGDX_ENOMEM), "\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3");
	assert_int_equal(hangdx_set_translate(0), 1);
	assert_string_equal(hx_tr("fix"), "fix");
	assert_string_equal(hx_lang_tag(), "en");
	assert_string_equal(hangdx_strerror(HANGDX_ENOMEM), "out of memory");
	assert_int_equal(hangdx_set_translate(1), 0);
	assert_string_equal(hx_lang_tag(), "zh-CN");
	unsetenv("LANGUAGE");
	setlocale(LC_MESSAGES, "C");
	assert_string_equal(hx_tr("fix"), "fix");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap_english),
		cmocka_unit_test(test_wrap_chinese),
		cmocka_unit_test(test_wrap_clean),
		cmocka_unit_test(test_translate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
