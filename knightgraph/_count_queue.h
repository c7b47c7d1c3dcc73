/*
 * knightgraph/_count_queue.h: how the counting kernel's steps put states into a table
 * (_count.c, its only user): the 7-bit pair codes of the state keys (decode, encode), the
 * prefetching insertion queue, and the threads' buffers sorted by home slot.  Included
 * once, by _count.c, after _count_table.h; everything here is static.
 */
#ifndef KNIGHTGRAPH_COUNT_QUEUE_H
#define KNIGHTGRAPH_COUNT_QUEUE_H

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

/* A successor waiting in a thread's buffer: its key, count and home slot. */
typedef struct {
    uint64_t key, lo, home;
} waiting_t;

#define BUCKETS 4096 /* a flush sorts its entries into this many runs of the table */

/* The insertion queue of one thread: entries wait here while their table line is fetched;
   or, with 64-bit counts into a large table, in a buffer (buf, of `cap` entries) that is
   put in the table in order of the entries' homes (buffer_flush). */
typedef struct {
    pending_t q[QUEUE];
    int head, queued;
    uint64_t added; /* new keys put in the table */
    int overflow;   /* a shared table's count passed 2^64 */
    waiting_t *buf, *sorted;
    uint64_t used, cap;
} queue_t;

static inline void queue_flush_one(table_t *next, queue_t *qu, int shared)
{
    pending_t *x = &qu->q[qu->head];
    if (shared)
        qu->added += (uint64_t)table_put_shared(next, x->at, x->key, x->lo, &qu->overflow);
    else
        qu->added += (uint64_t)table_put_at(next, x->at, x->key, x->lo, x->hi);
    qu->head = (qu->head + 1) % QUEUE;
    qu->queued--;
}

/* Put (key, lo, hi) through the queue into `next`. */
static inline void queue_put(table_t *next, queue_t *qu, int shared, uint64_t key, uint64_t lo,
                             uint64_t hi)
{
    if (qu->queued == QUEUE)
        queue_flush_one(next, qu, shared);
    pending_t *y = &qu->q[(qu->head + qu->queued) % QUEUE];
    y->key = key;
    y->lo = lo;
    y->hi = hi;
    y->at = slot_hash(key, next->seed, next->cap);
    __builtin_prefetch((char *)next->e + y->at * entry_size(next->wide), 1, 3);
    qu->queued++;
}

/*
 * Put a thread's buffer into the table, in order of the entries' homes: a counting sort
 * into BUCKETS runs of the table, then the runs one after another.  A step's successors
 * land all over a table of gigabytes, one cache and TLB miss each when put one by one;
 * sorted, each run's part of the table (cap / BUCKETS entries: a megabyte for 8 x 8) is
 * reached again and again while it is in the cache, and the runs sweep the table once.
 */
static void buffer_flush(table_t *next, queue_t *qu, int shared)
{
    uint64_t n = qu->used;
    if (!n)
        return;
    static __thread uint32_t start[BUCKETS + 1];
    memset(start, 0, sizeof start);
    const uint64_t cap = next->cap;
    for (uint64_t j = 0; j < n; j++)
        start[qu->buf[j].home * BUCKETS / cap + 1]++;
    for (int b = 0; b < BUCKETS; b++)
        start[b + 1] += start[b];
    for (uint64_t j = 0; j < n; j++)
        qu->sorted[start[qu->buf[j].home * BUCKETS / cap]++] = qu->buf[j];
    for (uint64_t j = 0; j < n; j++) {
        const waiting_t *x = &qu->sorted[j];
        if (j + 8 < n)
            __builtin_prefetch((char *)next->e + qu->sorted[j + 8].home * sizeof(entry64_t), 1,
                               3);
        if (shared)
            qu->added += (uint64_t)table_put_shared(next, x->home, x->key, x->lo, &qu->overflow);
        else
            qu->added += (uint64_t)table_put_at(next, x->home, x->key, x->lo, 0);
    }
    qu->used = 0;
}

/* Put (key, lo, hi) into the thread's buffer (a 64-bit count: hi is 0). */
static inline void buffer_put(table_t *next, queue_t *qu, uint64_t key, uint64_t lo, uint64_t hi)
{
    waiting_t *y = &qu->buf[qu->used++];
    y->key = key;
    y->lo = lo;
    y->home = slot_hash(key, next->seed, next->cap);
    qu->overflow |= hi != 0;
}

/* Put the entries still waiting in the queue (or the buffer) into `next`. */
static inline void queue_drain(table_t *next, queue_t *qu, int shared)
{
    while (qu->queued)
        queue_flush_one(next, qu, shared);
    buffer_flush(next, qu, shared);
}

#endif
