/* The plain-C floor of the solver benchmarks: the same exact work as hogengine's solver, written once more
 * as a C programmer would write it for speed (one thread, cc -O2, no intrinsics), to say how close the
 * project comes to the machine.
 *
 * It is a yardstick, not a second implementation of the product: it lives in bench/, is compiled by the
 * benchmark at run time, and its numbers are checked against the solver's (to ~1e-12) in the same run.
 * Like the solver it builds a transition table once per rule set (every state and choice, a target per
 * dice outcome) and then sweeps the states in an order where every successor comes first. A round robin
 * sweeps blocks of eight tables against eight, each outcome of a mover's row read as one cache line of
 * values against all eight opponents (see "sweeps" below).
 *
 *   floor optimal RULES                      the first mover's win chance under optimal play
 *   floor pair RULES A.json B.json           A's exact win rate against B, moving first and second
 *   floor roundrobin RULES FILE.json...      every pair's exact rates (first-mover matrix) and standings
 *   floor contest RULES SEED FILE.json...    9 games a pair with random seats (this program's own random
 *                                            numbers), ties broken by the exact rate vs always_roll(5)
 *
 * RULES: swine-align, pork-chop or pig-fest, goal 100. Results go to stdout; the time of each phase
 * (read, build, sweep, games) to stderr as `time PHASE SECONDS`.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GOAL 100
#define SIZE 100
#define MAX_DICE 10
#define MAX_OUTCOMES 64

enum { SWINE_ALIGN, PORK_CHOP, PIG_FEST };

typedef struct {
    int mover, opponent, mine, theirs, shared; /* hidden parts: pork chop spent / pig fest streak, parity */
} Position;

typedef struct {
    int count;
    int pig_out[MAX_OUTCOMES], points[MAX_OUTCOMES];
    double prob[MAX_OUTCOMES];
} Outcomes;

static int rules_id, choice_low, choice_high, layers;
static Outcomes dice_outcomes[MAX_DICE + 1][7]; /* by count and sides (4 or 6) */
static int prime_boost[400];
static const char PI[] = "314159265358979323846264338327950288419716939937510"
                         "58209749445923078164062862089986280348253421170679";

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void fail(const char *message, const char *what) {
    fprintf(stderr, "floor: %s%s\n", message, what);
    exit(2);
}

/* ---- the rules of the three rule sets (docs/RULES.md) ---- */

static int largest_digit(int score) {
    int tens = score / 10 % 10, ones = score % 10;
    return tens > ones ? tens : ones;
}

static int gcd(int a, int b) {
    while (b) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
}

static int sides_at(const Position *p) {
    if (rules_id == SWINE_ALIGN) return 6;
    int wild = (p->mover + p->opponent) % 7 == 0;
    if (rules_id == PIG_FEST) wild ^= p->shared & 1;
    return wild ? 4 : 6;
}

static int dice_count(const Position *p, int choice) {
    if (choice >= 0) return choice;
    if (rules_id == PORK_CHOP) return p->mine ? 10 : 0;
    return 0; /* Ham Hijinks */
}

static int pig_out_points(int count, int ones) {
    if (rules_id == PORK_CHOP) return ones < 11 - count ? ones : 11 - count;
    return 1;
}

static int free_bacon(int opponent) {
    if (rules_id == SWINE_ALIGN) return PI[opponent] - '0' + 3;
    return largest_digit(opponent) + 1;
}

/* One turn: the position after it (seen from the mover, before the seat changes); returns the extra-turn
 * flag. */
static int step(Position *p, int choice, int pig_out, int rolled) {
    int base = choice == 0 ? free_bacon(p->opponent) : rolled;
    if (rules_id == SWINE_ALIGN) {
        p->mover += base;
        int m = p->mover, o = p->opponent;
        int align = m > 0 && o > 0 && gcd(m, o) >= 10, pass = o - m > 0 && o - m < 3;
        return (align || pass) && m < GOAL && o < GOAL;
    }
    if (rules_id == PORK_CHOP) {
        int chop = choice == -1 && !p->mine;
        int points = chop ? 0 : prime_boost[base];
        int m = p->mover + points, o = p->opponent;
        int swap = chop || m == 2 * o || o == 2 * m;
        p->mover = swap ? o : m;
        p->opponent = swap ? m : o;
        p->mine = chop ? 1 : p->mine;
        return 0;
    }
    int ham = choice == -1, streak = p->mine;
    int times = pig_out ? 1 : (streak < 1 ? 1 : streak);
    int points = (ham ? 1 : base) * times;
    int m = p->mover + points, o = p->opponent;
    int a = m % 100, b = o % 100;
    int swap = a / 10 == b % 10 && a % 10 == b / 10;
    p->mine = pig_out ? (streak < 3 ? streak + 1 : 3) : 0;
    p->shared += ham;
    p->mover = swap ? o : m;
    p->opponent = swap ? m : o;
    return 0;
}

