/*
 * test_cli.c — drives the real `rocklake` binary ($ROCKLAKE_BIN, fallback
 * build/rocklake) on file:// stores under $ROCKLAKE_TEST_TMP (fallback /tmp)
 * and asserts on its output and exit codes.
 *
 * Owns: the end-to-end contract of the CLI: help texts, usage errors (exit
 * 2), demo -> stats/inspect/check on a realistic catalog, check's detection
 * of corruption written through the library (this binary links it), and the
 * refusal of a store from a newer RockLake by every command.
 */
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "keys/keys.h"
#include "server/lakes.h"
#include "keys/tags.h"
#include "testutil.h"

/* ---------------------------------------------------------------- helpers */

static const char *bin(void)
{
    const char *b = getenv("ROCKLAKE_BIN");
    return b && *b ? b : "build/rocklake";
}

static const char *tmpdir(void)
{
    const char *t = getenv("ROCKLAKE_TEST_TMP");
    return t && *t ? t : "/tmp";
}

/* A fresh store path under the test directory. */
static char *store_path(const char *name)
{
    static char buf[8][512];
    static int next;
    char *p = buf[next++ % 8];
    snprintf(p, sizeof buf[0], "%s/cli_%s_%d", tmpdir(), name, (int)getpid());
    return p;
}

static int run_argv(char **out, char **argv);

/* Run the binary with NULL-terminated arguments; stdout and stderr both go
 * to *out (malloc'd, caller frees). Returns the exit code (-1 if killed). */
static int run(char **out, ...)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)bin();
    va_list ap;
    va_start(ap, out);
    char *a;
    while ((a = va_arg(ap, char *)) != NULL && argc < 31)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return run_argv(out, argv);
}

/* The same with argv[0] = the binary and a NULL-terminated argv. */
static int run_argv(char **out, char **argv)
{
    char path[600];
    snprintf(path, sizeof path, "%s/cli_out_%d.txt", tmpdir(), (int)getpid());
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(path, "w", stdout);
        if (!f || dup2(fileno(stdout), 2) < 0)
            _exit(126);
        execv(bin(), argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    FILE *f = fopen(path, "r");
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (f && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 4096)
            buf = realloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    if (f)
        fclose(f);
    unlink(path);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Lines of `text` that start with `prefix`. */
static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    size_t pl = strlen(prefix);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, prefix, pl) == 0)
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return n;
}

/* Build a demo store with the binary; returns its path. */
static char *demo_store(const char *name, const char *extra)
{
    char *path = store_path(name);
    char *out;
    int rc = extra ? run(&out, "demo", path, "--tables", "2", "--files", "4", "--history", "1",
                         extra, (char *)NULL)
                   : run(&out, "demo", path, "--tables", "2", "--files", "4", "--history", "1",
                         (char *)NULL);
    if (rc != 0)
        fprintf(stderr, "  demo of %s failed (%d): %s\n", path, rc, out);
    CHECK_EQ_INT(rc, 0);
    free(out);
    return path;
}

static rl_catalog *open_writer(const char *path)
{
    rl_error e;
    rl_catalog *cat = rl_catalog_open(path, NULL, &e);
    if (!cat)
        fprintf(stderr, "  open %s: %s\n", path, e.message);
    return cat;
}

/* Run `check` and expect exit 1 with `needle` in the report. */
static void expect_check_finds(const char *path, const char *needle)
{
    char *out;
    int rc = run(&out, "check", path, (char *)NULL);
    CHECK_EQ_INT(rc, 1);
    CHECK(strstr(out, needle) != NULL);
    CHECK(strstr(out, "check failed:") != NULL);
    if (!strstr(out, needle))
        fprintf(stderr, "  expected \"%s\" in:\n%s\n", needle, out);
    free(out);
}

static void row_nulls(rl_datum *row)
{
    for (int i = 0; i < RL_MAX_COLUMNS; i++)
        row[i].isnull = true;
}

static void row_set(rl_datum *row, const rl_table_desc *d, const char *col, int64_t v)
{
    int i = rl_desc_column_index(d, col, RL_FMT_1_0);
    CHECK(i >= 0);
    if (i >= 0) {
        row[i].isnull = false;
        row[i].v.i = v;
    }
}

/* ------------------------------------------------------------------ tests */

static char *g_demo; /* file:// URL of the shared default demo store */

