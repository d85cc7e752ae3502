/*
 * The Back Alley double-dummy solver (cardrules.back_alley.solver): given
 * the four hands, the trick in progress, the trump and who may lead trump,
 * the most tricks the team of the seat to act takes with best play by both
 * teams, under every rule of the play (BA-31 to BA-34).
 *
 * Cards are bits of a 64-bit word per hand: suit s (Suit's value, 0 to 3)
 * has bits 16s to 16s+14, the rank r of a plain card is bit 16s + r - 2
 * (the two at 0, the ace at 12); in a trump deal the trump suit's slot
 * also holds the Little Blooper at bit 13 and the Big Blooper at bit 14,
 * so that within a slot a higher bit always beats a lower one (BA-3).
 * cardrules.back_alley.double_dummy._native makes the words from a GameState.
 *
 * The search (see docs/performance.rst):
 *
 *  - zero-window alpha-beta over single cards: node(c, target) answers
 *    "does team 0 (seats 0 and 2) take at least target tricks of the
 *    deal from the root on?"; the root finds the exact value with a few
 *    such searches, each starting from the bounds the last one left
 *    (MTD-style: the guess moves one trick at a time);
 *  - a transposition table at the start of each trick, keyed on the
 *    relative ranks of the cards left (the hands compressed by the cards
 *    still out: two positions that differ only in cards already played
 *    are the same), with which Bloopers are left, the leader and whether
 *    trump may be led; it keeps a lower and an upper bound on team 0's
 *    tricks from there and the leader's best card, in a table of fixed
 *    size reused from call to call (entries of older calls are told apart
 *    by a generation number; a call's entries fill each bucket from its
 *    first way, so a look-up stops at the first older one, and the bucket
 *    is fetched from memory while the quick bounds are worked out);
 *  - cards of equal value searched once: two cards of one hand in one suit
 *    with no card of another hand (or of the trick) between them are
 *    interchangeable, and the lowest of such a run is the one played; when
 *    every card fails, a run that reaches into the cards the answer rests
 *    on adds its lowest card to them (runs_cut), so that what is stored
 *    holds wherever it matches; the Bloopers never are (a Blooper lead
 *    forces the others' trumps, BA-33); and, as DDS does, once a card of a suit has
 *    been tried and failed, a later card of that suit is skipped when both
 *    are below every card of the suit the searches so far depended on;
 *  - quick tricks: the top cards the leader can cash at once (with trumps,
 *    every plain suit's once its top trumps have drawn the opponents', or
 *    one trick for the partner's ruff) and the tricks its team takes in a
 *    row on a line that cannot fail (cashing winners no one can ruff,
 *    leading trumps once they may be led to draw the opponents', crossing
 *    to the partner's winner or ruff), a lower bound of its team's tricks
 *    that ends many searches early; with
 *    no trump left, also the leader's suits cashed and then its partner's
 *    after a lead to them, and a second line that crosses to the partner
 *    first; each count rests only on the owners of the top cards that
 *    decide it (a run of top cards as long as the other hands' holdings
 *    makes every card of the suit a winner, whatever the ranks below
 *    those holdings); the second hand's team stops when it is sure of the
 *    trick in progress and, with no trump left, of the runs its winner
 *    cashes after it, as many as it needs;
 *  - sure tricks ("later tricks" in DDS): a team takes as many tricks as
 *    one of its hands holds trumps that the other team's trumps cannot
 *    each beat (matched from the top down; an unbroken run of top trumps
 *    counts its length); with no trump left, a team whose opponents on
 *    lead cannot run every trick on
 *    the suits they top takes one; a team with no trump loses a trick to
 *    each trump of the other team's longer trump hand; with the Big
 *    Blooper gone, a team holding a hand's highest trump behind every
 *    higher one, with as many lower trumps as those (the hand not on lead
 *    with nothing but trumps), or off lead the second and third trumps
 *    with the second guarded, takes one: these answer the
 *    many searches asking for one trick more or for all of them;
 *  - move ordering: the best card of the last search from the table first;
 *    a lead is weighed (lead_weight) by how few cards
 *    it leaves the opponents to choose from (a void opponent may throw or
 *    ruff with anything) and whether it wins the trick, as DDS weighs its
 *    leads; later in a trick (follow_weight) low when the partner wins it
 *    anyway, else the cheapest card no later hand can beat, the lowest card
 *    when the trick is lost, discards low from long suits;
 *  - hints (bridge-solver's cut-off cache): the card that last ended a
 *    search, kept in a small table of the Table's by what the seat to act
 *    sees of it: a leader's and its partner's cards (tried first, before
 *    the table's best card), and inside a trick its place, the card
 *    winning so far and the suit led's cards (or its hand when void) for
 *    the second and third hands.  The same leads keep winning across the many positions that
 *    differ only in the other hands, which the weights alone do not see
 *    (without the hints about half the searches at the start of a trick in
 *    hard deals were ended by a later card than the first);
 *  - the root's searches start at team 0's share of the high cards.
 *
 * The search itself runs with the GIL released, on a table it owns: the
 * module keeps one spare table (2^20 entries), taken and put back with the
 * GIL held, or the caller passes a Table of its own (one per thread; the
 * size is the caller's), whose entries may be kept from call to call when
 * the trump suit and board claims stay the same (solve_many does so).
 *
 * Studying the search: compiled with -DSOLVER_STATS the module gains
 * stats(), the counts (nodes at each place in a trick, quick- and
 * sure-trick cut-offs, table look-ups and hits, stores, cut-offs by the
 * first card tried or a later one) since the last call; only meaningful
 * single-threaded.  The key compresses the hands with BMI2's pext where it
 * is fast, else through a table (CARDRULES_SOLVER_NO_PEXT set to anything
 * but empty or 0 at import forces the table; the answers are the same).
 *
 * play_values: the cards of the seat to act in the order the search would
 * try them, each one's exact value found by zero-window probes whose first
 * target is the best value found so far, all under one table.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

typedef uint64_t u64;

/* Counters for studying the search (compile with -DSOLVER_STATS; they are
 * shared by every thread, so only single-threaded figures are meaningful):
 * read and reset with _solver.stats(). */
#ifdef SOLVER_STATS
enum { ST_NODE0, ST_NODE1, ST_NODE2, ST_NODE3, ST_SURE, ST_QUICK, ST_PROBE, ST_HIT, ST_STORE,
       ST_SECOND, ST_ROOT, ST_TRIED, ST_SIDE, ST_SIDE_BETTER, ST_FIRST, ST_LATER, ST_N };
static long long stats[ST_N];
#define STAT(i) (stats[i]++)
#else
#define STAT(i) ((void)0)
#endif

#define LB_BIT 13
#define BB_BIT 14
#define SLOT(b) ((b) >> 4)
#define RANK(b) ((b) & 15)

/* -- bit helpers, portable ------------------------------------------------ */

/* On x86 the search is compiled for processors with the POPCNT instruction
 * (every x86-64 processor since about 2009; counting bits is most of what it
 * does); solver_init checks for it, and without it the solver reports itself
 * missing and the package uses its Python search.  Everything between the
 * push and the pop below is only run after that check. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define SOLVER_X86 1
#pragma GCC push_options
#pragma GCC target("popcnt")
#endif

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
static inline int popcount64(u64 x) { return __builtin_popcountll(x); }
static inline int lowest_bit(u64 x) { return __builtin_ctzll(x); }
static inline int highest_bit(u64 x) { return 63 - __builtin_clzll(x); }
#else
static inline int popcount64(u64 x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int lowest_bit(u64 x)
{
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}
#define PREFETCH(p) ((void)(p))
static inline int highest_bit(u64 x)
{
    int n = 63;
    while (!(x >> 63)) {
        x <<= 1;
        n--;
    }
    return n;
}
#endif

/* x's bits at the positions of m's set bits, packed together (what BMI2's
 * pext does), a byte at a time through a table made at import. */
static uint8_t PEXT8[256][256];

static inline u64 compress(u64 x, u64 m)
{
    u64 out = 0;
    int at = 0;
    for (int i = 0; i < 64 && (m >> i); i += 8) {
        unsigned mb = (unsigned)(m >> i) & 0xFF;
        if (mb) {
            out |= (u64)PEXT8[mb][(x >> i) & 0xFF] << at;
            at += popcount64(mb);
        }
    }
    return out;
}

/* With BMI2's pext where it is fast (Intel since Haswell, AMD since Zen 3;
 * AMD's earlier processors run it in microcode, slower than the table),
 * chosen once at import (solver_init). */
#if defined(SOLVER_X86) && defined(__x86_64__)
#define HAVE_PEXT 1
#include <cpuid.h>
static int fast_pext;

__attribute__((target("popcnt,bmi2")))
static void compress3_pext(const u64 *hand, u64 m, u64 *out)
{
    out[0] = __builtin_ia32_pext_di(hand[0], m);
    out[1] = __builtin_ia32_pext_di(hand[1], m);
    out[2] = __builtin_ia32_pext_di(hand[2], m);
}

/* The cards of rest at the positions m's bits stand for in rest's
 * compressed order (what compress3 undoes). */
__attribute__((target("popcnt,bmi2")))
static u64 expand_pdep(u64 m, u64 rest)
{
    return __builtin_ia32_pdep_di(m, rest);
}

static int pext_is_fast(void)
{
    if (!__builtin_cpu_supports("bmi2"))
        return 0;
    if (!__builtin_cpu_is("amd"))
        return 1;
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    unsigned family = (a >> 8) & 0xF;
    if (family == 0xF)
        family += (a >> 20) & 0xFF;
    return family >= 0x19;
}
#endif

/* The first three hands compressed by the cards left m (the fourth is not
 * needed: it holds the rest). */
static inline void compress3(const u64 *hand, u64 m, u64 *out)
{
#ifdef HAVE_PEXT
    if (fast_pext) {
        compress3_pext(hand, m, out);
        return;
    }
#endif
    for (int h = 0; h < 3; h++)
        out[h] = compress(hand[h], m);
}

/* -- the transposition table ---------------------------------------------- */

/* An entry holds bounds on team 0's tricks from the start of a trick, true
 * of every position that matches it (partition search, as in DDS's
 * "winning ranks"): the same leader, the same flags (which Bloopers are
 * left, whether trump may be led freely), the same number of cards of each
 * suit in each hand (lens), and the same owners of the top seg[s] cards
 * left of each suit s, compared in relative ranks: the hands compressed by
 * the cards left, masked to those top cards, each card's owner in two
 * bits: lo holds seat 1's and seat 3's cards, hi seat 2's and seat 3's (32
 * bytes an entry, so that one never straddles two cache lines).  The
 * cards below them did not matter to the result.
 * best: the leader's best card (suit << 4 | rank among the suit's cards
 * left), NO_BEST for none.  Which call wrote it is in its tag (Table). */
typedef struct {
    u64 lens;
    u64 lo, hi;
    uint16_t seg;
    uint8_t info, lower, upper, best;
    uint8_t depth, pad;
} Entry;

#define NO_BEST 0xFFu
/* Positions with fewer tricks left are searched again rather than stored
 * (they would push out costlier ones), and so are quick-trick cut-offs. */
#define MIN_STORE 2

#ifndef WAYS
#define WAYS 64
#endif
/* 2^14 buckets of 64 entries of 32 bytes and an 8-byte tag: 40 MB, allocated
 * once and reused.  Many entries share a distribution, so the buckets are
 * wide (16 ways searched several times as many nodes on hard deals). */
#ifndef TT_BITS
#define TT_BITS 20
#endif
#define TT_SIZE ((size_t)1 << TT_BITS)
/* The hints (see lead_hint): one of 4 bytes an entry, at most 2^16. */
#define CUT_MAX ((size_t)1 << 16)
#define CUT_SIZE(t) ((t)->size < CUT_MAX ? (t)->size : CUT_MAX)

