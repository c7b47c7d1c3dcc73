/*
 * knightgraph._kernels: the compiled inner loops of plain depth-first search
 * and of Warnsdorff-family walks.
 *
 * The functions are called through ctypes from knightgraph/solvers/kernels.py,
 * which also holds plain-Python versions with the same semantics (the
 * reference the tests compare against, and the fallback when this library
 * could not be built).  Read the Python versions for the documentation; this
 * file follows them statement for statement.
 *
 * Conventions: targets[i * moves + j] is the square reached from square i by
 * move j; a missing move points at the sentinel square m * n, which is always
 * marked visited.  All state lives in caller-owned arrays, and each call
 * returns after a bounded amount of work, so that the caller can check its
 * timeout and call again.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define DFS_RUNNING 0
#define DFS_FOUND 1
#define DFS_EXHAUSTED 2

/* SplitMix64 (Steele, Lea and Flood 2014): the random choices of the walks. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Plain depth-first search in the fixed column order of targets.
 * counters = {depth, placed, tried}; path[0..depth] is the current path and
 * cursor[d] the next move to try at depth d. */
int64_t kg_dfs(const int32_t *targets, int64_t moves, const uint8_t *closers,
               int32_t *path, int8_t *cursor, uint8_t *visited, int64_t *counters,
               int64_t total, int64_t end, int64_t closed, int64_t stop)
{
    int64_t depth = counters[0], placed = counters[1], tried = counters[2];
    int64_t status = DFS_EXHAUSTED;
    while (depth >= 0) {
        /* The Python version tries one move per pass; here the scan for the next
         * unvisited square is a tight loop, with the same count of moves tried. */
        const int32_t *row = targets + (int64_t)path[depth] * moves;
        int64_t first = cursor[depth], k = first;
        while (k < moves && visited[row[k]])
            k++;
        if (k == moves) {
            tried += moves - first;
            visited[path[depth]] = 0;
            depth -= 1;
            continue;
        }
        tried += k - first + 1;
        cursor[depth] = (int8_t)(k + 1);
        int32_t next = row[k];
        placed += 1;
        depth += 1;
        path[depth] = next;
        visited[next] = 1;
        if (depth == total - 1) {
            if ((end < 0 || next == end) && (!closed || (closers[next] && total > 2))) {
                status = DFS_FOUND;
                break;
            }
            visited[next] = 0;
            depth -= 1;
        } else {
            cursor[depth] = 0;
        }
        if (placed >= stop) {
            status = DFS_RUNNING;
            break;
        }
    }
    counters[0] = depth;
    counters[1] = placed;
    counters[2] = tried;
    return status;
}

/* Keep the candidates cand[0..count) whose value is smallest; return how many. */
static int64_t keep_smallest(int64_t *cand, const int64_t *value, int64_t count)
{
    int64_t low = value[0], kept = 0;
    for (int64_t i = 1; i < count; i++)
        if (value[i] < low)
            low = value[i];
    for (int64_t i = 0; i < count; i++)
        if (value[i] == low)
            cand[kept++] = cand[i];
    return kept;
}

