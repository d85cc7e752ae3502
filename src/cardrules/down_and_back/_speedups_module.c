/*
 * Optional C speed-ups for the Down and Back evaluators, the reducer's 35
 * legal splits and the batch evaluators: the module itself.
 *
 * Same tables, same results and same errors as the pure-Python code in
 * evaluate.py and game.py: the extension only takes the common path (a
 * tuple, a tuple subclass such as cardrules.Hand, or a list of Card
 * objects, no repeated card) and hands everything else to the Python
 * functions given to setup(), which raise the proper errors.  The package
 * works without it; see cardrules/down_and_back/_accel.py.
 *
 * The code is in four files (see _speedups.h): this one holds what the
 * others share (setup(), which connects the module to the package's
 * classes, table loader and fallbacks; the tables; the split plans) and
 * the module's init function; _speedups_evaluate.c the evaluators;
 * _speedups_build.c the builders of result objects; _speedups_batch.c the
 * batch kernel.
 *
 * Attributes are read and written only through the public C API (the
 * classes' data descriptors, found by the attribute's name), the same path
 * as object.__getattribute__ / object.__setattr__ in Python: nothing here
 * depends on how CPython lays out slots.
 */
#include "_speedups.h"

State S;

int DOWN[35][4], BACK[35][3], DH[35], DT[35], BH[35], BT[35];
int PAIR_I[21], PAIR_J[21];

static int pair_number(int i, int j)
{
    int n = 0;
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++, n++)
            if (a == i && b == j)
                return n;
    return -1;
}

static void build_plans(void)
{
    int n = 0;
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++, n++) {
            PAIR_I[n] = a;
            PAIR_J[n] = b;
        }
    n = 0;
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++)
            for (int c = b + 1; c < 7; c++)
                for (int d = c + 1; d < 7; d++, n++) {
                    int k = 0;
                    DOWN[n][0] = a; DOWN[n][1] = b; DOWN[n][2] = c; DOWN[n][3] = d;
                    for (int x = 0; x < 7; x++)
                        if (x != a && x != b && x != c && x != d)
                            BACK[n][k++] = x;
                    DH[n] = pair_number(a, b);
                    DT[n] = pair_number(c, d);
                    BH[n] = pair_number(BACK[n][0], BACK[n][1]);
                    BT[n] = BACK[n][2];
                }
}

/* The five pair tables, checked for size; the buffers stay held until the
 * next setup(). */
int load_tables(void)
{
    static const Py_ssize_t sizes[5] = {
        NPAIR * NPAIR * 2, NPAIR * 52 * 2, 52 * 52 * 4, 52 * 52 * 4, 52 * 52 * 4};
    if (ensure_configured() < 0)
        return -1;
    PyObject *tables = PyObject_CallNoArgs(S.loader);
    if (tables == NULL)
        return -1;
    if (!PyTuple_Check(tables) || PyTuple_GET_SIZE(tables) != 5) {
        Py_DECREF(tables);
        PyErr_SetString(PyExc_TypeError, "the table loader must return five buffers");
        return -1;
    }
    for (int i = 0; i < 5; i++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(tables, i), &S.bufs[i], PyBUF_SIMPLE) < 0) {
            for (int j = 0; j < i; j++)
                PyBuffer_Release(&S.bufs[j]);
            Py_DECREF(tables);
            return -1;
        }
        if (S.bufs[i].len != sizes[i]) {
            for (int j = 0; j <= i; j++)
                PyBuffer_Release(&S.bufs[j]);
            Py_DECREF(tables);
            PyErr_SetString(PyExc_ValueError, "a table has the wrong size");
            return -1;
        }
    }
    Py_DECREF(tables);  /* the buffers keep their exporters alive */
    S.t4 = S.bufs[0].buf;
    S.t3 = S.bufs[1].buf;
    S.ids = S.bufs[2].buf;
    S.rows4 = S.bufs[3].buf;
    S.rows3 = S.bufs[4].buf;
    S.ready = 1;
    return 0;
}

static void release(void)
{
    if (S.ready)
        for (int i = 0; i < 5; i++)
            PyBuffer_Release(&S.bufs[i]);
    Py_CLEAR(S.colex);
    Py_CLEAR(S.card_type);
    Py_CLEAR(S.combo_type);
    Py_CLEAR(S.option_type);
    Py_CLEAR(S.hand_type);
    Py_CLEAR(S.split_type);
    Py_CLEAR(S.d_col);
    Py_CLEAR(S.d_strength);
    Py_CLEAR(S.d_cards);
    Py_CLEAR(S.d_option_down);
    Py_CLEAR(S.d_option_back);
    Py_CLEAR(S.d_split_down);
    Py_CLEAR(S.d_split_back);
    Py_CLEAR(S.loader);
    Py_CLEAR(S.fb_evaluate4);
    Py_CLEAR(S.fb_evaluate3);
    Py_CLEAR(S.fb_strength4);
    Py_CLEAR(S.fb_strength3);
    Py_CLEAR(S.fb_split_strengths);
    Py_CLEAR(S.fb_best_splits);
    Py_CLEAR(S.fb_split_actions);
    Py_CLEAR(S.fb_hand_of_sorted);
    S.ready = S.configured = 0;
}