/* Beside the entries, a tag per entry: the call's generation (16 bits), a
 * hash of the distribution and flags (16), the entry's segment sizes (16)
 * and a hash of its owners of those top cards (16).  A look-up scans the
 * bucket's tags and reads only the entries whose tag matches.  size: the
 * entries (a power of two, at least WAYS); 40 bytes each with their tags.
 * trump, board: what the last call that used it searched under (entries
 * are true only under the same trump suit and board claims). */
typedef struct {
    Entry *e;
    u64 *tag;
    uint32_t *cut;      /* the card that last ended a search (see lead_hint, follow_hint) */
    size_t size;
    uint16_t gen;
    int trump, board;
} Table;

/* The spare table, taken and given back with the GIL held. */
static Table spare;

/* Zeroed memory for a table.  On Linux it is mapped with huge pages
 * asked for: a look-up lands anywhere in tens of megabytes, and with 4 kB
 * pages most of them also miss the TLB (measured: the table's reads were
 * most of the search's stalls). */
static void *big_zeroed(size_t bytes)
{
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
#else
    return calloc(1, bytes);
#endif
}

static void big_free(void *p, size_t bytes)
{
    if (p == NULL)
        return;
#if defined(__linux__) && defined(MAP_ANONYMOUS)
    munmap(p, bytes);
#else
    (void)bytes;
    free(p);
#endif
}

static void table_free(Table *t)
{
    big_free(t->e, t->size * sizeof(Entry));
    big_free(t->tag, t->size * sizeof(u64));
    big_free(t->cut, CUT_SIZE(t) * sizeof(uint32_t));
    t->e = NULL;
    t->tag = NULL;
    t->cut = NULL;
}

static int table_alloc(Table *t, size_t size)
{
    t->size = size;
    t->e = big_zeroed(size * sizeof(Entry));
    t->tag = big_zeroed(size * sizeof(u64));
    t->cut = big_zeroed(CUT_SIZE(t) * sizeof(uint32_t));
    if (t->e == NULL || t->tag == NULL || t->cut == NULL) {
        table_free(t);
        PyErr_NoMemory();
        return -1;
    }
    t->size = size;
    t->gen = 0;
    t->trump = t->board = -2;
    return 0;
}

/* A new generation: the entries of earlier calls count as empty. */
static void table_new_generation(Table *t)
{
    if (++t->gen == 0) {  /* wrapped: clear the old generations */
        memset(t->tag, 0, t->size * sizeof(u64));
        memset(t->cut, 0, CUT_SIZE(t) * sizeof(uint32_t));
        t->gen = 1;
    }
}

static int table_take(Table *t)
{
    if (spare.e != NULL) {
        *t = spare;
        spare.e = NULL;
    } else if (table_alloc(t, TT_SIZE) < 0) {
        return -1;
    }
    table_new_generation(t);
    return 0;
}

static void table_give_back(Table *t)
{
    if (spare.e == NULL) {
        spare = *t;
    } else {
        table_free(t);
    }
    t->e = NULL;
}

/* -- the search ----------------------------------------------------------- */

typedef struct {
    u64 hand[4];
    u64 tmask;          /* the trump slot's bits, 0 with no trump */
    int trump;          /* the trump slot, -1 for none */
    int broken;         /* a trump was played to an earlier trick (BA-32) */
    int board[4];       /* the seat claimed board: may lead trump (BA-32) */
    int leader, played; /* the current trick: its leader, cards played */
    int ns;             /* tricks team 0 has taken since the root */
    int left;           /* tricks left, the current one included */
    int tcard[4];       /* the trick's cards (bit numbers) in play order */
    int wseat[4], wkey[4]; /* who wins the trick after each card, and with what */
    Entry *tt;
    u64 *tag;
    uint32_t *cut;      /* the table's hints */
    size_t cutmask;     /* the hints less one */
    size_t ttmask;      /* the table's entries less one */
    uint16_t gen;
    long long nodes;
} Ctx;

static inline u64 all_cards(const Ctx *c)
{
    return c->hand[0] | c->hand[1] | c->hand[2] | c->hand[3];
}

/* The strength of card b in a trick whose led slot is led: above every
 * plain card for a trump, its rank for the suit led, -1 otherwise (BA-34). */
static inline int card_key(const Ctx *c, int b, int led)
{
    int s = SLOT(b);
    if (s == c->trump)
        return 32 + RANK(b);
    return s == led ? RANK(b) : -1;
}

static inline u64 slot_bits(int s) { return (u64)0x7FFF << (16 * s); }

/* What a position at the start of a trick is looked up by. */
typedef struct {
    u64 lens;           /* cards per suit per hand, 4 bits each (hand * 16 + suit * 4) */
    u64 rel[3];         /* the first three hands compressed by the cards left */
    u64 lo, hi;         /* the owners in two bits a card: rel[1] and rel[2], each with seat 3's */
    u64 rest;           /* all cards left */
    int count[4], end[4]; /* cards left per suit; where each ends in rel */
    uint8_t info;
    uint16_t tops;      /* one card of each suit left, as segment sizes */
    uint32_t tag;       /* the entries' tag (see Table) */
    size_t index, index2;
} Key;

static inline u64 seg_mask(const Key *k, uint16_t seg);

static void make_key(const Ctx *c, Key *k)
{
    u64 rest = all_cards(c);
    k->rest = rest;
    u64 lens = 0;
    compress3(c->hand, rest, k->rel);
    for (int h = 0; h < 4; h++) {
        for (int s = 0; s < 4; s++)
            lens |= (u64)popcount64(c->hand[h] & slot_bits(s)) << (16 * h + 4 * s);
    }
    k->lens = lens;
    int at = 0;
    for (int s = 0; s < 4; s++) {
        k->count[s] = popcount64(rest & slot_bits(s));
        at += k->count[s];
        k->end[s] = at;
    }
    u64 r3 = ((((u64)1) << at) - 1) & ~(k->rel[0] | k->rel[1] | k->rel[2]);
    k->lo = k->rel[1] | r3;
    k->hi = k->rel[2] | r3;
    unsigned jokers = 0, free_trump = 1;
    if (c->trump >= 0) {
        u64 t = rest >> (16 * c->trump);
        jokers = (unsigned)(t >> LB_BIT) & 3;
        free_trump = c->broken || !(rest & c->tmask);
    }
    k->info = (uint8_t)(c->leader | jokers << 2 | free_trump << 4 | 1u << 5);
    /* Two buckets: entries that cover the top card of every suit left go
     * in one chosen by the distribution and those cards' owners, the rest
     * in one chosen by the distribution alone (so that the many patterns of
     * one distribution do not all crowd one bucket). */
    u64 h = lens * 0x9E3779B97F4A7C15ULL;
    h ^= (h >> 29) + (u64)k->info * 0xC2B2AE3D27D4EB4FULL;
    h *= 0x165667B19E3779F9ULL;
    u64 h1 = h ^ (h >> 32);
    k->tag = (uint32_t)c->gen << 16 | (uint32_t)(h >> 48);
    k->index = (size_t)(h1 & c->ttmask) & ~(size_t)(WAYS - 1);
    uint16_t tops = 0;
    for (int s = 0; s < 4; s++)
        if (k->count[s])
            tops |= (uint16_t)(1 << (4 * s));
    k->tops = tops;
    u64 m = seg_mask(k, tops);
    u64 h2 = h + (k->rel[0] & m) * 0xD6E8FEB86659FD93ULL;
    h2 = (h2 ^ (h2 >> 31)) + (k->rel[1] & m) * 0xA0761D6478BD642FULL;
    h2 = (h2 ^ (h2 >> 29)) + (k->rel[2] & m) * 0xE7037ED1A0B428DBULL;
    h2 *= 0x165667B19E3779F9ULL;
    h2 ^= h2 >> 32;
    k->index2 = (size_t)(h2 & c->ttmask) & ~(size_t)(WAYS - 1);
}

/* The relative-rank mask of the top seg[s] cards of each suit. */
static inline u64 seg_mask(const Key *k, uint16_t seg)
{
    u64 m = 0;
    for (int s = 0; s < 4; s++) {
        int n = seg >> (4 * s) & 15, e = k->end[s];
        m |= ((u64)1 << e) - ((u64)1 << (e - n));
    }
    return m;
}

/* A 16-bit hash of an entry's owners of its top cards (lo and hi masked). */
static inline u64 pattern(u64 lo, u64 hi)
{
    u64 h = lo * 0x9E3779B97F4A7C15ULL ^ hi * 0xC2B2AE3D27D4EB4FULL;
    return h >> 48;
}

/* The absolute cards of the top seg[s] cards of each suit left. */
static inline u64 seg_cards(const Key *k, uint16_t seg)
{
#ifdef HAVE_PEXT
    if (fast_pext)
        return expand_pdep(seg_mask(k, seg), k->rest);
#endif
    u64 m = 0;
    for (int s = 0; s < 4; s++) {
        int n = seg >> (4 * s) & 15;
        u64 suit = k->rest & slot_bits(s);
        for (int i = 0; i < n; i++) {
            int b = highest_bit(suit);
            m |= (u64)1 << b;
            suit &= ~((u64)1 << b);
        }
    }
    return m;
}

/* The segment sizes that cover the relevant cards rel: in each suit, every
 * card left from the highest down to the lowest relevant one. */
static inline uint16_t seg_of(const Key *k, u64 rel)
{
    uint16_t seg = 0;
    for (int s = 0; s < 4; s++) {
        u64 r = rel & k->rest & slot_bits(s);
        if (r) {
            int low = lowest_bit(r);
            int n = popcount64(k->rest & slot_bits(s) & ~((((u64)1) << low) - 1));
            seg |= (uint16_t)(n << (4 * s));
        }
    }
    return seg;
}

/* The card (bit number) a stored best card stands for now, or -1. */
static inline int best_card(uint8_t best, u64 rest)
{
    if (best == NO_BEST)
        return -1;
    int s = best >> 4, r = best & 15;
    u64 suit = (rest >> (16 * s)) & 0x7FFF;
    for (int i = 0; i < r && suit; i++)
        suit &= suit - 1;
    return suit ? 16 * s + lowest_bit(suit) : -1;
}

/* Store a bound (lower, or upper when is_upper) with the relevant cards rel. */
static void store(Ctx *c, const Key *k, int bound, int is_upper, u64 rel, int best)
{
    if (c->left < MIN_STORE)
        return;
    STAT(ST_STORE);
    uint16_t seg = seg_of(k, rel);
    int covers = 1;
    for (int s = 0; s < 16; s += 4)
        covers &= (seg >> s & 15) >= (k->tops >> s & 15);
    size_t base = covers ? k->index2 : k->index;
    Entry *b = c->tt + base;
    u64 *tags = c->tag + base;
    u64 m = seg_mask(k, seg);
    u64 lo = k->lo & m, hi = k->hi & m;
    /* the tags alone are scanned: an entry is read only when its whole tag
     * matches, and the depths only when the bucket is full */
    u64 want = (u64)k->tag << 32 | (u64)seg << 16 | pattern(lo, hi);
    Entry *e = NULL;
    int pick = -1;
    for (int i = 0; i < WAYS; i++) {
        u64 tg = tags[i];
        if (tg >> 48 != c->gen) {
            /* the first free way: this call's entries fill the ways in
             * order, so none matches beyond it */
            pick = i;
            break;
        }
        if (tg == want) {
            Entry *x = &b[i];
            if (x->lens == k->lens && x->info == k->info && x->lo == lo && x->hi == hi) {
                e = x;
                break;
            }
        }
    }
    if (e == NULL && pick < 0) {
        /* full: the shallowest entry makes way */
        int depth = 99;
        for (int i = 0; i < WAYS; i++)
            if (b[i].depth < depth) {
                depth = b[i].depth;
                pick = i;
            }
    }
    if (e == NULL) {
        /* a new entry: written, not read */
        e = &b[pick];
        e->lens = k->lens;
        e->info = k->info;
        e->seg = seg;
        e->lo = lo;
        e->hi = hi;
        tags[pick] = want;
        if (is_upper) {
            e->lower = 0;
            e->upper = (uint8_t)(bound < c->left ? bound : c->left);
        } else {
            e->lower = (uint8_t)(bound > 0 ? bound : 0);
            e->upper = (uint8_t)c->left;
        }
        e->best = NO_BEST;
        e->depth = (uint8_t)c->left;
    } else if (is_upper) {
        if (bound < e->upper)
            e->upper = (uint8_t)bound;
    } else if (bound > e->lower) {
        e->lower = (uint8_t)bound;
    }
    if (best >= 0) {
        int s = SLOT(best);
        u64 suit = (k->rest >> (16 * s)) & 0x7FFF;
        e->best = (uint8_t)(s << 4 | popcount64(suit & (((u64)1 << RANK(best)) - 1)));
    }
}