static void test_help(void)
{
    static const struct {
        const char *cmd;
        const char *opts[16];
    } cases[] = {
        {"create", {"--format"}},
        {"demo",
         {"--tables", "--columns-per-table", "--files", "--history", "--files-per-commit",
          "--format", "--no-stats", "--no-extras"}},
        {"inspect", {"--tag", "--prefix", "--limit", "--raw"}},
        {"stats", {"--json"}},
        {"check", {"Exit codes"}},
        {"checkpoint", {"--lifetime", "create", "list"}},
        {"serve",
         {"--store", "--listen", "--read-only", "--metrics", "--statement-timeout",
          "--log-min-duration-statement", "--cache-mb", "ROCKLAKE_CACHE_MB", "--mirror-mb",
          "ROCKLAKE_MIRROR_MB", "--journal", "ROCKLAKE_JOURNAL", "--busy-poll-us",
          "ROCKLAKE_BUSY_POLL_US"}},
        {"backup", {"--batch-keys", "incomplete", "s3://"}},
        {"restore", {"--batch-keys", "incomplete", "check"}},
        {"import", {"--schema", "SOURCE", "copy-incomplete", "DATA_PATH"}},
        {"export", {"--schema", "TARGET", "PRIMARY KEY"}},
    };
    char *out;
    CHECK_EQ_INT(run(&out, "--help", (char *)NULL), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(strstr(out, cases[i].cmd) != NULL);
    free(out);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_EQ_INT(run(&out, cases[i].cmd, "--help", (char *)NULL), 0);
        CHECK(strstr(out, "usage: rocklake") != NULL);
        CHECK(strstr(out, "Exit codes") != NULL);
        CHECK(strstr(out, "Example") != NULL);
        for (int j = 0; j < 16 && cases[i].opts[j]; j++) {
            if (!strstr(out, cases[i].opts[j]))
                fprintf(stderr, "  %s --help lacks %s\n", cases[i].cmd, cases[i].opts[j]);
            CHECK(strstr(out, cases[i].opts[j]) != NULL);
        }
        free(out);
    }
}

static void test_usage_errors(void)
{
    char *out;
    CHECK_EQ_INT(run(&out, "frobnicate", (char *)NULL), 2);
    CHECK(strstr(out, "unknown command 'frobnicate'") && strstr(out, "rocklake --help"));
    free(out);
    CHECK_EQ_INT(run(&out, "inspect", "x", "--bogus", (char *)NULL), 2);
    CHECK(strstr(out, "unknown option '--bogus'") && strstr(out, "rocklake inspect --help"));
    free(out);
    CHECK_EQ_INT(run(&out, "stats", (char *)NULL), 2);
    CHECK(strstr(out, "missing STORE") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "inspect", "x", "--limit", "ten", (char *)NULL), 2);
    free(out);
    CHECK_EQ_INT(run(&out, "inspect", "x", "--tag", "no_such_table", (char *)NULL), 2);
    free(out);
    CHECK_EQ_INT(run(&out, "checkpoint", "destroy", "x", (char *)NULL), 2);
    free(out);
    CHECK_EQ_INT(run(&out, "serve", "--journal", "maybe", (char *)NULL), 2);
    CHECK(strstr(out, "--journal must be on or off") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "serve", "--busy-poll-us", "20000", (char *)NULL), 2);
    CHECK(strstr(out, "--busy-poll-us needs a whole number between 0 and 10000") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "backup", "only-one", (char *)NULL), 2);
    CHECK(strstr(out, "needs STORE and DEST") && strstr(out, "rocklake backup --help"));
    free(out);
    CHECK_EQ_INT(run(&out, "restore", "a", "b", "c", (char *)NULL), 2);
    CHECK(strstr(out, "unexpected argument 'c'") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "backup", "a", "b", "--batch-keys", "0", (char *)NULL), 2);
    CHECK(strstr(out, "--batch-keys needs a whole number") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "restore", "a", "b", "--bogus", (char *)NULL), 2);
    free(out);
    CHECK_EQ_INT(run(&out, (char *)NULL), 2);
    free(out);
}

/* Every command and subcommand main.c dispatches, with its whole option
 * table (src/cli/main.c): `--help` exits 0 (the binary checks its help against
 * the table before printing it) and names every option; every option line
 * of the help ("  --name ...") is accepted (a bogus option after it is the
 * one reported); an unknown option exits 2 naming it and the --help to
 * read. `accepts` = 0 for a subcommand whose help is shared and describes
 * options of another subcommand (db list, db drop). */
