/*
 * main.c — the `rocklake` command-line tool: storage-level commands, the
 * `serve` command (the PostgreSQL wire server) and `db` (databases = lakes
 * under a store root).
 *
 * Owns: argument parsing, --help texts, exit codes and how each command
 * opens the store. The work itself lives in the library (demo.c,
 * inspect.c, check.c, catalog/, server.c), so bench/ and tests reuse it.
 *
 * Invariants:
 *  - exit 0 = success, 1 = the command failed (or `check` found problems),
 *    2 = usage error (unknown command/option, bad or missing argument);
 *  - reading commands (inspect, stats, check, checkpoint list) open the
 *    store read-only: a kv reader never fences a running RockLake server;
 *  - every error says what to do next (a hint or the --help to read).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/backup.h"
#include "catalog/catalog.h"
#include "cli/check.h"
#include "cli/demo.h"
#include "cli/inspect.h"
#include "cli/promote.h"
#include "kv/kv.h"
#include "server/lakes.h"
#include "server/server.h"
#include "keys/tags.h"
#include "cli/transfer.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* ----------------------------------------------------------------- help */

static const char *const help_main =
    "usage: rocklake [--help] COMMAND [ARGS]\n"
    "\n"
    "Storage-level tool for a RockLake store: a DuckLake catalog kept as key-value\n"
    "pairs in SlateDB.\n"
    "\n"
    "Commands:\n"
    "  create STORE      create an empty catalog (idempotent)\n"
    "  demo STORE        build a small realistic DuckLake catalog\n"
    "  inspect STORE     print every key and value, decoded\n"
    "  stats STORE       keys and bytes per tag\n"
    "  check STORE       verify the storage invariants\n"
    "  checkpoint create|list STORE\n"
    "                    make or list SlateDB checkpoints\n"
    "  serve [OPTIONS]   serve the catalogs over the PostgreSQL wire protocol\n"
    "  promote CONNINFO  make a hot standby (serve --read-only) the writer of its lakes\n"
    "  db list|create|drop ROOT [NAME]\n"
    "                    manage the databases (one catalog each) under a store root\n"
    "  backup STORE DEST copy one lake consistently while its writer serves\n"
    "  restore BACKUP STORE\n"
    "                    make a new lake from a backup and check it\n"
    "  import SOURCE STORE\n"
    "                    copy a DuckLake catalog from PostgreSQL or SQLite into a new lake\n"
    "  export STORE TARGET\n"
    "                    copy a lake's DuckLake catalog into PostgreSQL or a SQLite file\n"
    "\n"
    "STORE is a URL: a plain path, file:///abs/path, memory://name (in-process only,\n"
    "so useless across commands), or s3://bucket/prefix (credentials, region and\n"
    "endpoint from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION,\n"
    "AWS_ENDPOINT_URL, AWS_ALLOW_HTTP=true).\n"
    "\n"
    "Exit codes: 0 success; 1 failure (or check found problems); 2 usage error.\n"
    "Run `rocklake COMMAND --help` for a command's options and output.\n"
    "\n"
    "Example:\n"
    "  rocklake demo ./lake && rocklake stats ./lake && rocklake check ./lake\n";

static const char *const help_create =
    "usage: rocklake create STORE [--format 1.0|1.1]\n"
    "\n"
    "Create an empty RockLake catalog in STORE: the system keys (catalog-format-version,\n"
    "ducklake-format, created-at, retain-from) and a writer epoch. Idempotent: on a store\n"
    "that already has a catalog nothing is written.\n"
    "\n"
    "Options:\n"
    "  --format F   DuckLake catalog format of a new catalog: 1.0 (default) or 1.1\n"
    "  --help       show this help\n"
    "\n"
    "Prints \"created\" or \"catalog exists\" with the catalog's DuckLake format.\n"
    "Opens the store as its writer, which fences a running RockLake server of it.\n"
    "\n"
    "Exit codes: 0 created or already there; 1 error (including an existing catalog\n"
    "of another --format, or one written by a newer RockLake); 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake create file:///var/lib/rocklake/data/lake --format 1.1\n";

static const char *const help_demo =
    "usage: rocklake demo STORE [--tables N] [--columns-per-table C] [--files N]\n"
    "                           [--history V] [--files-per-commit K] [--format 1.0|1.1]\n"
    "                           [--no-stats] [--no-extras]\n"
    "\n"
    "Build a small but realistic DuckLake catalog the way DuckLake writes one, one\n"
    "transaction per snapshot: snapshot 0 with ducklake_metadata and schema 'main';\n"
    "one commit per CREATE TABLE (table, columns, schema version, stats); commits of\n"
    "data files with per-column statistics, spread round-robin over the tables; V\n"
    "renames per table (each closes a version and opens the next); then one commit\n"
    "with a tag, a column tag, a view, a macro, partitioning, sorting, an inlined\n"
    "data table and an inlined delete table with rows, a delete file, variant stats,\n"
    "a compaction that schedules a file for deletion, and a column/name mapping. The\n"
    "result has keys under every tag 0x01-0x1C (0x1D in a 1.1 catalog), 0x80, 0x81,\n"
    "0x82, 0xFD, 0xFE and 0xFF. The store is created if needed and must not already\n"
    "have snapshots.\n"
    "\n"
    "Options:\n"
    "  --tables N             user tables (default 5)\n"
    "  --columns-per-table C  columns per table, 1-60 (default 4)\n"
    "  --files N              data files in all (default 20)\n"
    "  --history V            renames per table (default 2)\n"
    "  --files-per-commit K   data files per transaction (default 1)\n"
    "  --format F             DuckLake format when creating the catalog: 1.0 or 1.1\n"
    "  --no-stats             skip file and table column statistics\n"
    "  --no-extras            skip the extras commit\n"
    "  --help                 show this help\n"
    "\n"
    "Prints a summary line (snapshots, tables, files); progress goes to stderr every\n"
    "1000 data files (\"demo: 3000/10000 data files\").\n"
    "\n"
    "Exit codes: 0 built; 1 error; 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake demo ./lake --tables 50 --columns-per-table 10 --files 10000 \\\n"
    "      --files-per-commit 100\n";

static const char *const help_inspect =
    "usage: rocklake inspect STORE [--tag T] [--prefix HEX] [--limit N] [--raw]\n"
    "\n"
    "Print every key in key order as three lines: the key in spaced hex, the decoded\n"
    "key fields, and the decoded value:\n"
    "\n"
    "  05 00 00 00 00 00 00 00 2a 00 00 00 00 00 00 00 c8\n"
    "    key   ducklake_table table_id=42 begin_snapshot=200\n"
    "    value table_uuid=... end_snapshot=NULL schema_id=0 table_name='orders' ...\n"
    "\n"
    "Catalog rows show their non-key columns as column=value (strings and times\n"
    "quoted, NULL as NULL) in the catalog's DuckLake format; counters and system\n"
    "keys show a number or text; live index entries \"(live)\"; pk index entries\n"
    "\"-> \" and the key they point to; dynamic table definitions schema.name and\n"
    "their columns; dynamic rows their table and columns; audit entries their\n"
    "fields. A value that does not decode prints \"(undecodable: reason)\" and the\n"
    "listing goes on. The store is opened read-only.\n"
    "\n"
    "Options:\n"
    "  --tag T        only keys of tag T: hex (0x05, 05, fe) or a name\n"
    "                 (ducklake_table, rocklake_index, rocklake_counter, ...)\n"
    "  --prefix HEX   only keys starting with these bytes (\"05 00 00\"; spaces allowed)\n"
    "  --limit N      stop after N keys (default: no limit)\n"
    "  --raw          also print the value bytes in hex (\"raw\" line)\n"
    "  --help         show this help\n"
    "\n"
    "Exit codes: 0 listed (even with undecodable values); 1 store error; 2 usage.\n"
    "\n"
    "Example:\n"
    "  rocklake inspect ./lake --tag ducklake_column --limit 20\n";

static const char *const help_stats =
    "usage: rocklake stats STORE [--json]\n"
    "\n"
    "Count keys per tag and print an aligned table: tag, table, keys, key bytes,\n"
    "value bytes, total bytes and share of the total, then a total line. Only tags\n"
    "with keys are listed. The store is opened read-only.\n"
    "\n"
    "Options:\n"
    "  --json   one JSON object instead: {\"store\", \"tags\": [{\"tag\", \"name\", \"keys\",\n"
    "           \"key_bytes\", \"value_bytes\", \"total_bytes\"}...], \"total\": {...}}\n"
    "  --help   show this help\n"
    "\n"
    "Exit codes: 0 printed; 1 store error; 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake stats s3://bucket/lake --json\n";

static const char *const help_check =
    "usage: rocklake check STORE\n"
    "\n"
    "Verify the storage invariants in one pass (the store is opened read-only):\n"
    "  - every key has a known tag and decodes; every value decodes for its table in\n"
    "    the catalog's DuckLake format; NOT NULL columns are set\n"
    "  - at most one open version (end_snapshot NULL) per versioned entity\n"
    "  - live index entries point at open rows and every open row has one; pk index\n"
    "    entries point at rows with that id and every such row has one\n"
    "  - parents exist: ducklake_table.schema_id, table_id of ducklake_column /\n"
    "    data_file / delete_file, data_file_id of delete_file / file_column_stats\n"
    "  - counters are above every id in use (next-snapshot-id, next-catalog-id,\n"
    "    next-file-id, next-row-seq:*, next-commit-seq, next-dynamic-table-id)\n"
    "  - system keys: catalog-format-version known, ducklake-format known,\n"
    "    writer-epoch present, no copy-incomplete marker (an import, backup or\n"
    "    restore that did not finish: delete the lake and run it again)\n"
    "  - dynamic rows belong to a defined dynamic table; definitions and their\n"
    "    name index entries agree\n"
    "  - a local store's journal holds no records SlateDB lacks (a writer killed\n"
    "    before they were flushed: open the lake once with `rocklake serve`, which\n"
    "    replays them); with a live writer that is normal and only noted\n"
    "\n"
    "Prints \"ok: N keys checked\", or one line per problem\n"
    "  problem: [0x07 ducklake_data_file] key 07 00 ...: table_id=9 has no ducklake_table row\n"
    "(at most 100, then a count) and a summary line.\n"
    "\n"
    "Options:\n"
    "  --help   show this help\n"
    "\n"
    "Exit codes: 0 no problems; 1 problems found or store error; 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake check ./lake\n";

