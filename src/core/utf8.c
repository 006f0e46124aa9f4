/*
 * utf8.c - log text made valid UTF-8 where it enters the evidence: a byte
 * that is not UTF-8 (GBK, binary) becomes U+FFFD, and a field clipped at
 * its ceiling is clipped between characters.  So a field reads the same
 * from the log and from evidence or facts JSON written of it (JSON has
 * no other spelling for such a byte).
 */
#include <string.h>
#include "core.h"

size_t hx_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t k, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		k = 2;
	else if (c >= 0xe0 && c <= 0xef)
		k = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		k = 4;
	else
		return 0;
	if (k > n)
		return 0;
	for (i = 1; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (k == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f)))
		return 0;
	if (k == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f)))
		return 0;
	return k;
}

const char *hx_utf8_clean(const char *s, size_t n, size_t max, char *buf,
			  size_t *len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, k;

	while (i < n && u[i] < 0x80 && i < max)        /* the common case */
		i++;
	if (i == n || i == max) {
		*len = i;
		return s;
	}
	for (; i < n; i += k ? k : 1) {     /* valid so far: no copy yet */
		k = hx_utf8_seq(u + i, n - i);
		if (!k)
			break;
		if (i + k > max) {
			*len = i;
			return s;
		}
	}
	if (i == n) {
		*len = n;
		return s;
	}
	memcpy(buf, s, i);
	o = i;
	while (i < n) {
		k = hx_utf8_seq(u + i, n - i);
		if (o + (k ? k : 3) > max)
			break;
		if (k) {
			memcpy(buf + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	*len = o;
	return buf;
}
