/* test_core.c - unit tests of src/core: errors, arena, buffers, interning. */
#include "testutil.h"
#include "core/core.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(hangdx_strerror(HANGDX_EOK), "success");
	assert_string_equal(hangdx_strerror(HANGDX_ENOMEM), "out of memory");
	assert_string_equal(hangdx_strerror(-1), "unknown error");
	assert_string_equal(hangdx_strerror(HANGDX_E_COUNT), "unknown error");
}

static void test_arena(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_arena a;
	char *s;
	int i;

	(void)state;
	hx_arena_init(&a, ctx, 0);
	for (i = 0; i < 10000; i++) {
		unsigned char *p = hx_arena_alloc(&a, (size_t)(i % 97) + 1);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 16, 0);
		assert_int_equal(p[0], 0);
	}
	s = hx_arena_strndup(&a, "hello world", 5);
	assert_string_equal(s, "hello");
	hx_arena_free(&a);
	hangdx_ctx_free(ctx);
}

static void test_arena_limit(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_arena a;

	(void)state;
	hx_arena_init(&a, ctx, 100 * 1024);
	assert_non_null(hx_arena_alloc(&a, 1000));
	assert_null(hx_arena_alloc(&a, 200 * 1024));
	hx_arena_free(&a);
	hangdx_ctx_free(ctx);
}

static void test_buf_ceiling(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_buf b;
	int i;

	(void)state;
	hx_buf_init(&b, ctx, 10);
	assert_int_equal(hx_buf_puts(&b, "0123456789"), HANGDX_OK);
	assert_int_equal(hx_buf_putc(&b, 'x'), HANGDX_ELIMIT);
	assert_int_equal(b.len, 10);
	hx_buf_reset(&b);
	for (i = 0; i < 3; i++)
		assert_int_equal(hx_buf_printf(&b, "%d", i), HANGDX_OK);
	assert_string_equal(b.p, "012");
	assert_int_equal(hx_buf_printf(&b, "%s", "long string here"),
			 HANGDX_ELIMIT);
	hx_buf_free(&b);
	hangdx_ctx_free(ctx);
}

static void test_buf_printf_long(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_buf b;
	char big[1000];

	(void)state;
	memset(big, 'a', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	hx_buf_init(&b, ctx, 0);
	assert_int_equal(hx_buf_printf(&b, "<%s>", big), HANGDX_OK);
	assert_int_equal(b.len, 1001);
	assert_int_equal(b.p[0], '<');
	assert_int_equal(b.p[1000], '>');
	hx_buf_free(&b);
	hangdx_ctx_free(ctx);
}

static void test_json_escape(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_buf b;

	(void)state;
	hx_buf_init(&b, ctx, 0);
	assert_int_equal(hx_buf_json_str(&b, "a\"b\\c\n<x>\x01"), HANGDX_OK);
	assert_string_equal(b.p, "a\\\"b\\\\c\\n\\u003cx\\u003e\\u0001");
	hx_buf_free(&b);
	hangdx_ctx_free(ctx);
}

static void test_intern(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_intern in;
	char name[32];
	int err, i;

	(void)state;
	hx_intern_init(&in, ctx, 0);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof name, "stream%d", i);
		assert_int_equal(hx_intern_add(&in, name, strlen(name), &err), i);
	}
	assert_int_equal(hx_intern_add(&in, "stream42xyz", 8, &err), 42);
	assert_int_equal(hx_intern_find(&in, "stream4999", 10), 4999);
	assert_int_equal(hx_intern_find(&in, "nope", 4), -1);
	assert_string_equal(hx_intern_str(&in, 7), "stream7");
	hx_intern_free(&in);
	hangdx_ctx_free(ctx);
}

static void test_intern_limit(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);
	struct hx_intern in;
	int err;

	(void)state;
	hx_intern_init(&in, ctx, 2);
	hx_intern_add(&in, "a", 1, &err);
	hx_intern_add(&in, "b", 1, &err);
	assert_int_equal(hx_intern_add(&in, "c", 1, &err), -1);
	assert_int_equal(err, HANGDX_ELIMIT);
	hx_intern_free(&in);
	hangdx_ctx_free(ctx);
}