static int layer_of(const Position *p) {
    if (rules_id == SWINE_ALIGN) return 0;
    if (rules_id == PORK_CHOP) return p->mine + 2 * p->theirs;
    return (p->shared & 1) + 2 * (p->mine + 4 * p->theirs);
}

static Position at_layer(int mover, int opponent, int layer) {
    Position p = {mover, opponent, 0, 0, 0};
    if (rules_id == PORK_CHOP) {
        p.mine = layer & 1;
        p.theirs = layer >> 1;
    } else if (rules_id == PIG_FEST) {
        p.shared = layer & 1;
        p.mine = (layer >> 1) % 4;
        p.theirs = (layer >> 1) / 4;
    }
    return p;
}

/* Turns that keep the total (a Pork Chop) spend a flag: sweep fewer unspent flags first. */
static int sublevel(int layer) {
    return rules_id == PORK_CHOP ? 2 - (layer & 1) - (layer >> 1) : 0;
}

static void set_rules(const char *name) {
    if (!strcmp(name, "swine-align")) rules_id = SWINE_ALIGN, choice_low = 0, layers = 1;
    else if (!strcmp(name, "pork-chop")) rules_id = PORK_CHOP, choice_low = -1, layers = 4;
    else if (!strcmp(name, "pig-fest")) rules_id = PIG_FEST, choice_low = -1, layers = 32;
    else fail("unknown rules ", name);
    choice_high = 10;
    for (int n = 0; n < 400; n++) prime_boost[n] = n;
    for (int n = 2; n < 300; n++) {
        int prime = 1;
        for (int d = 2; d * d <= n; d++) prime &= n % d != 0;
        if (!prime) continue;
        for (int m = n + 1;; m++) {
            int next = 1;
            for (int d = 2; d * d <= m; d++) next &= m % d != 0;
            if (next) {
                prime_boost[n] = m;
                break;
            }
        }
    }
    /* Exact distributions: Pig Out by the number of ones, else the sum of faces 2..sides. */
    for (int sides = 4; sides <= 6; sides += 2) {
        for (int count = 0; count <= MAX_DICE; count++) {
            Outcomes *out = &dice_outcomes[count][sides];
            out->count = 0;
            if (count == 0) {
                out->pig_out[0] = 0, out->points[0] = 0, out->prob[0] = 1.0, out->count = 1;
                continue;
            }
            double sums[6 * MAX_DICE + 1] = {1.0}, next[6 * MAX_DICE + 1];
            for (int die = 0; die < count; die++) {
                memset(next, 0, sizeof next);
                for (int total = 0; total <= 6 * MAX_DICE; total++)
                    for (int face = 2; face <= sides && sums[total] != 0 && total + face <= 6 * MAX_DICE; face++)
                        next[total + face] += sums[total] / (sides - 1);
                memcpy(sums, next, sizeof sums);
            }
            double none = pow((sides - 1.0) / sides, count);
            for (int total = 0; total <= 6 * MAX_DICE; total++)
                if (sums[total] != 0) {
                    out->pig_out[out->count] = 0, out->points[out->count] = total;
                    out->prob[out->count++] = none * sums[total];
                }
            for (int ones = 1; ones <= count; ones++) {
                double choose = 1;
                for (int k = 0; k < ones; k++) choose = choose * (count - k) / (k + 1);
                double p = choose * pow(1.0 / sides, ones) * pow((sides - 1.0) / sides, count - ones);
                int points = pig_out_points(count, ones), k = 0;
                while (k < out->count && !(out->pig_out[k] && out->points[k] == points)) k++;
                if (k == out->count) out->pig_out[k] = 1, out->points[k] = points, out->prob[k] = 0, out->count++;
                out->prob[k] += p;
            }
        }
    }
}

