/*
 * knightgraph._count: the compiled frontier dynamic program that counts
 * Hamiltonian cycles (knight's tours) exactly.
 *
 * Called through ctypes from knightgraph/counting/compiled.py.  The plan (the
 * order of the squares, which frontier slot each square occupies, which edges
 * may or must be used) comes from knightgraph/counting/plan.py; the same program
 * in plain Python (python_engine.run_python) is the reference the tests compare
 * against.
 *
 * A state gives each of up to 18 frontier slots a value: 0 = degree 0 (or a
 * free slot), 1 = degree 2, 2..10 = an end of a path fragment, the two ends
 * of a fragment sharing a label; labels are renumbered in slot order so that
 * equal states have equal keys.  During a step a state is a byte per slot;
 * in the tables it is packed into a 64-bit key two slots at a time, the pair
 * (a, b) as the 7-bit number 11 a + b (11 values: a frontier of 18 slots has
 * at most 9 fragments): 18 slots take 63 bits, where 4 bits a slot would
 * take 72 (the compact encoding of issue 15; 8x8 needs 16 slots in the snake
 * order, 17 top to bottom).  Counts are unsigned 64-bit integers
 * (16-byte table entries); when one overflows the step reports it and the
 * caller starts again with 128-bit counts (24-byte entries), and if one of
 * those overflows too, counts modulo primes (kgc_modulus) and puts the
 * residues together.
 * Each layer of states lives in an open-addressing hash table; one call of
 * kgc_step adds one square and produces the next layer.
 *
 * A step of a large count takes seconds, so the budget is also checked inside
 * it: kgc_set_deadline gives the seconds left, and kgc_step reads the clock
 * at the first state of every chunk and every CLOCK_EVERY states, and returns
 * ERR_STOPPED past the deadline (kgc_done tells how many of the layer's states
 * were done; the context is then only good for kgc_done, kgc_peak, kgc_free).
 */
#define _GNU_SOURCE /* mremap */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HUGE_PAGE ((size_t)2 << 20)

#define EMPTY_KEY UINT64_MAX
#define FRESH 15
#define MAX_SLOTS 18 /* 9 pairs of 7 bits */
#define MAX_FIX MAX_SLOTS /* squares a part of a count in the middle fixes (kgc_want) */
#define MAX_CANDS 16 /* frontier neighbours of one new square (a torus square has 8, plus one) */
#define MEMO_CANDS 8 /* up to this many, the allowed edge subsets are memoised per degree pattern */
#define NVAL 11      /* slot values 0..10 */
#define ERR_NOMEM (-1)
#define ERR_LIMIT (-2)
#define ERR_INTERNAL (-3)
#define ERR_OVERFLOW (-4)
#define ERR_STOPPED (-5)
#define CLOCK_EVERY 1024 /* states between two looks at the clock (about a millisecond) */
#define MAX_THREADS 8
#define BUFFER ((uint64_t)1 << 21)   /* entries of a thread's buffer (48 MiB, and as much sorted) */
#define BUFFERED_SHIFT 0 /* large tables are filled through the buffers (on 7 x 8, whose tables
                            of 4 to 16 Mi entries are smaller, they bought no time and cost
                            192 MiB: 0.93 the time, 1.35 the peak) */
#define SHARED_FROM 65536 /* layers of fewer states run on one thread */

#include "_count_table.h"
#include "_count_queue.h"
#include "_count_join.h"

void *kgc_new(int64_t slots, int64_t limit, int64_t wide)
{
    ctx_t *ctx = (ctx_t *)calloc(1, sizeof(ctx_t));
    if (!ctx)
        return NULL;
    if (slots > MAX_SLOTS) {
        free(ctx);
        return NULL;
    }
    pairs_init();
    ctx->slots = slots;
    ctx->limit = INT64_MAX; /* the first, 16-entry table always fits: the limit binds from step 1 */
    ctx->wide = wide != 0;
    ctx->threads = 1;
    ctx->large = LARGE;
    ctx->ratio = 1.0;
    if (table_init(ctx, &ctx->cur, 16)) {
        free(ctx);
        return NULL;
    }
    ctx->limit = limit;
    table_put(&ctx->cur, 0, 1, 0);
    return ctx;
}

