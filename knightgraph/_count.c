/*
 * knightgraph._count: the compiled frontier dynamic program that counts
 * Hamiltonian cycles (knight's tours) exactly.
 *
 * Called through ctypes from knightgraph/counting.py, which builds the plan
 * (the order of the squares, which frontier slot each square occupies, which
 * edges may or must be used) and holds a plain-Python version of the same
 * program (run_python), the reference the tests compare against.
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
 * those overflows too, with the Python engine's unbounded integers.
 * Each layer of states lives in an open-addressing hash table; one call of
 * kgc_step adds one square and produces the next layer.
 *
 * A step of a large count takes seconds, so the budget is also checked inside
 * it: kgc_set_deadline gives the seconds left, and kgc_step reads the clock
 * every CLOCK_EVERY states and returns ERR_STOPPED past the deadline (the
 * layer before the step is kept; kgc_done tells how many of its states were
 * done).
 */
#define _GNU_SOURCE /* mremap */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

#define EMPTY_KEY UINT64_MAX
#define FRESH 15
#define MAX_SLOTS 18 /* 9 pairs of 7 bits */
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

#define UNKNOWN UINT64_MAX /* a pattern of degrees not yet worked out (a mask has bit 63 clear) */

/* The degree of a square from its slot value: 0, 2 (full) or 1 (an end). */
static const uint8_t DEGREE[16] = {0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

/* The subsets (bit q: subset q) that keep every degree at most 2, fill the squares that leave
   and leave none that needs an edge at degree 0, for the candidate slots' degrees `pattern`
   (base 3, candidate a in digit a): all of this depends on the degrees alone. */
static int subset_ok(int q, const int *degree, const int *submask, const int *sublen,
                     const int *candof, const int *dleave, int ndl, const int *dneed, int ndn,
                     int vleaves, int vneed, int nc)
{
    int ok = vleaves ? sublen[q] == 2 : 1;
    if (vneed)
        ok &= sublen[q] >= 1;
    for (int a = 0; a < nc; a++)
        if ((submask[q] >> a) & 1)
            ok &= degree[a] < 2;
    for (int j = 0; j < ndl; j++) {
        int a = candof[dleave[j]];
        ok &= degree[a] + ((submask[q] >> a) & 1) == 2;
    }
    for (int j = 0; j < ndn; j++) {
        int a = candof[dneed[j]];
        ok &= degree[a] + ((submask[q] >> a) & 1) >= 1;
    }
    return ok;
}

/* The subsets (a bit each) that a pattern of degrees allows; nc <= MEMO_CANDS, so that
   the subsets (1 + 8 + 28 at most) fit in 64 bits. */
static uint64_t passing(int pattern, int nc, int nsub, const int *submask, const int *sublen,
                        const int *candof, const int *dleave, int ndl, const int *dneed, int ndn,
                        int vleaves, int vneed)
{
    int degree[MEMO_CANDS];
    for (int a = 0; a < nc; a++) {
        degree[a] = pattern % 3;
        pattern /= 3;
    }
    uint64_t out = 0;
    for (int q = 0; q < nsub; q++)
        if (subset_ok(q, degree, submask, sublen, candof, dleave, ndl, dneed, ndn, vleaves,
                      vneed, nc))
            out |= (uint64_t)1 << q;
    return out;
}

/* What one step does, worked out once and read by every thread of the step. */
typedef struct {
    ctx_t *ctx;
    table_t *next;
    int slots, pairs, mirrored, nc, nsub, memoised, dest, vleaves, vneed, last;
    int nl, nsl, ndl, nsn, ndn;
    int cands[MAX_CANDS], candof[MAX_SLOTS];
    int sub[137][2], sublen[137], submask[137]; /* 1 + 16 + 16 * 15 / 2 subsets at most */
    int leave[MAX_SLOTS], sleave[MAX_SLOTS], dleave[MAX_SLOTS], sneed[MAX_SLOTS],
        dneed[MAX_SLOTS];
    uint64_t *memo; /* the subsets each pattern of degrees allows (UNKNOWN: not yet) */
    /* shared progress: the states of the layer are handed out in chunks */
    int shared;         /* several threads: table_put_shared */
    uint64_t chunk;     /* states a chunk */
    uint64_t claimed;   /* the next chunk's first state (atomic) */
    uint64_t added;     /* new keys in next from the chunks done (atomic) */
    uint64_t grow_at;   /* a chunk is not started past this many keys: the table grows first */
    int stop;           /* 0; or ERR_STOPPED / ERR_INTERNAL / 1 (grow), set by any thread */
    int release;        /* give back the pages of the chunks done (a large packed layer) */
    uint64_t buffer;    /* entries of each thread's buffer (0: the queue, one by one) */
    int64_t released;   /* bytes given back (atomic) */
    int overflow;
    int64_t seen;       /* states handled (atomic) */
} step_t;

static int step_prepare(step_t *st, ctx_t *ctx, int64_t dest, int64_t vleaves, int64_t vneed,
                        const int64_t *cands, const int64_t *forced, int64_t nc,
                        const int64_t *leave, int64_t nl, const int64_t *need, int64_t nn,
                        int64_t last)
{
    const int slots = (int)ctx->slots;
    memset(st, 0, sizeof *st);
    st->ctx = ctx;
    st->slots = slots;
    st->pairs = (slots + 1) / 2;
    st->mirrored = ctx->mirrored;
    st->dest = (int)dest;
    st->vleaves = (int)vleaves;
    st->vneed = (int)vneed;
    st->last = (int)last;
    st->nc = (int)nc;
    st->nl = (int)nl;
    if (nc > MAX_CANDS || slots > MAX_SLOTS || (!vleaves && (dest < 0 || dest >= slots)))
        return ERR_INTERNAL;
    int nforced = 0;
    for (int64_t j = 0; j < nc; j++) {
        nforced += forced[j] != 0;
        st->cands[j] = (int)cands[j];
        st->candof[cands[j]] = (int)j;
    }
    for (int64_t j = 0; j < nl; j++)
        st->leave[j] = (int)leave[j];
    /* The subsets of candidates to try: up to two slots each, and a bit mask of them. */
    int nsub = 0;
    if (nforced == 0) {
        st->sublen[nsub] = 0;
        st->submask[nsub++] = 0;
    }
    for (int a = 0; a < nc; a++)
        if (nforced == 0 || (nforced == 1 && forced[a])) {
            st->sub[nsub][0] = (int)cands[a];
            st->submask[nsub] = 1 << a;
            st->sublen[nsub++] = 1;
        }
    for (int a = 0; a < nc; a++)
        for (int b = a + 1; b < nc; b++)
            if ((forced[a] != 0) + (forced[b] != 0) == nforced) {
                st->sub[nsub][0] = (int)cands[a];
                st->sub[nsub][1] = (int)cands[b];
                st->submask[nsub] = (1 << a) | (1 << b);
                st->sublen[nsub++] = 2;
            }
    st->nsub = nforced > 2 ? 0 : nsub;
    /* Leave and need checks on slots no edge of this step touches are done once per state. */
    int touched[MAX_SLOTS] = {0};
    for (int a = 0; a < nc; a++)
        touched[cands[a]] = 1;
    for (int64_t j = 0; j < nl; j++) {
        if (touched[leave[j]])
            st->dleave[st->ndl++] = (int)leave[j];
        else
            st->sleave[st->nsl++] = (int)leave[j];
    }
    for (int64_t j = 0; j < nn; j++) {
        if (touched[need[j]])
            st->dneed[st->ndn++] = (int)need[j];
        else
            st->sneed[st->nsn++] = (int)need[j];
    }
    /* Up to MEMO_CANDS candidates the allowed subsets are memoised per pattern of
       degrees (3^nc patterns); a square with more (a torus, a 3-D board) checks them
       state by state. */
    st->memoised = nc <= MEMO_CANDS;
    int npatterns = 1;
    for (int a = 0; st->memoised && a < nc; a++)
        npatterns *= 3;
    st->memo = (uint64_t *)malloc((size_t)npatterns * sizeof(uint64_t));
    if (!st->memo)
        return ERR_NOMEM;
    for (int j = 0; j < npatterns; j++)
        st->memo[j] = UNKNOWN;
    return 0;
}

/* The successors of one state (its slot values v, its count lo + 2^64 hi) into the queue. */
static inline int step_state(step_t *st, queue_t *qu, const uint8_t *v, uint64_t lo,
                             uint64_t hi)
{
    const int slots = st->slots, nc = st->nc, pairs = st->pairs;
    int degree[MAX_CANDS];
    uint8_t w[MAX_SLOTS + 2], image[MAX_SLOTS + 2] = {0};
    for (int j = 0; j < st->nsl; j++)
        if (v[st->sleave[j]] != 1)
            return 0;
    for (int j = 0; j < st->nsn; j++)
        if (v[st->sneed[j]] == 0)
            return 0;
    /* The subsets that the degrees of the candidate slots allow (worked out once per
       pattern of degrees); only the path labels are left to look at per subset. */
    uint64_t mask = 0;
    if (st->memoised) {
        int pattern = 0;
        for (int a = nc - 1; a >= 0; a--)
            pattern = pattern * 3 + DEGREE[v[st->cands[a]]];
        mask = __atomic_load_n(&st->memo[pattern], __ATOMIC_RELAXED);
        if (mask == UNKNOWN) {
            mask = passing(pattern, nc, st->nsub, st->submask, st->sublen, st->candof,
                           st->dleave, st->ndl, st->dneed, st->ndn, st->vleaves, st->vneed);
            __atomic_store_n(&st->memo[pattern], mask, __ATOMIC_RELAXED);
        }
    } else {
        for (int a = 0; a < nc; a++)
            degree[a] = DEGREE[v[st->cands[a]]];
    }
    for (int q = 0; q < st->nsub; q++) {
        if (st->memoised ? !((mask >> q) & 1)
                         : !subset_ok(q, degree, st->submask, st->sublen, st->candof,
                                      st->dleave, st->ndl, st->dneed, st->ndn, st->vleaves,
                                      st->vneed, nc))
            continue;
        memcpy(w, v, sizeof w);
        int vv = 0; /* the new square's value */
        int closures = 0;
        for (int e = 0; e < st->sublen[q]; e++) {
            int b = st->sub[q][e];
            int vb = w[b];
            if (vv == 0 && vb == 0) {
                vv = FRESH;
                w[b] = FRESH;
            } else if (vv == 0) {
                vv = vb;
                w[b] = 1;
            } else if (vb == 0) {
                w[b] = (uint8_t)vv;
                vv = 1;
            } else if (vv == vb) {
                closures++;
                vv = 1;
                w[b] = 1;
            } else {
                int va = vv;
                vv = 1;
                w[b] = 1;
                for (int s = 0; s < slots; s++)
                    if (w[s] == vb) {
                        w[s] = (uint8_t)va;
                        break;
                    }
            }
        }
        if (closures && (!st->last || closures > 1))
            continue;
        if (st->last && !closures)
            continue;
        for (int j = 0; j < st->nl; j++)
            w[st->leave[j]] = 0; /* leaving squares (all of degree 2) free their slots */
        if (!st->vleaves)
            w[st->dest] = (uint8_t)vv;
        uint64_t out = encode(w, pairs);
        if (st->mirrored && out != EMPTY_KEY) {
            for (int s = 0; s < slots; s++)
                image[st->ctx->perm[s]] = w[s];
            uint64_t other = encode(image, pairs);
            out = other < out ? other : out;
        }
        if (out == EMPTY_KEY)
            return ERR_INTERNAL;
        if (qu->cap)
            buffer_put(st->next, qu, out, lo, hi);
        else
            queue_put(st->next, qu, st->shared, out, lo, hi);
    }
    return 0;
}

/* One thread of a step: chunks of the (packed) layer until none is left, the table must
   grow first, the deadline passes or something fails. */
static void *step_worker(void *arg)
{
    step_t *st = (step_t *)arg;
    ctx_t *ctx = st->ctx;
    const table_t *cur = &ctx->cur;
    const uint64_t total = cur->size;
    queue_t qu;
    memset(&qu, 0, sizeof qu);
    if (st->buffer) {
        qu.buf = (waiting_t *)malloc(st->buffer * 2 * sizeof(waiting_t));
        qu.sorted = qu.buf + st->buffer;
        qu.cap = qu.buf ? st->buffer : 0; /* no room: the queue, one by one */
    }
    uint8_t v[MAX_SLOTS + 2] = {0};
    for (;;) {
        if (__atomic_load_n(&st->stop, __ATOMIC_RELAXED))
            break;
        if (__atomic_load_n(&st->added, __ATOMIC_RELAXED) > st->grow_at) {
            __atomic_store_n(&st->stop, 1, __ATOMIC_RELAXED);
            break;
        }
        uint64_t from = __atomic_fetch_add(&st->claimed, st->chunk, __ATOMIC_RELAXED);
        if (from >= total)
            break;
        uint64_t to = from + st->chunk < total ? from + st->chunk : total;
        uint64_t i = from;
        for (; i < to; i++) {
            if ((i - from) % CLOCK_EVERY == 0 && ctx->timed &&
                now_seconds() >= ctx->deadline) {
                __atomic_store_n(&st->stop, ERR_STOPPED, __ATOMIC_RELAXED);
                break;
            }
            uint64_t lo, hi;
            table_get(cur, i, &lo, &hi);
            decode(key_at(cur, i), v, st->pairs);
            if (qu.cap && qu.used + (uint64_t)st->nsub > qu.cap) {
                buffer_flush(st->next, &qu, st->shared);
                __atomic_fetch_add(&st->added, qu.added, __ATOMIC_RELAXED);
                qu.added = 0;
            }
            if (step_state(st, &qu, v, lo, hi)) {
                __atomic_store_n(&st->stop, ERR_INTERNAL, __ATOMIC_RELAXED);
                break;
            }
        }
        while (qu.queued)
            queue_flush_one(st->next, &qu, st->shared);
        if (st->release && i == to && to - from == st->chunk && from % 512 == 0) {
            /* a whole chunk done, whole pages (chunks of 512 states on a mapping) */
            size_t es = entry_size(cur->wide);
            madvise((char *)cur->e + from * es, (to - from) * es, MADV_DONTNEED);
            __atomic_fetch_add(&st->released, (int64_t)((to - from) * es), __ATOMIC_RELAXED);
            __atomic_fetch_sub(&ctx->used, (int64_t)((to - from) * es), __ATOMIC_RELAXED);
        }
        __atomic_fetch_add(&st->added, qu.added, __ATOMIC_RELAXED);
        __atomic_fetch_add(&st->seen, (int64_t)(i - from), __ATOMIC_RELAXED);
        qu.added = 0;
    }
    queue_drain(st->next, &qu, st->shared); /* before the table grows or the step ends */
    __atomic_fetch_add(&st->added, qu.added, __ATOMIC_RELAXED);
    __atomic_fetch_or(&st->overflow, qu.overflow, __ATOMIC_RELAXED);
    free(qu.buf);
    return NULL;
}

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

/* Copy the current layer out: keys[i] with the count hi[i] * 2^64 + lo[i] (kgc_size entries). */
void kgc_export(void *p, uint64_t *keys, uint64_t *lo, uint64_t *hi)
{
    table_t *t = &((ctx_t *)p)->cur;
    uint64_t k = 0;
    for (uint64_t i = 0; i < t->cap; i++) {
        uint64_t key = key_at(t, i);
        if (key != EMPTY_KEY) {
            keys[k] = key;
            table_get(t, i, &lo[k], &hi[k]);
            k++;
        }
    }
}

/* Replace the current layer by the n states keys[i] with counts hi[i] * 2^64 + lo[i] (states
   exported by kgc_export, perhaps from another process): where a split count's part starts.
   Returns n, or ERR_NOMEM / ERR_LIMIT / ERR_OVERFLOW (a count needs 128 bits: use wide). */
int64_t kgc_load(void *p, int64_t n, const uint64_t *keys, const uint64_t *lo, const uint64_t *hi)
{
    ctx_t *ctx = (ctx_t *)p;
    table_t fresh;
    int err = table_init(ctx, &fresh, (uint64_t)n + (uint64_t)n / 3 + 16);
    if (err)
        return err;
    for (int64_t i = 0; i < n; i++)
        table_put(&fresh, keys[i], lo[i], hi[i]);
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