static const char *const help_checkpoint =
    "usage: rocklake checkpoint create STORE [--lifetime SECONDS]\n"
    "       rocklake checkpoint list STORE\n"
    "\n"
    "create: make a durable SlateDB checkpoint of the store's current state and print\n"
    "        its id, manifest id, creation and expiry time. Opens the store as its\n"
    "        writer, which fences a running RockLake server of it.\n"
    "list:   print the store's checkpoints, one per line: id, manifest id, created,\n"
    "        expires (\"never\" without a lifetime). Reads without opening a writer.\n"
    "\n"
    "Options:\n"
    "  --lifetime SECONDS   create: the checkpoint expires after this long\n"
    "                       (default: never)\n"
    "  --help               show this help\n"
    "\n"
    "Exit codes: 0 done; 1 error; 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake checkpoint create ./lake --lifetime 3600 && rocklake checkpoint list ./lake\n";

/* ------------------------------------------------------------- arguments */

/* One option a command accepts. Each command has one table of them: it is
 * what getopt_long parses (--name VALUE, --name=VALUE, options before,
 * between or after the positional arguments, "--" ending them; only the
 * whole name: getopt_long would take `--port 5434` as an abbreviation of
 * --port-file, so cli_parse refuses abbreviations, as the config file and
 * the environment do), what `serve` reads from the environment and its config file, and
 * what the command's --help is checked against before it is printed: an
 * option of the table that the help text does not describe is an internal
 * error (exit 1), so `COMMAND --help` exiting 0 means it lists them all. */
typedef struct cli_opt {
    const char *name; /* without the dashes; serve: also the config-file key */
    bool has_arg;
    const char *env; /* serve: the environment variable; else NULL */
} cli_opt;

#define CLI_MAX_OPTS 40
#define CLI_MAX_POS 4

/* A command's command line, parsed: option values by table index (NULL =
 * not given; "" for a flag that was given) and the positional arguments. */
typedef struct cli_args {
    const char *val[CLI_MAX_OPTS];
    const char *pos[CLI_MAX_POS];
    int npos;
} cli_args;

/* How one command (or subcommand) parses: its name in messages ("db" for
 * `rocklake db create`), its --help text, its option table, how many
 * positional arguments it takes at most and the note of the message for
 * one too many. */
typedef struct cli_cmd {
    const char *name;
    const char *help;
    const cli_opt *opts;
    size_t nopts;
    int max_pos;
    const char *extra_note; /* " (only one STORE)"; "" for none */
} cli_cmd;

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
    fprintf(stderr, "rocklake %s: ", cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nRun `rocklake %s --help` for usage.\n", cmd);
    return EXIT_USAGE;
}

/* Does `help` mention "--name" (not as the prefix of a longer option)? */
static bool help_mentions(const char *help, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(help, "--"); p; p = strstr(p + 2, "--")) {
        char next = p[2 + n];
        if (strncmp(p + 2, name, n) == 0 && !(next == '-' || (next >= 'a' && next <= 'z')))
            return true;
    }
    return false;
}

/* --help: the text, once it is checked against the option table. */
static int print_help(const cli_cmd *c)
{
    for (size_t i = 0; i < c->nopts; i++)
        if (!help_mentions(c->help, c->opts[i].name)) {
            fprintf(stderr, "rocklake %s: internal error: --help does not describe --%s\n",
                    c->name, c->opts[i].name);
            return EXIT_FAIL;
        }
    fputs(c->help, stdout);
    return EXIT_OK;
}

static int add_positional(const cli_cmd *c, cli_args *a, const char *arg)
{
    if (a->npos >= c->max_pos) {
        fprintf(stderr, "rocklake %s: unexpected argument '%s'%s\n"
                        "Run `rocklake %s --help` for usage.\n",
                c->name, arg, c->extra_note, c->name);
        return EXIT_USAGE;
    }
    a->pos[a->npos++] = arg;
    return -1;
}

/* An option getopt_long did not take: unknown, ambiguous or with a value it
 * does not take. */
static int bad_option(const cli_cmd *c, const char *arg, int opt)
{
    if (opt >= 256 || (opt == 'h' && strncmp(arg, "--", 2) == 0))
        return usage_error(c->name, "option '%s' takes no value", arg);
    if (opt > 0 || strncmp(arg, "--", 2) != 0) {
        char shortopt[3] = {'-', (char)opt, '\0'};
        return usage_error(c->name, "unknown option '%s'", opt > 0 ? shortopt : arg);
    }
    size_t len = strcspn(arg + 2, "=");
    int matches = 0;
    for (size_t i = 0; i < c->nopts; i++)
        matches += strncmp(c->opts[i].name, arg + 2, len) == 0;
    matches += strncmp("help", arg + 2, len) == 0;
    return usage_error(c->name, matches > 1 ? "ambiguous option '%s' (abbreviates several)"
                                            : "unknown option '%s'", arg);
}

/* getopt_long took `token` (its argv word) as option `name`: was the whole
 * name spelled? Else the usage error, naming the option meant. */
static int check_whole_name(const cli_cmd *c, const char *token, const char *name)
{
    size_t len = strcspn(token + 2, "=");
    if (strlen(name) == len && strncmp(token + 2, name, len) == 0)
        return -1;
    fprintf(stderr, "rocklake %s: unknown option '%.*s' (options are spelled in full: did you "
                    "mean --%s?)\nRun `rocklake %s --help` for usage.\n",
            c->name, (int)len + 2, token, name, c->name);
    return EXIT_USAGE;
}

/* Parse argv (the arguments after the command, or after the subcommand)
 * with getopt_long. Returns -1 when parsed, else the exit code to return
 * (0 after --help). */
static int cli_parse(const cli_cmd *c, int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    struct option lo[CLI_MAX_OPTS + 2];
    for (size_t i = 0; i < c->nopts; i++)
        lo[i] = (struct option){c->opts[i].name, c->opts[i].has_arg ? required_argument
                                                                     : no_argument,
                                NULL, 256 + (int)i};
    lo[c->nopts] = (struct option){"help", no_argument, NULL, 'h'};
    lo[c->nopts + 1] = (struct option){NULL, 0, NULL, 0};
    /* a copy that getopt may reorder, with the command as its argv[0] */
    char **av = calloc((size_t)argc + 2, sizeof *av);
    if (!av)
        return EXIT_FAIL;
    av[0] = (char *)c->name;
    memcpy(av + 1, argv, (size_t)argc * sizeof *av);
    optind = 0; /* glibc: start over (a fresh scan) */
    opterr = 0;
    int rc = -1, ch;
    /* "-": positional arguments come back in order as 1 (POSIXLY_CORRECT or
     * not); ":": a missing value comes back as ':' */
    while (rc < 0 && (ch = getopt_long(argc + 1, av, "-:h", lo, NULL)) != -1) {
        if (ch == 'h')
            rc = print_help(c);
        else if (ch == 1)
            rc = add_positional(c, a, optarg);
        else if (ch >= 256) {
            const cli_opt *o = &c->opts[ch - 256];
            /* the option's own word: before its value when that came apart */
            bool apart = o->has_arg && optarg == av[optind - 1];
            rc = check_whole_name(c, av[optind - (apart ? 2 : 1)], o->name);
            a->val[ch - 256] = o->has_arg ? optarg : "";
        }
        else if (ch == ':')
            rc = usage_error(c->name, "option '%s' needs a value", av[optind - 1]);
        else
            rc = bad_option(c, av[optind - 1], optopt);
    }
    while (rc < 0 && optind <= argc) /* after "--" */
        rc = add_positional(c, a, av[optind++]);
    free(av);
    return rc;
}

/* The usual storage command: one STORE and options. */
static int parse_store_args(const cli_cmd *c, int argc, char **argv, cli_args *a)
{
    int rc = cli_parse(c, argc, argv, a);
    if (rc < 0 && a->npos == 0)
        return usage_error(c->name, "missing STORE argument%s", "");
    return rc;
}

/* Non-negative integer option; returns false (after the usage message) if bad. */
static bool parse_count(const char *cmd, const char *opt, const char *s, long long max,
                        long long *out)
{
    if (!s)
        return true;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0 || v > max) {
        fprintf(stderr, "rocklake %s: %s needs a whole number between 0 and %lld, not '%s'\n"
                        "Run `rocklake %s --help` for usage.\n",
                cmd, opt, max, s, cmd);
        return false;
    }
    *out = v;
    return true;
}

static bool parse_format(const char *cmd, const char *s, rl_format *out)
{
    *out = 0;
    if (!s)
        return true;
    *out = rl_format_parse(s);
    if (*out)
        return true;
    fprintf(stderr, "rocklake %s: --format must be 1.0 or 1.1, not '%s'\n", cmd, s);
    return false;
}

/* --------------------------------------------------------------- helpers */

static void print_error(const char *cmd, const char *what, const rl_error *e)
{
    fprintf(stderr, "rocklake %s: %s: %s\n", cmd, what, e->message);
    if (e->detail[0])
        fprintf(stderr, "  detail: %s\n", e->detail);
    if (e->hint[0])
        fprintf(stderr, "  hint: %s\n", e->hint);
}

typedef enum open_mode { OPEN_READ, OPEN_WRITE, OPEN_CREATE } open_mode;

/* A reading tool named a store that is not there (a mistyped name, most
 * likely): say so once, with the commands that list and create lakes,
 * rather than the open's generic error. True when it was missing. */
static bool missing_store(const char *cmd, const char *url)
{
    rl_error e;
    rl_error_clear(&e);
    if (rl_store_exists(url, &e) != 0)
        return false;
    fprintf(stderr, "rocklake %s: no store at \"%s\"\n", cmd, url);
    char *dir = rl_store_local_dir(url);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash && slash != dir) {
        *slash = '\0';
        fprintf(stderr, "  hint: `rocklake db list %s` lists the lakes there; `rocklake create "
                        "%s` makes a new one\n", dir, url);
    } else {
        fprintf(stderr, "  hint: check the store URL; `rocklake create %s` makes a new one\n",
                url);
    }
    free(dir);
    return true;
}

static rl_catalog *open_catalog(const char *cmd, const char *url, open_mode mode, rl_format fmt)
{
    if (mode == OPEN_READ && missing_store(cmd, url))
        return NULL;
    rl_catalog_options o = {0};
    o.read_only = mode == OPEN_READ;
    /* inspect, stats, check and checkpoint list change nothing: not even
     * the reader checkpoint a follower keeps in the manifest */
    o.store.reader_no_writes = mode == OPEN_READ;
    /* the reading tools show an unfinished copy (check reports it) */
    o.allow_incomplete_copy = mode == OPEN_READ;
    o.create_if_missing = mode == OPEN_CREATE;
    o.format = fmt;
    rl_error e;
    rl_error_clear(&e);
    rl_catalog *cat = rl_catalog_open(url, &o, &e);
    if (!cat) {
        char what[600];
        snprintf(what, sizeof what, "cannot open the catalog in \"%s\"%s", url,
                 mode == OPEN_READ ? " (read-only)" : "");
        print_error(cmd, what, &e);
        if (mode == OPEN_READ && !strstr(e.hint, "rocklake create"))
            fprintf(stderr, "  hint: a read-only open needs an existing catalog; create one "
                            "with `rocklake create %s`\n", url);
    }
    return cat;
}

