/*
 * The batch kernel of cardrules.down_and_back._speedups (batch_strengths),
 * which serves cardrules.down_and_back.batch.
 *
 * It reads rows of card indices through the buffer protocol (any integer
 * width, signedness, byte order and strides), so it needs no numpy headers,
 * and looks each row up in a table with one entry per hand, indexed by the
 * colex number of the sorted cards, built on first use from the pair
 * tables.  It reports the first bad row and leaves the error to the numpy
 * code, which words it.  Contiguous 4-card rows also have an AVX2 loop,
 * used where the processor has AVX2.
 */
#include "_speedups.h"
#include <string.h>

/* BINOM[k][x] = C(x, k): the colex number of sorted cards a < b < c < d is
 * a + C(b, 2) + C(c, 3) + C(d, 4) (and a + C(b, 2) + C(c, 3) for three). */
static uint32_t BINOM[5][52];
#define HANDS4 270725
#define HANDS3 22100

/* The colex tables: the strength of every 4-card and 3-card hand by the
 * colex number of its sorted cards, read from the pair tables (270,725 and
 * 22,100 entries: 541 kB and 44 kB, small enough for the L2 cache, where
 * the 3.5 MB 4-card pair table is not).  Built once, with the GIL held. */
#define COLEX3_AT (HANDS4 + 1)   /* where the 3-card table starts, in entries */

static int ensure_colex(void)
{
    if (S.colex != NULL)
        return 0;
    if (ensure_ready() < 0)
        return -1;
    /* one spare entry after the 4-card table: the AVX2 loop reads 4 bytes at
     * an entry's address */
    PyObject *tables = PyBytes_FromStringAndSize(
        NULL, (COLEX3_AT + HANDS3) * (Py_ssize_t)sizeof(uint16_t));
    if (tables == NULL)
        return -1;
    uint16_t *four = (uint16_t *)PyBytes_AS_STRING(tables), *three = four + COLEX3_AT;
    four[HANDS4] = 0;
    for (int d = 3; d < 52; d++)
        for (int c = 2; c < d; c++)
            for (int b = 1; b < c; b++)
                for (int a = 0; a < b; a++)
                    four[a + BINOM[2][b] + BINOM[3][c] + BINOM[4][d]]
                        = S.t4[S.rows4[a * 52 + b] + S.ids[c * 52 + d]];
    for (int c = 2; c < 52; c++)
        for (int b = 1; b < c; b++)
            for (int a = 0; a < b; a++)
                three[a + BINOM[2][b] + BINOM[3][c]] = S.t3[S.rows3[a * 52 + b] + c];
    S.colex = tables;
    return 0;
}

#define SORT2(x, y) do { uint64_t lo_ = (x) < (y) ? (x) : (y); \
                         (y) = (x) < (y) ? (y) : (x); (x) = lo_; } while (0)

/* The strength of one row by its colex table, or -1 when a card lies
 * outside range(52) or repeats.  The values are checked before the tables
 * are read. */
static inline int32_t row_strength4(uint64_t a, uint64_t b, uint64_t c, uint64_t d,
                                    const uint16_t *colex4)
{
    if ((a > 51) | (b > 51) | (c > 51) | (d > 51))
        return -1;
    SORT2(a, b); SORT2(c, d); SORT2(a, c); SORT2(b, d); SORT2(b, c);
    if ((a == b) | (b == c) | (c == d))
        return -1;
    return colex4[a + BINOM[2][b] + BINOM[3][c] + BINOM[4][d]];
}

static inline int32_t row_strength3(uint64_t a, uint64_t b, uint64_t c,
                                    const uint16_t *colex3)
{
    if ((a > 51) | (b > 51) | (c > 51))
        return -1;
    SORT2(a, b); SORT2(b, c); SORT2(a, b);
    if ((a == b) | (b == c))
        return -1;
    return colex3[a + BINOM[2][b] + BINOM[3][c]];
}