static const struct cli_case {
    const char *argv[3];
    const char *opts[32];
    int accepts;
} cli_cases[] = {
    {{"create"}, {"--format"}, 1},
    {{"demo"},
     {"--tables", "--columns-per-table", "--files", "--history", "--files-per-commit",
      "--format", "--no-stats", "--no-extras"}, 1},
    {{"inspect"}, {"--tag", "--prefix", "--limit", "--raw"}, 1},
    {{"stats"}, {"--json"}, 1},
    {{"check"}, {NULL}, 1},
    {{"checkpoint"}, {"--lifetime"}, 1},
    {{"checkpoint", "create"}, {"--lifetime"}, 1},
    {{"checkpoint", "list"}, {"--lifetime"}, 1},
    {{"serve"},
     {"--store", "--listen", "--config", "--read-only", "--takeover", "--tls-cert",
      "--tls-key", "--users", "--hba", "--max-message-bytes", "--statement-timeout",
      "--idle-in-transaction-timeout", "--metrics", "--log-format", "--auto-create",
      "--max-connections", "--port-file", "--log-min-duration-statement", "--cache-mb",
      "--mirror-mb", "--journal", "--busy-poll-us", "--authentication-timeout",
      "--writer-lease-ms", "--journal-salvage", "--rebuild-digest", "--max-auto-create",
      "--store-timeout-ms", "--sequence-commits", "--heal-max-backoff-ms",
      "--follower-poll-max-ms"}, 1},
    {{"db"}, {"--format"}, 0},
    {{"db", "list"}, {NULL}, 0},
    {{"db", "create"}, {"--format"}, 1},
    {{"db", "drop"}, {NULL}, 0},
    {{"backup"}, {"--batch-keys"}, 1},
    {{"restore"}, {"--batch-keys"}, 1},
    {{"import"}, {"--schema"}, 1},
    {{"export"}, {"--schema"}, 1},
};

/* argv: the binary, the case's words, then up to three more, NULL. */
static int run_case(char **out, const struct cli_case *c, const char *a1, const char *a2)
{
    char *argv[8];
    int n = 0;
    argv[n++] = (char *)bin();
    for (int i = 0; i < 3 && c->argv[i]; i++)
        argv[n++] = (char *)c->argv[i];
    if (a1)
        argv[n++] = (char *)a1;
    if (a2)
        argv[n++] = (char *)a2;
    argv[n] = NULL;
    return run_argv(out, argv);
}

static void test_help_lists_every_option(void)
{
    for (size_t i = 0; i < sizeof cli_cases / sizeof cli_cases[0]; i++) {
        const struct cli_case *c = &cli_cases[i];
        char *out;
        int rc = run_case(&out, c, "--help", NULL);
        CHECK_EQ_INT(rc, 0);
        CHECK(strstr(out, "usage: rocklake ") == out);
        for (int j = 0; j < 32 && c->opts[j]; j++) {
            char opt[64];
            snprintf(opt, sizeof opt, "  %s ", c->opts[j]); /* its line of Options */
            bool listed = strstr(out, opt) != NULL;
            snprintf(opt, sizeof opt, "  %s\n", c->opts[j]);
            listed = listed || strstr(out, opt) != NULL;
            if (!listed)
                fprintf(stderr, "  `%s %s --help` lacks an option line for %s\n", c->argv[0],
                        c->argv[1] ? c->argv[1] : "", c->opts[j]);
            CHECK(listed);
        }
        /* each option line of the help is an option the command accepts */
        for (const char *p = out; c->accepts && p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
            if (strncmp(p, "  --", 4) != 0 || strncmp(p, "  --help ", 9) == 0)
                continue;
            char name[64], arg[80];
            size_t len = strcspn(p + 2, " \n");
            snprintf(name, sizeof name, "%.*s", (int)len, p + 2);
            /* "  --name VALUE ..." takes a value, "  --name   text" does not */
            bool has_value = p[2 + len] == ' ' && p[3 + len] != ' ';
            snprintf(arg, sizeof arg, "%s%s", name, has_value ? "=1" : "");
            char *o2;
            CHECK_EQ_INT(run_case(&o2, c, arg, "--zzz-bogus"), 2);
            if (!strstr(o2, "unknown option '--zzz-bogus'"))
                fprintf(stderr, "  %s %s does not accept %s:\n%s", c->argv[0],
                        c->argv[1] ? c->argv[1] : "", arg, o2);
            CHECK(strstr(o2, "unknown option '--zzz-bogus'") != NULL);
            free(o2);
        }
        free(out);
        /* --help also after a positional argument (where one may come first:
         * not serve's, and not in place of a subcommand) */
        bool pos_first = c->argv[1] || (strcmp(c->argv[0], "serve") != 0 &&
                                        strcmp(c->argv[0], "checkpoint") != 0 &&
                                        strcmp(c->argv[0], "db") != 0);
        CHECK_EQ_INT(run_case(&out, c, "x", "--help"), pos_first ? 0 : 2);
        free(out);
    }
}