/* Extend the path (counters = {length, steps}) by a Warnsdorff-family rule. */
void kg_walk(const int32_t *targets, int64_t moves, const int64_t *order, const int64_t *key,
             int32_t *degree, uint8_t *visited, int32_t *path, int32_t *pos, int64_t *counters,
             uint64_t *rng, int64_t total, int64_t end, int64_t border, int64_t use_key,
             int64_t pohl, int64_t randomize, int64_t stop_length, int64_t stop_steps,
             int64_t stop_square)
{
    int64_t length = counters[0], steps = counters[1];
    int64_t cand[16], value[16];
    int64_t here = path[length - 1];
    while (length < total && length < stop_length && steps < stop_steps) {
        int64_t count = 0;
        for (int64_t j = 0; j < moves; j++) {
            int64_t t = targets[here * moves + order[j]];
            if (visited[t] || (t == end && length < total - 1))
                continue;
            cand[count++] = t;
        }
        if (count == 0)
            break;
        int64_t choice = cand[0];
        if (border) {
            int64_t found = 0;
            for (int64_t i = 0; i < count; i++)
                if (degree[cand[i]] <= 1) {
                    choice = cand[i];
                    found = 1;
                    break;
                }
            if (!found)
                for (int64_t i = 1; i < count; i++)
                    if (key[cand[i]] < key[choice])
                        choice = cand[i];
        } else {
            for (int64_t i = 0; i < count; i++)
                value[i] = degree[cand[i]];
            int64_t ties = keep_smallest(cand, value, count);
            if (use_key && ties > 1) {
                for (int64_t i = 0; i < ties; i++)
                    value[i] = key[cand[i]];
                ties = keep_smallest(cand, value, ties);
            }
            if (pohl && ties > 1) {
                for (int64_t i = 0; i < ties; i++) {
                    int64_t sum = 0;
                    for (int64_t j = 0; j < moves; j++) {
                        int64_t u = targets[cand[i] * moves + j];
                        if (!visited[u])
                            sum += degree[u];
                    }
                    value[i] = sum;
                }
                ties = keep_smallest(cand, value, ties);
            }
            choice = cand[0];
            if (randomize && ties > 1)
                choice = cand[splitmix64(rng) % (uint64_t)ties];
        }
        visited[choice] = 1;
        path[length] = (int32_t)choice;
        pos[choice] = (int32_t)length;
        length += 1;
        for (int64_t j = 0; j < moves; j++)
            degree[targets[choice * moves + j]] -= 1;
        here = choice;
        steps += 1;
        if (choice == stop_square)
            break;
    }
    counters[0] = length;
    counters[1] = steps;
}

/* Follow a tour stored as neighbour codes (knightgraph.solvers.divide).
 * codes[i] holds the moves to the two tour neighbours of square i, one per
 * nibble (0..7 index `delta`, which has 16 entries; 15 for none: a path end).
 * From `start`, leave by nibble `first` (0 low, 1 high), then always by the
 * nibble that does not lead back (from a path end, by its only neighbour).
 * Writes at most `count` squares to out32 (or out64 when it is NULL) and
 * returns how many were written (it stops at a path end). */
int64_t kg_follow(const uint8_t *codes, const int64_t *delta, int64_t start, int64_t first,
                  int32_t *out32, int64_t *out64, int64_t count)
{
    int64_t here = start, prev = -1, i;
    for (i = 0; i < count; i++) {
        uint8_t c = codes[here];
        int lo = c & 15, hi = c >> 4, pick;
        if (out32)
            out32[i] = (int32_t)here;
        else
            out64[i] = here;
        if (i == 0) {
            pick = first ? hi : lo;
            if (pick >= 8)
                pick = first ? lo : hi;  /* a path end: its only neighbour */
        } else {
            /* branch-free: delta has 16 entries, so a missing neighbour (15) reads a pad */
            int back = (here + delta[lo] == prev) | (lo >= 8);
            pick = back ? hi : lo;
        }
        if (pick >= 8)
            return i + 1;
        prev = here;
        here += delta[pick];
    }
    return count;
}

/* Accept a tour in one pass (knightgraph.verify's fast path): every square
 * on the board, not removed, not seen before, each a (a, b)-leap from the one
 * before (no division: the flat step names the move, the column is tracked).
 * `seen` is a zeroed byte per square.  Returns -1 when all holds, else the
 * first position where something fails (the caller then names the defect). */
int64_t kg_check(const int32_t *order32, const int64_t *order64, int64_t count, int64_t m,
                 int64_t n, int64_t a, int64_t b, const uint8_t *removed, uint8_t *seen)
{
    int64_t area = m * n, dr[8], dc[8], step[8], prev = -1, col = 0, i, k;
    int64_t base[8][2] = {{a, b}, {b, a}, {b, -a}, {a, -b}, {-a, -b}, {-b, -a}, {-b, a}, {-a, b}};
    for (k = 0; k < 8; k++) {
        dr[k] = base[k][0];
        dc[k] = base[k][1];
        step[k] = dr[k] * n + dc[k];
    }
    for (i = 0; i < count; i++) {
        int64_t p = order32 ? (int64_t)order32[i] : order64[i];
        if (p < 0 || p >= area || (removed && removed[p]) || seen[p])
            return i;
        seen[p] = 1;
        if (i == 0) {
            col = p % n;
        } else {
            int64_t d = p - prev, c = -1;
            for (k = 0; k < 8; k++) {
                int64_t cc = col + dc[k];
                if (d == step[k] && cc >= 0 && cc < n) {
                    c = cc;
                    break;
                }
            }
            if (c < 0)
                return i;
            col = c;
        }
        prev = p;
    }
    return -1;
}