static int close_catalog(const char *cmd, rl_catalog *cat, int rc)
{
    rl_error e;
    rl_error_clear(&e);
    if (rl_catalog_close(cat, &e) < 0) {
        print_error(cmd, "closing the store", &e);
        return rc == EXIT_OK ? EXIT_FAIL : rc;
    }
    return rc;
}

/* Does the store already hold a catalog? (rl_catalog_exists: a reader that
 * writes nothing, so a running server is not fenced.) */
static int catalog_exists(const char *cmd, const char *url)
{
    rl_error e;
    rl_error_clear(&e);
    int rc = rl_catalog_exists(url, 0, &e);
    if (rc < 0)
        fprintf(stderr, "rocklake %s: cannot read store \"%s\": %s\n", cmd, url, e.message);
    return rc;
}

/* -------------------------------------------------------------- commands */

static int cmd_create(int argc, char **argv)
{
    static const cli_opt opts[] = {{"format", true, NULL}};
    static const cli_cmd c = {"create", help_create, opts, 1, 1, " (only one STORE)"};
    cli_args p;
    int rc = parse_store_args(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    const char *store = p.pos[0];
    rl_format fmt;
    if (!parse_format("create", p.val[0], &fmt))
        return EXIT_USAGE;
    int exists = catalog_exists("create", store);
    if (exists < 0)
        return EXIT_FAIL;
    rl_catalog *cat = open_catalog("create", store, OPEN_CREATE, fmt);
    if (!cat)
        return EXIT_FAIL;
    rl_format have = rl_catalog_format(cat);
    rc = EXIT_OK;
    if (exists && fmt && fmt != have) {
        fprintf(stderr, "rocklake create: a catalog with DuckLake format %s already exists in "
                        "\"%s\"; it was not changed to %s\n",
                rl_format_name(have), store, rl_format_name(fmt));
        rc = EXIT_FAIL;
    } else {
        printf("%s: DuckLake format %s in %s\n", exists ? "catalog exists" : "created",
               rl_format_name(have), store);
    }
    return close_catalog("create", cat, rc);
}

static int cmd_demo(int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"tables", true, NULL},           {"columns-per-table", true, NULL},
        {"files", true, NULL},            {"history", true, NULL},
        {"files-per-commit", true, NULL}, {"format", true, NULL},
        {"no-stats", false, NULL},        {"no-extras", false, NULL}};
    static const cli_cmd c = {"demo", help_demo, opts, 8, 1, " (only one STORE)"};
    cli_args p;
    int rc = parse_store_args(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    rl_demo_params dp;
    rl_demo_defaults(&dp);
    long long v[5] = {dp.tables, dp.columns_per_table, dp.files, dp.history, dp.files_per_commit};
    static const long long max[5] = {100000, 60, 100000000, 1000, 1000000};
    for (int i = 0; i < 5; i++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", opts[i].name);
        if (!parse_count("demo", opt, p.val[i], max[i], &v[i]))
            return EXIT_USAGE;
    }
    dp.tables = (int)v[0];
    dp.columns_per_table = (int)v[1];
    dp.files = (int)v[2];
    dp.history = (int)v[3];
    dp.files_per_commit = (int)v[4];
    dp.column_stats = !p.val[6];
    dp.extras = !p.val[7];
    rl_format fmt;
    if (!parse_format("demo", p.val[5], &fmt))
        return EXIT_USAGE;
    rl_catalog *cat = open_catalog("demo", p.pos[0], OPEN_CREATE, fmt);
    if (!cat)
        return EXIT_FAIL;
    rl_error e;
    rl_error_clear(&e);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = EXIT_OK;
    if (rl_demo_build(cat, &dp, stderr, &e) < 0) {
        print_error("demo", "building the demo catalog", &e);
        rc = EXIT_FAIL;
    } else {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        printf("demo catalog built in %s: %" PRIu64 " snapshots, %d tables x %d columns, %d data "
               "files, history %d (%.1f s)\n",
               p.pos[0], rl_catalog_counter(cat, RL_COUNTER_NEXT_SNAPSHOT_ID), dp.tables,
               dp.columns_per_table, dp.files, dp.history, secs);
    }
    return close_catalog("demo", cat, rc);
}

