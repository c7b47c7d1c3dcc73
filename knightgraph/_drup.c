/*
 * knightgraph._drup: the compiled twin of the independent DRUP checker
 * (knightgraph/certcheck/drup.py, which documents the method and is the reference).
 * Kept apart from the search kernels: the checker of the solver's proofs
 * shares no code with the solvers.
 */
#include <stdint.h>
/* DRUP proof checking (the compiled twin of knightgraph/certcheck/drup.py, which
 * documents the method).  Forward checking with two watched literals;
 * deletions drop one copy of a clause (found by a hash of its sorted
 * literals); a deleted unit clause and what it implied stay. */
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
