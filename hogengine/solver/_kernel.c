/* The compiled sweep of strategies against strategies over the solver's model (hogengine/solver/model.py).
 *
 * It knows no rule: it walks the transition arrays the rule code built (per row a dice kind and a target
 * per outcome) and the choices of some strategies, and fills value matrices as winrate.py lays them. A
 * block pits the movers of the left side against the movers of the right side (or a group against itself).
 * Each side keeps a matrix [target][mover][opponent]: what reaching a target is worth to the mover against
 * each opponent. In state s a mover's row reads, per outcome, one run of values (one per opponent), times
 * the outcome's probability, into sums held in registers (at most MAX_OPPONENTS of them, unrolled: one
 * cache line of values per outcome); it then writes 1 - its sums into the partner's matrix at row s, and
 * its sums into its own matrix where a turn repeats into s. States are numbered so that every successor of
 * a state comes earlier, so one pass in state order computes every value.
 *
 * Every index read from the arrays is checked before it is used (a bad model raises ValueError, it cannot
 * read or write outside the arrays); the sweep itself lets go of the interpreter, so blocks can run on
 * several threads at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The most opponents a block's mover meets at once: eight doubles, one 64-byte cache line per outcome. */
#define MAX_OPPONENTS 8

typedef struct {
    const int32_t *target;      /* per outcome of each row: the model's target code */
    const int64_t *row_start;   /* per row, and one more: where its targets begin */
    const uint8_t *kind;        /* per row: its dice kind */
    const int64_t *kind_first;  /* per kind: where its probabilities begin */
    const double *probability;  /* every kind's outcome probabilities, one after the other */
    const int64_t *again;       /* the states some turn repeats into, in sweep order */
    int64_t states, width, entries, kinds, probabilities, repeats, span;
} Model;

typedef struct {
    const int8_t *columns; /* [mover][state]: the column of the mover's choice */
    double *matrix;        /* [target][mover][opponent] */
    int64_t movers, opponents;
} Side;

/* One side in state s (its own extra-turn row `own`, or -1): every mover's sums against every opponent,
 * 1 - them into the partner's matrix `theirs` (row s, [opponent][mover]), them into its own matrix at
 * `own`. Inlined with a constant number of opponents, so the sums stay in registers. Returns 0 on an index
 * outside the arrays. */
static inline __attribute__((always_inline)) int side(const Model *m, int64_t s, int64_t own, const Side *me,
                                                      double *theirs, const int opponents) {
    const int64_t movers = me->movers, cells = movers * opponents;
    const uint64_t span = (uint64_t)m->span; /* a target below it, as unsigned: not negative either */
    const int32_t *target = m->target;
    double *mine = me->matrix;
    for (int64_t i = 0; i < movers; i++) {
        int64_t column = me->columns[i * m->states + s];
        if (column < 0 || column >= m->width) return 0;
        int64_t row = s * m->width + column;
        int64_t begin = m->row_start[row], end = m->row_start[row + 1];
        int64_t kind = m->kind[row];
        if (begin < 0 || end < begin || end > m->entries || kind >= m->kinds) return 0;
        int64_t first = m->kind_first[kind];
        if (first < 0 || first > m->probabilities - (end - begin)) return 0;
        const double *p = m->probability + first, *column_of_mover = mine + i * opponents;
        double sum[MAX_OPPONENTS] = {0};
        for (int64_t e = begin; e < end; e++, p++) {
            uint64_t t = (uint64_t)(int64_t)target[e];
            if (t >= span) return 0;
            const double *value = column_of_mover + t * cells;
#pragma GCC unroll 8
            for (int j = 0; j < opponents; j++) sum[j] += *p * value[j];
        }
        for (int j = 0; j < opponents; j++) theirs[s * cells + j * movers + i] = 1.0 - sum[j];
        if (own >= 0) {
            double *mover_own = mine + own * cells + i * opponents;
            for (int j = 0; j < opponents; j++) mover_own[j] = sum[j];
        }
    }
    return 1;
}