static void test_unknown_option_every_command(void)
{
    for (size_t i = 0; i < sizeof cli_cases / sizeof cli_cases[0]; i++) {
        const struct cli_case *c = &cli_cases[i];
        char *out, want[128];
        CHECK_EQ_INT(run_case(&out, c, "--zzz-bogus", NULL), 2);
        CHECK(strstr(out, "unknown option '--zzz-bogus'") != NULL);
        snprintf(want, sizeof want, "Run `rocklake %s --help`", c->argv[0]);
        CHECK(strstr(out, want) != NULL);
        if (!strstr(out, "unknown option '--zzz-bogus'") || !strstr(out, want))
            fprintf(stderr, "  %s %s --zzz-bogus said:\n%s", c->argv[0],
                    c->argv[1] ? c->argv[1] : "", out);
        free(out);
        /* a value given to a flag, a missing value */
        CHECK_EQ_INT(run_case(&out, c, "--help=1", NULL), 2);
        CHECK(strstr(out, "option '--help=1' takes no value") != NULL);
        free(out);
    }
    char *out;
    CHECK_EQ_INT(run(&out, "inspect", "x", "--limit", (char *)NULL), 2);
    CHECK(strstr(out, "option '--limit' needs a value") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "serve", "--journal", (char *)NULL), 2);
    CHECK(strstr(out, "option '--journal' needs a value") != NULL);
    free(out);
}

/* Regression: getopt_long took `serve --port 5434` as --port-file 5434 (a
 * unique abbreviation), so the server listened on its default port and
 * wrote a file named 5434. Options are spelled in full, with the option
 * meant named; the whole name still works, with its value apart or after =. */
static void test_abbreviated_options_refused(void)
{
    char *out;
    CHECK_EQ_INT(run(&out, "serve", "--port", "5434", (char *)NULL), 2);
    CHECK(strstr(out, "unknown option '--port' (options are spelled in full: did you mean "
                      "--port-file?)") != NULL);
    CHECK(strstr(out, "rocklake serve --help") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "inspect", "x", "--lim=3", (char *)NULL), 2);
    CHECK(strstr(out, "unknown option '--lim'") && strstr(out, "did you mean --limit?"));
    free(out);
    CHECK_EQ_INT(run(&out, "stats", "x", "--js", (char *)NULL), 2);
    CHECK(strstr(out, "did you mean --json?") != NULL);
    free(out);
    /* the whole name reaches the command (which then fails on the store) */
    CHECK(run(&out, "inspect", "file:///nonexistent-rl-store", "--limit", "3", (char *)NULL) != 2);
    free(out);
    CHECK(run(&out, "inspect", "file:///nonexistent-rl-store", "--limit=3", (char *)NULL) != 2);
    free(out);
}

/* Regression (#17): `rocklake db create ROOT NAME --format 1.1`, options
 * after the positional arguments, and --format=1.1 before them. */
static void test_db_create_format_after_names(void)
{
    char root[600];
    snprintf(root, sizeof root, "%s/cli_dbfmt_%d", tmpdir(), (int)getpid());
    char *out;
    CHECK_EQ_INT(run(&out, "db", "create", root, "a", "--format", "1.1", (char *)NULL), 0);
    CHECK(strstr(out, "database a: DuckLake format 1.1") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "db", "create", "--format=1.1", root, "b", (char *)NULL), 0);
    CHECK(strstr(out, "database b: DuckLake format 1.1") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "db", "list", root, (char *)NULL), 0);
    CHECK(strstr(out, "a\n") && strstr(out, "b\n"));
    free(out);
    CHECK_EQ_INT(run(&out, "db", "list", root, "--format", "1.1", (char *)NULL), 2);
    CHECK(strstr(out, "unknown option '--format'") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "db", "drop", root, "a", (char *)NULL), 0);
    free(out);
    CHECK_EQ_INT(run(&out, "db", "drop", root, "b", (char *)NULL), 0);
    free(out);
    rmdir(root);
}

/* Regression (#17): a config-file error names the line an editor shows,
 * blank lines and comment lines counted (strtok_r skipped blank lines). */
static void test_config_error_line(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/cli_config_%d.conf", tmpdir(), (int)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("# rocklake serve\n\nlisten = 127.0.0.1:0\n\n\n   \n# comment\r\n\r\nbogus = 1\n", f);
    fclose(f);
    char *out, want[700];
    CHECK_EQ_INT(run(&out, "serve", "--config", path, (char *)NULL), 2);
    snprintf(want, sizeof want, "%s:9: expected \"option = value\"", path);
    if (!strstr(out, want))
        fprintf(stderr, "  wanted \"%s\" in:\n%s", want, out);
    CHECK(strstr(out, want) != NULL);
    free(out);
    /* the same file through ROCKLAKE_CONFIG */
    setenv("ROCKLAKE_CONFIG", path, 1);
    CHECK_EQ_INT(run(&out, "serve", (char *)NULL), 2);
    CHECK(strstr(out, want) != NULL);
    free(out);
    unsetenv("ROCKLAKE_CONFIG");
    unlink(path);
}

static const uint8_t all_tags[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
                                   0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14,
                                   0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x80, 0x81,
                                   0x82, 0xfd, 0xfe, 0xff};