static void test_intern_nomem(void **state)
{
	long n;

	(void)state;
	for (n = 1; n < 40; n++) {
		struct failalloc fa;
		struct hangdx_ctx *ctx = failalloc_ctx(&fa, n + 1);
		struct hx_intern in;
		int err = 0, i, failed = 0;

		hx_intern_init(&in, ctx, 0);
		for (i = 0; i < 100 && !failed; i++) {
			char s[16];
			snprintf(s, sizeof s, "k%d", i);
			if (hx_intern_add(&in, s, strlen(s), &err) < 0) {
				assert_int_equal(err, HANGDX_ENOMEM);
				failed = 1;
			}
		}
		hx_intern_free(&in);
		hangdx_ctx_free(ctx);
		assert_int_equal(fa.live, 0);
	}
}

static int diag_seen;
static void count_diag(void *ud, const struct hangdx_diag *d)
{
	(void)ud;
	assert_string_equal(d->file, "f.log");
	assert_int_equal(d->line, 3);
	assert_string_equal(d->msg, "bad 7");
	diag_seen++;
}

static void test_diag(void **state)
{
	struct hangdx_ctx *ctx = hangdx_ctx_new(NULL);

	(void)state;
	hangdx_ctx_set_diag(ctx, count_diag, NULL);
	hx_diag(ctx, HANGDX_WARNING, "f.log", 3, 1, "bad %d", 7);
	assert_int_equal(diag_seen, 1);
	assert_int_equal(hangdx_ctx_diag_count(ctx, HANGDX_WARNING), 1);
	assert_int_equal(hangdx_ctx_diag_count(ctx, HANGDX_ERROR), 0);
	hangdx_ctx_free(ctx);
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir -p from the leaf up: every level made, existing ones and doubled
 * or trailing slashes fine, a file in the way an error. */
static void test_mkdirs(void **state)
{
	char top[] = "/tmp/hx-mkdirs-XXXXXX", p[256];
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(top));
	snprintf(p, sizeof p, "%s/a/b/c/d", top);
	assert_int_equal(hx_mkdirs(p), HANGDX_OK);
	assert_true(is_dir(p));
	assert_int_equal(hx_mkdirs(p), HANGDX_OK);
	snprintf(p, sizeof p, "%s/a/b/e//f/", top);
	assert_int_equal(hx_mkdirs(p), HANGDX_OK);
	snprintf(p, sizeof p, "%s/a/b/e/f", top);
	assert_true(is_dir(p));
	snprintf(p, sizeof p, "%s/a/file", top);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fclose(fp);
	snprintf(p, sizeof p, "%s/a/file/g/h", top);
	assert_int_equal(hx_mkdirs(p), HANGDX_EIO);
	assert_int_equal(hx_mkdirs(""), HANGDX_EINVAL);
	assert_int_equal(hx_rmtree(top), HANGDX_OK);
	assert_false(is_dir(top));
}

/* Text enters the evidence as valid UTF-8: ASCII and valid text as they
 * are (cut between characters), a byte that is not UTF-8 as U+FFFD. */
static void test_utf8_clean(void **state)
{
	char buf[16];
	const char *r;
	size_t n;

	(void)state;
	r = hx_utf8_clean("plain", 5, sizeof buf, buf, &n);
	assert_ptr_not_equal(r, buf);
	assert_int_equal(n, 5);
	r = hx_utf8_clean("abc\xe4\xb8\xad", 6, 5, buf, &n);  /* "abc" + one CJK */
	assert_int_equal(n, 3);                             /* not half of it */
	r = hx_utf8_clean("a\xb5z", 3, sizeof buf, buf, &n);   /* GBK byte */
	assert_ptr_equal(r, buf);
	assert_int_equal(n, 5);
	assert_memory_equal(buf, "a\xef\xbf\xbdz", 5);
	r = hx_utf8_clean("a\xb5\xb5\xb5\xb5\xb5", 6, 10, buf, &n);
	assert_int_equal(n, 10);                            /* three whole U+FFFD */
	assert_memory_equal(buf, "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 10);
	r = hx_utf8_clean("\xe4\xb8", 2, sizeof buf, buf, &n);  /* cut sequence */
	assert_int_equal(n, 6);
	assert_int_equal(hx_utf8_seq((const unsigned char *)"\xe4\xb8\xad", 3), 3);
	assert_int_equal(hx_utf8_seq((const unsigned char *)"\xe4\xb8\xad", 2), 0);
	assert_int_equal(hx_utf8_seq((const unsigned char *)"\xc0\x80", 2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_arena_limit),
		cmocka_unit_test(test_buf_ceiling),
		cmocka_unit_test(test_buf_printf_long),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_intern_limit),
		cmocka_unit_test(test_intern_nomem),
		cmocka_unit_test(test_diag),
		cmocka_unit_test(test_mkdirs),
		cmocka_unit_test(test_utf8_clean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