typedef int (*SideFunction)(const Model *, int64_t, int64_t, const Side *, double *);

/* The sides compiled for any processor of the platform and, on x86 with GCC or clang, for those with AVX2:
 * its 256-bit registers take four of a line's sums per instruction where the baseline's (SSE2) take two.
 * No FMA: each product is rounded before it is added, as in the baseline, so both give the same bits. */
#define SIDE(prefix, attribute, n)                                                                     \
    static attribute int prefix##_##n(const Model *m, int64_t s, int64_t own, const Side *me,          \
                                      double *theirs) {                                                \
        return side(m, s, own, me, theirs, n);                                                         \
    }
#define SIDES_OF(prefix, attribute)                                                                    \
    SIDE(prefix, attribute, 1)                                                                         \
    SIDE(prefix, attribute, 2)                                                                         \
    SIDE(prefix, attribute, 3)                                                                         \
    SIDE(prefix, attribute, 4)                                                                         \
    SIDE(prefix, attribute, 5)                                                                         \
    SIDE(prefix, attribute, 6)                                                                         \
    SIDE(prefix, attribute, 7)                                                                         \
    SIDE(prefix, attribute, 8)                                                                         \
    static const SideFunction prefix##_sides[MAX_OPPONENTS + 1] = {                                    \
        NULL, prefix##_1, prefix##_2, prefix##_3, prefix##_4, prefix##_5, prefix##_6, prefix##_7, prefix##_8};

SIDES_OF(plain, )
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define HAS_WIDE 1
SIDES_OF(wide, __attribute__((target("avx2"))))
#else
#define HAS_WIDE 0
#endif

/* Whether this processor runs the AVX2 sides (found when the module loads). */
static int wide_here = 0;

/* Every state in sweep order, the left side then the right (when it is another group), with the AVX2 sides
 * if `wide`. Returns 0 on an index outside the arrays. */
static int sweep(const Model *m, const Side *left, const Side *right, int wide) {
    const SideFunction *sides = plain_sides;
#if HAS_WIDE
    if (wide) sides = wide_sides;
#else
    (void)wide;
#endif
    SideFunction left_side = sides[left->opponents], right_side = sides[right->opponents];
    int64_t k = 0;
    for (int64_t s = 0; s < m->states; s++) {
        while (k < m->repeats && m->again[k] < s) k++;
        int64_t own = k < m->repeats && m->again[k] == s ? m->states + 2 + k : -1;
        if (!left_side(m, s, own, left, right->matrix)) return 0;
        if (right != left && !right_side(m, s, own, right, left->matrix)) return 0;
    }
    return 1;
}

/* The kind of items a buffer's format describes: 'i' signed integers, 'u' unsigned ones, 'f' floating
 * point, 0 anything else (several fields, or another byte order than the machine's). */
static char kind_of(const char *format) {
    if (format == NULL) return 'u'; /* bytes */
    if (*format == '@' || *format == '=') format++;
    if (format[0] == '\0' || format[1] != '\0') return 0;
    if (strchr("bhilqn", format[0])) return 'i';
    if (strchr("BHILQN", format[0])) return 'u';
    return strchr("fd", format[0]) ? 'f' : 0;
}

/* An array as the kernel reads it: C-contiguous, `ndim` dimensions of `size`-byte items (0: 4 or 8) of a
 * kind, and writable if asked; or 0 with an exception set (TypeError, or the exporter's own for a read-only one). */
typedef struct {
    const char *name, *dtype;
    int ndim;
    Py_ssize_t size;
    char kind;
    int writable;
} Expected;

