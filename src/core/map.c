/*
 * map.c - a hash map from 64-bit keys to int32 values, for the indexes
 * the analyzer and the simulator build over millions of records: open
 * addressing, linear probing, doubling at three quarters load, with a
 * ceiling.
 */
#include <string.h>
#include "core.h"

#define MAP_MAX (1u << 28)

uint64_t hx_map_key(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) | 1;
}

static int map_resize(struct hangdx_ctx *ctx, struct hx_map *m, size_t ncap)
{
	size_t i, j;
	struct hx_map_slot *nv;

	if (ncap > MAP_MAX)
		return HANGDX_ELIMIT;
	nv = hx_calloc(ctx, ncap, sizeof *nv);
	if (!nv)
		return HANGDX_ENOMEM;
	for (i = 0; i < m->cap; i++) {
		if (!m->v[i].key)
			continue;
		for (j = m->v[i].key & (ncap - 1); nv[j].key; j = (j + 1) & (ncap - 1))
			;
		nv[j] = m->v[i];
	}
	hx_free(ctx, m->v);
	m->v = nv;
	m->cap = ncap;
	return HANGDX_OK;
}

static int map_grow(struct hangdx_ctx *ctx, struct hx_map *m)
{
	return map_resize(ctx, m, m->cap ? m->cap * 2 : 256);
}

int hx_map_reserve(struct hangdx_ctx *ctx, struct hx_map *m, size_t n)
{
	size_t ncap = m->cap ? m->cap : 256;

	if (n > MAP_MAX / 2)
		return HANGDX_ELIMIT;
	while ((n + 1) * 4 > ncap * 3)
		ncap *= 2;
	return ncap > m->cap ? map_resize(ctx, m, ncap) : HANGDX_OK;
}

struct hx_map_slot *hx_map_slot(struct hangdx_ctx *ctx, struct hx_map *m,
				uint64_t key, int *err)
{
	size_t i, mask;

	if ((m->n + 1) * 4 > m->cap * 3 && (*err = map_grow(ctx, m)) != 0)
		return NULL;
	mask = m->cap - 1;
	for (i = key & mask; m->v[i].key; i = (i + 1) & mask)
		if (m->v[i].key == key)
			return &m->v[i];
	m->v[i].key = key;
	m->v[i].val = -1;
	m->n++;
	return &m->v[i];
}

int32_t hx_map_find(const struct hx_map *m, uint64_t key)
{
	size_t i, mask;

	if (!m->cap)
		return -1;
	mask = m->cap - 1;
	for (i = key & mask; m->v[i].key; i = (i + 1) & mask)
		if (m->v[i].key == key)
			return m->v[i].val;
	return -1;
}

void hx_map_free(struct hangdx_ctx *ctx, struct hx_map *m)
{
	hx_free(ctx, m->v);
	m->v = NULL;
	m->n = m->cap = 0;
}

static size_t names_slot(const char *s, size_t len)
{
	return (size_t)hx_hash(s, len) & (HX_NAMES_MAX * 2 - 1);
}

void hx_names_init(struct hx_names *t, const char *const *names, size_t n)
{
	size_t i, j;

	memset(t, 0, sizeof *t);
	t->name = names;
	t->n = n < HX_NAMES_MAX ? n : HX_NAMES_MAX;
	for (i = 0; i < t->n; i++) {
		if (!names[i] || hx_names_find(t, names[i], strlen(names[i])) >= 0)
			continue;
		for (j = names_slot(names[i], strlen(names[i])); t->slot[j];
		     j = (j + 1) & (HX_NAMES_MAX * 2 - 1))
			;
		t->slot[j] = (uint16_t)(i + 1);
	}
}

int hx_names_find(const struct hx_names *t, const char *s, size_t len)
{
	size_t j;

	for (j = names_slot(s, len); t->slot[j]; j = (j + 1) & (HX_NAMES_MAX * 2 - 1)) {
		const char *c = t->name[t->slot[j] - 1];

		if (strncmp(c, s, len) == 0 && c[len] == '\0')
			return t->slot[j] - 1;
	}
	return -1;
}