/* The "keys" count of tag `tag` in stats output, 0 if no row. */
static long stats_keys(const char *out, unsigned tag)
{
    char pfx[8];
    snprintf(pfx, sizeof pfx, "0x%02x ", tag);
    for (const char *p = out; p && *p;) {
        if (strncmp(p, pfx, 5) == 0) {
            char name[64];
            long keys = 0;
            if (sscanf(p + 5, "%63s %ld", name, &keys) == 2)
                return keys;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return 0;
}

static void test_demo_stats(void)
{
    char *out;
    CHECK_EQ_INT(run(&out, "stats", g_demo, (char *)NULL), 0);
    for (size_t i = 0; i < sizeof all_tags; i++) {
        long n = stats_keys(out, all_tags[i]);
        if (n <= 0)
            fprintf(stderr, "  stats: no keys for tag 0x%02x\n", all_tags[i]);
        CHECK(n > 0);
    }
    CHECK(strstr(out, "total") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "stats", g_demo, "--json", (char *)NULL), 0);
    CHECK(strstr(out, "\"tag\": \"0x07\"") != NULL);
    CHECK(strstr(out, "\"total\": {\"keys\": ") != NULL);
    free(out);
}

static void test_inspect_all(void)
{
    char *out;
    CHECK_EQ_INT(run(&out, "inspect", g_demo, (char *)NULL), 0);
    for (size_t i = 0; i < rl_ntables; i++) {
        if (rl_tables[i].since > RL_FMT_1_0)
            continue;
        char want[96];
        snprintf(want, sizeof want, "  key   %s ", rl_tables[i].name);
        if (count_lines(out, want) == 0)
            fprintf(stderr, "  inspect: no key lines for %s\n", rl_tables[i].name);
        CHECK(count_lines(out, want) > 0);
    }
    static const char *const others[] = {"  key   index live ", "  key   index pk ",
                                         "  key   index table-name ",
                                         "  key   rocklake_audit ", "  key   rocklake_dynamic_table ",
                                         "  key   dynamic row ", "  key   counter next-snapshot-id",
                                         "  key   system writer-epoch"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        CHECK(count_lines(out, others[i]) > 0);
    CHECK(strstr(out, "(undecodable") == NULL);
    CHECK(strstr(out, "  value (live)") != NULL);
    CHECK(strstr(out, "  value -> ducklake_data_file ") != NULL);
    CHECK(strstr(out, "table_name='t_1'") != NULL);
    CHECK(strstr(out, "end_snapshot=NULL") != NULL);
    CHECK(strstr(out, "public.ducklake_inlined_data_") != NULL);
    CHECK_EQ_INT(count_lines(out, "  key   "), count_lines(out, "  value "));
    free(out);
}

static void test_inspect_filters(void)
{
    char *out;
    CHECK_EQ_INT(run(&out, "inspect", g_demo, "--tag", "ducklake_column", (char *)NULL), 0);
    int keys = count_lines(out, "  key   ");
    CHECK(keys > 0);
    CHECK_EQ_INT(count_lines(out, "  key   ducklake_column "), keys);
    CHECK_EQ_INT(count_lines(out, "06 "), keys);
    free(out);
    CHECK_EQ_INT(run(&out, "inspect", g_demo, "--tag", "0x06", (char *)NULL), 0);
    CHECK_EQ_INT(count_lines(out, "  key   ducklake_column "), keys);
    free(out);
    /* table 1's columns only */
    const char *pfx = "06 00 00 00 00 00 00 00 01";
    CHECK_EQ_INT(run(&out, "inspect", g_demo, "--prefix", pfx, (char *)NULL), 0);
    int n = count_lines(out, "  key   ");
    CHECK(n > 0 && n < keys);
    CHECK_EQ_INT(count_lines(out, pfx), n);
    CHECK_EQ_INT(count_lines(out, "  key   ducklake_column table_id=1 "), n);
    free(out);
    CHECK_EQ_INT(run(&out, "inspect", g_demo, "--limit", "3", "--raw", (char *)NULL), 0);
    CHECK_EQ_INT(count_lines(out, "  key   "), 3);
    CHECK_EQ_INT(count_lines(out, "  raw   "), 3);
    free(out);
}

static void test_check_ok(void)
{
    char *out;
    CHECK_EQ_INT(run(&out, "check", g_demo, (char *)NULL), 0);
    CHECK(strncmp(out, "ok: ", 4) == 0);
    free(out);
}

static void test_format_11(void)
{
    char *path = demo_store("fmt11", "--format=1.1");
    char *out;
    CHECK_EQ_INT(run(&out, "stats", path, (char *)NULL), 0);
    CHECK(stats_keys(out, 0x1d) > 0);
    free(out);
    CHECK_EQ_INT(run(&out, "check", path, (char *)NULL), 0);
    free(out);
}

static void test_create_idempotent(void)
{
    char *path = store_path("create");
    char *out;
    CHECK_EQ_INT(run(&out, "create", path, (char *)NULL), 0);
    CHECK(strncmp(out, "created", 7) == 0);
    free(out);
    CHECK_EQ_INT(run(&out, "create", path, (char *)NULL), 0);
    CHECK(strncmp(out, "catalog exists", 14) == 0);
    free(out);
    CHECK_EQ_INT(run(&out, "create", path, "--format", "1.1", (char *)NULL), 1);
    free(out);
    CHECK_EQ_INT(run(&out, "check", path, (char *)NULL), 0);
    free(out);
    /* a demo on a catalog with snapshots is refused */
    CHECK_EQ_INT(run(&out, "demo", g_demo, (char *)NULL), 1);
    free(out);
}

/* Regression: `db list` and `db drop` read a file:// root with %XX escapes
 * as the store does (they used the escaped text as a path, so a root with a
 * space listed nothing and could not drop what `db create` made). */
static void test_db_root_with_escapes(void)
{
    char dir[600], root[700];
    snprintf(dir, sizeof dir, "%s/cli db root %d", tmpdir(), (int)getpid());
    snprintf(root, sizeof root, "file://%s/cli%%20db%%20root%%20%d", tmpdir(), (int)getpid());
    char *out;
    CHECK_EQ_INT(run(&out, "db", "create", root, "lake_a", (char *)NULL), 0);
    free(out);
    struct stat st;
    char made[700];
    snprintf(made, sizeof made, "%s/lake_a", dir);
    CHECK_EQ_INT(stat(made, &st), 0);
    CHECK_EQ_INT(run(&out, "db", "list", root, (char *)NULL), 0);
    CHECK(strstr(out, "lake_a") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "db", "drop", root, "lake_a", (char *)NULL), 0);
    free(out);
    CHECK(stat(made, &st) != 0);
    rmdir(dir);
}

/* Regression: `db list` of a root that does not exist printed nothing and
 * exited 0, like a root without databases; now it is an error naming the
 * path and the command that creates one, and an empty root says so on
 * stderr (stdout stays the plain list). */
static void test_db_list_missing_root(void)
{
    char missing[600], empty[600];
    snprintf(missing, sizeof missing, "%s/cli no root %d", tmpdir(), (int)getpid());
    snprintf(empty, sizeof empty, "%s/cli empty root %d", tmpdir(), (int)getpid());
    char *out;
    CHECK_EQ_INT(run(&out, "db", "list", missing, (char *)NULL), 1);
    CHECK(strstr(out, "no store root at") != NULL && strstr(out, missing) != NULL);
    CHECK(strstr(out, "rocklake db create") != NULL);
    free(out);
    struct stat st;
    CHECK(stat(missing, &st) != 0); /* nothing made */
    CHECK_EQ_INT(mkdir(empty, 0755), 0);
    CHECK_EQ_INT(run(&out, "db", "list", empty, (char *)NULL), 0);
    CHECK(strstr(out, "no databases under") != NULL);
    free(out);
    rmdir(empty);
}

/* A mistyped store: one error naming it, with the commands that list and
 * create lakes, and nothing made on disk (the reader used to create the
 * directory, which `db list` then showed as a lake). */
static void test_missing_store(void)
{
    char *out;
    char *path = store_path("nothing_here");
    struct stat st;
    for (int i = 0; i < 3; i++) {
        static const char *const tools[] = {"inspect", "stats", "check"};
        CHECK_EQ_INT(run(&out, tools[i], path, (char *)NULL), 1);
        CHECK(strstr(out, "no store at") != NULL);
        CHECK(strstr(out, "rocklake db list") && strstr(out, "rocklake create"));
        free(out);
        CHECK(stat(path, &st) != 0);
    }
}

static void test_corrupt_value(void)
{
    char *path = demo_store("badvalue", NULL);
    rl_catalog *cat = open_writer(path);
    CHECK(cat != NULL);
    if (!cat)
        return;
    uint8_t key[9] = {RL_TAG_SNAPSHOT, 0, 0, 0, 0, 0, 0, 0, 1};
    static const uint8_t bad[] = {0x02, 0x09, 0xff};
    kv_batch *b = kv_batch_new();
    kv_batch_put(b, key, sizeof key, bad, sizeof bad);
    CHECK_EQ_INT(kv_write(rl_catalog_kv(cat), b, NULL), 0);
    kv_batch_free(b);
    rl_catalog_close(cat, NULL);
    expect_check_finds(path, "[0x02 ducklake_snapshot] key 02 00 00 00 00 00 00 00 01: value does "
                             "not decode");
    char *out;
    CHECK_EQ_INT(run(&out, "inspect", path, "--tag", "02", (char *)NULL), 0);
    CHECK(strstr(out, "  value (undecodable: ") != NULL);
    CHECK(count_lines(out, "  key   ducklake_snapshot ") > 1); /* continued past it */
    free(out);
}

static void test_corrupt_open_versions(void)
{
    char *path = demo_store("twoopen", NULL);
    rl_catalog *cat = open_writer(path);
    CHECK(cat != NULL);
    if (!cat)
        return;
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_TABLE);
    rl_datum row[RL_MAX_COLUMNS];
    row_nulls(row);
    row_set(row, d, "table_id", 1);
    row_set(row, d, "begin_snapshot", 5000);
    row_set(row, d, "schema_id", 0);
    rl_error e;
    rl_txn *t = rl_txn_begin(cat, &e);
    CHECK_EQ_INT(rl_txn_insert(t, d, row, &e), 0);
    CHECK_EQ_INT(rl_txn_commit(t, &e), 0);
    rl_txn_free(t);
    rl_catalog_close(cat, NULL);
    expect_check_finds(path, "2 open versions (end_snapshot NULL) of one entity");
}

