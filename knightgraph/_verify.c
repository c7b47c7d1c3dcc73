/*
 * knightgraph._verify: the verifier's compiled fast path (one pass over a tour).
 *
 * Called through ctypes from knightgraph/tours/verify.py, which finds and names any
 * defect with numpy when this pass rejects a tour or was not built.
 */
#include <stdint.h>

/* Accept a tour in one pass (knightgraph.tours.verify's fast path): every square
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