/* ---- the transition table: per (state, choice) row, a target per outcome ----
 * States are numbered in sweep order (every successor comes earlier), so a sweep reads the rows in the
 * order they are stored. Targets: [0, S) the opponent moves next in that state; S the mover has won;
 * S + 1 the mover has lost; S + 2 + own[s] the mover moves again in state s. */

typedef struct {
    int states, width;
    int64_t span;        /* targets: S + 2, and one more per state that some turn repeats into */
    int *own;            /* per state: the target S + 2 + own[s] of moving again there, or -1 if none */
    int *rank;           /* (layer, mover, opponent) -> state number */
    int *mover, *opponent;
    int64_t *start;      /* per row: where its targets begin (row = state * width + choice - choice_low) */
    int32_t *target;
    const double **prob; /* per row: the probabilities of its outcomes */
} Model;

static int cell(int layer, int mover, int opponent) { return (layer * GOAL + mover) * GOAL + opponent; }

static int32_t target_of(const Model *m, Position p, int extra) {
    if (p.mover >= GOAL) return m->states;
    if (p.opponent >= GOAL) return m->states + 1;
    if (extra) return m->states + 2 + m->rank[cell(layer_of(&p), p.mover, p.opponent)];
    Position flipped = {p.opponent, p.mover, p.theirs, p.mine, p.shared};
    return m->rank[cell(layer_of(&flipped), flipped.mover, flipped.opponent)];
}

static int by_sweep_order(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    int tx = x % GOAL + x / GOAL % GOAL, ty = y % GOAL + y / GOAL % GOAL;
    if (tx != ty) return ty - tx;
    int lx = sublevel(x / (GOAL * GOAL)), ly = sublevel(y / (GOAL * GOAL));
    return lx != ly ? lx - ly : x - y;
}

static Model build(void) {
    Model model;
    int states = layers * GOAL * GOAL, width = choice_high - choice_low + 1;
    model.states = states, model.width = width;
    int *order = malloc(sizeof(int) * states);
    model.rank = malloc(sizeof(int) * states);
    model.mover = malloc(sizeof(int) * states);
    model.opponent = malloc(sizeof(int) * states);
    for (int s = 0; s < states; s++) order[s] = s;
    qsort(order, states, sizeof(int), by_sweep_order);
    for (int s = 0; s < states; s++) model.rank[order[s]] = s;
    int64_t rows = (int64_t)states * width, entries = 0;
    model.start = malloc(sizeof(int64_t) * (rows + 1));
    model.prob = malloc(sizeof(double *) * rows);
    for (int s = 0; s < states; s++) {
        Position p = at_layer(order[s] / GOAL % GOAL, order[s] % GOAL, order[s] / (GOAL * GOAL));
        model.mover[s] = p.mover, model.opponent[s] = p.opponent;
        for (int c = 0; c < width; c++) {
            const Outcomes *out = &dice_outcomes[dice_count(&p, c + choice_low)][sides_at(&p)];
            model.start[(int64_t)s * width + c] = entries;
            model.prob[(int64_t)s * width + c] = out->prob;
            entries += out->count;
        }
    }
    model.start[rows] = entries;
    model.target = malloc(sizeof(int32_t) * entries);
    for (int s = 0; s < states; s++) {
        Position p = at_layer(order[s] / GOAL % GOAL, order[s] % GOAL, order[s] / (GOAL * GOAL));
        for (int c = 0; c < width; c++) {
            const Outcomes *out = &dice_outcomes[dice_count(&p, c + choice_low)][sides_at(&p)];
            int32_t *target = model.target + model.start[(int64_t)s * width + c];
            for (int k = 0; k < out->count; k++) {
                Position after = p;
                int extra = step(&after, c + choice_low, out->pig_out[k], out->points[k]);
                target[k] = target_of(&model, after, extra);
            }
        }
    }
    free(order);
    /* Few states are moved again into (extra turns): number them, so a sweep keeps few own values. */
    model.own = malloc(sizeof(int) * states);
    for (int s = 0; s < states; s++) model.own[s] = -1;
    for (int64_t e = 0; e < entries; e++)
        if (model.target[e] >= states + 2) model.own[model.target[e] - states - 2] = 0;
    model.span = states + 2;
    for (int s = 0; s < states; s++)
        if (model.own[s] == 0) model.own[s] = model.span++ - states - 2;
    for (int64_t e = 0; e < entries; e++)
        if (model.target[e] >= states + 2) model.target[e] = states + 2 + model.own[model.target[e] - states - 2];
    return model;
}