static void test_corrupt_dangling_file(void)
{
    char *path = demo_store("dangling", NULL);
    rl_catalog *cat = open_writer(path);
    CHECK(cat != NULL);
    if (!cat)
        return;
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_DATA_FILE);
    rl_datum row[RL_MAX_COLUMNS];
    row_nulls(row);
    row_set(row, d, "data_file_id", 4000);
    row_set(row, d, "table_id", 777);
    row_set(row, d, "begin_snapshot", 1);
    rl_error e;
    rl_txn *t = rl_txn_begin(cat, &e);
    CHECK_EQ_INT(rl_txn_insert(t, d, row, &e), 0);
    CHECK_EQ_INT(rl_txn_commit(t, &e), 0);
    rl_txn_free(t);
    rl_catalog_close(cat, NULL);
    expect_check_finds(path, "table_id=777 has no ducklake_table row");
}

static void put_raw(const char *path, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl,
                    bool del)
{
    kv_error ke;
    kv_db *kv = kv_open_writer(path, NULL, &ke);
    CHECK(kv != NULL);
    if (!kv)
        return;
    kv_batch *b = kv_batch_new();
    if (del)
        kv_batch_delete(b, k, kl);
    else
        kv_batch_put(b, k, kl, v, vl);
    CHECK_EQ_INT(kv_write(kv, b, &ke), 0);
    kv_batch_free(b);
    kv_close(kv, NULL);
}