void kgc_free(void *p)
{
    ctx_t *ctx = (ctx_t *)p;
    if (!ctx)
        return;
    table_free(ctx, &ctx->cur);
    free(ctx);
}

int64_t kgc_peak(void *p) { return ((ctx_t *)p)->peak; }

/* The steps may use up to `threads` threads (1 to MAX_THREADS) on layers of SHARED_FROM
   states or more, with 64-bit counts; the counts are the same for any number. */
void kgc_threads(void *p, int64_t threads)
{
    ctx_t *ctx = (ctx_t *)p;
    ctx->threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : (int)threads;
}

/* Count modulo `prime` (below 2^62; 0: exactly, in 64 then 128 bits): the counts of a count
   too large for 128 bits are found modulo several primes and put together by the Chinese
   remainder theorem (knightgraph/counting/compiled.py).  Call before the first step; the
   first state's count (1) is the same either way. */
void kgc_modulus(void *p, int64_t prime)
{
    ctx_t *ctx = (ctx_t *)p;
    ctx->modulus = prime > 0 && !ctx->wide ? (uint64_t)prime : 0;
    ctx->cur.modulus = ctx->modulus;
}

/* Tables of `entries` or more are large (grown by a quarter, filled to LOAD_NUM, their
   layers' pages given back as they are read, filled through the threads' buffers): LARGE
   by default, smaller in the tests. */
void kgc_large(void *p, int64_t entries)
{
    ((ctx_t *)p)->large = entries < 16 ? 16 : (uint64_t)entries;
}

/* The next steps stop (ERR_STOPPED) once `seconds` have passed from now; a negative value: no
   deadline.  Seconds rather than a time of day, so that the caller's clock need not be ours. */
void kgc_set_deadline(void *p, double seconds)
{
    ctx_t *ctx = (ctx_t *)p;
    ctx->timed = seconds >= 0;
    ctx->deadline = ctx->timed ? now_seconds() + seconds : 0.0;
}

/* States of the layer before the last step that it handled (all of them unless it stopped). */
int64_t kgc_done(void *p) { return ((ctx_t *)p)->done; }

/* The count of the empty state (all slots 0): the number of cycles after the last step. */
void kgc_result(void *p, uint64_t *out)
{
    ctx_t *ctx = (ctx_t *)p;
    table_t *t = &ctx->cur;
    out[0] = out[1] = 0;
    for (uint64_t i = 0; i < t->cap; i++)
        if (key_at(t, i) == 0)
            table_get(t, i, &out[0], &out[1]);
}

#include "_count_step.h"

/*
 * Add one square.  During the step its value is held apart (it has no slot
 * yet); it tries every set of at most two of its candidate edges (to the
 * squares in slots cands[0..nc-1]) that holds all the forced ones.  Then the
 * squares in `leave` (and the new square if `vleaves`) must have degree 2 and
 * are cleared, the squares in `need` (and the new square if `vneed`) must not
 * have degree 0, and the new square moves into slot `dest` (a free slot).  A
 * cycle may close only at the `last` step.  Returns the number of states, or
 * ERR_NOMEM / ERR_LIMIT / ERR_OVERFLOW, or ERR_STOPPED at the deadline (see
 * kgc_set_deadline).  After a step that failed, the layer may have lost the pages
 * of the states it had read: the context is only good for kgc_done, kgc_peak and
 * kgc_free.
 *
 * The layer read is packed (table_pack) and handed out in chunks to the step's
 * threads (kgc_threads; one for small layers and 128-bit counts), which fill one
 * table (table_put_shared).  Before a chunk starts, the table must have room for
 * whatever the chunks running may add: past LOAD_NUM / LOAD_DEN full, the threads
 * stop, the table grows in place, and they go on.
 */
