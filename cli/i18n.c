/*
 * i18n.c - the language of hangdx's messages: --lang zh|en, else LANGUAGE,
 * LC_ALL, LC_MESSAGES and LANG as gettext reads them; only LC_CTYPE and
 * LC_MESSAGES are set (JSON numbers keep their '.').  A locale that is not
 * installed falls back to C.UTF-8 with its language in LANGUAGE.
 * Catalogues: $HANGDX_LOCALEDIR, the build tree or ../share/locale next to
 * the binary, PREFIX/share/locale.
 */
#include <libintl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

#ifndef HANGDX_LOCALEDIR
#define HANGDX_LOCALEDIR "/usr/local/share/locale"
#endif

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first of the directories next to the binary that exists, else the
 * installed one. */
static const char *locale_dir(char *buf, size_t n)
{
	static const char *const rel[] = { "/locale", "/build/locale",
					   "/../share/locale" };
	const char *env = getenv("HANGDX_LOCALEDIR");
	char exe[PATH_MAX];
	ssize_t len;
	char *slash;
	size_t i;

	if (env && *env)
		return env;
	len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0)
		return HANGDX_LOCALEDIR;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return HANGDX_LOCALEDIR;
	*slash = '\0';
	for (i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		snprintf(buf, n, "%s%s/zh_CN/LC_MESSAGES", exe, rel[i]);
		if (is_dir(buf)) {
			snprintf(buf, n, "%s%s", exe, rel[i]);
			return buf;
		}
	}
	return HANGDX_LOCALEDIR;
}

/* What gettext would read for LC_MESSAGES: LC_ALL, LC_MESSAGES, LANG. */
static const char *messages_env(void)
{
	static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
	size_t i;

	for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

static bool is_c_locale(const char *name)
{
	return !name || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0;
}

/* The locale the environment asks for is not installed: keep its language
 * for gettext in LANGUAGE ("zh_CN.UTF-8" -> "zh_CN") under C.UTF-8. */
static void fall_back(void)
{
	const char *want = messages_env(), *lang = getenv("LANGUAGE");
	char name[64];
	size_t n;

	setlocale(LC_MESSAGES, "C.UTF-8");
	if (!setlocale(LC_CTYPE, NULL) || is_c_locale(setlocale(LC_CTYPE, NULL)))
		setlocale(LC_CTYPE, "C.UTF-8");
	if ((lang && *lang) || is_c_locale(want))
		return;
	n = strcspn(want, ".@");
	if (n >= sizeof name)
		return;
	memcpy(name, want, n);
	name[n] = '\0';
	setenv("LANGUAGE", name, 1);
}

/* --lang zh|en: the language whatever the environment says. */
static int force_lang(const char *lang)
{
	const char *cur;

	if (strcmp(lang, "zh") == 0 || strcmp(lang, "zh_CN") == 0 ||
	    strcmp(lang, "zh-CN") == 0)
		setenv("LANGUAGE", "zh_CN", 1);
	else if (strcmp(lang, "en") == 0 || strcmp(lang, "C") == 0)
		setenv("LANGUAGE", "en", 1);
	else
		return -1;
	cur = setlocale(LC_MESSAGES, NULL);
	if (is_c_locale(cur))
		setlocale(LC_MESSAGES, "C.UTF-8");
	cur = setlocale(LC_CTYPE, NULL);
	if (is_c_locale(cur))
		setlocale(LC_CTYPE, "C.UTF-8");
	return 0;
}

/* Take --lang LANG or --lang=LANG off the front of argv. */
static const char *take_lang(int *argc, char **argv, int *bad)
{
	const char *lang = NULL;
	int k = 0;

	*bad = 0;
	while (*argc > 1) {
		if (strcmp(argv[1], "--lang") == 0 && *argc > 2) {
			lang = argv[2];
			k = 2;
		} else if (strncmp(argv[1], "--lang=", 7) == 0) {
			lang = argv[1] + 7;
			k = 1;
		} else if (strcmp(argv[1], "--lang") == 0) {
			*bad = 1;
			return NULL;
		} else {
			break;
		}
		memmove(argv + 1, argv + 1 + k, (size_t)(*argc - k) * sizeof *argv);
		*argc -= k;
	}
	return lang;
}

int cli_i18n_init(int *argc, char **argv)
{
	char dir[PATH_MAX + 32];
	const char *lang;
	int bad;

	if (!setlocale(LC_CTYPE, ""))
		setlocale(LC_CTYPE, "C.UTF-8");
	if (!setlocale(LC_MESSAGES, ""))
		fall_back();
	bindtextdomain(HANGDX_TEXTDOMAIN, locale_dir(dir, sizeof dir));
	bind_textdomain_codeset(HANGDX_TEXTDOMAIN, "UTF-8");
	textdomain(HANGDX_TEXTDOMAIN);
	lang = take_lang(argc, argv, &bad);
	if (bad || (lang && force_lang(lang) != 0)) {
		fprintf(stderr, _("%s: --lang takes zh or en\n"), cli_prog);
		return EXIT_USAGE;
	}
	return 0;
}
