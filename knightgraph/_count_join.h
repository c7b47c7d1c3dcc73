/*
 * knightgraph._count: the join of two halves of a board (included by _count.c, its only
 * user; the Python side is knightgraph/counting/middle.py).
 *
 * A count in the middle runs the frontier program on each half of the board up to a
 * separator of two lines, the left half deciding the edges that touch its squares and the
 * right half (the program of the mirrored board) the others.  A left state and a right
 * state name each separator square's degree (0, 1: an end of a fragment, 2) and how the
 * fragments' ends pair up; they make a Hamiltonian cycle exactly when every square's two
 * degrees add up to 2 and the two pairings of the ends close into one cycle.  The join
 * sorts the left layer by its degree vector and indexes where each vector's states begin
 * (a hash table of the vectors), then takes each right state, finds the left states with
 * the complementary degrees in one lookup and walks the two pairings.
 *
 * Cost: sorting the left layer, a lookup for each right state, and a walk of at most w
 * squares for each pair of states with complementary degrees (reported back as `pairs`).
 */

#define JOIN_MAX 24 /* separator squares, the virtual one included */
#define JOIN_ENDS 16 /* path ends on the separator: 4 bits name one */

typedef struct {
    uint64_t code, count;
    uint64_t pairing; /* the ends in separator order, 4 bits each: the other end's number */
} side_t;

/* Where the left states of one degree vector begin in the sorted left layer. */
typedef struct {
    uint64_t code, first;
} group_t;

static inline uint64_t join_home(uint64_t code, uint64_t mask)
{
    code ^= code >> 31;
    code *= 0x9E3779B97F4A7C15ull;
    return (code >> 17) & mask;
}

typedef struct {
    const group_t *index; /* open addressing by code (EMPTY_KEY: free), mask + 1 slots */
    uint64_t mask;
    int w, lpairs, rpairs;
    const int64_t *lpos, *rpos;
    const uint8_t *rperm; /* NULL: the right layer holds every state; else its mirror classes */
    int rslots;
    const side_t *left;
    uint64_t nl;
    const uint64_t *rkeys, *rcounts;
    uint64_t nr;
    uint64_t next; /* the next chunk of right states (atomic) */
    int nq;        /* a part: right states whose degrees at qpos are qwant[0] or qwant[1] */
    int qpos[JOIN_MAX];
    uint8_t qwant[2][JOIN_MAX];
    double deadline;
    int stopped, failed;
} join_t;

typedef struct {
    join_t *jn;
    unsigned __int128 sum;
    uint64_t carry, pairs;
} join_part_t;

/* The separator values of a key: value 1 (full) where the side has no square. */
static inline void join_values(uint64_t key, int pairs, const int64_t *pos, int slots, int w,
                               uint8_t *out)
{
    uint8_t v[MAX_SLOTS + 2];
    decode(key, v, pairs);
    for (int i = 0; i < w; i++)
        out[i] = 1;
    for (int s = 0; s < slots; s++)
        if (pos[s] >= 0)
            out[pos[s]] = v[s];
}

static inline int degree_of(uint8_t x) { return x == 0 ? 0 : x == 1 ? 2 : 1; }

/* The pairing of the ends (values >= 2 are labels shared by a fragment's two ends): the ends
   numbered in separator order, field i (4 bits) of the result the number of end i's
   partner; ~0 when there are more than JOIN_ENDS ends. */
static inline uint64_t join_pairing(const uint8_t *c, int w)
{
    int8_t first[NVAL + 1];
    for (int i = 0; i <= NVAL; i++)
        first[i] = -1;
    uint64_t out = 0;
    int ends = 0;
    for (int i = 0; i < w; i++) {
        if (c[i] < 2)
            continue;
        if (ends == JOIN_ENDS)
            return ~(uint64_t)0;
        if (first[c[i]] < 0) {
            first[c[i]] = (int8_t)ends;
        } else {
            out |= (uint64_t)first[c[i]] << (4 * ends);
            out |= (uint64_t)ends << (4 * first[c[i]]);
        }
        ends++;
    }
    return out;
}

static int side_cmp(const void *a, const void *b)
{
    uint64_t x = ((const side_t *)a)->code, y = ((const side_t *)b)->code;
    return x < y ? -1 : x > y;
}