int64_t kgc_step(void *p, int64_t dest, int64_t vleaves, int64_t vneed, const int64_t *cands,
                 const int64_t *forced, int64_t nc, const int64_t *leave, int64_t nl,
                 const int64_t *need, int64_t nn, int64_t last)
{
    ctx_t *ctx = (ctx_t *)p;
    table_t *cur = &ctx->cur;
    table_t next;
    step_t *st = (step_t *)malloc(sizeof(step_t));
    if (!st)
        return ERR_NOMEM;
    int err = step_prepare(st, ctx, dest, vleaves, vneed, cands, forced, nc, leave, nl, need,
                           nn, last);
    ctx->mirrored = 0; /* for this step only */
    ctx->want = 0;
    ctx->nfix = 0;
    ctx->done = 0;
    if (err) {
        free(st->memo);
        free(st);
        return err;
    }
    table_pack(ctx, cur);
    int threads = ctx->wide || cur->size < SHARED_FROM ? 1 : ctx->threads;
    /* A chunk adds at most nsub keys a state: the chunks that may run at once leave the
       table less than 19/20 full, whatever the load at which they started (a table holds
       at least 16 times what one state of each thread may add). */
    uint64_t per = (uint64_t)(st->nsub ? st->nsub : 1) * (uint64_t)threads;
    /* The next table is sized for the layer the last step's growth predicts, at the load
       where tables grow; but past LARGE states (where memory binds), with just an entry
       for each state read: a larger layer grows it in place (table_grow) while the pages
       of the states read are given back. */
    double ratio = ctx->ratio < 0.5 ? 0.5 : ctx->ratio > 3.0 ? 3.0 : ctx->ratio;
    uint64_t want = cur->size >= ctx->large / 2
                        ? cur->size + 16
                        : (uint64_t)((double)cur->size * ratio * LOAD_DEN / SMALL_LOAD) + 16;
    err = table_init(ctx, &next, want > 16 * per ? want : 16 * per);
    if (err) {
        free(st->memo);
        free(st);
        return err;
    }
    st->next = &next;
    st->shared = threads > 1;
    pthread_t tid[MAX_THREADS];
    for (;;) {
        uint64_t room = next.cap / LOAD_DEN * (LOAD_DEN * 19 / 20 - LOAD_NUM) + 1;
        st->chunk = room / per > 4096 ? 4096 : room / per ? room / per : 1;
        st->release = st->chunk >= 512 && cur->size >= ctx->large / 2;
        if (st->release)
            st->chunk &= ~(uint64_t)511; /* 512 states: 8 or 3 pages of 4 KiB */
        st->grow_at = next.cap / LOAD_DEN * (next.cap >= ctx->large ? LOAD_NUM : SMALL_LOAD);
        /* The buffers: what they hold is not yet counted in `added`, so together with the
           chunks running they stay within the room past grow_at. */
        uint64_t buffer = (room - per * st->chunk) / (uint64_t)threads;
        buffer = buffer > BUFFER ? BUFFER : buffer;
        st->buffer = ctx->wide || next.cap < ctx->large >> BUFFERED_SHIFT ||
                             buffer < 2 * (uint64_t)st->nsub + 64
                         ? 0
                         : buffer;
        st->stop = 0;
        int started = 0;
        for (; started < threads - 1; started++)
            if (pthread_create(&tid[started], NULL, step_worker, st) != 0)
                break;
        step_worker(st);
        for (int j = 0; j < started; j++)
            pthread_join(tid[j], NULL);
        if (st->stop != 1)
            break;
        next.size = st->added;
        err = table_grow(ctx, &next);
        if (err)
            break;
    }
    ctx->done = st->seen;
    ctx->used += st->released; /* table_free(cur) counts the whole mapping */
    if (!err && st->stop)
        err = st->stop;
    next.size = st->added;
    next.overflow |= st->overflow;
    free(st->memo);
    free(st);
    if (err) {
        table_free(ctx, &next);
        return err;
    }
    ctx->ratio = cur->size ? (double)next.size / (double)cur->size : 1.0;
    table_free(ctx, cur);
    *cur = next;
    if (cur->overflow)
        return ERR_OVERFLOW;
    return (int64_t)cur->size;
}

/* The number of states of the current layer. */
int64_t kgc_size(void *p) { return (int64_t)((ctx_t *)p)->cur.size; }

