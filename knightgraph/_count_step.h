/*
 * knightgraph/_count_step.h: one step of the counting kernel (_count.c, its only user):
 * what a step does, worked out once (step_prepare), the successors of one state
 * (step_state), and a thread's share of the layer (step_worker).  Included once, by
 * _count.c, after _count_table.h and _count_queue.h; everything here is static.
 */
#ifndef KNIGHTGRAPH_COUNT_STEP_H
#define KNIGHTGRAPH_COUNT_STEP_H

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
    int nfix, fixslot[MAX_FIX]; /* kgc_want: the part's squares so far and the new one */
    uint8_t fixdeg[2][MAX_FIX];
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
    if (ctx->want) { /* only the subsets that give the new square a degree wanted */
        int kept = 0;
        for (int q = 0; q < st->nsub; q++)
            if ((ctx->want >> st->sublen[q]) & 1) {
                st->sub[kept][0] = st->sub[q][0];
                st->sub[kept][1] = st->sub[q][1];
                st->sublen[kept] = st->sublen[q];
                st->submask[kept++] = st->submask[q];
            }
        st->nsub = kept;
    }
    st->nfix = ctx->nfix;
    memcpy(st->fixslot, ctx->fixslot, sizeof st->fixslot);
    memcpy(st->fixdeg, ctx->fixdeg, sizeof st->fixdeg);
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
    int allowed = 7; /* the new square's degrees (bit d) that keep the state in its part */
    if (st->nfix) {
        int in0 = 1, in1 = 1, n = st->nfix - 1;
        for (int i = 0; i < n; i++) {
            int d = DEGREE[v[st->fixslot[i]]];
            in0 &= d == st->fixdeg[0][i];
            in1 &= d == st->fixdeg[1][i];
        }
        allowed = (in0 << st->fixdeg[0][n]) | (in1 << st->fixdeg[1][n]);
        if (!allowed)
            return 0;
    }
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
        if (!((allowed >> st->sublen[q]) & 1))
            continue;
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

#endif