/* The tricks the leader can take at once from its own hand: in each suit it
 * may lead, the top cards it holds (all its cards of the suit when nobody
 * else has more of them), where nobody on the other side can ruff; when an
 * opponent holds trumps, only the trumps and one plain suit, cashed before
 * anything else, while the opponents holding trumps still follow, or, when
 * its top trumps are at least as many as either opponent's trumps, those
 * drawn first and then every plain suit's top cards as if no one could
 * ruff (as DDS counts); with none of these, one trick when the partner can
 * ruff a plain suit the leader leads and no opponent can overruff.  *rel:
 * the top cards counted (the partner's top trump for its ruff when an
 * opponent void in the suit holds trumps), and once the count comes to want
 * only those of the suits that make up want, the trumps first. */
/* The cards of the suits counted in order (sw[s] tricks resting on stops[s])
 * until the tricks come to want, beside base (got tricks so far): the cards
 * a count of want rests on. */
static inline u64 tops_for(const int *sw, const u64 *stops, int got, int want, u64 base)
{
    for (int s = 0; s < 4 && got < want; s++) {
        if (sw[s]) {
            got += sw[s];
            base |= stops[s];
        }
    }
    return base;
}

static int quick_tricks_of(const Ctx *c, int seat, int want, u64 *rel)
{
    u64 h = c->hand[seat];
    u64 opp = c->hand[(seat + 1) & 3] | c->hand[(seat + 3) & 3];
    int opp_trumps = (opp & c->tmask) != 0;
    int may_trump = c->trump >= 0 && (c->broken || c->board[seat] || !(h & ~c->tmask));
    int total = 0, trump_w = 0, plain_best = 0, trump_n = 0, free_total = 0;
    u64 rest = all_cards(c), used = 0, trump_used = 0, plain_used = 0;
    int sw[4] = {0, 0, 0, 0}, fw[4] = {0, 0, 0, 0};
    u64 stops[4] = {0, 0, 0, 0};
    for (int s = 0; s < 4; s++) {
        u64 mine = (h >> (16 * s)) & 0x7FFF;
        if (!mine)
            continue;
        int is_trump = s == c->trump;
        if (is_trump && !may_trump)
            continue;
        u64 out = (rest >> (16 * s)) & 0x7FFF, tops = 0;
        int n = 0;
        while (out) {
            int top = highest_bit(out);
            if (!(mine >> top & 1))
                break;
            n++;
            tops |= (u64)1 << top;
            out &= ~((u64)1 << top);
        }
        if (!n)
            continue;
        int others = 0;
        for (int p = 1; p < 4; p++) {
            int len = popcount64((c->hand[(seat + p) & 3] >> (16 * s)) & 0x7FFF);
            if (len > others)
                others = len;
        }
        int w = n >= others ? popcount64(mine) : n;
        /* the count rests on the owners of the top min(n, others) cards */
        for (int i = n; i > others; i--)
            tops &= tops - 1;
        tops <<= 16 * s;
        if (is_trump) {
            trump_w = w;
            trump_n = n;
            trump_used = tops;
        } else if (opp_trumps) {
            free_total += w;
            fw[s] = w;
            stops[s] = tops;
            for (int p = 1; p < 4; p += 2) {
                u64 o = c->hand[(seat + p) & 3];
                if (o & c->tmask) {
                    int len = popcount64((o >> (16 * s)) & 0x7FFF);
                    if (len < w)
                        w = len;
                }
            }
            if (w > plain_best) {
                plain_best = w;
                plain_used = tops;
            }
        } else {
            total += w;
            used |= tops;
            sw[s] = w;
            stops[s] = tops;
        }
    }
    total += trump_w + plain_best;
    *rel = used | trump_used | plain_used;
    if (total >= want) {
        /* only the cards that the first want tricks rest on */
        if (opp_trumps)
            *rel = trump_w >= want ? trump_used
                 : plain_best >= want ? plain_used : trump_used | plain_used;
        else
            *rel = trump_w >= want ? trump_used : tops_for(sw, stops, trump_w, want, trump_used);
    }
    if (opp_trumps && trump_n && trump_w + free_total > total) {
        /* the leader's top trumps outlast the opponents' (each follows
         * to every round while it holds a trump): drawn first, they leave
         * every plain suit's top cards to cash as if no one could ruff */
        int ot = 0;
        for (int p = 1; p < 4; p += 2) {
            int len = popcount64(c->hand[(seat + p) & 3] & c->tmask);
            if (len > ot)
                ot = len;
        }
        if (trump_n >= ot) {
            total = trump_w + free_total;
            *rel = tops_for(fw, stops, trump_w, want, trump_used);
        }
    }
    if (!total && c->trump >= 0) {
        /* a trick ruffed by the partner: a plain suit the leader holds and
         * the partner, holding a trump, does not, where each opponent
         * follows, holds no trump, or holds lower trumps than the
         * partner's highest */
        u64 pt = c->hand[seat ^ 2] & c->tmask;
        if (pt) {
            int ptop = highest_bit(pt);
            for (int s = 0; s < 4; s++) {
                if (s == c->trump || !(h & slot_bits(s)) || (c->hand[seat ^ 2] & slot_bits(s)))
                    continue;
                int ok = 1, need_top = 0;
                for (int p = 1; p < 4; p += 2) {
                    u64 o = c->hand[(seat + p) & 3];
                    if ((o & slot_bits(s)) || !(o & c->tmask))
                        continue;
                    if (highest_bit(o & c->tmask) > ptop)
                        ok = 0;
                    need_top = 1;
                }
                if (ok) {
                    *rel = need_top ? (u64)1 << ptop : 0;
                    return 1 < c->left ? 1 : c->left;
                }
            }
        }
    }
    return total < c->left ? total : c->left;
}

/* The tricks the leader's team takes in a row from now on one line of play
 * that cannot fail whatever the opponents do, up to want.  The hand on lead cashes a
 * card higher than every card the opponents may still hold in its suit
 * (each keeps its highest card of a suit until it has no other; a void
 * opponent is no threat unless it holds a trump, and then the suit is not
 * led), its partner following with its lowest card of the suit or, when
 * void, throwing its lowest card; when the hand on lead has no such card,
 * it leads low to such a card of its partner's.  Plain suits are led first,
 * trumps too once the hand on lead may lead them (BA-32: trump broken, in
 * this line too, a board claim, or nothing but trumps; under the Big
 * Blooper the partner plays its highest trump, BA-33), each opponent
 * following while it holds one, so that a suit an opponent could ruff may
 * be cashed once its trumps are drawn.  With trumps, a void partner throws
 * its lowest plain card, or, holding nothing but trumps, ruffs and takes the
 * lead; and with no such lead, the hand on lead leads a plain suit its
 * partner ruffs (void there, holding a trump) where each opponent follows or
 * holds no trump, to give the partner the lead (as DDS's quick tricks count
 * a ruff in the partner's hand).
 * *rel: the winning cards whose ranks mattered (above an opponent's card,
 * or above the other card of the team in the trick); the other cards the
 * team plays are any below them, so a position matching on those plays the
 * same line.  cross_first: the first trick is a lead to a winner of the
 * partner's when there is one (another line, tried at no trump when the
 * first falls short: cashing the leader's winners first may throw away the
 * partner's); 0 when it would be the same line. */
static int side_tricks(const Ctx *c, int want, int cross_first, u64 *rel)
{
    int seat = c->leader;
    u64 h[2] = {c->hand[seat], c->hand[seat ^ 2]};
    int ohigh[2][4], olen[2][4];
    for (int i = 0; i < 2; i++) {
        u64 o = c->hand[seat ^ (2 * i + 1)];
        for (int s = 0; s < 4; s++) {
            u64 suit = o & slot_bits(s);
            olen[i][s] = popcount64(suit);
            ohigh[i][s] = suit ? highest_bit(suit) : -1;
        }
    }
    int ts = c->trump;
    /* trumps are led by a hand that may lead them (BA-32); a Blooper lead
     * forces the others' highest or lowest trumps (BA-33): the partner's
     * highest under the Big one, the opponents' (thought to keep their
     * highest cards) no worse for the line */
    int trump_leads = ts >= 0;
    int brk = c->broken;
    int lead = 0, tricks = 0;
    u64 used = 0;
    while (tricks < want) {
        int pick = -1, other = -1, threat_at = -1, crossed = 0;
        int lseat = lead ? seat ^ 2 : seat;
        int may_trump = trump_leads && (brk || c->board[lseat] || !(h[lead] & ~c->tmask));
        for (int pp = 0; pp < 2 && pick < 0; pp++) {
            /* pass 0: a winner of the hand on lead; pass 1: low to partner's;
             * the plain suits first, then the trumps */
            int pass = cross_first && !tricks ? !pp : pp;
            u64 wins_in = h[pass ? lead ^ 1 : lead];
            for (int j = 0; j < 5 && pick < 0; j++) {
                int s = j < 4 ? j : ts;
                if (j < 4 ? s == ts : !may_trump)
                    continue;
                if (!(h[lead] & slot_bits(s)))
                    continue;
                u64 cards = wins_in & slot_bits(s);
                if (!cards)
                    continue;
                int threat = -1, ruff = 0;
                for (int i = 0; i < 2; i++) {
                    if (olen[i][s] && ohigh[i][s] > threat)
                        threat = ohigh[i][s];
                    ruff |= s != ts && !olen[i][s] && ts >= 0 && olen[i][ts];
                }
                if (ruff)
                    continue;
                int top = highest_bit(cards);
                if (top <= threat)
                    continue;
                if (pass && s == ts && RANK(lowest_bit(h[lead] & slot_bits(s))) == LB_BIT)
                    continue;  /* it would force the partner's lowest trump, BA-33 */
                threat_at = threat;
                crossed = pass;
                if (!pass) {
                    pick = top;
                    u64 f = h[lead ^ 1] & slot_bits(s);
                    other = f ? lowest_bit(f) : -1;
                    if (f && s == ts && RANK(top) == BB_BIT)
                        other = highest_bit(f);  /* BA-33 */
                } else {
                    pick = lowest_bit(h[lead] & slot_bits(s));
                    other = top;
                }
            }
        }
        int ruffed = 0;
        if (pick < 0 && ts >= 0 && (h[lead ^ 1] & c->tmask)) {
            /* pass 2: a plain suit the partner ruffs (it is void there and
             * holds a trump) where each opponent follows or holds no trump:
             * the partner wins the trick and takes the lead */
            for (int s = 0; s < 4 && pick < 0; s++) {
                if (s == ts || !(h[lead] & slot_bits(s)) || (h[lead ^ 1] & slot_bits(s)))
                    continue;
                if ((!olen[0][s] && olen[0][ts]) || (!olen[1][s] && olen[1][ts]))
                    continue;
                pick = lowest_bit(h[lead] & slot_bits(s));
                other = lowest_bit(h[lead ^ 1] & c->tmask);
                ruffed = 1;
            }
        }
        if (pick < 0)
            break;
        if (cross_first && !tricks && !crossed)
            break;  /* the same line as without crossing first */
        int s = SLOT(pick);
        int follows = other >= 0 && SLOT(other) == s;
        if (other < 0) {
            /* the partner is void: it throws its lowest card (with trump
             * lines, its lowest plain card; holding nothing but trumps, it
             * ruffs and takes the lead) */
            u64 p = h[lead ^ 1];
            if (trump_leads && (p & ~c->tmask))
                p &= ~c->tmask;
            if (p) {
                int low = -1;
                for (int t = 0; t < 4; t++) {
                    u64 x = p & slot_bits(t);
                    if (x && (low < 0 || RANK(lowest_bit(x)) < RANK(low)))
                        low = lowest_bit(x);
                }
                h[lead ^ 1] &= ~((u64)1 << low);
                ruffed = trump_leads && SLOT(low) == ts && s != ts;
                brk |= SLOT(low) == ts;
            }
        } else {
            h[lead ^ 1] &= ~((u64)1 << other);
        }
        h[lead] &= ~((u64)1 << pick);
        brk |= s == ts || ruffed;
        int winner = follows && other > pick ? other : pick;
        if (threat_at >= 0 || follows)
            used |= (u64)1 << winner;
        if (winner != pick || ruffed)
            lead ^= 1;
        for (int i = 0; i < 2; i++)
            if (olen[i][s])
                olen[i][s]--;
        tricks++;
    }
    *rel = used;
    return tricks;
}