static void test_corrupt_counter(void)
{
    char *path = demo_store("counter", NULL);
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_counter(&k, RL_COUNTER_NEXT_FILE_ID);
    uint8_t zero[8] = {0};
    put_raw(path, k.data, k.len, zero, 8, false);
    rl_buf_free(&k);
    expect_check_finds(path, "counter next-file-id is 0 but ");
}

static void test_corrupt_live_index(void)
{
    char *path = demo_store("live", NULL);
    /* the live entry of schema 0 (begin 0): 80 01 04 | schema_id | begin */
    uint8_t k[19] = {RL_TAG_INDEX, RL_INDEX_LIVE, RL_TAG_SCHEMA};
    put_raw(path, k, sizeof k, NULL, 0, true);
    expect_check_finds(path, "row has end_snapshot NULL but no live index entry");
}

/* Duplicate rows of a table without a PRIMARY KEY: inspect shows each
 * with its discriminator, check accepts them, and finds a discriminator
 * counter that fell behind one in use. */
static void test_duplicate_rows(void)
{
    char *path = demo_store("dups", NULL);
    rl_catalog *cat = open_writer(path);
    CHECK(cat != NULL);
    if (!cat)
        return;
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE);
    rl_datum row[RL_MAX_COLUMNS];
    row_nulls(row);
    row_set(row, d, "data_file_id", 4000);
    row_set(row, d, "table_id", 4000);
    row_set(row, d, "partition_key_index", 2);
    rl_error e;
    rl_txn *t = rl_txn_begin(cat, &e);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(rl_txn_insert(t, d, row, &e), 0);
    CHECK_EQ_INT(rl_txn_commit(t, &e), 0);
    rl_txn_free(t);
    rl_catalog_close(cat, NULL);
    char *out;
    CHECK_EQ_INT(run(&out, "inspect", path, "--tag", "0x13", (char *)NULL), 0);
    CHECK_EQ_INT(count_lines(out, "  key   ducklake_file_partition_value table_id=4000 "
                                  "data_file_id=4000 partition_key_index=2"), 3);
    CHECK(strstr(out, "partition_key_index=2 dup=0\n") != NULL);
    CHECK(strstr(out, "partition_key_index=2 dup=1\n") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "check", path, (char *)NULL), 0);
    CHECK(strncmp(out, "ok: ", 4) == 0);
    free(out);
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_counter(&k, RL_COUNTER_NEXT_DUP);
    uint8_t one[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    put_raw(path, k.data, k.len, one, 8, false);
    rl_buf_free(&k);
    expect_check_finds(path, "counter next-row-seq:dup is 1 but duplicate row discriminator 1 "
                             "is in use");
}

