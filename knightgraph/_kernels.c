/*
 * knightgraph._kernels: the compiled inner loops of plain depth-first search
 * and of Warnsdorff-family walks (the verifier's fast path is in _verify.c,
 * the DRUP checker in _drup.c).
 *
 * The functions are called through ctypes from knightgraph/solvers/kernels.py
 * (the walks along neighbour codes: knightgraph/solvers/follow.py),
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

/* Follow a tour stored as neighbour codes that form one cycle of `count` squares,
 * both ways at once (knightgraph.solvers.follow.follow_python with cycle=True).
 * out[0] is `start`; one walker leaves it by nibble `first` and fills out[1],
 * out[2], ...; the other leaves by the other nibble and fills out[count-1],
 * out[count-2], ...; they meet in the middle.  The order is the one kg_follow
 * gives from `start` and `first`, but the two chains of dependent loads run side
 * by side, which about halves the time of a long walk.  Returns count, or 0 when
 * `start` is a path end or count < 3 (not a cycle: the caller walks one way). */
int64_t kg_follow_cycle(const uint8_t *codes, const int64_t *delta, int64_t start,
                        int64_t first, int32_t *out32, int64_t *out64, int64_t count)
{
    uint8_t c = codes[start];
    int lo = c & 15, hi = c >> 4;
    int64_t ahead, behind, came_ahead = start, came_behind = start, i = 1, j = count - 1;
    if (lo >= 8 || hi >= 8 || count < 3)
        return 0;
    ahead = start + delta[first ? hi : lo];
    behind = start + delta[first ? lo : hi];
    if (out32)
        out32[0] = (int32_t)start;
    else
        out64[0] = start;
    while (i <= j) {
        uint8_t ca = codes[ahead], cb = codes[behind];
        int la = ca & 15, ha = ca >> 4, lb = cb & 15, hb = cb >> 4, pa, pb;
        if (out32)
            out32[i] = (int32_t)ahead;
        else
            out64[i] = ahead;
        i++;
        if (i > j)
            break;
        if (out32)
            out32[j] = (int32_t)behind;
        else
            out64[j] = behind;
        j--;
        /* leave by the nibble that does not lead back (delta has 16 entries: a pad) */
        pa = (ahead + delta[la] == came_ahead) | (la >= 8) ? ha : la;
        pb = (behind + delta[lb] == came_behind) | (lb >= 8) ? hb : lb;
        came_ahead = ahead;
        came_behind = behind;
        ahead += delta[pa];
        behind += delta[pb];
    }
    return count;
}

/* The numberings of a board whose lines (the magic kinds' ranks, files, diagonals) all
 * have their sums: depth-first, number k + 1 on path[k], pruned by the lines and the
 * squares left with no way out.  The Python version, the reference this file follows
 * statement for statement, is knightgraph/magic/enumeration.py:magic_dfs_python.
 *
 * lines[s * per + j] is the j-th line of square s (-1: none), goal[l] its sum; sum[l]
 * and left[l] the numbers placed on line l and its squares still empty.  free_[s] counts
 * the unvisited squares a move from s (the sentinel's entry is never read).  counters =
 * {depth, placed}; the caller places the start (path[0], number 1) before the first call
 * and takes it back after DFS_EXHAUSTED.  A call that found a numbering leaves it in path
 * (DFS_FOUND); the next call goes on from there. */
static void magic_place(const int32_t *targets, int64_t moves, const int32_t *lines,
                        int64_t per, int64_t *sum, int64_t *left, uint8_t *visited,
                        int32_t *free_, int32_t s, int64_t number, int64_t sign)
{
    const int32_t *row = targets + (int64_t)s * moves;
    visited[s] = sign > 0;
    for (int64_t j = 0; j < moves; j++)
        free_[row[j]] -= (int32_t)sign;
    for (int64_t j = 0; j < per; j++) {
        int32_t l = lines[(int64_t)s * per + j];
        if (l >= 0) {
            sum[l] += sign * number;
            left[l] -= sign;
        }
    }
}

/* Can the lines still get their sums with the numbers number + 1 .. total, and is no
 * square a move from s (just numbered `number`) left with no way on? */
static int magic_open(const int32_t *targets, int64_t moves, const int64_t *goal,
                      const int64_t *sum, const int64_t *left, int64_t count,
                      const uint8_t *visited, const int32_t *free_, int32_t s,
                      int64_t number, int64_t total)
{
    for (int64_t l = 0; l < count; l++) {
        int64_t r = left[l];
        if (r == 0 ? sum[l] != goal[l]
                   : sum[l] + r * number + r * (r + 1) / 2 > goal[l] ||
                         sum[l] + r * total - r * (r - 1) / 2 < goal[l])
            return 0;
    }
    if (number + 1 < total) {
        const int32_t *row = targets + (int64_t)s * moves;
        for (int64_t j = 0; j < moves; j++)
            if (!visited[row[j]] && free_[row[j]] == 0)
                return 0;
    }
    return 1;
}

int64_t kg_magic_dfs(const int32_t *targets, int64_t moves, const int32_t *lines,
                     int64_t per, const int64_t *goal, int64_t count, int64_t *sum,
                     int64_t *left, int32_t *path, int8_t *cursor, uint8_t *visited,
                     int32_t *free_, int64_t *counters, int64_t total, int64_t closed,
                     int64_t stop)
{
    int64_t depth = counters[0], placed = counters[1];
    int64_t status = DFS_EXHAUSTED;
    if (depth == total - 1) { /* the numbering found last time: take its last square back */
        magic_place(targets, moves, lines, per, sum, left, visited, free_, path[depth],
                    depth + 1, -1);
        depth -= 1;
    }
    while (depth >= 0) {
        const int32_t *row = targets + (int64_t)path[depth] * moves;
        int64_t k = cursor[depth], number = depth + 2;
        int32_t next = -1;
        for (; k < moves; k++) {
            int32_t t = row[k];
            if (visited[t])
                continue;
            magic_place(targets, moves, lines, per, sum, left, visited, free_, t, number, 1);
            if (magic_open(targets, moves, goal, sum, left, count, visited, free_, t, number,
                           total)) {
                next = t;
                break;
            }
            magic_place(targets, moves, lines, per, sum, left, visited, free_, t, number, -1);
        }
        if (next < 0) {
            if (depth == 0)
                break;
            magic_place(targets, moves, lines, per, sum, left, visited, free_, path[depth],
                        depth + 1, -1);
            depth -= 1;
            continue;
        }
        cursor[depth] = (int8_t)(k + 1);
        depth += 1;
        path[depth] = next;
        placed += 1;
        if (depth == total - 1) {
            int found = !closed;
            const int32_t *last = targets + (int64_t)next * moves;
            for (int64_t j = 0; j < moves && !found; j++)
                found = last[j] == path[0];
            if (found) {
                status = DFS_FOUND;
                break;
            }
            magic_place(targets, moves, lines, per, sum, left, visited, free_, next, number,
                        -1);
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
    return status;
}