/* With no trump left (every card plain, so the highest card of the suit led
 * wins: bridge at no trump), the tricks the leader's team takes by a line
 * in two parts.  First the leader cashes every suit it tops: in each, the
 * cards it holds of the suit's highest cards in an unbroken run, or all its
 * cards of the suit when that run is at least as long as every other hand's
 * holding (quick_tricks_of counts the same).  Then it leads a suit its
 * partner tops (it has kept a card of it: it led only its own suits) and
 * the partner, on lead, cashes every suit it tops the same way, the run
 * counted against the other three hands, the leader's included.  The
 * partner's counted cards are in suits the leader never leads, so while the
 * leader cashes the partner follows or throws from its other cards, of
 * which it holds left - t2 (t2: the partner's count) and plays t1 (the
 * leader's).  When t1 + t2 > left it throws counted cards too, each costing
 * at most one trick (the lowest card of a suit: a card of its length, or
 * the end of a run), none of the suit it is reached by: the team still
 * takes every trick left when its other suits hold enough counted cards.
 * *rel: the runs counted (their owners are what the count rests on; the
 * rest is suit lengths).  Returns the leader's own count alone when it
 * reaches want (quick_tricks_of's count at no trump) or when its partner
 * tops no suit the leader holds. */
static int cash_and_cross(const Ctx *c, int want, u64 *rel)
{
    int lead = c->leader, pa = lead ^ 2;
    u64 rest = all_cards(c);
    int t1 = 0, t2 = 0, entry_w = -1;
    u64 r1 = 0, r2 = 0;
    for (int s = 0; s < 4; s++) {
        int sh = 16 * s;
        u64 suit = (rest >> sh) & 0x7FFF;
        if (!suit)
            continue;
        int top = highest_bit(suit);
        int owner = (c->hand[lead] >> sh >> top) & 1 ? lead
                    : (c->hand[pa] >> sh >> top) & 1 ? pa : -1;
        if (owner < 0)
            continue;
        u64 mine = (c->hand[owner] >> sh) & 0x7FFF, out = suit, run = 0;
        int n = 0;
        while (out) {
            int b = highest_bit(out);
            if (!(mine >> b & 1))
                break;
            n++;
            run |= (u64)1 << b;
            out &= ~((u64)1 << b);
        }
        int others = 0;
        for (int p = 1; p < 4; p++) {
            int len = popcount64((c->hand[(owner + p) & 3] >> sh) & 0x7FFF);
            if (len > others)
                others = len;
        }
        int w = n >= others ? popcount64(mine) : n;
        /* the top min(n, others) cards: with them the same, the count is */
        for (int i = n; i > others; i--)
            run &= run - 1;
        if (owner == lead) {
            t1 += w;
            r1 |= run << sh;
        } else {
            t2 += w;
            r2 |= run << sh;
            if ((c->hand[lead] >> sh) & 0x7FFF && (entry_w < 0 || w < entry_w))
                entry_w = w;
        }
    }
    if (entry_w < 0 || t1 >= want) {
        *rel = r1;
        return t1 < c->left ? t1 : c->left;
    }
    int total = t1 + t2;
    if (total > c->left) {
        if (t2 - entry_w < total - c->left) {
            *rel = r1;
            return t1 < c->left ? t1 : c->left;
        }
        total = c->left;
    }
    *rel = r1 | r2;
    return total;
}

/* The leader's quick tricks (quick_tricks_of), or its team's (side_tricks)
 * when they are more; neither counts past want, the tricks that settle the
 * search. */
static int quick_tricks(const Ctx *c, int want, u64 *rel)
{
    int q;
    u64 rest = all_cards(c);
    if (!(rest & c->tmask)) {
        q = cash_and_cross(c, want, rel);
        if (q >= want)
            return q;
        /* side_tricks wins a trick of a suit only where its team tops the
         * suit or the opponents hold none of it, at most as many as its
         * longer hand holds, and while the opponent holding their highest
         * card of the suit still follows, no more than the team's cards
         * above it: no more than that in all */
        u64 ours = c->hand[c->leader] | c->hand[c->leader ^ 2];
        int most = 0;
        for (int s = 0; s < 4; s++) {
            u64 suit = rest & slot_bits(s);
            if (!(suit & ours) || !(ours >> highest_bit(suit) & 1))
                continue;
            int a = popcount64(c->hand[c->leader] & slot_bits(s));
            int b = popcount64(c->hand[c->leader ^ 2] & slot_bits(s));
            int m = a > b ? a : b;
            u64 theirs = suit & ~ours;
            if (theirs) {
                int h = highest_bit(theirs);
                int above = popcount64(suit >> (h + 1));
                int o = c->hand[(c->leader + 1) & 3] >> h & 1 ? (c->leader + 1) & 3
                                                              : (c->leader + 3) & 3;
                if (above < popcount64(c->hand[o] & slot_bits(s)))
                    m = above;
            }
            most += m;
        }
        if (most < want)
            return q;
    } else {
        q = quick_tricks_of(c, c->leader, want, rel);
    }
    if (q >= want)
        return q;
    u64 srel;
    int q2 = side_tricks(c, want, 0, &srel);
    if (q2 < want && !(rest & c->tmask)) {
        u64 srel2;
        int q3 = side_tricks(c, want, 1, &srel2);
        if (q3 > q2) {
            q2 = q3;
            srel = srel2;
        }
    }
    STAT(ST_SIDE);
    if (q2 > q) {
        STAT(ST_SIDE_BETTER);
        q = q2;
        *rel = srel;
    }
    return q;
}

/* How many more tricks team x (0 or 1) is sure of, at the start of a trick,
 * by the first of these rules that gives want (or the best of them);
 * *rel: the cards that made it sure.
 *  - With a trump left in play: in one hand h of x, as many of its trumps
 *    as the other team's trumps cannot each beat.  Every card of h is
 *    played to some trick; a trump of h that no trump of the other team
 *    beats in its trick leaves the trick to x (only a higher trump beats a
 *    trump, BA-34, whatever was led and whatever BA-33 forced), and each
 *    trump of the other team beats at most one card of h (one trick, one
 *    card of h).  So x takes at least as many tricks as h's trumps that
 *    stay over when each is matched, from the top down, with a higher trump
 *    of the other team's not yet matched: the largest excess, over any run
 *    of the trumps from the top, of h's over theirs (h's unbroken run of top
 *    trumps counts its length; against a team with no trump, all of h's;
 *    in any case at least h's trumps less theirs, which needs the suit
 *    lengths alone).  The trumps down to the one that made it enough are
 *    what that depends on.  Failing that, one trick for a hand's highest
 *    trump held behind every higher one with enough guards, or the second
 *    and third trumps against the top one (see below).
 *  - With no trump left: when the other team is on lead and its cards that
 *    are the highest of their suits do not carry it through every trick
 *    left.  At no trump the other team keeps the lead only by winning with
 *    the highest card left of the suit it leads, and in a suit it tops it
 *    wins at most as many tricks as its longer hand there holds cards (as in
 *    DDS's "later tricks").  The highest cards of the suits x tops (where
 *    anyone else holds the suit) are what that depends on. */
static int sure_tricks(const Ctx *c, int x, int want, u64 *rel)
{
    u64 rest = all_cards(c);
    u64 mine = c->hand[x] | c->hand[x + 2];
    *rel = 0;
    if (c->trump >= 0 && (rest & c->tmask)) {
        u64 opp = (c->hand[x ^ 1] | c->hand[x ^ 3]) & c->tmask;
        int no = popcount64(opp), best = 0;
        u64 brel = 0;
        for (int k = 0; k < 4; k += 2) {
            u64 my = c->hand[x + k] & c->tmask;
            int nm = popcount64(my);
            if (nm - no >= want)
                return nm - no;  /* the lengths alone: *rel stays empty */
            if (nm < want)
                continue;
            /* h's trumps less the other team's, counted from the top down
             * (the partner's trumps do not count: they beat h's for x) */
            u64 w = my | opp;
            int sum = 0, mx = 0;
            while (w) {
                int b = highest_bit(w);
                w &= ~((u64)1 << b);
                if (!(my >> b & 1)) {
                    if (--sum + popcount64(my & w) < want)
                        break;  /* h's trumps below cannot make it enough */
                    continue;
                }
                if (++sum > mx) {
                    mx = sum;
                    if (mx > best) {
                        best = mx;
                        brel = (u64)1 << b;
                    }
                    if (mx >= want)
                        break;
                }
            }
        }
        *rel = brel;
        if (best || want > 1)
            return best;
        /* the Big Blooper gone (its lead would force h's highest trump,
         * BA-33; a Little Blooper lead forces h's lowest, which h plays
         * anyway), h's highest trump T with every trump above it that x
         * does not hold in the hand h plays after (its right-hand
         * opponent), and h holding more trumps than those: in every trick
         * h does not lead, that hand has played before h, so h plays T when
         * none of those is in the trick (nothing left beats it) and a lower
         * trump under one of them, which it has enough of; and h leads only
         * after x has taken a trick, or now with a plain card to lead */
        if (!((rest >> (16 * c->trump + BB_BIT)) & 1)) {
            for (int k = 0; k < 4; k += 2) {
                int h = x + k;
                u64 my = c->hand[h] & c->tmask;
                if (!my)
                    continue;
                int tt = highest_bit(my);
                u64 above = rest & c->tmask & ~((((u64)2) << tt) - 1) & ~c->hand[h ^ 2];
                if (!above || (above & ~c->hand[(h + 3) & 3]))
                    continue;
                if (popcount64(my) <= popcount64(above))
                    continue;
                if (c->leader == h && !(c->hand[h] & ~c->tmask))
                    continue;
                *rel = (u64)1 << tt;
                return 1;
            }
        }
        if ((c->leader & 1) == x)
            return 0;
        /* the other team is on lead and holds the top trump, the Big Blooper
         * is gone (its lead forces the others' highest trumps, BA-33), and x
         * holds the second trump in a hand h with another trump: h plays
         * after the top trump's holder in every trick it does not lead, so
         * it keeps a trump under the top one while that is in the trick and
         * plays the second one when it is not (nothing else beats it); once
         * the top trump is gone the second takes a trick (and before x is
         * on lead, it has taken one).  The same when x
         * holds the third trump too (the top one takes at most one of
         * them), as DDS's later tricks count. */
        u64 t = rest & c->tmask;
        if (t >> (16 * c->trump + BB_BIT) & 1)
            return 0;
        int top = highest_bit(t);
        t &= ~((u64)1 << top);
        if (!t)
            return 0;
        int second = highest_bit(t), third = -1;
        t &= ~((u64)1 << second);
        if (t)
            third = highest_bit(t);
        if (!(mine >> second & 1))
            return 0;
        int h = c->hand[x] >> second & 1 ? x : x + 2;
        if (popcount64(c->hand[h] & c->tmask) < 2)
            return 0;
        if (c->hand[(h + 3) & 3] >> top & 1) {
            *rel = (u64)1 << top | (u64)1 << second;
            return 1;
        }
        if (third >= 0 && (mine >> third & 1)) {
            *rel = (u64)1 << top | (u64)1 << second | (u64)1 << third;
            return 1;
        }
        return 0;
    }
    if ((c->leader & 1) == x)
        return 0;  /* the quick tricks cover a team on lead */
    int y = x ^ 1, sum = 0;
    for (int s = 0; s < 4; s++) {
        u64 suit = rest & slot_bits(s);
        if (!suit)
            continue;
        int top = highest_bit(suit);
        if (mine >> top & 1) {
            if (suit & ~mine & ~((u64)1 << top))
                *rel |= (u64)1 << top;
            else if (popcount64(suit) > 1)
                *rel |= (u64)1 << top;
            continue;
        }
        int a = popcount64(c->hand[y] & slot_bits(s)), b = popcount64(c->hand[y + 2] & slot_bits(s));
        sum += a > b ? a : b;
    }
    return sum < c->left;
}