/* An (empty) Python module, so that the library is found like any extension. */
static struct PyModuleDef kernels_module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "Compiled inner loops; called through ctypes by knightgraph.solvers.kernels.", -1, NULL,
};

PyMODINIT_FUNC PyInit__kernels(void) { return PyModule_Create(&kernels_module); }

/* ------------------------------------------------------------------------
 * DRUP proof checking (the compiled twin of knightgraph/drup.py, which
 * documents the method).  Forward checking with two watched literals;
 * deletions drop one copy of a clause (found by a hash of its sorted
 * literals); a deleted unit clause and what it implied stay.
 * ------------------------------------------------------------------------ */
#include <stdlib.h>
#include <string.h>

typedef struct {
    int64_t *data;
    int64_t size, cap;
} vec_t;

static int vec_push(vec_t *v, int64_t x)
{
    if (v->size == v->cap) {
        int64_t cap = v->cap ? 2 * v->cap : 4;
        int64_t *data = realloc(v->data, (size_t)cap * sizeof(int64_t));
        if (!data)
            return 0;
        v->data = data;
        v->cap = cap;
    }
    v->data[v->size++] = x;
    return 1;
}

typedef struct {
    int64_t nvars;
    vec_t lits;          /* all clause literals, clause after clause */
    vec_t start, length; /* per clause */
    vec_t deleted;       /* per clause: 0 or 1 */
    vec_t *watches;      /* per literal code */
    int8_t *value;       /* per variable: 0 unassigned, 1 true, -1 false */
    vec_t trail;
    int64_t head;        /* propagation position in the trail */
    int conflict;        /* the top level is contradictory */
    /* hash table of live clauses for deletions: buckets of clause ids */
    vec_t *buckets;
    int64_t nbuckets;
} drup_t;

static int64_t code(int64_t lit) { return lit > 0 ? 2 * lit : -2 * lit + 1; }
static int truth(const drup_t *d, int64_t lit)
{
    int8_t v = d->value[lit > 0 ? lit : -lit];
    return lit > 0 ? v : -v; /* 1 true, -1 false, 0 unassigned */
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static uint64_t clause_hash(const int64_t *lits, int64_t n)
{
    /* order-independent hash: sum and xor of mixed literals */
    uint64_t sum = 0, x = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t h = (uint64_t)lits[i] * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
        sum += h;
        x ^= h * 0xBF58476D1CE4E5B9ULL;
    }
    return sum ^ (x << 1) ^ (uint64_t)n;
}

static int same_clause(const drup_t *d, int64_t id, const int64_t *sorted, int64_t n)
{
    if (d->length.data[id] != n)
        return 0;
    int64_t tmp[64], *buf = n <= 64 ? tmp : malloc((size_t)n * sizeof(int64_t));
    if (!buf)
        return 0;
    memcpy(buf, d->lits.data + d->start.data[id], (size_t)n * sizeof(int64_t));
    qsort(buf, (size_t)n, sizeof(int64_t), cmp64);
    int same = memcmp(buf, sorted, (size_t)n * sizeof(int64_t)) == 0;
    if (buf != tmp)
        free(buf);
    return same;
}

static int assign(drup_t *d, int64_t lit)
{
    d->value[lit > 0 ? lit : -lit] = lit > 0 ? 1 : -1;
    return vec_push(&d->trail, lit);
}