static void test_newer_format_refused(void)
{
    char *path = demo_store("newer", NULL);
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_FORMAT_VERSION);
    uint8_t v[8];
    rl_store_be64(v, RL_STORAGE_FORMAT_VERSION + 1);
    put_raw(path, k.data, k.len, v, 8, false);
    rl_buf_free(&k);
    static const char *const cmds[][3] = {
        {"inspect", NULL}, {"stats", NULL},          {"check", NULL},
        {"demo", NULL},    {"create", NULL},         {"checkpoint", "list"},
        {"checkpoint", "create"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char *out;
        int rc = cmds[i][1] ? run(&out, cmds[i][0], cmds[i][1], path, (char *)NULL)
                            : run(&out, cmds[i][0], path, (char *)NULL);
        CHECK_EQ_INT(rc, 1);
        bool clear = strstr(out, "newer than this RockLake supports") != NULL;
        if (!clear)
            fprintf(stderr, "  %s %s: unclear refusal:\n%s\n", cmds[i][0],
                    cmds[i][1] ? cmds[i][1] : "", out);
        CHECK(clear);
        free(out);
    }
}

static void test_checkpoints(void)
{
    char *path = demo_store("ckpt", NULL);
    char *out;
    CHECK_EQ_INT(run(&out, "checkpoint", "create", path, "--lifetime", "3600", (char *)NULL), 0);
    CHECK(strstr(out, "created checkpoint ") != NULL);
    free(out);
    CHECK_EQ_INT(run(&out, "checkpoint", "list", path, (char *)NULL), 0);
    CHECK(strstr(out, "manifest ") != NULL);
    CHECK(strstr(out, "expires never") == NULL);
    free(out);
}

/* A database's store is its name under the root: `serve --store memory://`
 * gave memory:/NAME, which SlateDB took for a path and made a directory
 * "memory:" in the working directory, on disk, of an in-memory server. */
static void test_db_url_under_a_scheme(void)
{
    char url[256];
    CHECK(rl_db_url("memory://", "lake", url, sizeof url));
    CHECK_EQ_STR(url, "memory://lake");
    CHECK(rl_db_url("memory:///", "lake", url, sizeof url));
    CHECK_EQ_STR(url, "memory://lake");
    CHECK(rl_db_url("s3://bucket/", "lake", url, sizeof url));
    CHECK_EQ_STR(url, "s3://bucket/lake");
    CHECK(rl_db_url("s3://bucket/pre//", "lake", url, sizeof url));
    CHECK_EQ_STR(url, "s3://bucket/pre/lake");
    CHECK(rl_db_url("file:///srv/lakes", "lake", url, sizeof url));
    CHECK_EQ_STR(url, "file:///srv/lakes/lake");
    CHECK(rl_db_url("/srv/lakes/", "lake", url, sizeof url));
    CHECK_EQ_STR(url, "/srv/lakes/lake");
    CHECK(rl_db_url("/", "lake", url, sizeof url));
    CHECK_EQ_STR(url, "//lake");
    CHECK(!rl_db_url("memory://", "../x", url, sizeof url));
}

int main(void)
{
    mkdir(tmpdir(), 0755);
    static char url[600];
    snprintf(url, sizeof url, "file://%s", store_path("demo"));
    g_demo = url;
    char *out;
    int rc = run(&out, "demo", g_demo, (char *)NULL);
    if (rc != 0)
        fprintf(stderr, "demo failed (%d):\n%s\n", rc, out);
    free(out);
    RUN(test_db_url_under_a_scheme);
    RUN(test_help);
    RUN(test_usage_errors);
    RUN(test_help_lists_every_option);
    RUN(test_unknown_option_every_command);
    RUN(test_db_create_format_after_names);
    RUN(test_abbreviated_options_refused);
    RUN(test_config_error_line);
    RUN(test_demo_stats);
    RUN(test_inspect_all);
    RUN(test_inspect_filters);
    RUN(test_duplicate_rows);
    RUN(test_check_ok);
    RUN(test_format_11);
    RUN(test_create_idempotent);
    RUN(test_db_root_with_escapes);
    RUN(test_db_list_missing_root);
    RUN(test_missing_store);
    RUN(test_corrupt_value);
    RUN(test_corrupt_open_versions);
    RUN(test_corrupt_dangling_file);
    RUN(test_corrupt_counter);
    RUN(test_corrupt_live_index);
    RUN(test_newer_format_refused);
    RUN(test_checkpoints);
    return tu_finish();
}