/* The candidate cards of the seat to act, one of each group of equal
 * cards, best first; returns how many. */
static inline int top_of(u64 x) { return x ? highest_bit(x) : -1; }

/* What the weights of a lead look at in the suit of slot s: its cards
 * left (suit), each hand's (bits, from the leader on: the leader, the
 * next hand, the partner, the last hand), and its three highest cards
 * left (top, -1 for none) with the seats holding them (owner, -1). */
typedef struct {
    u64 suit, bits[4];
    int top[3], owner[3];
} LeadSuit;

static void lead_suit(const Ctx *c, int seat, int s, u64 left, LeadSuit *v)
{
    int sh = 16 * s;
    v->suit = (left >> sh) & 0x7FFF;
    for (int i = 0; i < 4; i++)
        v->bits[i] = (c->hand[(seat + i) & 3] >> sh) & 0x7FFF;
    u64 rest = v->suit;
    for (int k = 0; k < 3; k++) {
        v->top[k] = top_of(rest);
        v->owner[k] = -1;
        if (v->top[k] < 0)
            continue;
        rest &= ~((u64)1 << v->top[k]);
        for (int i = 0; i < 4; i++)
            if (v->bits[i] >> v->top[k] & 1)
                v->owner[k] = (seat + i) & 3;
    }
}

/* The order of a lead of b (standing for its run when seq), the higher
 * the sooner (ideas from DDS's lead weights, with our own numbers): the
 * fewer cards the opponents may choose between, the better (a void one may
 * throw or ruff with anything, which counts as many cards).  With no trump
 * left, a lead that wins by our top card or the partner's comes before one
 * that gives up the lead; among those, a suit whose next card lies over
 * the leader (at the left-hand opponent) or with us, then leads towards
 * the partner's cards.  With trumps, no suit an opponent may ruff, a suit
 * the partner may ruff, and a lead that wins the trick (by a top card no
 * one can ruff, the partner's top card, or the partner's ruff) before one
 * that gives up the lead. */
static int lead_weight(const Ctx *c, int seat, int b, int seq, int no_trump_left,
                       const LeadSuit *v)
{
    int s = SLOT(b), r = RANK(b);
    int lho = (seat + 1) & 3, pa = seat ^ 2, rho = (seat + 3) & 3;
    u64 suit = v->suit, lb = v->bits[1], pb = v->bits[2], rb = v->bits[3];
    int nl = popcount64(lb), nr = popcount64(rb), np = popcount64(pb);
    int top = v->top[0], second = v->top[1];
    int h1 = v->owner[0], h2 = v->owner[1], h3 = v->owner[2];
    int crowd = 4 * (nl ? nl : c->left + 1) + 4 * (nr ? nr : c->left + 1);
    int rr = 14 - popcount64(suit >> (r + 1));  /* its rank among the cards left */
    int pwin = top_of(pb) > top_of(lb | rb);    /* the partner tops the opponents */
    if (no_trump_left) {
        int w = -(crowd * 32) / 19;
        if (!np)
            w -= 9;
        if (r == top || pwin) {
            if (h2 == rho) {
                if (nr != 1)
                    w -= 1;
            } else if (h2 == lho) {
                w += nl != 1 ? 22 : 16;
            }
            if ((h2 != lho || nl == 1) && (h2 != rho || nr == 1))
                return w + 45 + rr;
            return w + 18 + rr;
        }
        if (h1 == rho || h2 == rho) {
            if (nr != 1)
                w -= 10;
        } else if (h1 == lho && h2 == pa && np != 1) {
            w += 31;
        }
        if (h2 == pa && h3 == pa)
            w += 35;
        else if (np > 1 && ((h2 == seat && h3 == pa) || (h2 == pa && h3 == seat)))
            w += 25;
        if ((nl == 1 && h1 == lho) || (nr == 1 && h1 == rho))
            return w + 28 + rr;
        if (h1 == seat)
            return w - 17 + rr;
        if (!seq)
            return w + 12 + rr;
        if (r == second)
            return w + 48;
        return w + 29 - rr;
    }
    int ts = 16 * c->trump;
    u64 lt = (c->hand[lho] >> ts) & 0x7FFF, rt = (c->hand[rho] >> ts) & 0x7FFF;
    u64 pt = (c->hand[pa] >> ts) & 0x7FFF, mt = (c->hand[seat] >> ts) & 0x7FFF;
    u64 mb = v->bits[0];
    int plain = s != c->trump;
    int w = -(crowd * 32) / 13;
    int lruff = plain && !lb && lt, rruff = plain && !rb && rt;
    int pruff = plain && !pb && pt;
    if (lruff || rruff)
        w -= 12;
    if (pruff && nr)
        w += 17;
    if (h1 == rho || h2 == rho) {
        if (nr != 1)
            w -= 12;
    } else if (h1 == lho && h2 == pa && np != 1) {
        w += 27;
    }
    if (plain && popcount64(mb) == 1 && mt && np > 1 && h1 == pa)
        w += 19;  /* the partner wins and gives us a ruff */
    int win;
    if (!plain) {
        win = r == top || pwin;
    } else if (r == top || pwin) {
        if (r == top && pruff)
            win = (!lruff || top_of(pt) > top_of(lt)) && (!rruff || top_of(pt) > top_of(rt));
        else
            win = !lruff && !rruff;
    } else if (pruff) {
        win = (!lruff || top_of(pt) > top_of(lt)) && (!rruff || top_of(pt) > top_of(rt));
    } else {
        win = 0;
    }
    if (win) {
        if ((nl == 1 && h1 == lho) || (nr == 1 && h1 == rho))
            return w + 35 + rr;
        if (h1 == seat) {
            if (h2 == pa)
                return w + 48 + rr;
            return r == top ? w + 31 : w - 3 + rr;
        }
        if (h1 == pa)
            return w + (h2 == seat ? 42 : 28) + rr;
        if (seq && r == second)
            return w + 40;
        return w + (seq ? 22 : 11) + rr;
    }
    if (h2 == pa && h3 == pa)
        w += 20;
    else if (np > 1 && ((h2 == seat && h3 == pa) || (h2 == pa && h3 == seat)))
        w += 13;
    if ((nl == 1 && h1 == lho) || (nr == 1 && h1 == rho))
        return w + 2 + rr;
    if (h1 == seat) {
        if (h2 == pa)
            return w + 33 + rr;
        return r == top ? w + 38 : w - 14 + rr;
    }
    if (h1 == pa)
        return w + 34 + rr;
    if (seq && r == second)
        return w + 35;
    return w + 17 - r;
}

/* The best key seat can play to the trick (led: the slot led), -1 when it
 * can only throw a plain card. */
static inline int best_key(const Ctx *c, int seat, int led)
{
    u64 f = (c->hand[seat] >> (16 * led)) & 0x7FFF;
    if (f)
        return (led == c->trump ? 32 : 0) + highest_bit(f);
    if (c->trump >= 0) {
        u64 t = (c->hand[seat] >> (16 * c->trump)) & 0x7FFF;
        if (t)
            return 32 + highest_bit(t);
    }
    return -1;
}

/* The order of card b (standing for its run when seq) in the second,
 * third or fourth place of a trick, the higher the sooner: low when the
 * partner wins the trick anyway, the cheapest card that surely wins it,
 * (a card that no later hand can beat, the partner's lead aside), the
 * lowest card when the trick is lost, and a discard from a long suit that
 * keeps the top cards (DDS's ideas for following, with our numbers). */
static int follow_weight(const Ctx *c, int seat, int b, int seq, int later, int partner_later,
                         u64 suit)
{
    int pos = c->played, s = SLOT(b), r = RANK(b), sh = 16 * s;
    int led = SLOT(c->tcard[0]);
    int k = card_key(c, b, led), win = c->wkey[pos - 1];
    int ours = ((c->wseat[pos - 1] ^ seat) & 1) == 0;
    if (k < 0) {
        /* a discard: low from a long suit, not the suit's top card */
        int len = popcount64((c->hand[seat] >> sh) & 0x7FFF);
        return 2 * len - r - (suit >> (r + 1) ? 0 : 15);
    }
    int trumping = s == c->trump && led != c->trump;
    if (ours && win > later)
        return -r - (trumping ? 40 : 0);      /* the partner wins it: low */
    if (pos == 1 && partner_later > win && partner_later > later)
        return -r - (trumping ? 40 : 0);      /* the partner will win it */
    if (k > win && k > later)
        return 60 - r - (trumping ? 8 : 0);  /* a sure winner, cheapest first */
    if (k < win)   /* beaten already */
        return -r - (trumping ? 20 : 0);
    /* beats the card so far but a later hand may beat it */
    int rr = 14 - popcount64(suit >> (r + 1));  /* its rank among the cards left */
    return seq ? 10 + rr : 13 - r;
}

#define MAXMOVES 16

/* gen_moves once there are cards to order (cand, more than one; led: the
 * slot led, -1 for a lead), compiled apart for a lead and for the other
 * places in a trick. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline int order_moves(const Ctx *c, int seat, int *moves, int first, u64 cand, int led,
                              int lead)
{
    /* the cards still out and on the table, for equal cards */
    u64 left = all_cards(c), out = left;
    for (int p = 0; p < c->played; p++)
        out |= (u64)1 << c->tcard[p];

    int n = 0, score[MAXMOVES * 4];
    int pos = lead ? 0 : c->played;
    /* the best keys still to come in the trick: the next hand's, the
     * partner's after it */
    int later = pos && pos < 3 ? best_key(c, (seat + 1) & 3, led) : -1;
    int partner_later = pos == 1 ? best_key(c, (seat + 2) & 3, led) : -1;
    int no_trump_left = !(out & c->tmask);
    /* suit by suit from the highest, each suit's cards from the highest:
     * the Bloopers alone, then the runs of equal plain cards (the hand's
     * cards between two cards of the others still out, or on the table,
     * or a Blooper), each scored as its top card and played as its lowest
     * (see runs_cut for what an answer that fails for every card then
     * rests on) */
    for (int s = 3; s >= 0; s--) {
        int sh = 16 * s;
        u64 mine = (cand >> sh) & 0x7FFF;
        if (!mine)
            continue;
        u64 outs = (out >> sh) & 0x7FFF, suit = (left >> sh) & 0x7FFF;
        u64 block = (outs & ~mine) | (outs & 0x6000);
        LeadSuit v;
        if (lead)
            lead_suit(c, seat, s, left, &v);
        while (mine) {
            int top = highest_bit(mine);
            u64 run;
            if (top >= LB_BIT) {
                run = (u64)1 << top;
            } else {
                u64 bl = block & (((u64)1 << top) - 1);
                run = bl ? mine & ~((((u64)2) << highest_bit(bl)) - 1) : mine;
            }
            mine &= ~run;
            int b = sh + top, play = sh + lowest_bit(run);
            int sc = lead ? lead_weight(c, seat, b, play != b, no_trump_left, &v)
                     : follow_weight(c, seat, b, play != b, later, partner_later, suit);
            if (first >= sh && first < sh + 16 && (run >> (first - sh) & 1))
                sc += 1000;
            /* insertion, best first */
            int i = n++;
            while (i > 0 && score[i - 1] < sc) {
                moves[i] = moves[i - 1];
                score[i] = score[i - 1];
                i--;
            }
            moves[i] = play;
            score[i] = sc;
        }
    }
    return n;
}