/* Propagate from d->head; 0 on conflict, 1 otherwise, -1 on memory error. */
static int propagate(drup_t *d)
{
    while (d->head < d->trail.size) {
        int64_t falsified = -d->trail.data[d->head++];
        vec_t *w = &d->watches[code(falsified)];
        int64_t kept = 0, i = 0;
        for (; i < w->size; i++) {
            int64_t id = w->data[i];
            if (d->deleted.data[id])
                continue;
            int64_t *c = d->lits.data + d->start.data[id], n = d->length.data[id];
            if (c[0] == falsified) {
                c[0] = c[1];
                c[1] = falsified;
            }
            if (truth(d, c[0]) == 1) {
                w->data[kept++] = id;
                continue;
            }
            int64_t k = 2;
            for (; k < n; k++)
                if (truth(d, c[k]) != -1)
                    break;
            if (k < n) {
                c[1] = c[k];
                c[k] = falsified;
                if (!vec_push(&d->watches[code(c[1])], id))
                    return -1;
                continue;
            }
            w->data[kept++] = id;
            if (truth(d, c[0]) == -1) {
                for (i++; i < w->size; i++)
                    w->data[kept++] = w->data[i];
                w->size = kept;
                return 0;
            }
            if (!assign(d, c[0]))
                return -1;
        }
        w->size = kept;
    }
    return 1;
}

static void undo(drup_t *d, int64_t mark)
{
    for (int64_t i = mark; i < d->trail.size; i++) {
        int64_t lit = d->trail.data[i];
        d->value[lit > 0 ? lit : -lit] = 0;
    }
    d->trail.size = mark;
    d->head = mark;
}

/* Add a clause at the top level (lits are copied and deduplicated). */
static int add_clause(drup_t *d, const int64_t *lits, int64_t n)
{
    int64_t tmp[64], *buf = n <= 64 ? tmp : malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    if (!buf)
        return -1;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        int dup = 0;
        for (int64_t j = 0; j < m; j++) {
            if (buf[j] == lits[i])
                dup = 1;
            if (buf[j] == -lits[i]) {
                if (buf != tmp)
                    free(buf);
                return 1; /* tautology */
            }
        }
        if (!dup)
            buf[m++] = lits[i];
    }
    /* order: true, unassigned, false */
    int64_t free_count = 0, free_lit = 0, pos = 0;
    for (int pass = 1; pass >= -1; pass--)
        for (int64_t i = pos; i < m; i++)
            if (truth(d, buf[i]) == pass) {
                int64_t t = buf[pos];
                buf[pos++] = buf[i];
                buf[i] = t;
            }
    for (int64_t i = 0; i < m; i++)
        if (truth(d, buf[i]) != -1) {
            free_count++;
            free_lit = buf[i];
        }
    int status = 1;
    if (free_count == 0) {
        d->conflict = 1;
    } else {
        if (m > 1) {
            int64_t id = d->start.size;
            int ok = vec_push(&d->start, d->lits.size) && vec_push(&d->length, m) &&
                     vec_push(&d->deleted, 0);
            for (int64_t i = 0; ok && i < m; i++)
                ok = vec_push(&d->lits, buf[i]);
            ok = ok && vec_push(&d->watches[code(buf[0])], id) &&
                 vec_push(&d->watches[code(buf[1])], id);
            int64_t sorted[64], *s = m <= 64 ? sorted : malloc((size_t)m * sizeof(int64_t));
            if (ok && s) {
                memcpy(s, buf, (size_t)m * sizeof(int64_t));
                qsort(s, (size_t)m, sizeof(int64_t), cmp64);
                ok = vec_push(&d->buckets[clause_hash(s, m) % (uint64_t)d->nbuckets], id);
            } else {
                ok = 0;
            }
            if (s && s != sorted)
                free(s);
            if (!ok)
                status = -1;
        }
        if (status == 1 && free_count == 1 && truth(d, free_lit) == 0) {
            if (!assign(d, free_lit))
                status = -1;
            else {
                int p = propagate(d);
                if (p < 0)
                    status = -1;
                else if (p == 0)
                    d->conflict = 1;
            }
        }
    }
    if (buf != tmp)
        free(buf);
    return status;
}

