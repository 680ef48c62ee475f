// fuzz-sources: src/kv/journal.c src/base/buf.c src/base/crashpoint.c
// fuzz-link: -lz
/*
 * fuzz_journal.c — libFuzzer target for journal recovery (src/kv/journal.c),
 * the decoder of what a crash leaves on disk.
 *
 * Input: byte 0 picks the mode, the rest is its data.
 *  - Mode even ("raw"): the data is the whole journal file (bit 1 of byte 0
 *    clear: a v1 file, records from offset 0) or what follows a v2 file
 *    header (bit 1 set); bytes 1–2 pick the offset recovery starts at.
 *    Recovery must not crash, every record it hands over must lie inside
 *    the file with increasing seqs, and a second recovery (after the fence
 *    the first one wrote: a FENCE record, or the cut in the v2 slot) must
 *    hand over exactly the same records.
 *  - Mode odd ("damaged"): the data is split at 0xFF bytes into payloads,
 *    appended as records by rl_journal_append; then the byte at an offset
 *    from bytes 1–2 is flipped, or the file is cut there (bit 1 of byte 0).
 *    The offset spares the file's magic and version (a crash cannot damage
 *    them: they are synced before any record; test_journal checks that a
 *    damaged header is refused).
 *    Recovery must hand over a prefix of the appended payloads, in order,
 *    unchanged, or (a flipped byte that a valid record follows) refuse with
 *    KV_ERR_CORRUPT, after which salvaging hands over exactly the records
 *    before the damaged one.
 */
#include "kv/journal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS 256

typedef struct seen {
    size_t n;
    uint64_t seq[MAX_RECORDS], end[MAX_RECORDS];
    uint8_t *payload[MAX_RECORDS];
    size_t len[MAX_RECORDS];
} seen;

static char g_dir[64];

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_journal: %s\n", what);
    abort();
}

static int collect(void *ctx, const uint8_t *p, size_t len, uint64_t seq, uint64_t end,
                   kv_error *err)
{
    (void)err;
    seen *s = ctx;
    if (s->n >= MAX_RECORDS) return 0;
    s->seq[s->n] = seq;
    s->end[s->n] = end;
    s->payload[s->n] = malloc(len ? len : 1);
    if (len) memcpy(s->payload[s->n], p, len);
    s->len[s->n] = len;
    s->n++;
    return 0;
}

static void seen_free(seen *s)
{
    for (size_t i = 0; i < s->n; i++) free(s->payload[i]);
    s->n = 0;
}

static void file_path(uint64_t id, char *buf, size_t n)
{
    snprintf(buf, n, "%s/journal-%016" PRIx64 ".log", g_dir, id);
}

static void raw_mode(bool v2, const uint8_t *data, size_t size)
{
    if (size < 2) return;
    uint64_t from = ((uint64_t)data[0] << 8 | data[1]) % 64;
    data += 2;
    size -= 2;
    char path[128];
    file_path(1, path, sizeof path);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    if (v2) {
        static uint8_t header[RL_JOURNAL_DATA_START] = {'R', 'L', 'J', 'F', 0, 0, 0, 2};
        fwrite(header, 1, sizeof header, f);
        from += RL_JOURNAL_DATA_START;
        size += RL_JOURNAL_DATA_START;
    }
    fwrite(data, 1, size - (v2 ? RL_JOURNAL_DATA_START : 0), f);
    fclose(f);
    rl_journal_pos pos = {1, 0, from};
    seen a = {0}, b = {0};
    uint64_t last;
    kv_error err;
    if (rl_journal_recover(g_dir, &pos, collect, &a, &last, &err) == 0) {
        for (size_t i = 0; i < a.n; i++) {
            if (a.end[i] > size) fail("record ends past the file");
            if (i && a.seq[i] <= a.seq[i - 1]) fail("seqs do not increase");
        }
        if (rl_journal_recover(g_dir, &pos, collect, &b, &last, &err) != 0)
            fail("second recovery failed");
        if (a.n != b.n) fail("second recovery differs in count");
        for (size_t i = 0; i < a.n; i++)
            if (a.seq[i] != b.seq[i] || a.len[i] != b.len[i] ||
                memcmp(a.payload[i], b.payload[i], a.len[i]) != 0)
                fail("second recovery differs");
    }
    seen_free(&a);
    seen_free(&b);
    unlink(path);
}