static int view(PyObject *object, Py_buffer *buffer, const Expected *expected) {
    if (PyObject_GetBuffer(object, buffer, expected->writable ? PyBUF_RECORDS : PyBUF_RECORDS_RO) < 0) return 0;
    int size_fits = expected->size ? buffer->itemsize == expected->size
                                   : buffer->itemsize == 4 || buffer->itemsize == 8; /* 0: either */
    if (buffer->ndim != expected->ndim || !size_fits ||
        kind_of(buffer->format) != expected->kind || !PyBuffer_IsContiguous(buffer, 'C')) {
        PyErr_Format(PyExc_TypeError, "sweep(): %s must be a C-contiguous %d-dimensional array of %s",
                     expected->name, expected->ndim, expected->dtype);
        PyBuffer_Release(buffer);
        return 0;
    }
    return 1;
}

/* The buffers of a function's first `n` arguments, each as `expected` describes it; or 0 with an exception
 * set and none held, also when the function was given fewer than `n` or more than `most` arguments. */
static int views(const char *name, PyObject *const *args, Py_ssize_t count, int n, int most,
                 const Expected *expected, Py_buffer *b) {
    if (count < n || count > most) {
        if (most > n)
            PyErr_Format(PyExc_TypeError, "%s() takes %d or %d arguments, not %zd", name, n, most, count);
        else
            PyErr_Format(PyExc_TypeError, "%s() takes %d arguments, not %zd", name, n, count);
        return 0;
    }
    for (int held = 0; held < n; held++)
        if (!view(args[held], &b[held], &expected[held])) {
            while (held > 0) PyBuffer_Release(&b[--held]);
            return 0;
        }
    return 1;
}

static void release(Py_buffer *b, int n) {
    while (n > 0) PyBuffer_Release(&b[--n]);
}

enum { TARGET, ROW_START, KIND, KIND_FIRST, PROBABILITY, AGAIN, LEFT_COLUMNS, LEFT_MATRIX, RIGHT_COLUMNS,
       RIGHT_MATRIX, ARRAYS };

/* Whether two buffers share a byte. */
static int overlap(const Py_buffer *a, const Py_buffer *b) {
    const char *a_begin = a->buf, *b_begin = b->buf;
    return a->len > 0 && b->len > 0 && a_begin < b_begin + b->len && b_begin < a_begin + a->len;
}

/* Whether a value matrix (written by the sweep) shares a byte with any other array, unless `same`: a group
 * against itself passes one matrix and one set of columns as both sides. */
static int written_apart(const Py_buffer *b, int same) {
    static const int written[] = {LEFT_MATRIX, RIGHT_MATRIX};
    for (int w = 0; w < 2; w++)
        for (int other = 0; other < ARRAYS; other++) {
            int twin = same && (other == LEFT_MATRIX || other == RIGHT_MATRIX);
            if (other != written[w] && !twin && overlap(&b[written[w]], &b[other])) return 0;
        }
    return 1;
}

/* A side from its columns [mover][state] and its matrix, which must be [span][movers][opponents]. */
static int side_of(Side *side, const Model *m, Py_buffer *columns, Py_buffer *matrix, int64_t opponents) {
    side->columns = columns->buf;
    side->matrix = matrix->buf;
    side->movers = columns->shape[0];
    side->opponents = opponents;
    return columns->shape[1] == m->states && matrix->shape[0] == m->span && matrix->shape[1] == side->movers &&
           matrix->shape[2] == opponents && opponents >= 1 && opponents <= MAX_OPPONENTS;
}

PyDoc_STRVAR(sweep_doc,
             "sweep(target, row_start, kind, kind_first, probability, again, left_columns, left_matrix,\n"
             "      right_columns, right_matrix, wide=WIDE, /)\n"
             "--\n\n"
             "Sweep a block of strategies over the model's arrays (int32, int64, uint8, int64, float64 and\n"
             "int64, one dimension each), filling the value matrices (float64 [target][mover][opponent]) of\n"
             "both sides in place; the columns (int8 [mover][state]) are the strategies' choices. A group\n"
             "against itself passes its columns and matrix as both sides. At most 8 opponents a side.\n"
             "`wide` false sweeps with the baseline instructions even where AVX2 is there (the same bits).");

