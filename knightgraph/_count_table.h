/*
 * knightgraph/_count_table.h: the layers of the counting kernel (_count.c, its only
 * user): open-addressing hash tables of (state key, count) with 64- or 128-bit counts,
 * the 7-bit pair codes of the state keys, and the prefetching insertion queue.
 * Included once, by _count.c; everything here is static.
 */
#ifndef KNIGHTGRAPH_COUNT_TABLE_H
#define KNIGHTGRAPH_COUNT_TABLE_H
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
    uint64_t cap; /* a power of two */
    uint64_t size;
    int shift;
    int wide;     /* 128-bit counts */
    int overflow; /* a 64-bit count overflowed */
} table_t;

typedef struct {
    table_t cur;
    int64_t slots;
    int64_t limit; /* bytes */
    int64_t used;  /* bytes allocated now */
    int64_t peak;
    int wide;
    int timed;       /* a deadline is set */
    double deadline; /* seconds on now_seconds()'s clock */
    int64_t done;    /* states of the current layer handled by the last step */
    int mirrored;           /* kgc_mirror: merge the next step's states with their images */
    uint8_t perm[MAX_SLOTS];
    void *spare;       /* the block of the layer before the last step, kept for the next */
    uint64_t spare_cap; /* its capacity in entries (0: none) */
    int spare_wide;
} ctx_t;

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

static int64_t table_bytes(uint64_t cap, int wide) { return (int64_t)(cap * entry_size(wide)); }

static inline uint64_t key_at(const table_t *t, uint64_t i)
{
    return t->wide ? ((entry128_t *)t->e)[i].key : ((entry64_t *)t->e)[i].key;
}

static int table_init(ctx_t *ctx, table_t *t, uint64_t cap)
{
    int shift = 64;
    uint64_t c = 1;
    while (c < cap) {
        c <<= 1;
        shift--;
    }
    if (c < 16) {
        c = 16;
        shift = 60;
    }
    int wide = ctx->wide;
    size_t bytes = c * entry_size(wide);
    void *mem = NULL;
    if (ctx->spare && ctx->spare_wide == wide && ctx->spare_cap >= c && ctx->spare_cap <= 4 * c) {
        /* The block of the layer freed at the end of the last step fits (its pages are mapped
           already: no page faults, no zeroing by the kernel): the table takes all of it. */
        while (c < ctx->spare_cap) {
            c <<= 1;
            shift--;
        }
        bytes = c * entry_size(wide);
        mem = ctx->spare;
        ctx->spare = NULL;
        ctx->used -= table_bytes(c, wide);
    } else if (ctx->spare) {
        ctx->used -= table_bytes(ctx->spare_cap, ctx->spare_wide);
        free(ctx->spare);
        ctx->spare = NULL;
    }
    if (!mem && ctx->used + table_bytes(c, wide) > ctx->limit)
        return ERR_LIMIT;
    if (!mem && bytes >= HUGE_PAGE) {
        /* Large tables on transparent huge pages: far fewer TLB misses on random access. */
        if (posix_memalign(&mem, HUGE_PAGE, bytes) != 0)
            mem = NULL;
#ifdef MADV_HUGEPAGE
        if (mem)
            madvise(mem, bytes, MADV_HUGEPAGE);
#endif
    } else if (!mem) {
        mem = malloc(bytes);
    }
    if (!mem)
        return ERR_NOMEM;
    t->e = mem;
    if (wide)
        for (uint64_t i = 0; i < c; i++)
            ((entry128_t *)mem)[i].key = EMPTY_KEY;
    else
        for (uint64_t i = 0; i < c; i++)
            ((entry64_t *)mem)[i].key = EMPTY_KEY;
    t->cap = c;
    t->size = 0;
    t->shift = shift;
    t->wide = wide;
    t->overflow = 0;
    ctx->used += table_bytes(c, wide);
    if (ctx->used > ctx->peak)
        ctx->peak = ctx->used;
    return 0;
}

/* At the end of a step: the block of the layer before it (`ctx->cur`) is kept as the spare
   for the next step's table (table_init takes it if it is from 1 to 4 times the size asked
   for); any other spare is freed.  The spare counts as used memory, so the peak is the same
   as if it had been freed and allocated again. */
static void table_spare(ctx_t *ctx)
{
    table_t *cur = &ctx->cur;
    if (ctx->spare) {
        ctx->used -= table_bytes(ctx->spare_cap, ctx->spare_wide);
        free(ctx->spare);
        ctx->spare = NULL;
    }
    if (cur->e && table_bytes(cur->cap, cur->wide) >= (int64_t)HUGE_PAGE) {
        ctx->spare = cur->e;
        ctx->spare_cap = cur->cap;
        ctx->spare_wide = cur->wide;
        cur->e = NULL; /* table_free below then only forgets it; the bytes stay counted */
        cur->cap = cur->size = 0;
    }
}

static void table_free(ctx_t *ctx, table_t *t)
{
    if (t->e) {
        ctx->used -= table_bytes(t->cap, t->wide);
        free(t->e);
    }
    t->e = NULL;
    t->cap = t->size = 0;
}