/* Copy the current layer out: keys[i] with the count hi[i] * 2^64 + lo[i] (kgc_size entries;
   hi may be NULL when every count fits 64 bits). */
void kgc_export(void *p, uint64_t *keys, uint64_t *lo, uint64_t *hi)
{
    table_t *t = &((ctx_t *)p)->cur;
    uint64_t k = 0;
    for (uint64_t i = 0; i < t->cap; i++) {
        uint64_t key = key_at(t, i);
        if (key != EMPTY_KEY) {
            uint64_t high;
            keys[k] = key;
            table_get(t, i, &lo[k], &high);
            if (hi)
                hi[k] = high;
            k++;
        }
    }
}

/* Replace the current layer by the n states keys[i] with counts hi[i] * 2^64 + lo[i] (states
   exported by kgc_export, perhaps from another process; hi NULL: all 0): where a split
   count's part starts.
   Returns n, or ERR_NOMEM / ERR_LIMIT / ERR_OVERFLOW (a count needs 128 bits: use wide). */
int64_t kgc_load(void *p, int64_t n, const uint64_t *keys, const uint64_t *lo, const uint64_t *hi)
{
    ctx_t *ctx = (ctx_t *)p;
    table_t fresh;
    int err = table_init(ctx, &fresh, (uint64_t)n + (uint64_t)n / 3 + 16);
    if (err)
        return err;
    for (int64_t i = 0; i < n; i++)
        table_put(&fresh, keys[i], lo[i], hi ? hi[i] : 0);
    table_free(ctx, &ctx->cur);
    ctx->cur = fresh;
    if (fresh.overflow)
        return ERR_OVERFLOW;
    return (int64_t)fresh.size;
}

/* Merge every state of the next step's layer with its mirror image: perm[s] is the slot of
   the mirror square of the square in slot s (a free slot maps to itself), valid when the
   squares done after the step and the frontier are symmetric under the mirror (a column
   boundary of a symmetric board).  A state and its image have as many completions (the
   squares left are symmetric too), so the step keeps only the smaller key of the two, with
   both counts: about half the states from there on, merged as the step makes them (no pass
   of its own over the layer). */
void kgc_mirror(void *p, const int64_t *perm)
{
    ctx_t *ctx = (ctx_t *)p;
    ctx->mirrored = 1;
    for (int s = 0; s < ctx->slots; s++)
        ctx->perm[s] = (uint8_t)perm[s];
}

/* The next step keeps only the successors whose squares fix[0..n-1] have the degrees of
   one of a part's two vectors (the parts of a count in the middle,
   knightgraph/counting/middle.py): fix holds n triples (slot, degree in the first vector,
   degree in the second), the squares the part fixes that the program has added so far and,
   last, the new square (its slot unused: its degree is the number of its edges chosen).
   Both vectors are checked together, not square by square: a part is one vector and its
   image, not every vector whose squares take either value. */
void kgc_want(void *p, int64_t n, const int64_t *fix)
{
    ctx_t *ctx = (ctx_t *)p;
    if (n < 1 || n > MAX_FIX)
        return;
    ctx->nfix = (int)n;
    for (int64_t i = 0; i < n; i++) {
        ctx->fixslot[i] = (int)fix[3 * i];
        ctx->fixdeg[0][i] = (uint8_t)fix[3 * i + 1];
        ctx->fixdeg[1][i] = (uint8_t)fix[3 * i + 2];
    }
    ctx->want = (1 << (fix[3 * n - 2] & 3)) | (1 << (fix[3 * n - 1] & 3));
}

/* The keys of the mirror images of n states of `slots` slots (perm as for kgc_mirror). */
void kgc_images(int64_t slots, const int64_t *perm, int64_t n, const uint64_t *keys,
                uint64_t *out)
{
    uint8_t v[MAX_SLOTS + 2], image[MAX_SLOTS + 2];
    int pairs = (int)(slots + 1) / 2;
    pairs_init();
    for (int64_t i = 0; i < n; i++) {
        decode(keys[i], v, pairs);
        memset(image, 0, sizeof image);
        for (int s = 0; s < slots; s++)
            image[perm[s]] = v[s];
        out[i] = encode(image, pairs);
    }
}