static PyObject *kernel_sweep(PyObject *module, PyObject *const *args, Py_ssize_t count) {
    (void)module;
    static const Expected expected[ARRAYS] = {
        {"target", "int32", 1, 4, 'i', 0},          {"row_start", "int64", 1, 8, 'i', 0},
        {"kind", "uint8", 1, 1, 'u', 0},            {"kind_first", "int64", 1, 8, 'i', 0},
        {"probability", "float64", 1, 8, 'f', 0},   {"again", "int64", 1, 8, 'i', 0},
        {"left_columns", "int8", 2, 1, 'i', 0},     {"left_matrix", "float64", 3, 8, 'f', 1},
        {"right_columns", "int8", 2, 1, 'i', 0},    {"right_matrix", "float64", 3, 8, 'f', 1},
    };
    Py_buffer b[ARRAYS];
    if (!views("sweep", args, count, ARRAYS, ARRAYS + 1, expected, b)) return NULL;
    int wide = wide_here, swept = 0;
    if (count == ARRAYS + 1) {
        int asked = PyObject_IsTrue(args[ARRAYS]);
        if (asked < 0) goto done;
        wide = wide && asked;
    }
    int64_t states = b[LEFT_COLUMNS].shape[1], rows = b[KIND].shape[0];
    Model m = {
        .target = b[TARGET].buf,
        .row_start = b[ROW_START].buf,
        .kind = b[KIND].buf,
        .kind_first = b[KIND_FIRST].buf,
        .probability = b[PROBABILITY].buf,
        .again = b[AGAIN].buf,
        .states = states,
        .width = states ? rows / states : 0,
        .entries = b[TARGET].shape[0],
        .kinds = b[KIND_FIRST].shape[0],
        .probabilities = b[PROBABILITY].shape[0],
        .repeats = b[AGAIN].shape[0],
        .span = states + 2 + b[AGAIN].shape[0],
    };
    Side left, right;
    int same = b[LEFT_MATRIX].buf == b[RIGHT_MATRIX].buf && b[LEFT_COLUMNS].buf == b[RIGHT_COLUMNS].buf &&
               b[LEFT_COLUMNS].shape[0] == b[RIGHT_COLUMNS].shape[0];
    if (m.states == 0 || rows != m.states * m.width || b[ROW_START].shape[0] != rows + 1 ||
        !side_of(&left, &m, &b[LEFT_COLUMNS], &b[LEFT_MATRIX], b[RIGHT_COLUMNS].shape[0]) ||
        !side_of(&right, &m, &b[RIGHT_COLUMNS], &b[RIGHT_MATRIX], b[LEFT_COLUMNS].shape[0])) {
        PyErr_SetString(PyExc_ValueError, "sweep(): the arrays' shapes do not fit one model and block");
        goto done;
    }
    if (!written_apart(b, same)) {
        PyErr_SetString(PyExc_ValueError,
                        "sweep(): a value matrix shares memory with another array (only a group against "
                        "itself passes one matrix and one set of columns as both sides)");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    swept = sweep(&m, &left, same ? &left : &right, wide);
    Py_END_ALLOW_THREADS
    if (!swept) PyErr_SetString(PyExc_ValueError, "sweep(): an index of the model lies outside its arrays");
done:
    release(b, ARRAYS);
    if (!swept) return NULL;
    Py_RETURN_NONE;
}

/* lay(codes, place, row_start, rows, target): row r's outcome k gets the code at place[r][k], written to
 * target[row_start[rows[r]] + k] (model.py builds rows a kind of dice at a time, so their targets lie apart:
 * numpy would need an index of every cell to put them in place). Every place, row and run is checked. */
enum { CODES, PLACE, LAY_ROW_START, ROWS, LAID, LAY_ARRAYS };

static int lay(const Py_buffer *b) {
    const int32_t *codes = b[CODES].buf;
    const int64_t *row_start = b[LAY_ROW_START].buf, *rows = b[ROWS].buf;
    int32_t *target = b[LAID].buf;
    int64_t count = b[PLACE].shape[0], outcomes = b[PLACE].shape[1], known = b[CODES].shape[0];
    int64_t starts = b[LAY_ROW_START].shape[0], laid = b[LAID].shape[0];
    int wide = b[PLACE].itemsize == 8;
    for (int64_t r = 0; r < count; r++) {
        int64_t row = rows[r];
        if (row < 0 || row >= starts - 1) return 0;
        int64_t first = row_start[row];
        if (first < 0 || row_start[row + 1] - first != outcomes || first > laid - outcomes) return 0;
        for (int64_t k = 0; k < outcomes; k++) {
            int64_t at = wide ? ((const int64_t *)b[PLACE].buf)[r * outcomes + k]
                              : ((const int32_t *)b[PLACE].buf)[r * outcomes + k];
            if (at < 0 || at >= known) return 0;
            target[first + k] = codes[at];
        }
    }
    return 1;
}

PyDoc_STRVAR(lay_doc,
             "lay(codes, place, row_start, rows, target, /)\n"
             "--\n\n"
             "Write codes[place[r][k]] to target[row_start[rows[r]] + k] for every row r and outcome k:\n"
             "codes int32, place int32 or int64 [row][outcome], row_start and rows int64, target int32 (one\n"
             "dimension but place). A row's run must have one target per outcome.");

static PyObject *kernel_lay(PyObject *module, PyObject *const *args, Py_ssize_t count) {
    (void)module;
    static const Expected expected[LAY_ARRAYS] = {
        {"codes", "int32", 1, 4, 'i', 0},      {"place", "int32 or int64", 2, 0, 'i', 0},
        {"row_start", "int64", 1, 8, 'i', 0},  {"rows", "int64", 1, 8, 'i', 0},
        {"target", "int32", 1, 4, 'i', 1},
    };
    Py_buffer b[LAY_ARRAYS];
    if (!views("lay", args, count, LAY_ARRAYS, LAY_ARRAYS, expected, b)) return NULL;
    int laid = 0;
    if (b[PLACE].shape[0] != b[ROWS].shape[0]) {
        PyErr_SetString(PyExc_ValueError, "lay(): place and rows must be as long as each other");
        goto done;
    }
    for (int other = 0; other < LAY_ARRAYS; other++)
        if (other != LAID && overlap(&b[LAID], &b[other])) {
            PyErr_SetString(PyExc_ValueError, "lay(): target shares memory with another array");
            goto done;
        }
    Py_BEGIN_ALLOW_THREADS
    laid = lay(b);
    Py_END_ALLOW_THREADS
    if (!laid) PyErr_SetString(PyExc_ValueError, "lay(): a place, row or run lies outside its arrays");
done:
    release(b, LAY_ARRAYS);
    if (!laid) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"sweep", (PyCFunction)(void (*)(void))kernel_sweep, METH_FASTCALL, sweep_doc},
    {"lay", (PyCFunction)(void (*)(void))kernel_lay, METH_FASTCALL, lay_doc},
    {NULL, NULL, 0, NULL},
};

/* The module's constants: MAX_OPPONENTS, so Python sizes its blocks by the kernel's own limit, and WIDE,
 * whether this processor sweeps with AVX2. */
static int exec_module(PyObject *module) {
#if HAS_WIDE
    __builtin_cpu_init();
    wide_here = __builtin_cpu_supports("avx2") != 0;
#endif
    if (PyModule_AddIntConstant(module, "MAX_OPPONENTS", MAX_OPPONENTS) < 0) return -1;
    return PyModule_AddObjectRef(module, "WIDE", wide_here ? Py_True : Py_False);
}

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, exec_module},
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hogengine.solver._kernel",
    .m_doc = "The compiled sweep of strategies against strategies over the solver's model, and the laying of\n"
             "the model's targets.",
    .m_size = 0,
    .m_methods = methods,
    .m_slots = slots,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModuleDef_Init(&module); }