/* A hint to load the cache line at p ahead of its use.  Large batches are
 * read much faster with it: on the virtual machine where this was measured
 * the hardware prefetchers left a plain loop over 5 million int64 rows
 * waiting for memory (about 14 ns a row instead of 5).  It changes no
 * result and never faults. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <xmmintrin.h>
#define PREFETCH(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#else
#define PREFETCH(p) ((void)(p))
#endif
/* How far ahead, in bytes of rows: 64 cache lines. */
#define AHEAD 4096

/* Where the rows are: row i, column j is at base + i * s0 + j * s1; and
 * the colex table of their hand size. */
typedef struct {
    const char *base;
    Py_ssize_t n, s0, s1;
    const uint16_t *table;
} Rows;

/* Contiguous rows of 4 cards (in integers of any width, in the machine's
 * byte order) also have an AVX2 loop, used where the processor has
 * AVX2 (checked once, at import) and the compiler can build it: eight rows
 * at a time, the same checks, sorting network and colex look-up as
 * row_strength4, in vector registers.  It stops before the first group of
 * eight rows holding a bad row and before the last few rows, and the plain
 * loop goes on from there, so the first bad row is found by row_strength4.
 * It does about half the work of the plain loop per row; on the machine
 * where this was measured a large batch of int64 rows took about a third
 * less time (3.5 ns a row instead of 5.1). */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_AVX2_LOOP 1
#include <immintrin.h>

static int has_avx2;

__attribute__((target("avx2")))
static Py_ssize_t avx2_rows4(const char *base, Py_ssize_t n, int itemsize,
                             const uint16_t *colex4, int32_t *out)
{
    const __m256i twelve64 = _mm256_set1_epi64x(12), twelve32 = _mm256_set1_epi32(12);
    const __m256i high64 = _mm256_set1_epi64x(~(int64_t)63);
    const __m256i high32 = _mm256_set1_epi32(~63);
    const __m256i low_words = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
    const __m256i row_order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    const int *b2 = (const int *)BINOM[2], *b3 = (const int *)BINOM[3];
    const int *b4 = (const int *)BINOM[4];
    const Py_ssize_t step = 8 * 4 * (Py_ssize_t)itemsize;  /* bytes of eight rows */
    /* itemsize is 1, 2, 4 or 8 */
    const char *end = base + n * 4 * (Py_ssize_t)itemsize;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const char *p = base + i * 4 * (Py_ssize_t)itemsize;
        for (Py_ssize_t k = 0; k < step; k += 64)
            if (end - p > AHEAD + k)
                PREFETCH(p + AHEAD + k);
        /* q[k]: rows 2k and 2k + 1 as 32-bit ints, one per 128-bit half, once
         * every value is known to lie in range(52) (v | (v + 12) < 64) */
        __m256i q[4], bad = _mm256_setzero_si256();
        if (itemsize == 8) {
            __m256i r[8];
            for (int k = 0; k < 8; k++) {
                r[k] = _mm256_loadu_si256((const __m256i *)(p + 32 * k));
                bad = _mm256_or_si256(bad, _mm256_or_si256(
                    r[k], _mm256_add_epi64(r[k], twelve64)));
            }
            if (!_mm256_testz_si256(bad, high64))
                break;
            for (int k = 0; k < 4; k++)
                q[k] = _mm256_permute2x128_si256(
                    _mm256_permutevar8x32_epi32(r[2 * k], low_words),
                    _mm256_permutevar8x32_epi32(r[2 * k + 1], low_words), 0x20);
        }
        else {
            /* narrower values are widened unsigned: a negative one becomes a
             * large one, refused all the same */
            for (int k = 0; k < 4; k++) {
                const char *two = p + 2 * 4 * itemsize * k;   /* rows 2k, 2k + 1 */
                q[k] = itemsize == 4 ? _mm256_loadu_si256((const __m256i *)two)
                    : itemsize == 2 ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)two))
                    : _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)two));
                bad = _mm256_or_si256(bad, _mm256_or_si256(
                    q[k], _mm256_add_epi32(q[k], twelve32)));
            }
            if (!_mm256_testz_si256(bad, high32))
                break;
        }
        /* Transpose: a holds the first card of rows 0 2 4 6 1 3 5 7, b the
         * second, and so on. */
        __m256i t0 = _mm256_unpacklo_epi32(q[0], q[1]), t1 = _mm256_unpackhi_epi32(q[0], q[1]);
        __m256i t2 = _mm256_unpacklo_epi32(q[2], q[3]), t3 = _mm256_unpackhi_epi32(q[2], q[3]);
        __m256i a = _mm256_unpacklo_epi64(t0, t2), b = _mm256_unpackhi_epi64(t0, t2);
        __m256i c = _mm256_unpacklo_epi64(t1, t3), d = _mm256_unpackhi_epi64(t1, t3);
        __m256i lo;