/* ---- sweeps ----
 * A sweep of some movers against some opponents keeps, per side, a matrix of values [target][mover]
 * [opponent]: what reaching each target is worth to the mover against each opponent. Row t < S holds
 * 1 - the opponent's win chance moving in state t against the mover; rows S and S + 1 hold 1 and 0 (won,
 * lost); row S + 2 + own[s] the mover's own win chance moving again in state s. A mover's row of the model is
 * then, per outcome, p times a contiguous run of values (one per opponent), with no branch per outcome.
 * A round robin sweeps blocks of at most eight tables against eight: each outcome reads one 64-byte line, and
 * the sums stay in registers (blocks of 4 and 16 measured slower here). The tables are cut into nearly equal
 * groups (77 into seven of 8 and three of 7), as the solver cuts them, so that neither sweeps a table more
 * than the other: padding the last group to 8 with copies swept 80 tables' worth for 77. */

#define BLOCK 8

typedef int8_t Table[SIZE][SIZE];

/* A side's matrix, room for `cells` (mover, opponent) cells (every page touched, so that a sweep's time is
 * the sweep's); `lay` readies it for a block. */
static double *matrix(const Model *m, int cells) {
    size_t bytes = (sizeof(double) * m->span * cells + 63) / 64 * 64;
    double *values = aligned_alloc(64, bytes);
    if (!values) fail("out of memory", "");
    memset(values, 0, bytes);
    return values;
}

/* A block's matrix of `cells` cells: its won and lost rows filled in. */
static void lay(const Model *m, double *values, int cells) {
    for (int c = 0; c < cells; c++) {
        values[(int64_t)m->states * cells + c] = 1.0;
        values[(int64_t)(m->states + 1) * cells + c] = 0.0;
    }
}

/* Per table, its column (choice - choice_low) in every state, in sweep order. */
static int8_t *columns(const Model *m, const Table table) {
    int8_t *column = malloc(m->states);
    for (int s = 0; s < m->states; s++) column[s] = table[m->mover[s]][m->opponent[s]] - choice_low;
    return column;
}

/* Group g of `groups` nearly equal consecutive groups of `count` tables begins at this table. */
static int group_start(int g, int groups, int count) {
    return g * (count / groups) + (g < count % groups ? g : count % groups);
}

/* One side in state s: each mover i (choosing column[i][s]) against every opponent j reads its matrix
 * `mine` and writes 1 - its values into the partner's matrix `theirs` (row s, [j][i]) and its values
 * into its own extra-turn row. Inlined with a constant number of opponents, so the sums are unrolled. */
static inline __attribute__((always_inline)) void side(const Model *m, int s, int movers, int opponents,
                                                       int8_t *const *column, double *mine, double *theirs) {
    int64_t cells = movers * opponents;
    for (int i = 0; i < movers; i++) {
        int64_t row = (int64_t)s * m->width + column[i][s];
        const int32_t *target = m->target + m->start[row], *end = m->target + m->start[row + 1];
        const double *p = m->prob[row];
        double sum[BLOCK] = {0};
        for (; target < end; target++, p++) {
            const double *value = mine + *target * cells + i * opponents;
#pragma GCC unroll 8
            for (int j = 0; j < opponents; j++) sum[j] += *p * value[j];
        }
        for (int j = 0; j < opponents; j++) theirs[s * cells + j * movers + i] = 1.0 - sum[j];
        if (m->own[s] >= 0) {
            double *own = mine + (m->states + 2 + m->own[s]) * cells + i * opponents;
            for (int j = 0; j < opponents; j++) own[j] = sum[j];
        }
    }
}

typedef void (*Side)(const Model *, int, int, int8_t *const *, double *, double *);

#define SIDE(n)                                                                                           \
    static void side_##n(const Model *m, int s, int movers, int8_t *const *column, double *mine,        \
                         double *theirs) {                                                                \
        side(m, s, movers, n, column, mine, theirs);                                                      \
    }
SIDE(1)
SIDE(2)
SIDE(3)
SIDE(4)
SIDE(5)
SIDE(6)
SIDE(7)
SIDE(8)
static const Side SIDES[BLOCK + 1] = {NULL, side_1, side_2, side_3, side_4, side_5, side_6, side_7, side_8};

/* Movers against opponents (each side's columns and matrix, laid for this block; one side when both are
 * the same tables) over every state in sweep order. */
