/*
 * knightgraph/_count_table.h: the layers of the counting kernel (_count.c, its only
 * user): open-addressing hash tables of (state key, count) with 64- or 128-bit counts,
 * the 7-bit pair codes of the state keys, and the prefetching insertion queue.
 * Included once, by _count.c; everything here is static.
 *
 * Memory is what limits a count (8 x 8 closed: 221 million states in its largest layer),
 * so a layer costs as few bytes as the tables allow:
 *  - a table is its own mapping (mmap) of any number of entries (a key's home slot is its
 *    hash scaled to the table, not masked), filled up to LOAD_NUM / LOAD_DEN before it grows
 *    by a quarter, in place (mremap, then the entries move within the block: table_grow),
 *    never holding the old and the new table at once;
 *  - a finished layer is packed: its entries are moved to the front of the block and the
 *    rest of the block is given back (table_pack), so the layer being read costs 16 bytes
 *    a state (64-bit counts), not the table's 16 / 0.86 or more.
 * And a step gives back the pages of the packed layer as it finishes them (kgc_step), so
 * its peak is not the two layers at once but about the larger of them.
 */
#ifndef KNIGHTGRAPH_COUNT_TABLE_H
#define KNIGHTGRAPH_COUNT_TABLE_H
#include <sys/mman.h>

static void pairs_init(void);

typedef struct {
    uint64_t key;
    uint64_t lo, hi; /* the count, 128 bits (kept as two halves to pack entries in 24 bytes) */
} entry128_t;

typedef struct {
    uint64_t key;
    uint64_t count; /* 64 bits: 16-byte entries, a third less memory than entry128_t */
} entry64_t;

typedef struct {
    void *e;
    uint64_t cap;   /* entries; a packed layer: its size */
    uint64_t size;
    size_t bytes;   /* the length of the mapping */
    uint64_t seed;  /* mixed into the keys' hashes: each table its own (see slot_hash) */
    int wide;       /* 128-bit counts */
    int packed;     /* entries 0..size-1 hold the layer (no hashing: read only) */
    int overflow;   /* a 64-bit count overflowed */
    uint64_t modulus; /* 0: counts are integers (overflow reported); else counts mod it */
} table_t;

typedef struct {
    table_t cur;
    int64_t slots;
    int64_t limit; /* bytes */
    int64_t used;  /* bytes mapped now */
    int64_t peak;
    uint64_t tables; /* tables made: each one's seed */
    uint64_t large;  /* entries from which a table is large (LARGE unless kgc_large) */
    uint64_t modulus; /* kgc_modulus: counts modulo this prime (0: exact, 64 or 128 bits) */
    int wide;
    int threads;     /* kgc_threads: the most threads a step may use */
    int timed;       /* a deadline is set */
    double deadline; /* seconds on now_seconds()'s clock */
    int64_t done;    /* states of the current layer handled by the last step */
    int mirrored;    /* kgc_mirror: merge the next step's states with their images */
    int want;        /* kgc_want: the degrees (bit d) the next step's new square may take (0: any) */
    int nfix;        /* kgc_want: the part's squares added so far and the new one (0: any) */
    int fixslot[MAX_FIX];   /* their slots (the new square's unused) */
    uint8_t fixdeg[2][MAX_FIX]; /* the degrees each of the part's two vectors gives them */
    double ratio;    /* states of the last step's layer over those of the layer before */
    uint8_t perm[MAX_SLOTS];
} ctx_t;

#define LOAD_NUM 78 /* a table grows when it is more than 78/100 full (linear probing slows */
#define LOAD_DEN 100 /* down sharply past about 0.8: 7x8 took 10 times as long at 0.86-0.94) */
#define SMALL_LOAD 50 /* but a table smaller than LARGE, where memory does not bind, at 1/2 */
#define GROW_BY 4  /* a large table grows by a quarter (cap / GROW_BY), a small one doubles */
#define LARGE ((uint64_t)1 << 26) /* entries: a large table (1 GiB of 16-byte entries); the
                                     tests make it smaller (kgc_large) to run its code */