static int gen_moves(const Ctx *c, int seat, int *moves, int first)
{
    u64 h = c->hand[seat];
    u64 cand;
    int led = -1;
    if (c->played == 0) {
        cand = h;
        if (c->trump >= 0 && !c->broken && !c->board[seat] && (h & ~c->tmask))
            cand = h & ~c->tmask;  /* BA-32 */
    } else {
        int lead = c->tcard[0];
        led = SLOT(lead);
        u64 follow = h & slot_bits(led);
        if (follow) {
            cand = follow;  /* BA-31 */
            if (led == c->trump && RANK(lead) >= LB_BIT) {  /* BA-33 */
                int pick = RANK(lead) == BB_BIT ? highest_bit(follow) : lowest_bit(follow);
                moves[0] = pick;
                return 1;
            }
        } else {
            cand = h;
        }
    }
    if (!(cand & (cand - 1))) {  /* one card: nothing to order */
        moves[0] = lowest_bit(cand);
        return 1;
    }
    if (c->played)
        return order_moves(c, seat, moves, first, cand, led, 0);
    return order_moves(c, seat, moves, first, cand, -1, 1);
}

/* The card that won a finished trick, if its rank mattered (another card
 * of its class in the trick), as a mask; 0 otherwise. */
static inline u64 rank_win(const Ctx *c, const int *tc, int wpos)
{
    int led = SLOT(tc[0]);
    int wk = card_key(c, tc[wpos], led);
    int cls = wk >= 32 ? 1 : 0;
    for (int p = 0; p < 4; p++) {
        if (p == wpos)
            continue;
        int k = card_key(c, tc[p], led);
        if (k >= 0 && (k >= 32 ? 1 : 0) == cls)
            return (u64)1 << tc[wpos];
    }
    return 0;
}

/* Team 0's tricks in the last trick (each hand has one card); *rel: the
 * winning card if its rank mattered. */
static int last_trick(const Ctx *c, u64 *rel)
{
    int tc[4], best = 0, key = -2;
    int led = SLOT(lowest_bit(c->hand[c->leader]));
    for (int p = 0; p < 4; p++) {
        tc[p] = lowest_bit(c->hand[(c->leader + p) & 3]);
        int k = card_key(c, tc[p], led);
        if (k > key) {
            key = k;
            best = p;
        }
    }
    *rel = rank_win(c, tc, best);
    return !(((c->leader + best) & 3) & 1);
}

static int node(Ctx *c, int target, u64 *rel);

/* Who wins the trick after its card pos (played by seat), with what. */
static inline void note_winner(Ctx *c, int pos, int seat)
{
    int k = card_key(c, c->tcard[pos], SLOT(c->tcard[0]));
    if (pos == 0 || k > c->wkey[pos - 1]) {
        c->wkey[pos] = k;
        c->wseat[pos] = seat;
    } else {
        c->wkey[pos] = c->wkey[pos - 1];
        c->wseat[pos] = c->wseat[pos - 1];
    }
}

/* Whether the finished trick holds a trump (it breaks trump, BA-32). */
static inline int trick_trumped(const Ctx *c)
{
    int trumped = 0;
    if (c->trump >= 0)
        for (int p = 0; p < 4; p++)
            trumped |= SLOT(c->tcard[p]) == c->trump;
    return trumped;
}

/* Play card b for the seat to act, search, take it back; *rel: the cards
 * whose ranks the answer depends on. */
static int play_and_search(Ctx *c, int b, int target, u64 *rel)
{
    int pos = c->played, seat = (c->leader + pos) & 3;
    u64 bit = (u64)1 << b;
    c->hand[seat] &= ~bit;
    c->tcard[pos] = b;
    note_winner(c, pos, seat);
    int r;
    if (pos < 3) {
        c->played = pos + 1;
        r = node(c, target, rel);
        c->played = pos;
    } else {
        int save_broken = c->broken, save_leader = c->leader, save_ns = c->ns;
        int w = c->wseat[3];
        int trumped = trick_trumped(c);
        /* the later tricks use the trick arrays: keep this one's */
        int tc[4], ws[4], wk[4];
        memcpy(tc, c->tcard, sizeof tc);
        memcpy(ws, c->wseat, sizeof ws);
        memcpy(wk, c->wkey, sizeof wk);
        c->broken |= trumped;
        c->ns += !(w & 1);
        c->leader = w;
        c->left--;
        c->played = 0;
        r = node(c, target, rel);
        memcpy(c->tcard, tc, sizeof tc);
        memcpy(c->wseat, ws, sizeof ws);
        memcpy(c->wkey, wk, sizeof wk);
        c->played = pos;
        c->left++;
        c->leader = save_leader;
        c->ns = save_ns;
        c->broken = save_broken;
        *rel |= rank_win(c, tc, (w - save_leader) & 3);
    }
    c->hand[seat] |= bit;
    return r;
}

/* With no trump left, after hand hh's card top wins the trick in progress
 * (top is 1 trick), the tricks hh goes on to cash until its side has k: in
 * each suit the cards it holds of the suit's highest left in an unbroken
 * run, or all its cards of the suit when that run is as long as every other
 * hand's holding now (the others only lose cards; as DDS's
 * QuickTricksSecondHand counts at no trump, and more).  The count of a
 * suit rests on the owners of its run's top min(run, others) cards (added
 * to *rel): the suits that need none of them first.  rest: the cards
 * left. */
static int cash_runs(const Ctx *c, int hh, int top, int k, u64 rest, u64 *rel)
{
    u64 h = c->hand[hh] & ~((u64)1 << top);
    int n = 1;
    for (int pass = 0; pass < 2; pass++) {
        for (int x = 0; x < 4 && n < k; x++) {
            u64 hs = h & slot_bits(x);
            if (!hs)
                continue;
            int others = 0;
            for (int p = 1; p < 4; p++) {
                int len = popcount64(c->hand[(hh + p) & 3] & slot_bits(x));
                if (len > others)
                    others = len;
            }
            if ((others > 0) != pass)
                continue;
            u64 out = rest & slot_bits(x) & ~((u64)1 << top), run = 0;
            int r = 0;
            while (out) {
                int b = highest_bit(out);
                if (!(hs >> b & 1))
                    break;
                r++;
                run |= (u64)1 << b;
                out &= ~((u64)1 << b);
            }
            n += r >= others ? popcount64(hs) : r;
            for (int i = r; i > others; i--)
                run &= run - 1;
            *rel |= run;
        }
    }
    return n;
}

/* How many tricks in a row the team of the second hand (seat) is sure to
 * take from the trick in progress on (0: not this one), whatever the
 * leader's partner plays, counted up to the k it needs.  It takes this one
 * when one of the two holds a card of the suit led above the card led and
 * above every card of the suit in the third hand's, which cannot ruff; or
 * one of them can ruff where the third hand can only follow or throw a
 * plain card.  Not after a Blooper lead (its forced plays, BA-33).  With
 * no trump left the winner then cashes (cash_runs).  *rel: the winning card
 * when its rank mattered and the cards it cashes. */
static int wins_second_hand(const Ctx *c, int seat, int k, u64 *rel)
{
    int lead = c->tcard[0], led = SLOT(lead);
    if (led == c->trump && RANK(lead) >= LB_BIT)
        return 0;
    u64 third = c->hand[(seat + 1) & 3], ours = c->hand[seat] | c->hand[seat ^ 2];
    u64 suit = slot_bits(led);
    if (led != c->trump && !(third & suit) && (third & c->tmask))
        return 0;  /* the third hand may ruff */
    u64 mine = ours & suit;
    if (mine) {
        int top = highest_bit(mine);
        u64 t = third & suit;
        if (top > lead && (!t || top > highest_bit(t))) {
            *rel = (u64)1 << top;
            u64 rest = all_cards(c);
            if (c->trump >= 0 && (rest & c->tmask))
                return 1;
            /* with no trump left the winner goes on to cash */
            int hh = c->hand[seat] >> top & 1 ? seat : seat ^ 2;
            return cash_runs(c, hh, top, k, rest, rel);
        }
    }
    if (led != c->trump && c->trump >= 0) {
        for (int p = 0; p < 4; p += 2) {
            u64 h = c->hand[seat ^ p];
            if (!(h & suit) && (h & c->tmask)) {
                *rel = 0;
                return 1;
            }
        }
    }
    return 0;
}

/* Every move failed: moves[] (each the lowest card of a run of equal cards,
 * see gen_moves) stood for whole runs, equal in this position because no
 * other hand's card lies between.  A position matching on the cards the
 * answer depends on (rel: in each suit, the cards from the highest down to
 * the lowest of them) must find each run's cards either all among those or
 * all below them, else a card of the run there may not be equal to the one
 * searched.  So a run that reaches into those cards from below them adds
 * its lowest card (going down each suit, as each addition lowers the line).
 * Returns the cards to add. */
static u64 runs_cut(const Ctx *c, const int *moves, int n, u64 rel)
{
    int seat = (c->leader + c->played) & 3;
    u64 h = c->hand[seat], out = all_cards(c), add = 0;
    u64 plain = 0;  /* the moves that are plain cards */
    for (int i = 0; i < n; i++)
        if (RANK(moves[i]) < LB_BIT)
            plain |= (u64)1 << moves[i];
    if (!plain)
        return 0;
    for (int p = 0; p < c->played; p++)
        out |= (u64)1 << c->tcard[p];
    for (int s = 0; s < 4; s++) {
        u64 sb = slot_bits(s), r = rel & out & sb;
        if (!r)
            continue;
        int line = lowest_bit(r);
        u64 lows = plain & sb & (((u64)1 << line) - 1);
        if (!lows)
            continue;
        /* a run ends below the next card above it of another hand still out
         * or on the table, or a Blooper: it reaches the line when that card
         * is above the line (the cards still out between are all ours) */
        u64 block = out & sb & (~h | (u64)0x6000 << (16 * s));
        while (lows) {  /* highest first */
            int low = highest_bit(lows);
            lows &= ~((u64)1 << low);
            u64 above = block & ~((((u64)2) << low) - 1);
            if (!above || lowest_bit(above) > line) {
                add |= (u64)1 << low;
                line = low;
            }
        }
    }
    return add;
}

/* Search moves (in order) until one reaches the goal of the seat to act
 * (maxside: team 0's); *cut: that move, or -1 when none does; *rel: the
 * cards the answer depends on.  A plain card is skipped when a card of its
 * suit already tried and it are both below every card of the suit that the
 * searches so far depended on: it would give the same answer (as DDS does
 * with its "winning ranks"). */
static int try_moves(Ctx *c, const int *moves, int n, int target, int maxside, u64 *rel,
                     int *cut)
{

    u64 all = 0;
    int tried[4] = {64, 64, 64, 64};  /* the lowest plain card tried per suit */
    for (int i = 0; i < n; i++) {
        int b = moves[i], s = SLOT(b);
        int plain = RANK(b) < LB_BIT;
        if (plain && tried[s] < 64) {
            u64 r = all & slot_bits(s);
            int low = r ? lowest_bit(r) : 64;
            if (b < low && tried[s] < low)
                continue;
        }
        u64 crel;
        STAT(ST_TRIED);
        if (play_and_search(c, b, target, &crel) == maxside) {
            STAT(i == 0 ? ST_FIRST : ST_LATER);
            *rel = crel;
            *cut = b;
            return maxside;
        }
        all |= crel;
        if (plain && b < tried[s])
            tried[s] = b;
    }
    *rel = all | runs_cut(c, moves, n, all);
    *cut = -1;
    return !maxside;
}