static void delete_clause(drup_t *d, const int64_t *lits, int64_t n)
{
    if (n < 2)
        return; /* units stay */
    int64_t tmp[64], *s = n <= 64 ? tmp : malloc((size_t)n * sizeof(int64_t));
    if (!s)
        return;
    memcpy(s, lits, (size_t)n * sizeof(int64_t));
    qsort(s, (size_t)n, sizeof(int64_t), cmp64);
    int64_t m = 0; /* deduplicate */
    for (int64_t i = 0; i < n; i++)
        if (i == 0 || s[i] != s[i - 1])
            s[m++] = s[i];
    vec_t *b = &d->buckets[clause_hash(s, m) % (uint64_t)d->nbuckets];
    for (int64_t i = b->size - 1; i >= 0; i--) {
        int64_t id = b->data[i];
        if (!d->deleted.data[id] && same_clause(d, id, s, m)) {
            d->deleted.data[id] = 1;
            b->data[i] = b->data[--b->size];
            break;
        }
    }
    if (s != tmp)
        free(s);
}

static int rup(drup_t *d, const int64_t *lits, int64_t n)
{
    if (d->conflict)
        return 1;
    for (int64_t i = 0; i < n; i++)
        if (truth(d, lits[i]) == 1)
            return 1;
    int64_t mark = d->trail.size;
    int result = 0;
    for (int64_t i = 0; i < n && !result; i++) {
        if (truth(d, lits[i]) == -1)
            continue;
        if (!assign(d, -lits[i])) {
            result = -1;
            break;
        }
        int p = propagate(d);
        if (p < 0)
            result = -1;
        else if (p == 0)
            result = 1;
    }
    undo(d, mark);
    return result;
}

/* Check a DRUP proof.  formula and proof are literal lists with 0 after each
 * clause; kinds[k] is 1 when proof clause k is a deletion.  Returns 1 when the
 * empty clause is derived (lemmas checked in *checked), 0 when lemma *checked
 * does not follow (1-based), -2 when no empty clause is derived, -1 on a
 * memory error. */
int64_t kg_drup(const int64_t *formula, int64_t formula_size, const int64_t *proof,
                int64_t proof_size, const int8_t *kinds, int64_t nvars, int64_t *checked)
{
    drup_t d;
    memset(&d, 0, sizeof d);
    d.nvars = nvars;
    d.watches = calloc((size_t)(2 * nvars + 2), sizeof(vec_t));
    d.value = calloc((size_t)(nvars + 1), 1);
    d.nbuckets = 1 << 16;
    d.buckets = calloc((size_t)d.nbuckets, sizeof(vec_t));
    int64_t status = -1;
    *checked = 0;
    if (!d.watches || !d.value || !d.buckets)
        goto done;
    for (int64_t i = 0, s = 0; i < formula_size; i++)
        if (formula[i] == 0) {
            if (add_clause(&d, formula + s, i - s) < 0)
                goto done;
            s = i + 1;
        }
    status = -2;
    for (int64_t i = 0, s = 0, k = 0; i < proof_size; i++) {
        if (proof[i] != 0)
            continue;
        const int64_t *lits = proof + s;
        int64_t n = i - s;
        s = i + 1;
        if (kinds[k++]) {
            delete_clause(&d, lits, n);
            continue;
        }
        *checked += 1;
        int r = rup(&d, lits, n);
        if (r < 0) {
            status = -1;
            goto done;
        }
        if (r == 0) {
            status = 0;
            goto done;
        }
        if (n == 0) {
            status = 1;
            goto done;
        }
        if (add_clause(&d, lits, n) < 0) {
            status = -1;
            goto done;
        }
    }
done:
    if (d.watches)
        for (int64_t i = 0; i < 2 * nvars + 2; i++)
            free(d.watches[i].data);
    if (d.buckets)
        for (int64_t i = 0; i < d.nbuckets; i++)
            free(d.buckets[i].data);
    free(d.watches);
    free(d.buckets);
    free(d.value);
    free(d.lits.data);
    free(d.start.data);
    free(d.length.data);
    free(d.deleted.data);
    free(d.trail.data);
    return status;
}