/* Seconds on a monotonic clock (any origin: only differences are used). */
static double now_seconds(void)
{
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t entry_size(int wide) { return wide ? sizeof(entry128_t) : sizeof(entry64_t); }

static inline uint64_t key_at(const table_t *t, uint64_t i)
{
    return t->wide ? ((entry128_t *)t->e)[i].key : ((entry64_t *)t->e)[i].key;
}

/* Entries [from, to) made empty (count 0). */
static void table_clear(table_t *t, uint64_t from, uint64_t to)
{
    if (t->wide) {
        entry128_t *e = (entry128_t *)t->e;
        for (uint64_t i = from; i < to; i++) {
            e[i].key = EMPTY_KEY;
            e[i].lo = e[i].hi = 0;
        }
    } else {
        entry64_t *e = (entry64_t *)t->e;
        for (uint64_t i = from; i < to; i++) {
            e[i].key = EMPTY_KEY;
            e[i].count = 0;
        }
    }
}

static void account(ctx_t *ctx, int64_t delta)
{
    ctx->used += delta;
    if (ctx->used > ctx->peak)
        ctx->peak = ctx->used;
}

static int table_init(ctx_t *ctx, table_t *t, uint64_t cap)
{
    uint64_t c = cap < 16 ? 16 : cap;
    int wide = ctx->wide;
    size_t bytes = c * entry_size(wide);
    if (ctx->used + (int64_t)bytes > ctx->limit)
        return ERR_LIMIT;
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return ERR_NOMEM;
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE) /* far fewer TLB misses on random access */
        madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    t->e = mem;
    t->cap = c;
    t->size = 0;
    t->bytes = bytes;
    t->wide = wide;
    t->packed = 0;
    t->overflow = 0;
    t->seed = ++ctx->tables * 0x9E3779B97F4A7C15ULL;
    t->modulus = wide ? 0 : ctx->modulus;
    table_clear(t, 0, c);
    account(ctx, (int64_t)bytes);
    return 0;
}

static void table_free(ctx_t *ctx, table_t *t)
{
    if (t->e) {
        munmap(t->e, t->bytes);
        ctx->used -= (int64_t)t->bytes;
    }
    t->e = NULL;
    t->cap = t->size = 0;
    t->bytes = 0;
}

/* A key's home slot in a table of `cap` entries whose seed is `seed`: the top 32 bits of its
   hash scaled to the table (so the home grows with the hash, which table_grow needs).  Each
   table has its own seed: a step reads the layer in the order of its table's hashes (packed
   in slot order), and many states lead to states whose hashes, under the same seed, would
   come in that order too; then the part of the next table filled so far is crowded far past
   its load (7 x 8: 2,639 probes a key in one step).  Another seed scatters them. */
static inline uint64_t slot_hash(uint64_t key, uint64_t seed, uint64_t cap)
{
    key ^= seed;
    key ^= key >> 29;
    key *= 0xBF58476D1CE4E5B9ULL;
    key ^= key >> 32;
    key *= 0x9E3779B97F4A7C15ULL;
    return (uint64_t)(((unsigned __int128)(key >> 32) * cap) >> 32);
}

static inline uint64_t slot_next(uint64_t i, uint64_t cap) { return i + 1 == cap ? 0 : i + 1; }

/* Add (key, lo, hi) at its place from slot i on; 1 if the key is new. */
static inline int table_put_at(table_t *t, uint64_t i, uint64_t key, uint64_t lo, uint64_t hi)
{
    const uint64_t cap = t->cap;
    if (t->wide) {
        entry128_t *e = (entry128_t *)t->e;
        for (;;) {
            entry128_t *x = &e[i];
            if (x->key == key) {
                uint64_t sum = x->lo + lo;
                uint64_t high = x->hi + hi;
                uint64_t carried = high + (sum < lo);
                t->overflow |= (high < hi) | (carried < high);
                x->hi = carried;
                x->lo = sum;
                return 0;
            }
            if (x->key == EMPTY_KEY) {
                x->key = key;
                x->lo = lo;
                x->hi = hi;
                return 1;
            }
            i = slot_next(i, cap);
        }
    }
    entry64_t *e = (entry64_t *)t->e;
    const uint64_t mod = t->modulus;
    t->overflow |= hi != 0;
    for (;;) {
        entry64_t *x = &e[i];
        if (x->key == key) {
            uint64_t sum = x->count + lo; /* below 2^64: both are below mod < 2^63 */
            if (mod)
                sum = sum >= mod ? sum - mod : sum;
            else
                t->overflow |= sum < lo;
            x->count = sum;
            return 0;
        }
        if (x->key == EMPTY_KEY) {
            x->key = key;
            x->count = lo;
            return 1;
        }
        i = slot_next(i, cap);
    }
}