static int cmd_inspect(int argc, char **argv)
{
    static const cli_opt opts[] = {
        {"tag", true, NULL}, {"prefix", true, NULL}, {"limit", true, NULL}, {"raw", false, NULL}};
    static const cli_cmd c = {"inspect", help_inspect, opts, 4, 1, " (only one STORE)"};
    cli_args p;
    int rc = parse_store_args(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    rl_inspect_opts o = {.tag = -1, .raw = p.val[3] != NULL};
    if (p.val[0] && (o.tag = rl_tag_parse(p.val[0])) < 0)
        return usage_error("inspect", "--tag '%s' is neither a hex tag (0x05) nor a table name",
                           p.val[0]);
    if (p.val[1]) {
        int n = rl_hex_parse(p.val[1], o.prefix, sizeof o.prefix);
        if (n < 0)
            return usage_error("inspect", "--prefix '%s' is not hex bytes like \"05 00 2a\"",
                               p.val[1]);
        o.plen = (size_t)n;
    }
    long long limit = 0;
    if (!parse_count("inspect", "--limit", p.val[2], INT64_MAX, &limit))
        return EXIT_USAGE;
    o.limit = (uint64_t)limit;
    rl_catalog *cat = open_catalog("inspect", p.pos[0], OPEN_READ, 0);
    if (!cat)
        return EXIT_FAIL;
    rl_error e;
    rl_error_clear(&e);
    rc = EXIT_OK;
    if (rl_inspect(cat, &o, stdout, &e) < 0) {
        print_error("inspect", "reading the store", &e);
        rc = EXIT_FAIL;
    }
    return close_catalog("inspect", cat, rc);
}

static int cmd_stats(int argc, char **argv)
{
    static const cli_opt opts[] = {{"json", false, NULL}};
    static const cli_cmd c = {"stats", help_stats, opts, 1, 1, " (only one STORE)"};
    cli_args p;
    int rc = parse_store_args(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    rl_catalog *cat = open_catalog("stats", p.pos[0], OPEN_READ, 0);
    if (!cat)
        return EXIT_FAIL;
    rl_error e;
    rl_error_clear(&e);
    rc = EXIT_OK;
    if (rl_stats(cat, p.pos[0], p.val[0] != NULL, stdout, &e) < 0) {
        print_error("stats", "reading the store", &e);
        rc = EXIT_FAIL;
    }
    return close_catalog("stats", cat, rc);
}

static int cmd_check(int argc, char **argv)
{
    static const cli_cmd c = {"check", help_check, NULL, 0, 1, " (only one STORE)"};
    cli_args p;
    int rc = parse_store_args(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    rl_error je;
    rl_error_clear(&je);
    int journal = rl_check_journal(p.pos[0], stdout, stderr, &je);
    if (journal < 0) {
        print_error("check", "reading the store", &je);
        return EXIT_FAIL;
    }
    rl_catalog *cat = open_catalog("check", p.pos[0], OPEN_READ, 0);
    if (!cat)
        return EXIT_FAIL;
    rl_error e;
    rl_error_clear(&e);
    long problems = rl_check(cat, stdout, NULL, &e);
    if (problems < 0)
        print_error("check", "reading the store", &e);
    return close_catalog("check", cat, problems == 0 && journal == 0 ? EXIT_OK : EXIT_FAIL);
}

static void print_checkpoint(const kv_checkpoint *c)
{
    char created[32] = "?", expires[32] = "never";
    time_t s = (time_t)(c->create_time_ms / 1000);
    struct tm tm;
    if (gmtime_r(&s, &tm))
        strftime(created, sizeof created, "%Y-%m-%d %H:%M:%SZ", &tm);
    s = (time_t)(c->expire_time_ms / 1000);
    if (c->expire_time_ms && gmtime_r(&s, &tm))
        strftime(expires, sizeof expires, "%Y-%m-%d %H:%M:%SZ", &tm);
    printf("%s  manifest %" PRIu64 "  created %s  expires %s\n", c->id, c->manifest_id, created,
           expires);
}

static int checkpoint_create(cli_args *p)
{
    long long lifetime = 0;
    if (!parse_count("checkpoint", "--lifetime", p->val[0], INT64_MAX / 1000, &lifetime))
        return EXIT_USAGE;
    rl_catalog *cat = open_catalog("checkpoint", p->pos[0], OPEN_WRITE, 0);
    if (!cat)
        return EXIT_FAIL;
    kv_checkpoint c;
    kv_error ke;
    int rc = EXIT_OK;
    if (kv_checkpoint_create(rl_catalog_kv(cat), (uint64_t)lifetime * 1000, &c, &ke) < 0) {
        fprintf(stderr, "rocklake checkpoint: creating a checkpoint of \"%s\": %s (%s)\n",
                p->pos[0], ke.message, kv_error_kind_name(ke.kind));
        rc = EXIT_FAIL;
    } else {
        printf("created checkpoint ");
        print_checkpoint(&c);
    }
    return close_catalog("checkpoint", cat, rc);
}

static int checkpoint_list(cli_args *p)
{
    if (p->val[0])
        return usage_error("checkpoint", "--lifetime applies to `checkpoint create`, not list%s",
                           "");
    /* open read-only first so a store from a newer RockLake is refused here too */
    rl_catalog *cat = open_catalog("checkpoint", p->pos[0], OPEN_READ, 0);
    if (!cat)
        return EXIT_FAIL;
    int rc = close_catalog("checkpoint", cat, EXIT_OK);
    if (rc != EXIT_OK)
        return rc;
    kv_checkpoint *list = NULL;
    size_t n = 0;
    kv_error ke;
    if (kv_checkpoint_list(p->pos[0], &list, &n, &ke) < 0) {
        fprintf(stderr, "rocklake checkpoint: listing checkpoints of \"%s\": %s (%s)\n",
                p->pos[0], ke.message, kv_error_kind_name(ke.kind));
        return EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++)
        print_checkpoint(&list[i]);
    printf("%zu checkpoint%s\n", n, n == 1 ? "" : "s");
    free(list);
    return EXIT_OK;
}

static int cmd_checkpoint(int argc, char **argv)
{
    /* list takes --lifetime only to say that it applies to create */
    static const cli_opt opts[] = {{"lifetime", true, NULL}};
    static const cli_cmd c = {"checkpoint", help_checkpoint, opts, 1, 1, " (only one STORE)"};
    if (argc < 1)
        return usage_error("checkpoint", "missing subcommand: create or list%s", "");
    bool create = strcmp(argv[0], "create") == 0;
    if (!create && strcmp(argv[0], "list") != 0) {
        if (argv[0][0] == '-') {
            cli_args p; /* --help, or the message of an unknown option */
            int rc = cli_parse(&c, argc, argv, &p);
            if (rc >= 0)
                return rc;
        }
        return usage_error("checkpoint", "unknown subcommand '%s' (use create or list)", argv[0]);
    }
    cli_args p;
    int rc = parse_store_args(&c, argc - 1, argv + 1, &p);
    if (rc >= 0)
        return rc;
    return create ? checkpoint_create(&p) : checkpoint_list(&p);
}

/* ----------------------------------------------------------------- serve */

static const char *const help_serve =
    "usage: rocklake serve [--store URL] [--listen ADDR:PORT] [--config FILE] [--read-only]\n"
    "                      [--standby] [--takeover] [--tls-cert FILE --tls-key FILE] [--users FILE]\n"
    "                      [--hba FILE] [--max-message-bytes N] [--statement-timeout MS]\n"
    "                      [--idle-in-transaction-timeout MS] [--metrics ADDR:PORT]\n"
    "                      [--log-format text|json] [--auto-create on|off]\n"
    "                      [--max-auto-create N]\n"
    "                      [--max-connections N] [--authentication-timeout MS]\n"
    "                      [--port-file FILE]\n"
    "                      [--log-min-duration-statement MS] [--log-min-error-statement LEVEL]\n"
    "                      [--cache-mb N] [--mirror-mb N]\n"
    "                      [--result-cache-mb N] [--journal on|off] [--busy-poll-us N] [--writer-lease-ms MS]\n"
    "                      [--journal-salvage] [--rebuild-digest] [--load-in-open]\n"
    "                      [--store-timeout-ms MS]\n"
    "                      [--sequence-commits on|off] [--heal-max-backoff-ms MS]\n"
    "                      [--follower-poll-max-ms MS]\n"
    "\n"
    "Serve RockLake catalogs over the PostgreSQL wire protocol (3.0), so DuckDB attaches\n"
    "with ATTACH 'ducklake:postgres:host=127.0.0.1 port=5433 dbname=lake user=me'.\n"
    "Each database is a lake: the StartupMessage's database NAME selects the catalog in\n"
    "STORE/NAME, opened on first use and shared by all sessions.\n"
    "\n"
    "Options (each also from the environment variable shown, or a --config line\n"
    "\"name = value\" using the option name without dashes; the command line wins over\n"
    "the environment, which wins over the config file):\n"
    "  --store URL            store root (ROCKLAKE_STORE; default ./rocklake-data): a path,\n"
    "                         file:///abs/path or s3://bucket/prefix\n"
    "  --listen ADDR:PORT     where to listen (ROCKLAKE_LISTEN; default 127.0.0.1:5433;\n"
    "                         port 0 picks a free port; [::1]:5433 for IPv6)\n"
    "  --config FILE          read options from FILE (ROCKLAKE_CONFIG)\n"
    "  --read-only            open catalogs as read-only followers; writes fail with 25006;\n"
    "                         a commit of the writer shows within about 110 ms (SlateDB's\n"
    "                         WAL follows the writer's journal within 10 ms, and the\n"
    "                         follower polls the store every 100 ms) (ROCKLAKE_READ_ONLY=1)\n"
    "  --standby              a hot standby: a --read-only follower that becomes the writer\n"
    "                         by itself once the writer it follows is gone (its lease\n"
    "                         expired, it stopped, or its process on this host died),\n"
    "                         fencing it as --takeover does; implies --read-only. Without\n"
    "                         it a follower is promoted by `rocklake promote` or SELECT\n"
    "                         pg_promote() (ROCKLAKE_STANDBY=1)\n"
    "  --follower-poll-max-ms MS\n"
    "                         followers on an object store (s3://): once a follower has\n"
    "                         seen no commit for MS, it waits longer between its requests\n"
    "                         for new commits, doubling up to MS, and a commit makes it\n"
    "                         fast again at once; the writer lease's renewals are not\n"
    "                         commits. An idle follower then makes ~5 requests a second,\n"
    "                         not ~100, and shows the first commit after a quiet spell\n"
    "                         within MS (a --standby also sees a writer that stopped\n"
    "                         within MS; kill -9 or an expired lease as before); 0 = no\n"
    "                         backoff (ROCKLAKE_FOLLOWER_POLL_MAX_MS; default 1000, at most\n"
    "                         600000)\n"
    "  --takeover             become the writer even if another server is (it is fenced:\n"
    "                         its commits then fail with 25006) (ROCKLAKE_TAKEOVER=1)\n"
    "  --writer-lease-ms MS   the writer lease: a writer records itself (host, pid, listen\n"
    "                         address, start) in each lake it opens and renews that every\n"
    "                         MS/5; another writer that finds it renewed less than MS ago\n"
    "                         refuses to open the lake without --takeover\n"
    "                         (ROCKLAKE_WRITER_LEASE_MS; default 10000)\n"
    "  --store-timeout-ms MS  object stores (s3://): the longest a commit waits for the\n"
    "                         store to take its write, and the longest one request to the\n"
    "                         store and its retries may take; past it the commit fails\n"
    "                         with 58030, and the server reopens the lake by itself\n"
    "                         once the store works again\n"
    "                         (ROCKLAKE_STORE_TIMEOUT_MS; default 30000, at least 100)\n"
    "  --heal-max-backoff-ms MS\n"
    "                         after a store fault (disk full, I/O error, object store\n"
    "                         down) the server reopens the lake by itself, first after\n"
    "                         100 ms, then waiting twice as long after each failed try,\n"
    "                         at most MS (ROCKLAKE_HEAL_MAX_BACKOFF_MS; default 5000,\n"
    "                         at least 100)\n"
    "  --sequence-commits on|off\n"
    "                         place a DuckLake commit that only appends and lost the race\n"
    "                         for its snapshot id on top of the commits that won it,\n"
    "                         instead of failing it (23505) and making the client retry;\n"
    "                         anything else keeps failing as without it (see\n"
    "                         docs/design/commit-sequencing.md) (ROCKLAKE_SEQUENCE_COMMITS;\n"
    "                         default off)\n"
    "  --tls-cert FILE        PEM certificate chain; with --tls-key enables TLS for clients\n"
    "  --tls-key FILE         that send SSLRequest (ROCKLAKE_TLS_CERT, ROCKLAKE_TLS_KEY)\n"
    "  --users FILE           users and secrets (ROCKLAKE_USERS), one per line:\n"
    "                           NAME:SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>\n"
    "                           NAME:plain:PASSWORD\n"
    "  --hba FILE             client rules (ROCKLAKE_HBA), first match wins:\n"
    "                           host|hostssl|hostnossl DATABASE USER ADDRESS METHOD [ACCESS]\n"
    "                         DATABASE/USER: all or a,b; ADDRESS: all, IP or IP/BITS;\n"
    "                         METHOD: trust, scram-sha-256, md5, password, reject;\n"
    "                         ACCESS: access=read-write (default) or access=read-only: the\n"
    "                         sessions the rule admits read everything and every write\n"
    "                         gets 42501, as for a role with pg_read_all_data alone\n"
    "                         Default: trust for loopback clients without --users;\n"
    "                         scram-sha-256 for everyone with --users.\n"
    "  --max-message-bytes N  largest frontend message accepted (ROCKLAKE_MAX_MESSAGE_BYTES;\n"
    "                         default 67108864); larger ones end the connection (08P01)\n"
    "  --statement-timeout MS cancel statements running longer (57014); the default of\n"
    "                         the sessions' SET statement_timeout\n"
    "                         (ROCKLAKE_STATEMENT_TIMEOUT; default 0 = none)\n"
    "  --idle-in-transaction-timeout MS\n"
    "                         end sessions idle inside a transaction (25P03); the default\n"
    "                         of SET idle_in_transaction_session_timeout\n"
    "                         (ROCKLAKE_IDLE_IN_TRANSACTION_TIMEOUT; default 0 = none)\n"
    "  --metrics ADDR:PORT    plain HTTP: GET /metrics (Prometheus), /health (liveness) and\n"
    "                         /ready (readiness, 503 with the reason) (ROCKLAKE_METRICS)\n"
    "  --log-format F         text (default) or json, to stderr (ROCKLAKE_LOG_FORMAT)\n"
    "  --auto-create on|off   create a database's catalog on first connect\n"
    "                         (ROCKLAKE_AUTO_CREATE; default on without --store, else off;\n"
    "                         off: unknown databases get 3D000)\n"
    "  --max-auto-create N    databases --auto-create creates during one run of the server\n"
    "                         (ROCKLAKE_MAX_AUTO_CREATE; default 64); past it a connect to\n"
    "                         an unknown database gets FATAL 53400; existing ones still open\n"
    "  --max-connections N    connections at once, counting those still starting up\n"
    "                         (ROCKLAKE_MAX_CONNECTIONS; default 500); beyond it clients\n"
    "                         get FATAL 53300 \"sorry, too many clients already\"\n"
    "  --authentication-timeout MS\n"
    "                         time a client has from connecting to finishing its startup\n"
    "                         and authentication, PostgreSQL's authentication_timeout\n"
    "                         (ROCKLAKE_AUTHENTICATION_TIMEOUT; default 60000)\n"
    "  --port-file FILE       write the listening port to FILE once listening\n"
    "                         (ROCKLAKE_PORT_FILE)\n"
    "  --log-min-duration-statement MS\n"
    "                         log each statement (its text, cut at 4096 bytes) that ran MS\n"
    "                         milliseconds or longer; 0 logs every statement with its\n"
    "                         duration (ROCKLAKE_LOG_MIN_DURATION_STATEMENT; default off)\n"
    "  --log-min-error-statement LEVEL\n"
    "                         as PostgreSQL's setting: at debug5..error a failed statement's\n"
    "                         text (cut at 4096 bytes) goes with its statement_error line,\n"
    "                         its \"statement\" field; fatal or panic leave it out\n"
    "                         (ROCKLAKE_LOG_MIN_ERROR_STATEMENT; default error)\n"
    "  --cache-mb N           block cache of each open lake, in MiB (ROCKLAKE_CACHE_MB;\n"
    "                         default 256): what followers, and writers of lakes not kept\n"
    "                         in memory (--mirror-mb), read SlateDB's tables through\n"
    "  --mirror-mb N          a writer keeps each lake's whole catalog in memory and reads\n"
    "                         it from there while that copy takes at most N MiB (about\n"
    "                         2.2 times its stored size; past N, at open or later, reads\n"
    "                         go through the block cache; ROCKLAKE_MIRROR_MB; default\n"
    "                         4096; 0 = never); followers never do\n"
    "  --result-cache-mb N    memory for kept answers of catalog-discovery queries (the\n"
    "                         pg_catalog SELECTs DuckDB sends at every ATTACH), shared by\n"
    "                         all lakes: an answer is sent again while the lake's schemas\n"
    "                         and tables are unchanged (ROCKLAKE_RESULT_CACHE_MB; default\n"
    "                         64; 0 = off; an answer over N/4 MiB is never kept)\n"
    "  --journal on|off       on a local store, acknowledge commits once they are in the\n"
    "                         lake's journal (STORE/NAME/journal/; one write + fdatasync\n"
    "                         per group of commits) while SlateDB writes its WAL in the\n"
    "                         background; off waits for SlateDB's WAL object per group\n"
    "                         (ROCKLAKE_JOURNAL; default on; needs a local filesystem, use\n"
    "                         off on NFS). Followers see a commit once SlateDB's WAL has it,\n"
    "                         about 10 ms later. An open replays an earlier journal either way\n"
    "  --journal-salvage      a lake whose journal has a damaged record (it fails its\n"
    "                         checksum but valid records follow; the open is refused\n"
    "                         otherwise) replays the commits before it, gives up the rest\n"
    "                         (the file is kept as journal-*.log.damaged) and is served\n"
    "                         read-only until restarted without this (docs/operations.md)\n"
    "  --rebuild-digest       a lake whose keys do not add up to its integrity digest (the\n"
    "                         store lost or regained keys; refused otherwise) is served with\n"
    "                         what it holds, the digest rewritten to match; only once a\n"
    "                         restore from a backup is ruled out (docs/operations.md)\n"
    "  --load-in-open         a lake opens only once its in-memory copy is loaded and its\n"
    "                         integrity digest checked (ROCKLAKE_LOAD_IN_OPEN). By default\n"
    "                         it answers at once from the store while the copy loads, and\n"
    "                         acknowledges commits once the check passed (docs/operations.md)\n"
    "  --busy-poll-us N       after answering, a session checks for its next message without\n"
    "                         sleeping for up to N microseconds (ROCKLAKE_BUSY_POLL_US;\n"
    "                         default 100; 0 = never; at most one session fewer than the CPUs\n"
    "                         spins at a time, yielding to runnable threads). Saves a CPU\n"
    "                         wake-up per round trip of DuckLake's one-query-at-a-time traffic\n"
    "  --help                 show this help\n"
    "\n"
    "A lake has one writer. A second writer server refuses to start (exit 1, naming the\n"
    "running one) unless --takeover or --read-only is given: on a local root because the\n"
    "root is locked, and on any root (another path to the same lake, another host, s3://)\n"
    "because a lake's writer lease is live; a lake first opened later is refused the same\n"
    "way, on connect. The lease of a writer that died expires MS after its last renewal\n"
    "(at once for a process of this host that no longer exists); a clean stop releases it.\n"
    "SIGTERM or SIGINT drains: stop accepting, end\n"
    "each session at its next message (open transactions roll back), flush and close the\n"
    "stores, exit 0. Logs are one line per event (connections, authentication, statement\n"
    "errors, commits with snapshot id, statement count and latency).\n"
    "\n"
    "Exit codes: 0 after a drain; 1 could not start (bad file, port in use, store\n"
    "locked, a live writer lease) or a store failed to close; 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake serve --store file:///var/lib/rocklake/data --listen 0.0.0.0:5433 \\\n"
    "      --users users.txt --tls-cert server.crt --tls-key server.key\n";

enum {
    SO_STORE, SO_LISTEN, SO_CONFIG, SO_READ_ONLY, SO_TAKEOVER, SO_TLS_CERT, SO_TLS_KEY,
    SO_USERS, SO_HBA, SO_MAX_MESSAGE, SO_STMT_TIMEOUT, SO_IDLE_TIMEOUT, SO_METRICS,
    SO_LOG_FORMAT, SO_AUTO_CREATE, SO_MAX_CONN, SO_PORT_FILE, SO_LOG_MIN_DURATION, SO_CACHE_MB,
    SO_MIRROR_MB, SO_JOURNAL, SO_POLL_US, SO_AUTH_TIMEOUT, SO_LEASE_MS, SO_JOURNAL_SALVAGE,
    SO_REBUILD_DIGEST, SO_MAX_AUTO_CREATE, SO_STORE_TIMEOUT, SO_SEQUENCE_COMMITS,
    SO_RESULT_CACHE_MB, SO_LOG_MIN_ERROR, SO_HEAL_MAX_BACKOFF, SO_STANDBY, SO_LOAD_IN_OPEN,
    SO_FOLLOWER_POLL_MAX, SO__COUNT
};

/* serve's options: --name, the environment variable and the config-file
 * key "name" (without the dashes) of each. */
_Static_assert(SO__COUNT <= CLI_MAX_OPTS, "serve has more options than CLI_MAX_OPTS");
static const cli_opt serve_opts[SO__COUNT] = {
    {"store", true, "ROCKLAKE_STORE"},
    {"listen", true, "ROCKLAKE_LISTEN"},
    {"config", true, "ROCKLAKE_CONFIG"},
    {"read-only", false, "ROCKLAKE_READ_ONLY"},
    {"takeover", false, "ROCKLAKE_TAKEOVER"},
    {"tls-cert", true, "ROCKLAKE_TLS_CERT"},
    {"tls-key", true, "ROCKLAKE_TLS_KEY"},
    {"users", true, "ROCKLAKE_USERS"},
    {"hba", true, "ROCKLAKE_HBA"},
    {"max-message-bytes", true, "ROCKLAKE_MAX_MESSAGE_BYTES"},
    {"statement-timeout", true, "ROCKLAKE_STATEMENT_TIMEOUT"},
    {"idle-in-transaction-timeout", true, "ROCKLAKE_IDLE_IN_TRANSACTION_TIMEOUT"},
    {"metrics", true, "ROCKLAKE_METRICS"},
    {"log-format", true, "ROCKLAKE_LOG_FORMAT"},
    {"auto-create", true, "ROCKLAKE_AUTO_CREATE"},
    {"max-connections", true, "ROCKLAKE_MAX_CONNECTIONS"},
    {"port-file", true, "ROCKLAKE_PORT_FILE"},
    {"log-min-duration-statement", true, "ROCKLAKE_LOG_MIN_DURATION_STATEMENT"},
    {"cache-mb", true, "ROCKLAKE_CACHE_MB"},
    {"mirror-mb", true, "ROCKLAKE_MIRROR_MB"},
    {"journal", true, "ROCKLAKE_JOURNAL"},
    {"busy-poll-us", true, "ROCKLAKE_BUSY_POLL_US"},
    {"authentication-timeout", true, "ROCKLAKE_AUTHENTICATION_TIMEOUT"},
    {"writer-lease-ms", true, "ROCKLAKE_WRITER_LEASE_MS"},
    {"journal-salvage", false, "ROCKLAKE_JOURNAL_SALVAGE"},
    {"rebuild-digest", false, "ROCKLAKE_REBUILD_DIGEST"},
    {"max-auto-create", true, "ROCKLAKE_MAX_AUTO_CREATE"},
    {"store-timeout-ms", true, "ROCKLAKE_STORE_TIMEOUT_MS"},
    {"sequence-commits", true, "ROCKLAKE_SEQUENCE_COMMITS"},
    {"result-cache-mb", true, "ROCKLAKE_RESULT_CACHE_MB"},
    {"log-min-error-statement", true, "ROCKLAKE_LOG_MIN_ERROR_STATEMENT"},
    {"heal-max-backoff-ms", true, "ROCKLAKE_HEAL_MAX_BACKOFF_MS"},
    {"standby", false, "ROCKLAKE_STANDBY"},
    {"load-in-open", false, "ROCKLAKE_LOAD_IN_OPEN"},
    {"follower-poll-max-ms", true, "ROCKLAKE_FOLLOWER_POLL_MAX_MS"},
};

/* Option values by source; later sources win. Strings point into argv, the
 * environment or `file_text` (kept for the life of the command). */
typedef struct serve_args {
    const char *val[SO__COUNT];
    char *file_text;
} serve_args;

static int serve_opt_index(const char *name, size_t len)
{
    for (int i = 0; i < SO__COUNT; i++)
        if (strlen(serve_opts[i].name) == len && strncmp(serve_opts[i].name, name, len) == 0)
            return i;
    return -1;
}

/* A flag's value from env/config: 1/true/on/yes count as set. */
static bool truthy(const char *v)
{
    return v && (strcmp(v, "") == 0 || strcmp(v, "1") == 0 || strcmp(v, "true") == 0 ||
                 strcmp(v, "on") == 0 || strcmp(v, "yes") == 0);
}

/* "name = value" lines ('#' comments) into a->val. */
static int serve_read_config(const char *path, serve_args *a)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "rocklake serve: cannot read config file \"%s\": %s\n", path,
                strerror(errno));
        return EXIT_FAIL;
    }
    size_t cap = 0;
    ssize_t n = getdelim(&a->file_text, &cap, '\0', f);
    fclose(f);
    if (n < 0)
        return EXIT_OK;
    /* line by line, blank and comment lines counted, so an error names the
     * line an editor shows */
    int lineno = 0;
    for (char *line = a->file_text, *next; line && *line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *eq = strchr(line, '=');
        char *k = line;
        while (*k == ' ' || *k == '\t' || *k == '\r')
            k++;
        if (!*k)
            continue;
        size_t klen = strcspn(k, " \t=");
        int s = eq ? serve_opt_index(k, klen) : -1;
        if (s < 0 || s == SO_CONFIG) {
            fprintf(stderr, "rocklake serve: %s:%d: expected \"option = value\" with an option "
                            "of `rocklake serve --help` (without dashes)\n", path, lineno);
            return EXIT_USAGE;
        }
        char *v = eq + 1;
        while (*v == ' ' || *v == '\t')
            v++;
        size_t vl = strlen(v);
        while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\t' || v[vl - 1] == '\r'))
            v[--vl] = '\0';
        a->val[s] = v;
    }
    return EXIT_OK;
}