/* Every left state paired with one right state (key, count). */
static void join_one(join_part_t *jp, uint64_t key, uint64_t count)
{
    join_t *jn = jp->jn;
    int w = jn->w;
    uint8_t rc[JOIN_MAX];
    join_values(key, jn->rpairs, jn->rpos, jn->rslots, w, rc);
    if (jn->nq) {
        int fits[2] = {1, 1};
        for (int i = 0; i < jn->nq; i++)
            for (int k = 0; k < 2; k++)
                fits[k] &= degree_of(rc[jn->qpos[i]]) == jn->qwant[k][i];
        if (!fits[0] && !fits[1])
            return;
    }
    uint64_t want = 0;
    int ends = 0;
    for (int i = 0; i < w; i++) {
        int d = degree_of(rc[i]);
        want |= (uint64_t)(2 - d) << (2 * i);
        ends += d == 1;
    }
    if (!ends)
        return; /* the right half alone would be closed cycles: never a tour */
    const uint64_t rp = join_pairing(rc, w);
    if (rp == ~(uint64_t)0) {
        __atomic_store_n(&jn->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    uint64_t h = join_home(want, jn->mask); /* the left states of code want: one lookup */
    while (jn->index[h].code != want && jn->index[h].code != EMPTY_KEY)
        h = (h + 1) & jn->mask;
    if (jn->index[h].code == EMPTY_KEY)
        return;
    for (uint64_t i = jn->index[h].first; i < jn->nl && jn->left[i].code == want; i++) {
        jp->pairs++;
        const uint64_t lp = jn->left[i].pairing;
        uint64_t x = 0; /* from end 0, alternately along a left and a right fragment */
        int walked = 0;
        do {
            x = (lp >> (4 * x)) & 15;
            x = (rp >> (4 * x)) & 15;
            walked += 2;
        } while (x != 0 && walked <= ends);
        if (walked != ends)
            continue;
        unsigned __int128 add = (unsigned __int128)jn->left[i].count * count;
        jp->sum += add;
        jp->carry += jp->sum < add;
    }
}

#define JOIN_CHUNK 4096

static void *join_worker(void *arg)
{
    join_part_t *jp = (join_part_t *)arg;
    join_t *jn = jp->jn;
    uint8_t v[MAX_SLOTS + 2], image[MAX_SLOTS + 2];
    int pairs = jn->rpairs;
    for (;;) {
        uint64_t from = __atomic_fetch_add(&jn->next, JOIN_CHUNK, __ATOMIC_RELAXED);
        if (from >= jn->nr || __atomic_load_n(&jn->failed, __ATOMIC_RELAXED))
            return NULL;
        if (jn->deadline > 0 && now_seconds() > jn->deadline) {
            __atomic_store_n(&jn->stopped, 1, __ATOMIC_RELAXED);
            __atomic_store_n(&jn->failed, 1, __ATOMIC_RELAXED);
            return NULL;
        }
        uint64_t to = from + JOIN_CHUNK < jn->nr ? from + JOIN_CHUNK : jn->nr;
        for (uint64_t i = from; i < to; i++) {
            uint64_t key = jn->rkeys[i], count = jn->rcounts[i];
            if (!jn->rperm) {
                join_one(jp, key, count);
                continue;
            }
            /* a mirror class: the state and its image share the count (they are as many) */
            decode(key, v, pairs);
            memset(image, 0, sizeof image);
            for (int s = 0; s < jn->rslots; s++)
                image[jn->rperm[s]] = v[s];
            uint64_t other = encode(image, pairs);
            if (other == key) {
                join_one(jp, key, count);
            } else if (count & 1) {
                __atomic_store_n(&jn->failed, 1, __ATOMIC_RELAXED);
                return NULL;
            } else {
                join_one(jp, key, count / 2);
                join_one(jp, other, count / 2);
            }
        }
    }
}

/* The number of Hamiltonian cycles made of a left and a right layer (module notes); with
   nq > 0, only of the right states whose degrees at the separator positions qpos[0..nq-1]
   are qwant[0..nq-1] or qwant[nq..2nq-1] (a part of the count).
   Layer X has nX states (keys, 64-bit counts) over Xslots slots; Xpos[s] is the separator
   position of slot s (-1: no square).  rperm (NULL: none): the right layer holds mirror
   classes, each under its smaller key with the two states' counts, and rperm[s] is the slot
   of the mirror image of slot s's square.  The sum is written to out[0..2] (192 bits, low
   word first); returns the pairs of states walked, ERR_STOPPED past `seconds` (> 0),
   ERR_NOMEM, or ERR_INTERNAL (a bad separator or an odd count of a mirror class). */
int64_t kgc_join(int64_t w, int64_t nl, const uint64_t *lkeys, const uint64_t *lcounts,
                 int64_t lslots, const int64_t *lpos, int64_t nr, const uint64_t *rkeys,
                 const uint64_t *rcounts, int64_t rslots, const int64_t *rpos,
                 const int64_t *rperm, int64_t nq, const int64_t *qpos, const int64_t *qwant,
                 int64_t threads, double seconds, uint64_t *out)
{
    if (w < 1 || w > JOIN_MAX || lslots > MAX_SLOTS || rslots > MAX_SLOTS || nq < 0 || nq > w)
        return ERR_INTERNAL;
    pairs_init();
    join_t jn;
    memset(&jn, 0, sizeof jn);
    jn.nq = (int)nq;
    for (int i = 0; i < nq; i++) {
        if (qpos[i] < 0 || qpos[i] >= w)
            return ERR_INTERNAL;
        jn.qpos[i] = (int)qpos[i];
        jn.qwant[0][i] = (uint8_t)qwant[i];
        jn.qwant[1][i] = (uint8_t)qwant[nq + i];
    }
    int64_t lp[MAX_SLOTS];
    for (int s = 0; s < MAX_SLOTS; s++) {
        lp[s] = s < lslots ? lpos[s] : -1;
        if (lp[s] >= w)
            return ERR_INTERNAL;
    }
    uint8_t perm[MAX_SLOTS];
    for (int s = 0; s < rslots; s++) {
        if (rpos[s] >= w || (rperm && (rperm[s] < 0 || rperm[s] >= rslots)))
            return ERR_INTERNAL;
        perm[s] = rperm ? (uint8_t)rperm[s] : 0;
    }
    side_t *left = (side_t *)malloc(sizeof(side_t) * (size_t)(nl ? nl : 1));
    if (!left)
        return ERR_NOMEM;
    int lpairs = (MAX_SLOTS + 1) / 2;
    for (int64_t i = 0; i < nl; i++) {
        uint8_t c[JOIN_MAX];
        join_values(lkeys[i], lpairs, lp, MAX_SLOTS, (int)w, c);
        uint64_t code = 0;
        for (int p = 0; p < w; p++)
            code |= (uint64_t)degree_of(c[p]) << (2 * p);
        left[i].code = code;
        left[i].count = lcounts[i];
        left[i].pairing = join_pairing(c, (int)w);
        if (left[i].pairing == ~(uint64_t)0) {
            free(left);
            return ERR_INTERNAL;
        }
    }
    qsort(left, (size_t)nl, sizeof(side_t), side_cmp);
    uint64_t groups = 0;
    for (int64_t i = 0; i < nl; i++)
        groups += i == 0 || left[i].code != left[i - 1].code;
    uint64_t cap = 16;
    while (cap < 2 * groups)
        cap *= 2;
    group_t *index = (group_t *)malloc(sizeof(group_t) * cap);
    if (!index) {
        free(left);
        return ERR_NOMEM;
    }
    for (uint64_t i = 0; i < cap; i++)
        index[i].code = EMPTY_KEY;
    for (int64_t i = 0; i < nl; i++) {
        if (i && left[i].code == left[i - 1].code)
            continue;
        uint64_t h = join_home(left[i].code, cap - 1);
        while (index[h].code != EMPTY_KEY)
            h = (h + 1) & (cap - 1);
        index[h].code = left[i].code;
        index[h].first = (uint64_t)i;
    }
    jn.index = index;
    jn.mask = cap - 1;
    jn.w = (int)w;
    jn.lpairs = lpairs;
    jn.rpairs = (int)(rslots + 1) / 2;
    jn.lpos = lp;
    jn.rpos = rpos;
    jn.rperm = rperm ? perm : NULL;
    jn.rslots = (int)rslots;
    jn.left = left;
    jn.nl = (uint64_t)nl;
    jn.rkeys = rkeys;
    jn.rcounts = rcounts;
    jn.nr = (uint64_t)nr;
    jn.deadline = seconds > 0 ? now_seconds() + seconds : 0;
    int nt = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : (int)threads;
    join_part_t parts[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    int started = 0;
    for (int t = 0; t < nt; t++) {
        memset(&parts[t], 0, sizeof parts[t]);
        parts[t].jn = &jn;
    }
    for (int t = 1; t < nt; t++)
        if (pthread_create(&tid[t], NULL, join_worker, &parts[t]) == 0)
            started |= 1 << t;
    join_worker(&parts[0]);
    for (int t = 1; t < nt; t++)
        if (started & (1 << t))
            pthread_join(tid[t], NULL);
    free(left);
    free(index);
    if (jn.stopped)
        return ERR_STOPPED;
    if (jn.failed)
        return ERR_INTERNAL;
    unsigned __int128 sum = 0;
    uint64_t carry = 0, walked = 0;
    for (int t = 0; t < nt; t++) {
        sum += parts[t].sum;
        carry += parts[t].carry + (sum < parts[t].sum);
        walked += parts[t].pairs;
    }
    out[0] = (uint64_t)sum;
    out[1] = (uint64_t)(sum >> 64);
    out[2] = carry;
    return (int64_t)walked;
}