PyDoc_STRVAR(setup_doc,
"setup($module, card_type, combo_type, option_type, hand_type, split_type, loader,\n"
"      fallbacks, /)\n--\n\n"
"Connect the speed-ups to the package's classes (Card, Combo, SplitOption,\n"
"Hand, Split), table loader and Python fallbacks (evaluate4, evaluate3,\n"
"strength4, strength3, split_strengths, best_splits, split_actions,\n"
"Hand.of_sorted).  Called\n"
"once by cardrules.down_and_back._accel.");

/* The class's data descriptor (a slot) for attribute ``name``, or NULL with
 * TypeError set.  Reading and writing through it is what
 * object.__getattribute__ and object.__setattr__ do. */
static PyObject *slot_descriptor(PyObject *type, const char *name)
{
    PyObject *descr = PyObject_GetAttrString(type, name);
    if (descr == NULL || Py_TYPE(descr)->tp_descr_get == NULL
            || Py_TYPE(descr)->tp_descr_set == NULL) {
        Py_XDECREF(descr);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot",
                     ((PyTypeObject *)type)->tp_name, name);
        return NULL;
    }
    return descr;
}

static PyObject *py_setup(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "setup() takes seven arguments");
        return NULL;
    }
    for (int i = 0; i < 5; i++)
        if (!PyType_Check(args[i])) {
            PyErr_SetString(PyExc_TypeError,
                            "setup() needs the Card, Combo, SplitOption, Hand and Split types");
            return NULL;
        }
    PyObject *fallbacks = args[6];
    if (!PyTuple_Check(fallbacks) || PyTuple_GET_SIZE(fallbacks) != 8
            || !PyCallable_Check(args[5])) {
        PyErr_SetString(PyExc_TypeError, "setup() needs a loader and eight fallbacks");
        return NULL;
    }
    PyTypeObject *hand = (PyTypeObject *)args[3];
    if (!PyType_IsSubtype(hand, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "setup() needs Hand to be a tuple subclass");
        return NULL;
    }
    /* One at a time, stopping at the first failure with its error set. */
    static const int owner[7] = {0, 1, 1, 2, 2, 4, 4};
    static const char *const name[7] = {"pair_column", "_strength", "_cards", "down", "back",
                                         "down", "back"};
    PyObject *found[7] = {NULL};
    for (int i = 0; i < 7; i++)
        if ((found[i] = slot_descriptor(args[owner[i]], name[i])) == NULL) {
            for (int j = 0; j < i; j++)
                Py_DECREF(found[j]);
            return NULL;
        }
    release();  /* a second setup (a reloaded package) replaces the first */
    S.d_col = found[0];
    S.d_strength = found[1];
    S.d_cards = found[2];
    S.d_option_down = found[3];
    S.d_option_back = found[4];
    S.d_split_down = found[5];
    S.d_split_back = found[6];
    S.card_type = (PyTypeObject *)Py_NewRef(args[0]);
    S.combo_type = (PyTypeObject *)Py_NewRef(args[1]);
    S.option_type = (PyTypeObject *)Py_NewRef(args[2]);
    S.hand_type = (PyTypeObject *)Py_NewRef(args[3]);
    S.split_type = (PyTypeObject *)Py_NewRef(args[4]);
    S.loader = Py_NewRef(args[5]);
    S.fb_evaluate4 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 0));
    S.fb_evaluate3 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 1));
    S.fb_strength4 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 2));
    S.fb_strength3 = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 3));
    S.fb_split_strengths = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 4));
    S.fb_best_splits = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 5));
    S.fb_split_actions = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 6));
    S.fb_hand_of_sorted = Py_NewRef(PyTuple_GET_ITEM(fallbacks, 7));
    S.configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"setup", (PyCFunction)(void (*)(void))py_setup, METH_FASTCALL, setup_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardrules.down_and_back._speedups",
    "Optional C speed-ups for the Down and Back evaluators, legal splits and batch kernel.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    build_plans();
    const char *simd_name = batch_init();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddFunctions(m, evaluate_methods) < 0
            || PyModule_AddFunctions(m, build_methods) < 0
            || PyModule_AddFunctions(m, batch_methods) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* The vector loop batch_strengths uses for contiguous 4-card rows, or None. */
    PyObject *simd = simd_name ? PyUnicode_FromString(simd_name) : Py_NewRef(Py_None);
    if (simd == NULL || PyModule_AddObjectRef(m, "BATCH_SIMD", simd) < 0) {
        Py_XDECREF(simd);
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(simd);
    return m;
}