/* The same for a table that several threads fill at once (64-bit counts only): the key is
   claimed with a compare-and-swap, the count added atomically; *overflow is set when a
   count passes 2^64. */
static inline int table_put_shared(table_t *t, uint64_t i, uint64_t key, uint64_t lo,
                                   int *overflow)
{
    const uint64_t cap = t->cap;
    entry64_t *e = (entry64_t *)t->e;
    for (;;) {
        entry64_t *x = &e[i];
        uint64_t k = __atomic_load_n(&x->key, __ATOMIC_ACQUIRE);
        int fresh = 0;
        if (k == EMPTY_KEY) {
            uint64_t expected = EMPTY_KEY;
            fresh = __atomic_compare_exchange_n(&x->key, &expected, key, 0, __ATOMIC_ACQ_REL,
                                                __ATOMIC_ACQUIRE);
            k = fresh ? key : expected;
        }
        if (k == key) {
            if (t->modulus) { /* an addition mod p: a compare-and-swap loop */
                uint64_t old = __atomic_load_n(&x->count, __ATOMIC_RELAXED), sum;
                do {
                    sum = old + lo;
                    sum = sum >= t->modulus ? sum - t->modulus : sum;
                } while (!__atomic_compare_exchange_n(&x->count, &old, sum, 1, __ATOMIC_RELAXED,
                                                      __ATOMIC_RELAXED));
                return fresh;
            }
            uint64_t old = __atomic_fetch_add(&x->count, lo, __ATOMIC_RELAXED);
            *overflow |= old + lo < old;
            return fresh;
        }
        i = slot_next(i, cap);
    }
}

static inline void table_get(const table_t *t, uint64_t i, uint64_t *lo, uint64_t *hi)
{
    if (t->wide) {
        *lo = ((entry128_t *)t->e)[i].lo;
        *hi = ((entry128_t *)t->e)[i].hi;
    } else {
        *lo = ((entry64_t *)t->e)[i].count;
        *hi = 0;
    }
}

static inline void table_put(table_t *t, uint64_t key, uint64_t lo, uint64_t hi)
{
    t->size += (uint64_t)table_put_at(t, slot_hash(key, t->seed, t->cap), key, lo, hi);
}

/* Entry i of a table as a generic record, and back (for moving entries of either width). */
static inline void entry_read(const table_t *t, uint64_t i, entry128_t *x)
{
    if (t->wide) {
        *x = ((entry128_t *)t->e)[i];
    } else {
        x->key = ((entry64_t *)t->e)[i].key;
        x->lo = ((entry64_t *)t->e)[i].count;
        x->hi = 0;
    }
}

static inline void entry_write(table_t *t, uint64_t i, const entry128_t *x)
{
    if (t->wide) {
        ((entry128_t *)t->e)[i] = *x;
    } else {
        ((entry64_t *)t->e)[i].key = x->key;
        ((entry64_t *)t->e)[i].count = x->lo;
    }
}

/*
 * Grow a table by a quarter, in place: the mapping grows (mremap; the new part is mapped,
 * nothing is copied), then every entry moves to its place in the larger table.  A key's
 * home is its hash scaled to the table, so an entry at slot i whose home is h (i - h <= D,
 * the largest displacement in the table, when its cluster does not wrap around the end) has
 * its new home at h' >= 5h/4 - 5 > i once i > 5D + 20: moving the entries from the last slot
 * down, each lands past every slot not yet moved.  The entries below `low` (the first empty
 * slot from 5D + 21 on; the clusters that wrap around the end lie there) wait in a small
 * buffer and go in last.  Memory: the larger table alone, where a copy holds both.
 */