/* Lead hints (as bridge-solver's cut-off cache): the lead that last
 * ended a search of a position at the start of a trick, by the leader's
 * and its partner's cards alone, whatever the opponents hold (by the
 * leader's alone: 5 to 8% more nodes at no trump).  A hint only puts
 * that card first; the answers never depend on it. */
static inline uint32_t *lead_hint(const Ctx *c, int seat, uint32_t *check)
{
    u64 h = (c->hand[seat] ^ ((u64)seat << 62)) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 31;
    h += c->hand[seat ^ 2] * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0x165667B19E3779F9ULL;
    *check = (uint32_t)(h >> 56);
    return c->cut + ((h >> 32) & c->cutmask);
}

/* Inside a trick: by the place in the trick, the winning card so far and
 * the led suit's cards (the trick's included) when the seat follows, its
 * hand when it cannot. */
static inline uint32_t *follow_hint(const Ctx *c, int seat, uint32_t *check)
{
    int pos = c->played, led = SLOT(c->tcard[0]);
    u64 x;
    u64 f = c->hand[seat] & slot_bits(led);
    if (f) {
        x = all_cards(c);
        for (int p = 0; p < pos; p++)
            x |= (u64)1 << c->tcard[p];
        x &= slot_bits(led);
    } else {
        x = c->hand[seat];
    }
    int w = c->wkey[pos - 1] * 4 + c->wseat[pos - 1];
    u64 h = (x ^ ((u64)(seat | pos << 2 | (w & 0x3FF) << 4) << 50)) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ULL;
    *check = (uint32_t)(h >> 56);
    return c->cut + ((h >> 32) & c->cutmask);
}

/* The hint of the seat to act: where it is kept (see lead_hint and
 * follow_hint) and its check byte, found before the moves are made so that
 * the read can be under way meanwhile. */
static inline uint32_t *hint_at(const Ctx *c, int seat, uint32_t *check)
{
    uint32_t *at = c->played ? follow_hint(c, seat, check) : lead_hint(c, seat, check);
    PREFETCH(at);
    return at;
}

static inline int hint_card(const Ctx *c, int seat, const uint32_t *at, uint32_t check)
{
    uint32_t v = *at;
    if (v >> 16 != c->gen || (v >> 8 & 0xFF) != check)
        return -1;
    int b = (int)(v & 0xFF);
    return c->hand[seat] >> b & 1 ? b : -1;
}

static inline void hint_store(const Ctx *c, uint32_t *at, uint32_t check, int b)
{
    *at = (uint32_t)c->gen << 16 | check << 8 | (uint32_t)b;
}

/* Move card b (if it is one of the moves) to the front, the others kept in order. */
static inline void put_first(int *moves, int n, int b)
{
    if (b < 0)
        return;
    for (int i = 1; i < n; i++)
        if (moves[i] == b) {
            for (; i > 0; i--)
                moves[i] = moves[i - 1];
            moves[0] = b;
            return;
        }
}

static int node(Ctx *c, int target, u64 *rel)
{
    c->nodes++;
    STAT(ST_NODE0 + c->played);
    int seat = (c->leader + c->played) & 3;
    int maxside = !(seat & 1);
    int moves[MAXMOVES * 4];
    *rel = 0;
    if (c->played == 0) {
        int need = target - c->ns;
        if (need <= 0)
            return 1;
        if (need > c->left)
            return 0;
        if (c->left == 1)
            return last_trick(c, rel) >= need;
        Key k;
        make_key(c, &k);
        /* the table's first ways (their tags and first entries) are read
         * while the bounds below are worked out */
        PREFETCH(c->tag + k.index2);
        PREFETCH(c->tag + k.index);
        PREFETCH(c->tag + k.index2 + 8);
        PREFETCH(c->tag + k.index + 8);
        PREFETCH(c->tt + k.index2);
        PREFETCH(c->tt + k.index);
        {
            /* team 0 is sure of the tricks it needs, or team 1 of enough to
             * stop it */
            u64 srel;
            if (need <= sure_tricks(c, 0, need, &srel)) {
                STAT(ST_SURE);
                *rel = srel;
                return 1;
            }
            if (need > c->left - sure_tricks(c, 1, c->left - need + 1, &srel)) {
                STAT(ST_SURE);
                *rel = srel;
                return 0;
            }
        }
        u64 qrel;
        int q = quick_tricks(c, maxside ? need : c->left - need + 1, &qrel);
        if (maxside ? q >= need : c->left - q < need) {
            STAT(ST_QUICK);
            *rel = qrel;
            return maxside;
        }
        uint32_t hcheck, *hat = hint_at(c, seat, &hcheck);
        int first = -1;
        STAT(ST_PROBE);
        for (int i = 0; i < 2 * WAYS; i++) {
            size_t at = i < WAYS ? k.index2 + i : k.index + i - WAYS;
            u64 tg = c->tag[at];
            if (tg >> 32 != k.tag) {
                /* a bucket fills from its first way on (see store): the
                 * first entry of an older call ends this call's entries */
                if (tg >> 48 != c->gen)
                    i = i < WAYS ? WAYS - 1 : 2 * WAYS;
                continue;
            }
            /* the entry's segment sizes and a hash of its owners are in the
             * tag: most entries of the distribution are told apart here */
            u64 m = seg_mask(&k, (uint16_t)(tg >> 16));
            u64 lo = k.lo & m, hi = k.hi & m;
            if ((tg & 0xFFFF) != pattern(lo, hi))
                continue;
            const Entry *e = c->tt + at;
            if (e->lens != k.lens || e->info != k.info || e->lo != lo || e->hi != hi)
                continue;  /* m: the mask of the entry's seg, from its tag */
            if (e->lower >= need) {
                STAT(ST_HIT);
                *rel = seg_cards(&k, e->seg);
                return 1;
            }
            if (e->upper < need) {
                STAT(ST_HIT);
                *rel = seg_cards(&k, e->seg);
                return 0;
            }
            if (first < 0)
                first = best_card(e->best, k.rest);
        }
        int n = gen_moves(c, seat, moves, first);
        if (n > 1)
            put_first(moves, n, hint_card(c, seat, hat, hcheck));
        u64 all;
        int cut;
        int r = try_moves(c, moves, n, target, maxside, &all, &cut);
        if (cut >= 0)
            hint_store(c, hat, hcheck, cut);
        if (cut >= 0) {
            if (r)
                store(c, &k, need, 0, all, cut);
            else
                store(c, &k, need - 1, 1, all, cut);
            *rel = all;
            return r;
        }
        if (maxside)
            store(c, &k, need - 1, 1, all, -1);
        else
            store(c, &k, need, 0, all, -1);
        *rel = all;
        return !maxside;
    }
    /* the second hand's team is sure of the k tricks its side needs */
    int k0 = target - c->ns;
    int k = maxside ? k0 : c->left - k0 + 1;
    if (c->played == 1 && wins_second_hand(c, seat, k, rel) >= k) {
        STAT(ST_SECOND);
        return maxside;
    }
    uint32_t hcheck = 0, *hat = c->played < 3 ? hint_at(c, seat, &hcheck) : NULL;
    int n = gen_moves(c, seat, moves, -1);
    if (n > 1 && hat)
        put_first(moves, n, hint_card(c, seat, hat, hcheck));
    int cut;
    int r = try_moves(c, moves, n, target, maxside, rel, &cut);
    if (cut >= 0 && n > 1 && hat)
        hint_store(c, hat, hcheck, cut);
    return r;
}

/* Team 0's exact tricks since the root, known to be between lo and hi,
 * found with zero-window searches that start at guess and step from there. */
static int exact(Ctx *c, int lo, int hi, int guess)
{
    if (guess < lo)
        guess = lo;
    if (guess > hi)
        guess = hi;
    while (lo < hi) {
        int t = guess;
        if (t <= lo)
            t = lo + 1;
        if (t > hi)
            t = hi;
        u64 rel;
        STAT(ST_ROOT);
        if (node(c, t, &rel)) {
            lo = t;
            guess = t + 1;
        } else {
            hi = t - 1;
            guess = t - 1;
        }
    }
    return lo;
}

static long long last_nodes;

/* Where the root's searches start: team 0's share of the tricks left by
 * its share of the high cards (ace 4, king 3, queen 2, jack 1, a trump one
 * more, a Blooper 6), which only sets how many searches the root makes. */
static int first_guess(const Ctx *c)
{
    static const int points[15] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6};
    int team[2] = {0, 0};
    for (int h = 0; h < 4; h++) {
        u64 x = c->hand[h];
        while (x) {
            int b = lowest_bit(x);
            x &= x - 1;
            team[h & 1] += points[RANK(b)] + (SLOT(b) == c->trump ? 1 : 0);
        }
    }
    for (int p = 0; p < c->played; p++) {
        int b = c->tcard[p], seat = (c->leader + p) & 3;
        team[seat & 1] += points[RANK(b)] + (SLOT(b) == c->trump ? 1 : 0);
    }
    int total = team[0] + team[1];
    if (total == 0)
        return (c->left + 1) / 2;
    return c->ns + (2 * c->left * team[0] + total) / (2 * total);
}

/* -- the Python boundary -------------------------------------------------- */

/* Which cards of the seat to act are legal, as a mask (BA-31 to BA-33). */
static u64 legal_mask(const Ctx *c, int seat)
{
    u64 h = c->hand[seat];
    if (c->played == 0) {
        if (c->trump >= 0 && !c->broken && !c->board[seat] && (h & ~c->tmask))
            return h & ~c->tmask;
        return h;
    }
    int lead = c->tcard[0], led = SLOT(lead);
    u64 follow = h & slot_bits(led);
    if (!follow)
        return h;
    if (led == c->trump && RANK(lead) >= LB_BIT)
        return (u64)1 << (RANK(lead) == BB_BIT ? highest_bit(follow) : lowest_bit(follow));
    return follow;
}

/* The representative card of b's group of equal cards: the highest card of
 * the run of the seat's cards, with no card of another hand or of the trick
 * between them, that b is in (never across a Blooper). */
static int representative(const Ctx *c, int seat, int b)
{
    u64 out = all_cards(c);
    for (int p = 0; p < c->played; p++)
        out |= (u64)1 << c->tcard[p];
    u64 h = c->hand[seat];
    while (RANK(b) < LB_BIT) {
        u64 above = out & slot_bits(SLOT(b)) & ~((((u64)2) << b) - 1);
        if (!above)
            break;
        int nb = lowest_bit(above);
        if (RANK(nb) >= LB_BIT || !(h >> nb & 1))
            break;
        b = nb;
    }
    return b;
}

PyDoc_STRVAR(ba_max_tricks_doc,
"max_tricks($module, hands, trick, leader, trump, trump_played, board,\n"
"           table=None, keep=False, /)\n--\n\n"
"The Back Alley double-dummy solver: the most tricks the team of the seat to\n"
"act takes from here (the current trick included) with best play by both\n"
"teams.  hands: four card masks (see _solver.c); trick: the bit\n"
"numbers of the current trick's cards in play order; leader: its leader;\n"
"trump: the trump suit 0-3 or -1; trump_played (BA-32); board: a 4-bit\n"
"mask of the seats that claimed board; table: a Table to search with (else\n"
"the module's own); keep: keep the table's entries of earlier calls.");

PyDoc_STRVAR(ba_play_values_doc,
"play_values($module, hands, trick, leader, trump, trump_played, board,\n"
"            table=None, keep=False, /)\n--\n\n"
"Like max_tricks, for each legal play of the seat to act: a tuple of\n"
"(bit number, tricks its team takes from here with best play after it),\n"
"the plays in ascending bit order.");