static void damaged_mode(uint8_t flags, const uint8_t *data, size_t size)
{
    if (size < 2) return;
    uint64_t where = (uint64_t)data[0] << 8 | data[1];
    data += 2;
    size -= 2;
    kv_error err;
    rl_journal *j = rl_journal_create(g_dir, 0, &err);
    if (!j) fail("create failed");
    uint64_t id = rl_journal_file_id(j);
    const uint8_t *payload[MAX_RECORDS];
    size_t len[MAX_RECORDS], n = 0;
    uint64_t file_end = 0;
    for (size_t start = 0; n < MAX_RECORDS;) {
        const uint8_t *cut = memchr(data + start, 0xFF, size - start);
        size_t l = cut ? (size_t)(cut - data) - start : size - start;
        uint64_t seq;
        if (rl_journal_append(j, data + start, l, &seq, &file_end, &err) < 0)
            fail("append failed");
        payload[n] = data + start;
        len[n++] = l;
        if (!cut) break;
        start += l + 1;
    }
    rl_journal_close(j);
    char path[128];
    file_path(id, path, sizeof path);
    if (file_end) {
        uint64_t at = 8 + where % (file_end - 8);
        int fd = open(path, O_RDWR);
        if (fd < 0) fail("open failed");
        if (flags & 2) {
            if (ftruncate(fd, (off_t)at) != 0) fail("truncate failed");
        } else {
            uint8_t b;
            if (pread(fd, &b, 1, (off_t)at) != 1) fail("read failed");
            b ^= 0x5A;
            if (pwrite(fd, &b, 1, (off_t)at) != 1) fail("write failed");
        }
        close(fd);
    }
    rl_journal_pos pos = {id, 0, 0};
    seen s = {0};
    uint64_t last;
    if (rl_journal_recover(g_dir, &pos, collect, &s, &last, &err) != 0) {
        /* A flipped byte in a record that a valid record follows is damage,
         * refused loudly (never a cut: that is a torn tail). Salvaging then
         * replays exactly the records before the damaged one. */
        if ((flags & 2) || err.kind != KV_ERR_CORRUPT) fail("recover failed");
        if (s.n != 0) fail("a refused recovery replayed records");
        rl_journal_damage dmg;
        if (rl_journal_recover_ex(g_dir, &pos, true, collect, &s, &last, &dmg, &err) != 0)
            fail("salvage failed");
        if (dmg.bad == UINT64_MAX || dmg.next_valid <= dmg.bad) fail("salvage found no damage");
        if (s.n != dmg.records_before) fail("salvage replayed other than the records before");
    }
    if (s.n > n) fail("more records than appended");
    for (size_t i = 0; i < s.n; i++) {
        if (s.seq[i] != i + 1) fail("seq out of order");
        if (s.len[i] != len[i] || memcmp(s.payload[i], payload[i], len[i]) != 0)
            fail("a replayed record differs from what was appended");
    }
    seen_free(&s);
    unlink(path);
}

static void remove_dir(void) { rmdir(g_dir); } /* every file was unlinked after use */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!g_dir[0]) {
        snprintf(g_dir, sizeof g_dir, "/tmp/fuzz_journal-%d", (int)getpid());
        mkdir(g_dir, 0755);
        atexit(remove_dir);
    }
    if (size < 1) return 0;
    if (data[0] & 1) damaged_mode(data[0], data + 1, size - 1);
    else raw_mode(data[0] & 2, data + 1, size - 1);
    return 0;
}