static inline uint64_t slot_hash(uint64_t key, int shift)
{
    key ^= key >> 29;
    key *= 0xBF58476D1CE4E5B9ULL;
    key ^= key >> 32;
    return (key * 0x9E3779B97F4A7C15ULL) >> shift;
}

static inline void table_put_at(table_t *t, uint64_t i, uint64_t key, uint64_t lo, uint64_t hi)
{
    uint64_t mask = t->cap - 1;
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
                return;
            }
            if (x->key == EMPTY_KEY) {
                x->key = key;
                x->lo = lo;
                x->hi = hi;
                t->size++;
                return;
            }
            i = (i + 1) & mask;
        }
    }
    entry64_t *e = (entry64_t *)t->e;
    t->overflow |= hi != 0;
    for (;;) {
        entry64_t *x = &e[i];
        if (x->key == key) {
            uint64_t sum = x->count + lo;
            t->overflow |= sum < lo;
            x->count = sum;
            return;
        }
        if (x->key == EMPTY_KEY) {
            x->key = key;
            x->count = lo;
            t->size++;
            return;
        }
        i = (i + 1) & mask;
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
    table_put_at(t, slot_hash(key, t->shift), key, lo, hi);
}

static int table_grow(ctx_t *ctx, table_t *t)
{
    table_t bigger;
    int err = table_init(ctx, &bigger, t->cap * 2);
    if (err)
        return err;
    for (uint64_t i = 0; i < t->cap; i++) {
        uint64_t key = key_at(t, i), lo, hi;
        if (key != EMPTY_KEY) {
            table_get(t, i, &lo, &hi);
            table_put(&bigger, key, lo, hi);
        }
    }
    bigger.overflow |= t->overflow;
    table_free(ctx, t);
    *t = bigger;
    return 0;
}

/* Insertions go through a short queue so that the table line is prefetched first. */
#define QUEUE 16
typedef struct {
    uint64_t key, lo, hi, at;
} pending_t;

/* The two slot values of each 7-bit pair code (filled once: 11 * 11 codes). */
static uint8_t pair_first[128], pair_second[128];

static void pairs_init(void)
{
    for (int c = 0; c < 128; c++) {
        pair_first[c] = (uint8_t)(c < NVAL * NVAL ? c / NVAL : 0);
        pair_second[c] = (uint8_t)(c < NVAL * NVAL ? c % NVAL : 0);
    }
}

/* The slot values of a key (v has room for MAX_SLOTS, the unused ones 0). */
static inline void decode(uint64_t key, uint8_t *v, int pairs)
{
    for (int p = 0; p < pairs; p++) {
        int c = (int)((key >> (7 * p)) & 127);
        v[2 * p] = pair_first[c];
        v[2 * p + 1] = pair_second[c];
    }
}

/* The key of the slot values w, labels renumbered in slot order, in registers: `names` holds
   the new name of each value as 4-bit nibbles (0 and 1 are their own names) and `named` which
   values have one.  Returns UINT64_MAX (never a key) when a label would pass 10 (more
   fragments than 18 slots hold). */
static inline uint64_t encode(const uint8_t *w, int pairs)
{
    uint64_t names = 0x10;
    uint32_t named = 3;
    uint64_t nextname = 2;
    uint64_t out = 0;
    for (int p = 0; p < pairs; p++) {
        uint64_t code = 0;
        for (int h = 0; h < 2; h++) {
            int x = w[2 * p + h];
            uint64_t fresh = (~named >> x) & 1;
            uint64_t t = fresh ? nextname : (names >> (4 * x)) & 15;
            names |= t << (4 * x);
            named |= 1u << x;
            nextname += fresh;
            code = code * NVAL + t;
        }
        out |= code << (7 * p);
    }
    return nextname > NVAL ? UINT64_MAX : out;
}

/* Put (key, lo, hi) through the queue into `next` (growing it first if need be). */
static inline int queue_put(ctx_t *ctx, table_t *next, pending_t *queue, int *head, int *queued,
                            uint64_t key, uint64_t lo, uint64_t hi)
{
    if ((next->size + (uint64_t)*queued + 1) * 4 > next->cap * 3) {
        while (*queued) {
            pending_t *x = &queue[*head];
            table_put(next, x->key, x->lo, x->hi);
            *head = (*head + 1) % QUEUE;
            (*queued)--;
        }
        int err = table_grow(ctx, next);
        if (err)
            return err;
    }
    if (*queued == QUEUE) {
        pending_t *x = &queue[*head];
        table_put_at(next, x->at, x->key, x->lo, x->hi);
        *head = (*head + 1) % QUEUE;
        (*queued)--;
    }
    pending_t *y = &queue[(*head + *queued) % QUEUE];
    y->key = key;
    y->lo = lo;
    y->hi = hi;
    y->at = slot_hash(key, next->shift);
    __builtin_prefetch((char *)next->e + y->at * entry_size(next->wide), 1, 3);
    (*queued)++;
    return 0;
}

/* Put the entries still waiting in the queue into `next` (the end of a step). */
static inline void queue_drain(table_t *next, const pending_t *queue, int head, int queued)
{
    for (; queued > 0; queued--, head = (head + 1) % QUEUE) {
        const pending_t *x = &queue[head];
        table_put_at(next, x->at, x->key, x->lo, x->hi);
    }
}

#endif