#define VSORT2(x, y) do { lo = _mm256_min_epi32(x, y); y = _mm256_max_epi32(x, y); x = lo; } \
                     while (0)
        VSORT2(a, b); VSORT2(c, d); VSORT2(a, c); VSORT2(b, d); VSORT2(b, c);
#undef VSORT2
        __m256i same = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi32(a, b), _mm256_cmpeq_epi32(b, c)),
            _mm256_cmpeq_epi32(c, d));
        if (!_mm256_testz_si256(same, same))
            break;
        __m256i index = _mm256_add_epi32(
            _mm256_add_epi32(a, _mm256_i32gather_epi32(b2, b, 4)),
            _mm256_add_epi32(_mm256_i32gather_epi32(b3, c, 4), _mm256_i32gather_epi32(b4, d, 4)));
        __m256i strength = _mm256_and_si256(
            _mm256_i32gather_epi32((const int *)colex4, index, 2), low16);
        _mm256_storeu_si256((__m256i *)(out + i),
                            _mm256_permutevar8x32_epi32(strength, row_order));
    }
    return i;
}
#endif

/* The rows of a contiguous 4-card batch that the AVX2 loop did (0 where it
 * is not available, or not allowed: simd is 0); the plain loop does the rest. */
static Py_ssize_t simd_rows4(Rows r, int itemsize, int simd, int32_t *out)
{
#ifdef HAVE_AVX2_LOOP
    if (simd && has_avx2)
        return avx2_rows4(r.base, r.n, itemsize, r.table, out);
#endif
    (void)r; (void)itemsize; (void)simd; (void)out;
    return 0;
}

/* One loop per element type; a negative signed value becomes a huge
 * unsigned one, which the range check refuses.  memcpy reads unaligned
 * elements safely (a plain load on common processors).  NAME##_rows stores
 * the strengths in out and returns the number of the first bad row, or -1;
 * NAME##_run calls it with constant strides for contiguous rows (one
 * prefetch a row) and with the array's own otherwise (one per column, as
 * each column of a Fortran-ordered array is a stream of its own). */