static int table_grow(ctx_t *ctx, table_t *t)
{
    uint64_t cap = t->cap, big = cap + (cap >= ctx->large ? cap / GROW_BY : cap);
    size_t es = entry_size(t->wide), bytes = big * es;
    if (ctx->used + (int64_t)(bytes - t->bytes) > ctx->limit)
        return ERR_LIMIT;
    uint64_t most = 0;
    for (uint64_t i = 0; i < cap; i++) {
        uint64_t key = key_at(t, i);
        if (key != EMPTY_KEY) {
            uint64_t h = slot_hash(key, t->seed, cap);
            uint64_t d = i >= h ? i - h : i + cap - h;
            most = d > most ? d : most;
        }
    }
    uint64_t low = 5 * most + 21;
    while (low < cap && key_at(t, low) != EMPTY_KEY)
        low++;
    if (low >= cap / 2)
        low = cap; /* a small or crowded table: every entry through the buffer */
    entry128_t *wait = (entry128_t *)malloc((size_t)(low ? low : 1) * sizeof(entry128_t));
    if (!wait)
        return ERR_NOMEM;
    void *mem = mremap(t->e, t->bytes, bytes, MREMAP_MAYMOVE);
    if (mem == MAP_FAILED) {
        free(wait);
        return ERR_NOMEM;
    }
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGE)
        madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    account(ctx, (int64_t)(bytes - t->bytes));
    t->e = mem;
    t->bytes = bytes;
    t->cap = big;
    table_clear(t, cap, big);
    uint64_t waiting = 0;
    for (uint64_t i = 0; i < low; i++) {
        entry_read(t, i, &wait[waiting]);
        waiting += wait[waiting].key != EMPTY_KEY;
    }
    table_clear(t, 0, low);
    entry128_t x;
    for (uint64_t i = cap; i-- > low;) {
        entry_read(t, i, &x);
        if (x.key == EMPTY_KEY)
            continue;
        table_clear(t, i, i + 1);
        uint64_t at = slot_hash(x.key, t->seed, big);
        while (key_at(t, at) != EMPTY_KEY)
            at = slot_next(at, big);
        if (at >= low && at < i) { /* past the buffered slots into those not moved: never */
            free(wait);
            return ERR_INTERNAL;
        }
        entry_write(t, at, &x);
    }
    for (uint64_t j = 0; j < waiting; j++) {
        uint64_t at = slot_hash(wait[j].key, t->seed, big);
        while (key_at(t, at) != EMPTY_KEY)
            at = slot_next(at, big);
        entry_write(t, at, &wait[j]);
    }
    free(wait);
    return 0;
}

/* A finished layer packed: its entries move to the front (in slot order) and the rest of
   the mapping is given back.  The table is then read only (cap = size, packed). */
static void table_pack(ctx_t *ctx, table_t *t)
{
    if (t->packed)
        return;
    size_t es = entry_size(t->wide);
    uint64_t k = 0;
    entry128_t x;
    for (uint64_t i = 0; i < t->cap; i++) {
        if (key_at(t, i) == EMPTY_KEY)
            continue;
        if (k != i) {
            entry_read(t, i, &x);
            entry_write(t, k, &x);
        }
        k++;
    }
    size_t page = 4096;
    size_t keep = (k * es + page - 1) / page * page;
    if (keep == 0)
        keep = page;
    if (keep < t->bytes) {
        void *mem = mremap(t->e, t->bytes, keep, 0); /* shrinking never moves */
        if (mem != MAP_FAILED) {
            ctx->used -= (int64_t)(t->bytes - keep);
            t->e = mem;
            t->bytes = keep;
        }
    }
    t->size = k;
    t->cap = k;
    t->packed = 1;
}

#endif