static bool serve_number(const char *opt, const char *s, long long max, uint64_t *out)
{
    long long v = 0;
    if (!parse_count("serve", opt, s, max, &v))
        return false;
    if (s)
        *out = (uint64_t)v;
    return true;
}

/* An on|off option: *out = 1 or 0, left alone when the option is unset.
 * false (after a usage message) for any other value. */
static bool serve_on_off(const char *opt, const char *s, int *out)
{
    if (!s)
        return true;
    if (strcmp(s, "on") != 0 && strcmp(s, "off") != 0) {
        fprintf(stderr, "rocklake serve: %s must be on or off, not '%s'\n"
                        "Run `rocklake serve --help` for usage.\n",
                opt, s);
        return false;
    }
    *out = strcmp(s, "on") == 0;
    return true;
}

/* Fill the server config from the collected values. */
static int serve_config(const serve_args *a, rl_server_config *c)
{
    memset(c, 0, sizeof *c);
    c->store = a->val[SO_STORE];
    c->listen = a->val[SO_LISTEN];
    c->read_only = truthy(a->val[SO_READ_ONLY]);
    c->takeover = truthy(a->val[SO_TAKEOVER]);
    c->standby = truthy(a->val[SO_STANDBY]);
    c->read_only = c->read_only || c->standby;
    c->journal_salvage = truthy(a->val[SO_JOURNAL_SALVAGE]);
    c->rebuild_digest = truthy(a->val[SO_REBUILD_DIGEST]);
    c->load_in_open = truthy(a->val[SO_LOAD_IN_OPEN]);
    c->tls_cert = a->val[SO_TLS_CERT];
    c->tls_key = a->val[SO_TLS_KEY];
    c->users_file = a->val[SO_USERS];
    c->hba_file = a->val[SO_HBA];
    c->metrics_listen = a->val[SO_METRICS];
    c->port_file = a->val[SO_PORT_FILE];
    uint64_t maxmsg = 0, maxconn = 0;
    if (!serve_number("--max-message-bytes", a->val[SO_MAX_MESSAGE], 1LL << 30, &maxmsg) ||
        !serve_number("--statement-timeout", a->val[SO_STMT_TIMEOUT], INT32_MAX,
                      &c->statement_timeout_ms) ||
        !serve_number("--idle-in-transaction-timeout", a->val[SO_IDLE_TIMEOUT], INT32_MAX,
                      &c->idle_in_transaction_timeout_ms) ||
        !serve_number("--max-connections", a->val[SO_MAX_CONN], 100000, &maxconn) ||
        !serve_number("--authentication-timeout", a->val[SO_AUTH_TIMEOUT], 600000,
                      &c->authentication_timeout_ms))
        return EXIT_USAGE;
    if (a->val[SO_AUTH_TIMEOUT] && c->authentication_timeout_ms < 1)
        return usage_error("serve", "--authentication-timeout must be at least 1, not '%s'",
                           a->val[SO_AUTH_TIMEOUT]);
    uint64_t cache_mb = 0;
    if (!serve_number("--cache-mb", a->val[SO_CACHE_MB], 1 << 20, &cache_mb))
        return EXIT_USAGE;
    if (a->val[SO_CACHE_MB] && cache_mb < 1)
        return usage_error("serve", "--cache-mb must be at least 1, not '%s'",
                           a->val[SO_CACHE_MB]);
    c->cache_bytes = cache_mb << 20;
    uint64_t mirror_mb = 0;
    if (!serve_number("--mirror-mb", a->val[SO_MIRROR_MB], 1 << 24, &mirror_mb))
        return EXIT_USAGE;
    if (a->val[SO_MIRROR_MB])
        c->mirror_bytes = mirror_mb ? (int64_t)(mirror_mb << 20) : -1;
    uint64_t result_mb = 0;
    if (!serve_number("--result-cache-mb", a->val[SO_RESULT_CACHE_MB], 1 << 20, &result_mb))
        return EXIT_USAGE;
    if (a->val[SO_RESULT_CACHE_MB])
        c->result_cache_bytes = result_mb ? (int64_t)(result_mb << 20) : -1;
    /* PostgreSQL's levels; a failed statement is an ERROR, so its text is
     * logged at error and every level below */
    static const char *const levels[] = {"debug5", "debug4", "debug3", "debug2", "debug1", "info",
                                         "notice", "warning", "error", "log", "fatal", "panic"};
    const char *lmes = a->val[SO_LOG_MIN_ERROR] ? a->val[SO_LOG_MIN_ERROR] : "error";
    size_t level = 0;
    while (level < sizeof levels / sizeof levels[0] && strcasecmp(levels[level], lmes) != 0)
        level++;
    if (level == sizeof levels / sizeof levels[0])
        return usage_error("serve", "--log-min-error-statement takes debug5..debug1, info, notice, "
                                    "warning, error, log, fatal or panic, not '%s'",
                           lmes);
    c->log_error_statement = level <= 8; /* up to "error" */
    c->log_min_duration_ms = -1;
    if (a->val[SO_LOG_MIN_DURATION]) {
        uint64_t ms = 0;
        if (!serve_number("--log-min-duration-statement", a->val[SO_LOG_MIN_DURATION],
                          INT32_MAX, &ms))
            return EXIT_USAGE;
        c->log_min_duration_ms = (int64_t)ms;
    }
    if (a->val[SO_MAX_MESSAGE] && maxmsg < 1024)
        return usage_error("serve", "--max-message-bytes must be at least 1024, not '%s'",
                           a->val[SO_MAX_MESSAGE]);
    c->max_message_bytes = (size_t)maxmsg;
    c->max_connections = (int)maxconn;
    const char *lf = a->val[SO_LOG_FORMAT];
    if (lf && strcmp(lf, "text") != 0 && strcmp(lf, "json") != 0)
        return usage_error("serve", "--log-format must be text or json, not '%s'", lf);
    c->log_json = lf && strcmp(lf, "json") == 0;
    uint64_t busy_us = 0;
    if (!serve_number("--busy-poll-us", a->val[SO_POLL_US], 10000, &busy_us))
        return EXIT_USAGE;
    c->busy_poll_us = a->val[SO_POLL_US] ? (int64_t)busy_us : -1;
    int journal = -1;
    c->auto_create = -1;
    if (!serve_on_off("--journal", a->val[SO_JOURNAL], &journal) ||
        !serve_on_off("--auto-create", a->val[SO_AUTO_CREATE], &c->auto_create) ||
        !serve_number("--max-auto-create", a->val[SO_MAX_AUTO_CREATE], 1000000,
                      &c->max_auto_create))
        return EXIT_USAGE;
    if (a->val[SO_MAX_AUTO_CREATE] && c->max_auto_create < 1)
        return usage_error("serve", "--max-auto-create must be at least 1, not '%s'",
                           a->val[SO_MAX_AUTO_CREATE]);
    c->journal_off = journal == 0;
    int sequence = -1;
    if (!serve_on_off("--sequence-commits", a->val[SO_SEQUENCE_COMMITS], &sequence))
        return EXIT_USAGE;
    c->sequence_commits = sequence == 1;
    if (!serve_number("--writer-lease-ms", a->val[SO_LEASE_MS], 3600000, &c->lease_ms))
        return EXIT_USAGE;
    if (a->val[SO_LEASE_MS] && c->lease_ms < 100)
        return usage_error("serve", "--writer-lease-ms must be at least 100, not '%s'",
                           a->val[SO_LEASE_MS]);
    uint64_t store_timeout = 0;
    if (!serve_number("--store-timeout-ms", a->val[SO_STORE_TIMEOUT], 3600000, &store_timeout))
        return EXIT_USAGE;
    if (a->val[SO_STORE_TIMEOUT] && store_timeout < 100)
        return usage_error("serve", "--store-timeout-ms must be at least 100, not '%s'",
                           a->val[SO_STORE_TIMEOUT]);
    c->store_timeout_ms = (uint32_t)store_timeout;
    uint64_t heal_max = 0;
    if (!serve_number("--heal-max-backoff-ms", a->val[SO_HEAL_MAX_BACKOFF], 3600000, &heal_max))
        return EXIT_USAGE;
    if (a->val[SO_HEAL_MAX_BACKOFF] && heal_max < 100)
        return usage_error("serve", "--heal-max-backoff-ms must be at least 100, not '%s'",
                           a->val[SO_HEAL_MAX_BACKOFF]);
    c->heal_max_ms = (uint32_t)heal_max;
    uint64_t poll_max = 0;
    if (!serve_number("--follower-poll-max-ms", a->val[SO_FOLLOWER_POLL_MAX], 600000, &poll_max))
        return EXIT_USAGE;
    if (a->val[SO_FOLLOWER_POLL_MAX]) /* 0: no backoff (the kv layer's negative) */
        c->follower_poll_max_ms = poll_max ? (int64_t)poll_max : -1;
    if (c->read_only && c->takeover)
        return usage_error("serve", "--read-only (or --standby) and --takeover exclude each "
                                    "other%s", "");
    return -1;
}