static int check_hands(Ctx *c, PyObject *hands, PyObject *trick, int leader, int trump)
{
    if (!PyTuple_Check(hands) || PyTuple_GET_SIZE(hands) != 4) {
        PyErr_SetString(PyExc_TypeError, "hands must be a tuple of four ints");
        return -1;
    }
    if (!PyTuple_Check(trick) || PyTuple_GET_SIZE(trick) > 3) {
        PyErr_SetString(PyExc_ValueError, "trick must be a tuple of at most three cards");
        return -1;
    }
    if (leader < 0 || leader > 3 || trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "leader must be 0-3 and trump -1 to 3");
        return -1;
    }
    u64 valid = 0;
    for (int s = 0; s < 4; s++)
        valid |= (u64)(s == trump ? 0x7FFF : 0x1FFF) << (16 * s);
    u64 seen = 0;
    for (int i = 0; i < 4; i++) {
        unsigned long long v = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, i));
        if (v == (unsigned long long)-1 && PyErr_Occurred())
            return -1;
        if ((v & ~valid) || (v & seen)) {
            PyErr_SetString(PyExc_ValueError, "a hand holds an invalid or repeated card");
            return -1;
        }
        seen |= v;
        c->hand[i] = v;
    }
    c->played = (int)PyTuple_GET_SIZE(trick);
    for (int p = 0; p < c->played; p++) {
        long b = PyLong_AsLong(PyTuple_GET_ITEM(trick, p));
        if (b == -1 && PyErr_Occurred())
            return -1;
        if (b < 0 || b > 63 || !(valid >> b & 1) || (seen >> b & 1)) {
            PyErr_SetString(PyExc_ValueError, "the trick holds an invalid or repeated card");
            return -1;
        }
        seen |= (u64)1 << b;
        c->tcard[p] = (int)b;
    }
    /* every seat yet to play this trick holds n cards, the others n - 1 */
    int n = popcount64(c->hand[(leader + c->played) & 3]);
    for (int p = 0; p < 4; p++) {
        int seat = (leader + p) & 3;
        if (popcount64(c->hand[seat]) != (p < c->played ? n - 1 : n)) {
            PyErr_SetString(PyExc_ValueError, "the hands do not fit the trick in progress");
            return -1;
        }
    }
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "no card is left to play");
        return -1;
    }
    c->left = n;
    return 0;
}

/* A table a caller owns (Table in Python): one per thread that solves at
 * once, kept from call to call; busy while a search runs on it. */
typedef struct {
    PyObject_HEAD
    Table t;
    int busy;
} TableObject;

static PyTypeObject TableType;

static PyObject *ba_solve(PyObject *args, int all_plays)
{
    PyObject *hands, *trick, *tobj = Py_None;
    int leader, trump, trump_played, board, keep = 0;
    if (!PyArg_ParseTuple(args, all_plays ? "O!O!iipi|Op:ba_play_values"
                                          : "O!O!iipi|Op:ba_max_tricks",
                          &PyTuple_Type, &hands, &PyTuple_Type, &trick, &leader, &trump,
                          &trump_played, &board, &tobj, &keep))
        return NULL;
    Ctx c;
    memset(&c, 0, sizeof c);
    if (check_hands(&c, hands, trick, leader, trump) < 0)
        return NULL;
    if (board < 0 || board > 15) {
        PyErr_SetString(PyExc_ValueError, "board must be a mask of seats, 0 to 15");
        return NULL;
    }
    TableObject *owner = NULL;
    if (tobj != Py_None) {
        if (!PyObject_TypeCheck(tobj, &TableType)) {
            PyErr_SetString(PyExc_TypeError, "table must be a Table or None");
            return NULL;
        }
        owner = (TableObject *)tobj;
        if (owner->busy) {
            PyErr_SetString(PyExc_RuntimeError, "the table is in use by another search "
                                                "(one table per thread)");
            return NULL;
        }
    }
    c.trump = trump;
    c.tmask = trump >= 0 ? slot_bits(trump) : 0;
    c.leader = leader;
    c.broken = trump_played;
    for (int i = 0; i < 4; i++)
        c.board[i] = board >> i & 1;
    /* the trick so far: who is winning it */
    for (int p = 0; p < c.played; p++)
        note_winner(&c, p, (leader + p) & 3);
    /* cards of the trick break trump for later tricks only (BA-32): the
     * search sets broken when the trick is over */
    Table t;
    if (owner != NULL) {
        /* the entries of earlier calls hold for this one when it searches
         * under the same trump suit and board claims: kept when asked */
        owner->busy = 1;
        Py_INCREF(owner);
        t = owner->t;
        if (!keep || t.trump != trump || t.board != board)
            table_new_generation(&t);
        t.trump = trump;
        t.board = board;
    } else if (table_take(&t) < 0) {
        return NULL;
    }
    c.tt = t.e;
    c.tag = t.tag;
    c.cut = t.cut;
    c.cutmask = CUT_SIZE(&t) - 1;
    c.ttmask = t.size - 1;
    c.gen = t.gen;
    int seat = (leader + c.played) & 3;
    int team0 = !(seat & 1);
    int left = c.left;
    int moves[64], values[64], nmoves = 0, result = 0;
    u64 legal = legal_mask(&c, seat);
    Py_BEGIN_ALLOW_THREADS
    if (!all_plays) {
        int v = exact(&c, 0, left, first_guess(&c));
        result = team0 ? v : left - v;
    } else {
        /* Every card's value in one pass under one table: the cards (one
         * of each run of equal cards) in the order the search tries them,
         * the likely best first; each searched with its first probe at the
         * best value found so far ("does this card do as well?"), so that
         * a card as good as the best costs two probes and one a trick
         * worse two, and each probe finds in the table what the searches
         * of the cards before it stored. */
        int order[MAXMOVES * 4], reps[64], repv[64];
        int nreps = gen_moves(&c, seat, order, -1);
        int best = -1, guess = first_guess(&c);
        for (int i = 0; i < nreps; i++) {
            int b = order[i], pos = c.played, v;
            Ctx d = c;
            d.nodes = 0;
            d.hand[seat] &= ~((u64)1 << b);
            d.tcard[pos] = b;
            note_winner(&d, pos, seat);
            int lo = 0, hi = left;
            if (pos == 3) {
                /* team 0's tricks from here: this trick's and the later ones */
                int w = d.wseat[3];
                d.broken |= trick_trumped(&d);
                d.leader = w;
                d.left = left - 1;
                d.played = 0;
                d.ns = !(w & 1);
                lo = d.ns;
                hi = d.ns + d.left;
            } else {
                d.played = pos + 1;
            }
            v = exact(&d, lo, hi, guess);
            c.nodes += d.nodes;
            reps[i] = representative(&c, seat, b);
            repv[i] = v;
            if (best < 0 || (team0 ? v > best : v < best))
                best = v;
            guess = best;
        }
        u64 rest = legal;
        while (rest) {
            int b = lowest_bit(rest), v = -1;
            rest &= rest - 1;
            int rep = representative(&c, seat, b);
            for (int i = 0; i < nreps; i++)
                if (reps[i] == rep)
                    v = repv[i];
            moves[nmoves] = b;
            values[nmoves++] = team0 ? v : left - v;
        }
    }
    Py_END_ALLOW_THREADS
    last_nodes = c.nodes;
    if (owner != NULL) {
        owner->t = t;
        owner->busy = 0;
        Py_DECREF(owner);
    } else {
        table_give_back(&t);
    }
    if (!all_plays)
        return PyLong_FromLong(result);
    PyObject *out = PyTuple_New(nmoves);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < nmoves; i++) {
        PyObject *pair = Py_BuildValue("(ii)", moves[i], values[i]);
        if (pair == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}


/* -- Table: a transposition table for one thread ------------------------- */

static int table_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kw[] = {"entries", NULL};
    Py_ssize_t entries = (Py_ssize_t)TT_SIZE;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|n:Table", kw, &entries))
        return -1;
    if (entries < WAYS || entries > ((Py_ssize_t)1 << 26) || (entries & (entries - 1))) {
        PyErr_SetString(PyExc_ValueError, "entries must be a power of two from 64 to 2**26");
        return -1;
    }
    TableObject *t = (TableObject *)self;
    if (t->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the table is in use by another search");
        return -1;
    }
    table_free(&t->t);
    return table_alloc(&t->t, (size_t)entries);
}

static void table_dealloc(PyObject *self)
{
    table_free(&((TableObject *)self)->t);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *table_entries(PyObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSize_t(((TableObject *)self)->t.size);
}

static PyObject *table_nbytes(PyObject *self, void *Py_UNUSED(closure))
{
    const Table *t = &((TableObject *)self)->t;
    return PyLong_FromSize_t(t->size * (sizeof(Entry) + sizeof(u64)) + CUT_SIZE(t) * sizeof(uint32_t));
}

static PyGetSetDef table_getset[] = {
    {"entries", table_entries, NULL, "The entries the table holds.", NULL},
    {"nbytes", table_nbytes, NULL, "The memory the table takes, in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(table_doc,
"Table(entries=1048576)\n--\n\n"
"A transposition table for the searches of one thread at a time: entries\n"
"(a power of two, 64 to 2**26) of 40 bytes each and as many hints of 4\n"
"bytes (at most 65,536, 256 kB), allocated once.  Pass it\n"
"to max_tricks or play_values; with keep true a call keeps what earlier\n"
"calls under the same trump suit and board claims stored.");

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardrules.back_alley.double_dummy._solver.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = table_doc,
    .tp_new = PyType_GenericNew,
    .tp_init = table_init,
    .tp_dealloc = table_dealloc,
    .tp_getset = table_getset,
};

static PyObject *py_ba_last_nodes(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(args))
{
    return PyLong_FromLongLong(last_nodes);
}

#ifdef SOLVER_STATS
static PyObject *py_ba_stats(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(args))
{
    PyObject *out = PyTuple_New(ST_N);
    for (int i = 0; i < ST_N; i++) {
        PyTuple_SET_ITEM(out, i, PyLong_FromLongLong(stats[i]));
        stats[i] = 0;
    }
    return out;
}
#endif

static PyObject *py_ba_max_tricks(PyObject *Py_UNUSED(module), PyObject *args)
{
    return ba_solve(args, 0);
}

static PyObject *py_ba_play_values(PyObject *Py_UNUSED(module), PyObject *args)
{
    return ba_solve(args, 1);
}

static PyMethodDef solver_methods[] = {
    {"max_tricks", py_ba_max_tricks, METH_VARARGS, ba_max_tricks_doc},
    {"play_values", py_ba_play_values, METH_VARARGS, ba_play_values_doc},
    {"last_nodes", py_ba_last_nodes, METH_NOARGS, "The nodes the last solve searched."},
#ifdef SOLVER_STATS
    {"stats", py_ba_stats, METH_NOARGS, "The search's counters since the last call, reset."},
#endif
    {NULL, NULL, 0, NULL},
};

#ifdef SOLVER_X86
#pragma GCC pop_options
#endif

static void build_pext8(void)
{
    for (int m = 0; m < 256; m++)
        for (int x = 0; x < 256; x++) {
            int out = 0, k = 0;
            for (int i = 0; i < 8; i++)
                if (m >> i & 1) {
                    out |= (x >> i & 1) << k;
                    k++;
                }
            PEXT8[m][x] = (uint8_t)out;
        }
}

static int solver_init(void)
{
    build_pext8();
#ifdef SOLVER_X86
    __builtin_cpu_init();
#ifdef HAVE_PEXT
    const char *no_pext = getenv("CARDRULES_SOLVER_NO_PEXT");
    fast_pext = pext_is_fast() && !(no_pext && *no_pext && strcmp(no_pext, "0") != 0);
#endif
    return __builtin_cpu_supports("popcnt");
#else
    return 1;
#endif
}

static void solver_free(void *Py_UNUSED(m))
{
    table_free(&spare);
}

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardrules.back_alley.double_dummy._solver",
    "The Back Alley double-dummy solver in C (see cardrules.back_alley.double_dummy).", -1,
    solver_methods, NULL, NULL, NULL, solver_free,
};

PyMODINIT_FUNC PyInit__solver(void)
{
    if (!solver_init()) {
        PyErr_SetString(PyExc_ImportError, "the C double-dummy solver needs a processor with popcnt");
        return NULL;
    }
    if (PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