static void sweep(const Model *m, int movers, int opponents, int8_t *const *mover_columns,
                  int8_t *const *opponent_columns, double *mine, double *theirs) {
    Side left = SIDES[opponents], right = SIDES[movers];
    lay(m, mine, movers * opponents);
    if (mine != theirs) lay(m, theirs, movers * opponents);
    for (int s = 0; s < m->states; s++) {
        left(m, s, movers, mover_columns, mine, theirs);
        if (mine != theirs) right(m, s, opponents, opponent_columns, theirs, mine);
    }
}

/* The mover's win chance under optimal play in every state (its matrix laid as a side's, for one cell). */
static double optimal_sweep(const Model *m, double *win) {
    win[m->states] = 1.0, win[m->states + 1] = 0.0;
    for (int s = 0; s < m->states; s++) {
        double best = -1;
        for (int c = 0; c < m->width; c++) {
            int64_t row = (int64_t)s * m->width + c;
            const double *p = m->prob[row];
            double sum = 0;
            for (int64_t e = m->start[row]; e < m->start[row + 1]; e++) sum += *p++ * win[m->target[e]];
            best = sum > best ? sum : best;
        }
        win[s] = 1.0 - best;
        if (m->own[s] >= 0) win[m->states + 2 + m->own[s]] = best;
    }
    return 1.0 - win[m->rank[cell(0, 0, 0)]];
}

/* ---- live games with this program's own random numbers (splitmix64) ---- */

static uint64_t random_state;

