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
    free(ctx->spare);
    free(ctx);
}

int64_t kgc_peak(void *p) { return ((ctx_t *)p)->peak; }

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

/*
 * Add one square.  During the step its value is held apart (it has no slot
 * yet); it tries every set of at most two of its candidate edges (to the
 * squares in slots cands[0..nc-1]) that holds all the forced ones.  Then the
 * squares in `leave` (and the new square if `vleaves`) must have degree 2 and
 * are cleared, the squares in `need` (and the new square if `vneed`) must not
 * have degree 0, and the new square moves into slot `dest` (a free slot).  A
 * cycle may close only at the `last` step.  Returns the number of states, or
 * ERR_NOMEM / ERR_LIMIT / ERR_OVERFLOW, or ERR_STOPPED at the deadline (see
 * kgc_set_deadline; the layer before the step is kept).
 */
int64_t kgc_step(void *p, int64_t dest, int64_t vleaves, int64_t vneed, const int64_t *cands,
                 const int64_t *forced, int64_t nc, const int64_t *leave, int64_t nl,
                 const int64_t *need, int64_t nn, int64_t last)
{
    ctx_t *ctx = (ctx_t *)p;
    table_t *cur = &ctx->cur;
    table_t next;
    int err;
    const int slots = (int)ctx->slots;
    const int pairs = (slots + 1) / 2;
    const int mirrored = ctx->mirrored;
    ctx->mirrored = 0; /* for this step only */
    ctx->done = 0;
    if (nc > MAX_CANDS || slots > MAX_SLOTS || (!vleaves && (dest < 0 || dest >= slots)))
        return ERR_INTERNAL;
    int nforced = 0;
    for (int64_t j = 0; j < nc; j++)
        nforced += forced[j] != 0;
    /* The subsets of candidates to try: up to two slots each, and a bit mask of them. */
    int sub[137][2], sublen[137], submask[137]; /* 1 + 16 + 16 * 15 / 2 subsets at most */
    int nsub = 0;
    if (nforced == 0) {
        sublen[nsub] = 0;
        submask[nsub++] = 0;
    }
    for (int a = 0; a < nc; a++)
        if (nforced == 0 || (nforced == 1 && forced[a])) {
            sub[nsub][0] = (int)cands[a];
            submask[nsub] = 1 << a;
            sublen[nsub++] = 1;
        }
    for (int a = 0; a < nc; a++)
        for (int b = a + 1; b < nc; b++)
            if ((forced[a] != 0) + (forced[b] != 0) == nforced) {
                sub[nsub][0] = (int)cands[a];
                sub[nsub][1] = (int)cands[b];
                submask[nsub] = (1 << a) | (1 << b);
                sublen[nsub++] = 2;
            }
    if (nforced > 2)
        nsub = 0;
    /* Leave and need checks on slots no edge of this step touches are done once per state. */
    int touched[MAX_SLOTS] = {0};
    for (int a = 0; a < nc; a++)
        touched[cands[a]] = 1;
    int sleave[MAX_SLOTS], dleave[MAX_SLOTS], sneed[MAX_SLOTS], dneed[MAX_SLOTS];
    int nsl = 0, ndl = 0, nsn = 0, ndn = 0;
    for (int64_t j = 0; j < nl; j++) {
        if (touched[leave[j]])
            dleave[ndl++] = (int)leave[j];
        else
            sleave[nsl++] = (int)leave[j];
    }
    for (int64_t j = 0; j < nn; j++) {
        if (touched[need[j]])
            dneed[ndn++] = (int)need[j];
        else
            sneed[nsn++] = (int)need[j];
    }

    uint64_t guess = cur->size + cur->size / 4 + 16;
    err = table_init(ctx, &next, guess * 4 / 3 + 1);
    if (err)
        return err;
    /* Up to MEMO_CANDS candidates the allowed subsets are memoised per pattern of
       degrees (3^nc patterns); a square with more (a torus, a 3-D board) checks them
       state by state. */
    const int memoised = nc <= MEMO_CANDS;
    int npatterns = 1;
    for (int a = 0; memoised && a < nc; a++)
        npatterns *= 3;
    int candof[MAX_SLOTS];
    for (int a = 0; a < nc; a++)
        candof[cands[a]] = a;
    uint64_t *memo = (uint64_t *)malloc((size_t)npatterns * sizeof(uint64_t));
    if (!memo) {
        table_free(ctx, &next);
        return ERR_NOMEM;
    }
    for (int j = 0; j < npatterns; j++)
        memo[j] = UNKNOWN;
    int degree[MAX_CANDS];
    pending_t queue[QUEUE];
    int head = 0, queued = 0;
    int64_t seen = 0;
    const int timed = ctx->timed;
    const double deadline = ctx->deadline;
    uint8_t v[MAX_SLOTS + 2] = {0}, w[MAX_SLOTS + 2] = {0}, image[MAX_SLOTS + 2] = {0};
    for (uint64_t i = 0; i < cur->cap; i++) {
        uint64_t key = key_at(cur, i);
        if (key == EMPTY_KEY)
            continue;
        if (++seen % CLOCK_EVERY == 1 && timed && now_seconds() >= deadline) {
            ctx->done = seen - 1;
            table_free(ctx, &next);
            free(memo);
            return ERR_STOPPED;
        }
        uint64_t lo, hi;
        table_get(cur, i, &lo, &hi);
        decode(key, v, pairs);
        int dead = 0;
        for (int j = 0; j < nsl; j++)
            dead |= v[sleave[j]] != 1;
        for (int j = 0; j < nsn; j++)
            dead |= v[sneed[j]] == 0;
        if (dead)
            continue;
        /* The subsets that the degrees of the candidate slots allow (worked out once per
           pattern of degrees); only the path labels are left to look at per subset. */
        uint64_t mask = 0;
        if (memoised) {
            int pattern = 0;
            for (int a = nc - 1; a >= 0; a--)
                pattern = pattern * 3 + DEGREE[v[cands[a]]];
            mask = memo[pattern];
            if (mask == UNKNOWN)
                mask = memo[pattern] = passing(pattern, nc, nsub, submask, sublen, candof,
                                               dleave, ndl, dneed, ndn, (int)vleaves, (int)vneed);
        } else {
            for (int a = 0; a < nc; a++)
                degree[a] = DEGREE[v[cands[a]]];
        }
        for (int q = 0; q < nsub; q++) {
            if (memoised ? !((mask >> q) & 1)
                         : !subset_ok(q, degree, submask, sublen, candof, dleave, ndl, dneed,
                                      ndn, (int)vleaves, (int)vneed, (int)nc))
                continue;
            memcpy(w, v, sizeof w);
            int vv = 0; /* the new square's value */
            int closures = 0;
            for (int e = 0; e < sublen[q]; e++) {
                int b = sub[q][e];
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
            if (closures && (!last || closures > 1))
                continue;
            if (last && !closures)
                continue;
            for (int64_t j = 0; j < nl; j++)
                w[leave[j]] = 0; /* leaving squares (all of degree 2) free their slots */
            if (!vleaves)
                w[dest] = (uint8_t)vv;
            uint64_t out = encode(w, pairs);
            if (mirrored && out != EMPTY_KEY) {
                for (int s = 0; s < slots; s++)
                    image[ctx->perm[s]] = w[s];
                uint64_t other = encode(image, pairs);
                out = other < out ? other : out;
            }
            if (out == EMPTY_KEY) {
                table_free(ctx, &next);
                free(memo);
                return ERR_INTERNAL;
            }
            err = queue_put(ctx, &next, queue, &head, &queued, out, lo, hi);
            if (err) {
                ctx->done = seen - 1;
                table_free(ctx, &next);
                free(memo);
                return err;
            }
        }
    }
    queue_drain(&next, queue, head, queued);
    free(memo);
    ctx->done = (int64_t)cur->size;
    table_spare(ctx); /* the block of cur, for the next step */
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