#define DEFINE_LOOPS(NAME, T)                                                   \
static inline uint64_t NAME##_at(const char *p)                                 \
{                                                                               \
    T v;                                                                        \
    memcpy(&v, p, sizeof v);                                                    \
    return (uint64_t)v;                                                         \
}                                                                               \
static inline Py_ssize_t NAME##_rows(Rows r, Py_ssize_t s0, Py_ssize_t s1,      \
                                     int size, int contiguous, int32_t *out)    \
{                                                                               \
    const Py_ssize_t ahead = AHEAD / (size * (Py_ssize_t)sizeof(T));            \
    for (Py_ssize_t i = 0; i < r.n; i++) {                                      \
        const char *p = r.base + i * s0;                                        \
        if (i + ahead < r.n)                                                    \
            for (int j = 0; j < (contiguous ? 1 : size); j++)                   \
                PREFETCH(p + ahead * s0 + j * s1);                              \
        int32_t s = size == 4                                                   \
            ? row_strength4(NAME##_at(p), NAME##_at(p + s1),                    \
                            NAME##_at(p + 2 * s1), NAME##_at(p + 3 * s1),       \
                            r.table)                                            \
            : row_strength3(NAME##_at(p), NAME##_at(p + s1),                    \
                            NAME##_at(p + 2 * s1), r.table);                    \
        if (s < 0)                                                              \
            return i;                                                           \
        out[i] = s;                                                             \
    }                                                                           \
    return -1;                                                                  \
}                                                                               \
static Py_ssize_t NAME##_run(Rows r, int size, int simd, int32_t *out)          \
{                                                                               \
    const Py_ssize_t item = (Py_ssize_t)sizeof(T);                              \
    if (r.s1 == item && r.s0 == size * item && size == 4) {                     \
        Py_ssize_t done = simd_rows4(r, (int)item, simd, out);                  \
        Rows rest = {r.base + done * 4 * item, r.n - done, r.s0, r.s1, r.table}; \
        Py_ssize_t bad = NAME##_rows(rest, 4 * item, item, 4, 1, out + done);   \
        return bad < 0 ? -1 : done + bad;                                       \
    }                                                                           \
    if (r.s1 == item && r.s0 == size * item)                                    \
        return NAME##_rows(r, 3 * item, item, 3, 1, out);                       \
    return size == 4 ? NAME##_rows(r, r.s0, r.s1, 4, 0, out)                    \
                     : NAME##_rows(r, r.s0, r.s1, 3, 0, out);                   \
}

DEFINE_LOOPS(i8, int8_t)
DEFINE_LOOPS(u8, uint8_t)
DEFINE_LOOPS(i16, int16_t)
DEFINE_LOOPS(u16, uint16_t)
DEFINE_LOOPS(i32, int32_t)
DEFINE_LOOPS(u32, uint32_t)
DEFINE_LOOPS(i64, int64_t)
DEFINE_LOOPS(u64, uint64_t)

/* The other byte order than the machine's: one element at a time, byte by
 * byte, most significant first. */
static uint64_t swapped_at(const char *p, int itemsize, int is_signed)
{
    const uint16_t probe = 1;
    const int little = *(const unsigned char *)&probe == 1;  /* so the data is big-endian */
    uint64_t v = 0;
    for (int k = 0; k < itemsize; k++)
        v = (v << 8) | (unsigned char)p[little ? k : itemsize - 1 - k];
    if (is_signed && itemsize < 8 && (v >> (8 * itemsize - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * itemsize);   /* sign-extend */
    return v;
}

static Py_ssize_t swapped_rows(Rows r, int size, int itemsize, int is_signed, int32_t *out)
{
    for (Py_ssize_t i = 0; i < r.n; i++) {
        const char *p = r.base + i * r.s0;
        uint64_t v[4];
        for (int j = 0; j < size; j++)
            v[j] = swapped_at(p + j * r.s1, itemsize, is_signed);
        int32_t s = size == 4 ? row_strength4(v[0], v[1], v[2], v[3], r.table)
                              : row_strength3(v[0], v[1], v[2], r.table);
        if (s < 0)
            return i;
        out[i] = s;
    }
    return -1;
}

/* From a struct-module format of one integer ("l", "<Q", ">h", ...): its
 * signedness, and whether its byte order is not the machine's; -1 for
 * anything else. */
static int parse_format(const char *format, int *is_signed, int *swapped)
{
    const uint16_t probe = 1;
    const int little = *(const unsigned char *)&probe == 1;
    *swapped = 0;
    if (format == NULL)
        format = "B";
    switch (*format) {
    case '@': case '=':
        format++;
        break;
    case '<':
        *swapped = !little;
        format++;
        break;
    case '>': case '!':
        *swapped = little;
        format++;
        break;
    }
    if (format[0] == '\0' || format[1] != '\0' || strchr("bBhHiIlLqQnN", format[0]) == NULL)
        return -1;
    *is_signed = strchr("bhilqn", format[0]) != NULL;
    return 0;
}

static Py_ssize_t run_rows(Rows r, int size, int itemsize, int is_signed, int swapped,
                           int simd, int32_t *out)
{
    if (swapped && itemsize > 1)
        return swapped_rows(r, size, itemsize, is_signed, out);
    switch (itemsize * (is_signed ? -1 : 1)) {
    case -1: return i8_run(r, size, simd, out);
    case 1: return u8_run(r, size, simd, out);
    case -2: return i16_run(r, size, simd, out);
    case 2: return u16_run(r, size, simd, out);
    case -4: return i32_run(r, size, simd, out);
    case 4: return u32_run(r, size, simd, out);
    case -8: return i64_run(r, size, simd, out);
    default: return u64_run(r, size, simd, out);
    }
}

PyDoc_STRVAR(batch_strengths_doc,
"batch_strengths($module, rows, size, out, simd=True, /)\n--\n\n"
"Strengths of many hands of ``size`` (3 or 4) cards, into ``out``.\n\n"
"``rows`` exports a buffer of shape (N, size) of integers of any width,\n"
"signedness, byte order and strides; ``out`` a writable contiguous buffer\n"
"of N 4-byte ints.  Returns -1 when every row is a valid hand, else the\n"
"number of the first row that holds an index outside range(52) or a card\n"
"twice (``out`` is then filled only up to that row).  The GIL is released\n"
"while the rows are read.  With ``simd`` false the AVX2 loop is not used\n"
"(for tests; see BATCH_SIMD).  The checks and error messages are\n"
"cardrules.down_and_back.batch's.\n\n"
">>> from array import array\n"
">>> out = array('i', [0])\n"
">>> batch_strengths(memoryview(array('b', [0, 1, 2, 3])).cast('b', (1, 4)), 4, out)\n"
"-1\n"
">>> out[0] >> 12   # four aces: a quad\n"
"7\n");

static PyObject *py_batch_strengths(PyObject *Py_UNUSED(module), PyObject *const *args,
                                    Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "batch_strengths() takes three or four arguments");
        return NULL;
    }
    int simd = nargs == 4 ? PyObject_IsTrue(args[3]) : 1;
    if (simd < 0)
        return NULL;
    long size = PyLong_AsLong(args[1]);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    if (size != 3 && size != 4) {
        PyErr_SetString(PyExc_ValueError, "batch_strengths() takes hands of 3 or 4 cards");
        return NULL;
    }
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_RECORDS_RO) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[2], &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    int is_signed, swapped;
    const char *problem = NULL;
    if (in.ndim != 2 || in.shape[1] != size)
        problem = "rows must have shape (N, size)";
    else if (parse_format(in.format, &is_signed, &swapped) < 0
             || (in.itemsize != 1 && in.itemsize != 2 && in.itemsize != 4 && in.itemsize != 8))
        problem = "rows must hold integers";
    else if (out.itemsize != 4 || out.len != in.shape[0] * 4)
        problem = "out must hold one 4-byte int per row";
    if (problem != NULL || ensure_colex() < 0) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        if (problem != NULL)
            PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    /* Hold the tables while the GIL is released: a new setup() (a reloaded
     * package) in another thread only drops S's reference. */
    PyObject *tables = Py_NewRef(S.colex);
    const uint16_t *four = (const uint16_t *)PyBytes_AS_STRING(tables);
    Rows r = {in.buf, in.shape[0], in.strides[0], in.strides[1],
              size == 4 ? four : four + COLEX3_AT};
    int itemsize = (int)in.itemsize;
    Py_ssize_t bad;
    Py_BEGIN_ALLOW_THREADS
    bad = run_rows(r, (int)size, itemsize, is_signed, swapped, simd, out.buf);
    Py_END_ALLOW_THREADS
    Py_DECREF(tables);
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(bad);
}

PyMethodDef batch_methods[] = {
    {"batch_strengths", (PyCFunction)(void (*)(void))py_batch_strengths, METH_FASTCALL,
     batch_strengths_doc},
    {NULL, NULL, 0, NULL},
};

const char *batch_init(void)
{
    for (int x = 0; x < 52; x++) {
        uint32_t c = 1;
        for (int k = 0; k < 5; k++) {
            BINOM[k][x] = x >= k ? c : 0;
            c = c * (uint32_t)(x - k) / (uint32_t)(k + 1);
        }
    }
#ifdef HAVE_AVX2_LOOP
    __builtin_cpu_init();
    has_avx2 = __builtin_cpu_supports("avx2");
    if (has_avx2)
        return "avx2";
#endif
    return NULL;
}