static uint64_t next_random(void) {
    uint64_t z = (random_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int roll(int sides) { return 1 + (int)(next_random() % (uint64_t)sides); }

/* One game, seat 0 moving first: the winner (0 or 1), as the course's `winner`. */
static int play(const Table seat0, const Table seat1) {
    const Table *tables[2] = {(const Table *)seat0, (const Table *)seat1};
    int score[2] = {0, 0}, hidden[2] = {0, 0}, shared = 0, who = 0;
    while (score[0] < GOAL && score[1] < GOAL) {
        Position p = {score[who], score[1 - who], hidden[who], hidden[1 - who], shared};
        int choice = (*tables[who])[p.mover][p.opponent];
        int count = dice_count(&p, choice), sides = sides_at(&p), ones = 0, total = 0;
        for (int d = 0; d < count; d++) {
            int face = roll(sides);
            ones += face == 1;
            total += face;
        }
        int extra = step(&p, choice, ones > 0, ones ? pig_out_points(count, ones) : total);
        score[who] = p.mover, score[1 - who] = p.opponent;
        hidden[who] = p.mine, hidden[1 - who] = p.theirs, shared = p.shared;
        if (!extra) who = 1 - who;
    }
    return score[0] > score[1] ? 0 : 1;
}

/* ---- reading tables: a JSON list of 100 lists of 100 whole numbers ---- */

static void read_table(const char *path, Table table) {
    FILE *file = fopen(path, "rb");
    if (!file) fail("cannot read ", path);
    int c, row = -1, column = 0, depth = 0;
    while ((c = fgetc(file)) != EOF) {
        if (c == '[') {
            if (++depth == 2) row++, column = 0;
            if (depth > 2 || row >= SIZE) fail("not a table: ", path);
        } else if (c == ']') {
            if (depth-- == 2 && column != SIZE) fail("a ragged row in ", path);
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            ungetc(c, file);
            int value;
            if (depth != 2 || column >= SIZE || fscanf(file, "%d", &value) != 1) fail("not a table: ", path);
            if (value < choice_low || value > choice_high) fail("an illegal choice in ", path);
            table[row][column++] = (int8_t)value;
        } else if (c != ',' && c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            fail("not a table: ", path);
        }
    }
    fclose(file);
    if (row != SIZE - 1 || depth != 0) fail("not a table: ", path);
}

static Table *read_tables(int count, char **paths) {
    double begin = now();
    Table *tables = malloc(sizeof(Table) * (count > 0 ? count : 1));
    for (int n = 0; n < count; n++) read_table(paths[n], tables[n]);
    fprintf(stderr, "time read %.6f\n", now() - begin);
    return tables;
}

static Model timed_build(void) {
    double begin = now();
    Model model = build();
    fprintf(stderr, "time build %.6f\n", now() - begin);
    return model;
}

int main(int argc, char **argv) {
    if (argc < 3) fail("usage: floor optimal|pair|roundrobin|contest RULES ...", "");
    const char *mode = argv[1];
    set_rules(argv[2]);
    if (!strcmp(mode, "optimal")) {
        Model model = timed_build();
        double *win = matrix(&model, 1), begin = now();
        double first = optimal_sweep(&model, win);
        fprintf(stderr, "time sweep %.6f\n", now() - begin);
        printf("%.17g\n", first);
    } else if (!strcmp(mode, "pair") || !strcmp(mode, "roundrobin")) {
        int count = argc - 3, pair = !strcmp(mode, "pair");
        if (count < 2 || (pair && count != 2)) fail("needs two tables or more", "");
        Table *tables = read_tables(count, argv + 3);
        Model model = timed_build();
        int64_t start = model.rank[cell(0, 0, 0)];
        /* first[i][j]: i's win chance moving first against j (the diagonal is never used). */
        int width = pair ? 1 : BLOCK, groups = (count + width - 1) / width;
        double *first = malloc(sizeof(double) * count * count);
        double *ab = matrix(&model, width * width), *ba = matrix(&model, width * width), begin = now();
        int8_t **column = malloc(sizeof(int8_t *) * count);
        for (int n = 0; n < count; n++) column[n] = columns(&model, tables[n]);
        for (int x = 0; x < groups; x++)
            for (int y = x; y < groups; y++) {
                int a0 = group_start(x, groups, count), b0 = group_start(y, groups, count);
                int movers = group_start(x + 1, groups, count) - a0;
                int opponents = group_start(y + 1, groups, count) - b0, cells = movers * opponents;
                double *back = x == y ? ab : ba;
                sweep(&model, movers, opponents, column + a0, column + b0, ab, back);
                for (int i = 0; i < movers; i++)
                    for (int j = 0; j < opponents; j++) {
                        int a = a0 + i, b = b0 + j;
                        if (a == b) continue;
                        first[a * count + b] = 1.0 - back[start * cells + j * movers + i];
                        first[b * count + a] = 1.0 - ab[start * cells + i * opponents + j];
                    }
            }
        fprintf(stderr, "time sweep %.6f\n", now() - begin);
        for (int i = 0; i < count; i++)
            for (int j = 0; j < count; j++) printf("%.17g%c", i == j ? 0.5 : first[i * count + j], j + 1 < count ? ' ' : '\n');
    } else if (!strcmp(mode, "contest")) {
        if (argc < 6) fail("usage: floor contest RULES SEED FILE.json FILE.json...", "");
        random_state = strtoull(argv[3], NULL, 10);
        int count = argc - 4;
        Table *tables = read_tables(count, argv + 4);
        double begin = now();
        int *wins = calloc(count, sizeof(int));
        for (int i = 0; i < count; i++)
            for (int j = i + 1; j < count; j++) {
                int won = 0;
                for (int game = 0; game < 9; game++) {
                    int a_first = next_random() >> 63;
                    won += a_first ? play(tables[i], tables[j]) == 0 : play(tables[j], tables[i]) == 1;
                }
                wins[won > 4 ? i : j]++;
            }
        fprintf(stderr, "time games %.6f\n", now() - begin);
        Model model = timed_build();
        double *ab = matrix(&model, BLOCK), *ba = matrix(&model, BLOCK);
        begin = now();
        /* Tie-breaks: every entry against always_roll(5), a group of entries at a time. */
        Table five;
        memset(five, 5, sizeof five);
        int8_t *five_column = columns(&model, five);
        int groups = (count + BLOCK - 1) / BLOCK;
        int8_t **column = malloc(sizeof(int8_t *) * count);
        for (int n = 0; n < count; n++) column[n] = columns(&model, tables[n]);
        int64_t start = model.rank[cell(0, 0, 0)];
        for (int x = 0; x < groups; x++) {
            int a0 = group_start(x, groups, count), movers = group_start(x + 1, groups, count) - a0;
            sweep(&model, movers, 1, column + a0, &five_column, ab, ba);
            for (int i = 0; i < movers; i++) {
                double ahead = 1.0 - ba[start * movers + i], behind = 1.0 - ab[start * movers + i];
                /* entry, match points, exact rate vs always_roll(5) averaged over seats */
                printf("%d %d %.17g\n", a0 + i, wins[a0 + i], (ahead + 1.0 - behind) / 2);
            }
        }
        fprintf(stderr, "time sweep %.6f\n", now() - begin);
    } else {
        fail("unknown mode ", mode);
    }
    return 0;
}