static rl_server *volatile serving;

static void on_stop_signal(int sig)
{
    (void)sig;
    if (serving)
        rl_server_stop(serving);
}

static int cmd_serve(int argc, char **argv)
{
    static const cli_cmd c = {"serve", help_serve, serve_opts, SO__COUNT, 0,
                              " (serve takes only options)"};
    cli_args p;
    int rc = cli_parse(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    const char *const *cli = p.val;
    serve_args a = {{0}, NULL};
    const char *config = cli[SO_CONFIG] ? cli[SO_CONFIG] : getenv("ROCKLAKE_CONFIG");
    if (config && (rc = serve_read_config(config, &a)) != EXIT_OK) {
        free(a.file_text);
        return rc;
    }
    for (int i = 0; i < SO__COUNT; i++) {
        const char *env = getenv(serve_opts[i].env);
        if (env && *env)
            a.val[i] = env;
        if (cli[i])
            a.val[i] = cli[i];
    }
    rl_server_config cfg;
    rc = serve_config(&a, &cfg);
    if (rc >= 0) {
        free(a.file_text);
        return rc;
    }
    rl_error e;
    rl_error_clear(&e);
    rl_server *srv = rl_server_new(&cfg, &e);
    free(a.file_text); /* the server copied what it keeps */
    if (!srv) {
        print_error("serve", "cannot start", &e);
        return EXIT_FAIL;
    }
    serving = srv;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    rl_server_run(srv);
    serving = NULL;
    rc = rl_server_free(srv) == 0 ? EXIT_OK : EXIT_FAIL;
    fprintf(stderr, "rocklake serve: stopped\n");
    return rc;
}

/* -------------------------------------------------------------------- db */

static const char *const help_db =
    "usage: rocklake db list ROOT\n"
    "       rocklake db create ROOT NAME [--format 1.0|1.1]\n"
    "       rocklake db drop ROOT NAME\n"
    "\n"
    "A RockLake server serves every database under a store root: database NAME is the\n"
    "catalog in ROOT/NAME (clients pick it with dbname=NAME).\n"
    "\n"
    "list:   print the database names under a local ROOT (a path or file://), one per line\n"
    "        (none: a note on stderr; a ROOT that is no directory is an error)\n"
    "create: create an empty catalog for NAME (idempotent); opens it as its writer, so it\n"
    "        is refused while a running server holds that database's writer lease\n"
    "drop:   delete NAME and everything in it (local ROOT only; stop the server first)\n"
    "\n"
    "NAME: letters, digits, '_', '-' and '.', at most 63 characters, not starting with\n"
    "'.' or '-'.\n"
    "\n"    "Options:\n"
    "  --format F   create: DuckLake catalog format of the new catalog: 1.0 (default) or\n"
    "               1.1\n"
    "  --help       show this help\n"
    "\n"
    "Exit codes: 0 done; 1 error (including a missing ROOT for list and an unknown\n"
    "database for drop); 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake db create ./rocklake-data lakecat && rocklake db list ./rocklake-data\n";

static void print_db_name(const char *name, void *ctx)
{
    (void)ctx;
    printf("%s\n", name);
}

/* `db list ROOT`: the names on stdout; a ROOT that is not a directory (a
 * mistyped path, most likely) is an error, and an empty one says so on
 * stderr, so that neither looks like a listing of nothing. */
static int list_databases(const char *root)
{
    char *dir = rl_store_local_dir(root); /* NULL for s3://: rl_db_list says why */
    struct stat st;
    const char *why = !dir                      ? NULL
                      : stat(dir, &st) != 0     ? strerror(errno)
                      : !S_ISDIR(st.st_mode)    ? "not a directory"
                                                : NULL;
    if (why)
        fprintf(stderr,
                "rocklake db: no store root at \"%s\" (%s): check the path, or create a "
                "database there with `rocklake db create %s NAME`\n",
                dir, why, root);
    free(dir);
    if (why)
        return EXIT_FAIL;
    rl_error e;
    rl_error_clear(&e);
    int n = rl_db_list(root, print_db_name, NULL, &e);
    if (n < 0) {
        print_error("db", "listing databases", &e);
        return EXIT_FAIL;
    }
    if (n == 0)
        fprintf(stderr, "rocklake db: no databases under \"%s\"; create one with `rocklake db "
                        "create %s NAME`\n", root, root);
    return EXIT_OK;
}

static int cmd_db(int argc, char **argv)
{
    static const cli_opt create_opts[] = {{"format", true, NULL}};
    static const cli_cmd list_cmd = {"db", help_db, NULL, 0, 1, ""};
    static const cli_cmd create_cmd = {"db", help_db, create_opts, 1, 2, ""};
    static const cli_cmd drop_cmd = {"db", help_db, NULL, 0, 2, ""};
    if (argc < 1)
        return usage_error("db", "missing subcommand: list, create or drop%s", "");
    const char *sub = argv[0];
    bool list = strcmp(sub, "list") == 0, create = strcmp(sub, "create") == 0;
    if (!list && !create && strcmp(sub, "drop") != 0) {
        if (sub[0] == '-') {
            cli_args p; /* --help, or the message of an unknown option */
            int rc = cli_parse(&create_cmd, argc, argv, &p);
            if (rc >= 0)
                return rc;
        }
        return usage_error("db", "unknown subcommand '%s' (use list, create or drop)", sub);
    }
    cli_args p;
    int rc = cli_parse(list ? &list_cmd : create ? &create_cmd : &drop_cmd, argc - 1, argv + 1, &p);
    if (rc >= 0)
        return rc;
    const char **pos = p.pos, *format = p.val[0];
    if (p.npos != (list ? 1 : 2))
        return usage_error("db", list ? "usage: rocklake db list ROOT%s"
                                      : "usage: rocklake db create|drop ROOT NAME%s", "");
    rl_error e;
    rl_error_clear(&e);
    if (list)
        return list_databases(pos[0]);
    char url[4096];
    if (!rl_db_url(pos[0], pos[1], url, sizeof url))
        return usage_error("db", "invalid database name '%s' (letters, digits, _ - .)", pos[1]);
    if (!create) {
        if (rl_db_drop(pos[0], pos[1], &e) < 0) {
            print_error("db", "dropping the database", &e);
            return EXIT_FAIL;
        }
        printf("dropped database %s\n", pos[1]);
        return EXIT_OK;
    }
    rl_format fmt;
    if (!parse_format("db", format, &fmt))
        return EXIT_USAGE;
    rl_catalog *cat = open_catalog("db", url, OPEN_CREATE, fmt);
    if (!cat)
        return EXIT_FAIL;
    printf("database %s: DuckLake format %s in %s\n", pos[1], rl_format_name(rl_catalog_format(cat)),
           url);
    return close_catalog("db", cat, EXIT_OK);
}

/* ------------------------------------------------------- backup, restore */

static const char *const help_backup =
    "usage: rocklake backup STORE DEST [--batch-keys N]\n"
    "\n"
    "Copy the lake in STORE into a new store DEST (a path, file:// or s3://), while\n"
    "STORE's writer keeps serving. The copy is one consistent view of STORE: it holds\n"
    "every commit acknowledged to a client before the backup started (on a local\n"
    "store it waits, usually milliseconds, until SlateDB holds what the writer's\n"
    "journal acknowledged), and each commit whole or not at all. Every key and value\n"
    "is written into DEST (not SlateDB's files), so DEST is a complete lake by itself\n"
    "that references nothing of STORE; the source's writer lease is not copied.\n"
    "\n"
    "DEST must not exist (or be an empty directory). Until its last write DEST holds a\n"
    "copy-incomplete marker: an interrupted backup (Ctrl-C, a crash, a full disk) is\n"
    "refused by `rocklake restore`, by writers and by `rocklake check`. Before that\n"
    "write the keys read are checked against STORE's integrity digest and DEST is\n"
    "read back and checked against what was written. STORE is only read (no writer\n"
    "is fenced, nothing is written to it).\n"
    "\n"
    "Prints one line: keys, bytes, the latest snapshot id copied and the time taken.\n"
    "Progress (keys, MiB, keys/s) goes to stderr when it is a terminal. Ctrl-C or\n"
    "SIGTERM stops the copy cleanly, leaving DEST marked incomplete.\n"
    "\n"
    "Options:\n"
    "  --batch-keys N   keys per write to DEST (default 4096; a write also ends at\n"
    "                   4 MiB)\n"
    "  --help           show this help\n"
    "\n"
    "Exit codes: 0 backup complete; 1 error or interrupted (DEST, if written, is marked\n"
    "incomplete: delete it); 2 usage error.\n"
    "\n"
    "Examples:\n"
    "  rocklake backup /var/lib/rocklake/data/lake /backups/lake-2026-12-01\n"
    "  rocklake backup ./rocklake-data/lake s3://backups/rocklake/lake-2026-12-01\n";

static const char *const help_restore =
    "usage: rocklake restore BACKUP STORE [--batch-keys N]\n"
    "\n"
    "Make a new lake in STORE (usually ROOT/NAME, so that `rocklake serve --store ROOT`\n"
    "serves it as database NAME) from BACKUP, a store `rocklake backup` finished. The\n"
    "backup's keys and values are copied (the backup itself is not changed), checked\n"
    "against its integrity digest, read back, and then `rocklake check` runs on the\n"
    "new lake and prints its report.\n"
    "\n"
    "Refused, with nothing written: a STORE that exists (a non-empty directory or an\n"
    "existing store), a BACKUP that did not finish (it holds the copy-incomplete\n"
    "marker) and a store that is not a backup. Until its last write STORE holds the\n"
    "copy-incomplete marker, so an interrupted restore is never served: writers\n"
    "refuse to open it; delete it and restore again.\n"
    "\n"
    "Progress (keys, MiB, keys/s) goes to stderr when it is a terminal. Ctrl-C or\n"
    "SIGTERM stops the copy cleanly.\n"
    "\n"
    "Options:\n"
    "  --batch-keys N   keys per write to STORE (default 4096; a write also ends at\n"
    "                   4 MiB)\n"
    "  --help           show this help\n"
    "\n"
    "Exit codes: 0 restored and check found no problems; 1 refused, failed,\n"
    "interrupted or check found problems; 2 usage error.\n"
    "\n"
    "Example:\n"
    "  rocklake restore /backups/lake-2026-12-01 /var/lib/rocklake/data/lake2 && \\\n"
    "      rocklake db list /var/lib/rocklake/data\n";

/* backup STORE DEST / restore BACKUP STORE [--batch-keys N] */
static int copy_command(const char *cmd, const char *help, int argc, char **argv)
{
    static const cli_opt opts[] = {{"batch-keys", true, NULL}};
    bool restore = strcmp(cmd, "restore") == 0;
    const cli_cmd c = {cmd, help, opts, 1, 2, ""};
    cli_args p;
    int rc = cli_parse(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    long long batch = 0;
    const char *v = p.val[0];
    char *end;
    errno = 0;
    if (v && ((batch = strtoll(v, &end, 10)), errno || end == v || *end || batch < 1 ||
              batch > 1000000))
        return usage_error(cmd, "--batch-keys needs a whole number between 1 and 1000000, "
                                "not '%s'", v);
    if (p.npos != 2)
        return usage_error(cmd, restore ? "needs BACKUP and STORE%s" : "needs STORE and DEST%s",
                           "");
    return rl_copy_run(restore, p.pos[0], p.pos[1], (uint64_t)batch);
}

static int cmd_backup(int argc, char **argv) { return copy_command("backup", help_backup, argc, argv); }

static int cmd_restore(int argc, char **argv)
{
    return copy_command("restore", help_restore, argc, argv);
}

/* ------------------------------------------------------- import/export */

static const char *const help_import =
    "usage: rocklake import SOURCE STORE [--schema S]\n"
    "\n"
    "Copy the DuckLake catalog of a PostgreSQL database, a SQLite file or a DuckDB\n"
    "file into a new RockLake lake. SOURCE is a libpq connection string (\"host=db1\n"
    "dbname=lake user=me\") or a postgres:// URI; sqlite:PATH for a catalog DuckDB\n"
    "keeps in a SQLite file (ATTACH 'ducklake:sqlite:PATH'); or duckdb:PATH for one\n"
    "in a DuckDB file (ATTACH 'ducklake:PATH'), read with libduckdb 1.5.5, which\n"
    "scripts/install-deps.sh installs. STORE is the new lake (ROOT/NAME,\n"
    "served as database NAME by `rocklake serve --store ROOT`) and must not hold a\n"
    "catalog yet.\n"
    "\n"
    "Every ducklake_* table of the metadata schema (or file) is copied, with the\n"
    "inlined-data tables DuckLake created, in format 1.0 or 1.1 (ducklake_metadata\n"
    "'version'), read in one transaction (PostgreSQL: REPEATABLE READ READ ONLY;\n"
    "SQLite, DuckDB: one read transaction). A file catalog's columns get the types\n"
    "DuckLake uses on PostgreSQL (BOOLEAN, UUID, TIMESTAMP WITH TIME ZONE, ...), so\n"
    "the lake is the one a PostgreSQL catalog would have given. A PostgreSQL\n"
    "source's indexes, UNIQUE / PRIMARY KEY constraints and comments on those tables\n"
    "come along (a UNIQUE index over an expression or with a predicate, or a\n"
    "gist/gin index, is left out, with a warning). The Parquet files are not copied: the lake keeps pointing at the same\n"
    "DATA_PATH. The lake is written in commits of at most 10000 rows behind a\n"
    "copy-incomplete marker, which is removed only after every table's row count\n"
    "equals the source's and `rocklake check` finds nothing. An import that stops\n"
    "before (an error, Ctrl-C, a kill) leaves the marker: serve refuses that lake\n"
    "and check reports it; delete it and run the import again.\n"
    "\n"
    "Options:\n"
    "  --schema S   the source's DuckLake metadata schema (default public; the\n"
    "               lake's is always public; PostgreSQL sources only)\n"
    "  --help       show this help\n"
    "\n"
    "Progress (tables, rows, rate, ETA) goes to stderr when it is a terminal; the\n"
    "summary line to stdout.\n"
    "\n"
    "Exit codes: 0 imported and verified; 1 error or interrupted (the lake is\n"
    "marked unfinished); 2 usage error (including a STORE that already has a catalog).\n"
    "\n"
    "Examples:\n"
    "  rocklake import 'host=db1 dbname=lakecat user=me' ./rocklake-data/lake\n"
    "  rocklake import sqlite:/srv/lake/catalog.sqlite ./rocklake-data/lake2\n"
    "  rocklake import duckdb:/srv/lake/catalog.ducklake ./rocklake-data/lake3\n"
    "  rocklake serve --store ./rocklake-data\n";

static const char *const help_export =
    "usage: rocklake export STORE TARGET [--schema S]\n"
    "\n"
    "Copy the DuckLake catalog of a RockLake lake into a PostgreSQL database, so\n"
    "DuckDB attaches it with ATTACH 'ducklake:postgres:...', into a new SQLite file,\n"
    "attached with ATTACH 'ducklake:sqlite:PATH', or into a new DuckDB file, attached\n"
    "with ATTACH 'ducklake:PATH'. TARGET is a libpq connection string or a\n"
    "postgres:// URI of an existing database, whose schema must not have ducklake_*\n"
    "tables yet; or sqlite:PATH or duckdb:PATH, a file that is created (an existing\n"
    "file must not have ducklake_* tables). duckdb: needs libduckdb 1.5.5, which\n"
    "scripts/install-deps.sh installs.\n"
    "\n"
    "The lake is read in one snapshot with a reader that fences no one (safe beside a\n"
    "running server). The target gets the tables with the column types DuckDB's\n"
    "ducklake extension creates there (on PostgreSQL the five PRIMARY KEYs and NOT\n"
    "NULLs included; on SQLite BIGINT, VARCHAR and BLOB columns; in a DuckDB file\n"
    "DuckDB's own types, an inlined table's from ducklake_column) and every row, in\n"
    "one transaction that commits only when every table's row count equals the\n"
    "lake's; a SQLite or DuckDB file the export created is removed if it fails. A\n"
    "PostgreSQL target also gets the indexes, UNIQUE / PRIMARY KEY constraints and\n"
    "comments made on the lake's tables (a file target does not: a warning says\n"
    "so). The Parquet files are not copied.\n"
    "\n"
    "Options:\n"
    "  --schema S   the target's metadata schema (default public; created if needed;\n"
    "               attach with METADATA_SCHEMA 'S' then; PostgreSQL targets only)\n"
    "  --help       show this help\n"
    "\n"
    "Progress goes to stderr when it is a terminal; the summary line to stdout.\n"
    "\n"
    "Exit codes: 0 exported and verified; 1 error or interrupted (nothing was\n"
    "committed); 2 usage error.\n"
    "\n"
    "Examples:\n"
    "  createdb lakecat && rocklake export ./rocklake-data/lake 'dbname=lakecat'\n"
    "  rocklake export ./rocklake-data/lake sqlite:/srv/lake/catalog.sqlite\n"
    "  rocklake export ./rocklake-data/lake duckdb:/srv/lake/catalog.ducklake\n";

/* SOURCE TARGET [--schema S]; -1 when parsed, else an exit code. */
static int parse_transfer(const char *cmd, const char *help, int argc, char **argv,
                          const char *pos[2], const char **schema)
{
    static const cli_opt opts[] = {{"schema", true, NULL}};
    const cli_cmd c = {cmd, help, opts, 1, 2, ""};
    cli_args p;
    int rc = cli_parse(&c, argc, argv, &p);
    if (rc >= 0)
        return rc;
    if (p.npos < 2)
        return usage_error(cmd, strcmp(cmd, "import") == 0 ? "needs SOURCE and STORE%s"
                                                           : "needs STORE and TARGET%s", "");
    pos[0] = p.pos[0];
    pos[1] = p.pos[1];
    *schema = p.val[0];
    return -1;
}

static void on_transfer_signal(int sig)
{
    (void)sig;
    rl_transfer_interrupt();
}

static void transfer_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_transfer_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* "rocklake db drop ROOT NAME" for a lake URL ROOT/NAME. */
static void drop_command(const char *url, char *out, size_t n)
{
    const char *slash = strrchr(url, '/');
    if (slash && slash > url && slash[1])
        snprintf(out, n, "rocklake db drop %.*s %s", (int)(slash - url), url, slash + 1);
    else
        snprintf(out, n, "rocklake db drop ROOT NAME");
}

static int cmd_import(int argc, char **argv)
{
    const char *pos[2], *schema;
    int rc = parse_transfer("import", help_import, argc, argv, pos, &schema);
    if (rc >= 0)
        return rc;
    int exists = catalog_exists("import", pos[1]);
    if (exists < 0)
        return EXIT_FAIL;
    char drop[4200];
    drop_command(pos[1], drop, sizeof drop);
    if (exists) {
        fprintf(stderr, "rocklake import: \"%s\" already holds a catalog; import only creates "
                        "new lakes\n"
                        "  hint: import into a new name, or delete this one first (`%s`)\n",
                pos[1], drop);
        return EXIT_USAGE;
    }
    transfer_signals();
    rl_transfer_opts o = {.schema = schema, .progress = isatty(STDERR_FILENO)};
    rl_error e;
    rl_error_clear(&e);
    rl_transfer_result r = rl_transfer_is_sqlite(pos[0])   ? rl_import_sqlite(pos[0], pos[1], &o, stdout, &e)
                           : rl_transfer_is_duckdb(pos[0]) ? rl_import_duckdb(pos[0], pos[1], &o, stdout, &e)
                                                           : rl_import_postgres(pos[0], pos[1], &o, stdout, &e);
    if (r == RL_TRANSFER_DONE)
        return EXIT_OK;
    if (r == RL_TRANSFER_INTERRUPTED)
        fprintf(stderr, "rocklake import: interrupted; \"%s\" is marked as an unfinished import "
                        "and will be refused\n", pos[1]);
    else
        print_error("import", "failed", &e);
    if (catalog_exists("import", pos[1]) == 1) { /* the lake was started: it keeps the marker */
        fprintf(stderr, "  hint: delete \"%s\" (`%s`) and run the import again\n", pos[1],
                drop);
    } else {
        /* nothing was written: leave no empty directory that `db list` would show */
        char *dir = kv_local_dir(pos[1]);
        if (dir)
            rmdir(dir);
        free(dir);
    }
    return EXIT_FAIL;
}

static int cmd_export(int argc, char **argv)
{
    const char *pos[2], *schema;
    int rc = parse_transfer("export", help_export, argc, argv, pos, &schema);
    if (rc >= 0)
        return rc;
    transfer_signals();
    rl_transfer_opts o = {.schema = schema, .progress = isatty(STDERR_FILENO)};
    rl_error e;
    rl_error_clear(&e);
    rl_transfer_result r = rl_transfer_is_sqlite(pos[1])   ? rl_export_sqlite(pos[0], pos[1], &o, stdout, &e)
                           : rl_transfer_is_duckdb(pos[1]) ? rl_export_duckdb(pos[0], pos[1], &o, stdout, &e)
                                                           : rl_export_postgres(pos[0], pos[1], &o, stdout, &e);
    if (r == RL_TRANSFER_DONE)
        return EXIT_OK;
    if (r == RL_TRANSFER_INTERRUPTED)
        fprintf(stderr, "rocklake export: interrupted; nothing was committed to the target\n");
    else
        print_error("export", "failed", &e);
    return EXIT_FAIL;
}

/* ------------------------------------------------------------------ main */

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const char *const help_promote =
    "usage: rocklake promote CONNINFO\n"
    "\n"
    "Make a hot standby the writer of its lakes: a server started with\n"
    "`rocklake serve --read-only` (or --standby) fences the writer it follows, as\n"
    "--takeover does, and from then on takes commits; its sessions keep working and\n"
    "write from their next transaction. CONNINFO is a libpq connection string or URI\n"
    "naming the standby (\"host=db2 port=5433 user=admin dbname=lake\"); PG* variables\n"
    "(PGPASSWORD, ...) fill in the rest. It runs SELECT pg_promote(), which any client\n"
    "may send: it takes a user that may write (not access=read-only).\n"
    "\n"
    "Exit codes: 0 promoted; 1 not (cannot connect, the server is a writer already,\n"
    "or a lake could not be opened as the writer); 2 usage error.\n";

static int cmd_promote(int argc, char **argv)
{
    if (argc == 1 && (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)) {
        fputs(help_promote, stdout);
        return EXIT_OK;
    }
    if (argc != 1 || argv[0][0] == '-') {
        fputs(help_promote, stderr);
        return EXIT_USAGE;
    }
    return rl_promote_run(argv[0]) == 0 ? EXIT_OK : EXIT_FAIL;
}

static const command commands[] = {
    {"create", cmd_create}, {"demo", cmd_demo},   {"inspect", cmd_inspect},
    {"stats", cmd_stats},   {"check", cmd_check}, {"checkpoint", cmd_checkpoint},
    {"serve", cmd_serve},   {"db", cmd_db},   {"backup", cmd_backup},
    {"restore", cmd_restore}, {"import", cmd_import}, {"export", cmd_export},
    {"promote", cmd_promote},
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(help_main, stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        if (argc >= 3 && strcmp(name, "help") == 0) {
            /* `rocklake help inspect` = `rocklake inspect --help` */
            char *args[] = {(char *)"--help"};
            for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
                if (strcmp(commands[i].name, argv[2]) == 0)
                    return commands[i].run(1, args);
        }
        fputs(help_main, stdout);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr,
            "rocklake: unknown %s '%s'\n"
            "Commands: create, demo, inspect, stats, check, checkpoint, serve, db, backup, "
            "restore, import, export, promote. Run `rocklake --help` for usage.\n",
            name[0] == '-' ? "option" : "command", name);
    return EXIT_USAGE;
}
