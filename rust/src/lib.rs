//! rocklake_kv — the C ABI over SlateDB that src/kv.c builds kv.h on.
//!
//! The entry points are `slate_*` (declared in src/slate.h) plus the batch
//! functions and kv_error_kind_name/kv_checkpoint_list, which kv.h exports
//! unchanged. src/kv.c wraps the rest: on a writer it serves reads from its
//! in-memory mirror (src/kvmirror.c) and calls these only to write, to load
//! the mirror and on readers.
//!
//! Owns: store URL resolution (file / memory / s3), the process-wide tokio
//! runtime, the opaque handles (kv_db, kv_snapshot, kv_iter, kv_batch), the
//! mapping of SlateDB errors onto kv_error_kind, and the process-wide counters.
//! It knows nothing about DuckLake: keys and values are opaque bytes.
//!
//! Every exported function runs its body under `catch_unwind`, so a Rust panic
//! becomes KV_ERR_INTERNAL instead of unwinding into C. Exported functions
//! that take pointers are `unsafe extern "C"`: their safety contract is the
//! one kv.h states (valid handles, buffers of the given length).

// The `# Safety` section of every exported function is src/kv.h.
#![allow(clippy::missing_safety_doc)]

use std::collections::HashMap;
use std::ffi::{c_char, c_int, CStr};
use std::ops::Bound;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use futures_util::{StreamExt, TryStreamExt};
use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::local::LocalFileSystem;
use object_store::memory::InMemory;
use object_store::path::Path;
use object_store::{BackoffConfig, ClientConfigKey, ObjectStore, RetryConfig};
use slatedb::admin::AdminBuilder;
use slatedb::config::{
    CheckpointOptions, CheckpointScope, DbReaderOptions, ReadOptions, ScanOptions, Settings,
    WriteOptions,
};
use slatedb::db_cache::moka::{MokaCache, MokaCacheOptions};
use slatedb::db_cache::{DbCache, SplitCache};
use slatedb::{
    CloseReason, Db, DbIterator, DbReader, DbReaderMode, DbSnapshot, ErrorKind, WriteBatch,
};
use slatedb_common::clock::{DefaultSystemClock, SystemClock, SystemClockTicker};
use tokio::runtime::Runtime;

// ---------------------------------------------------------------------------
// C-visible types (layouts must match src/kv.h and src/slate.h: the const
// asserts below pin the same sizes and offsets as slate.h's _Static_asserts)
// ---------------------------------------------------------------------------

const KV_OK: c_int = 0;
const KV_ERR_FENCED: c_int = 1;
const KV_ERR_CONFLICT: c_int = 2;
const KV_ERR_IO: c_int = 3;
const KV_ERR_CORRUPT: c_int = 4;
const KV_ERR_INVALID: c_int = 5;
const KV_ERR_CLOSED: c_int = 6;
const KV_ERR_INTERNAL: c_int = 7;
const KV_ERR_NO_STORE: c_int = 8;

const MSG_LEN: usize = 512;

#[repr(C)]
pub struct KvError {
    kind: c_int,
    message: [c_char; MSG_LEN],
}

/// slate.h's slate_options: the part of kv_options this side reads.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct SlateOptions {
    flush_interval_ms: u64,
    block_cache_bytes: u64,
    reader_poll_interval_ms: u64,
    scan_read_ahead_bytes: u64,
    scan_fetch_tasks: u32,
    store_timeout_ms: u32,
    follower_poll_max_ms: i64,
    /// a key whose puts alone are no news to a follower (`Quiet`), and a
    /// prefix whose keys never are; NULL/0: none
    quiet_key: *const u8,
    quiet_key_len: u64,
    quiet_prefix: *const u8,
    quiet_prefix_len: u64,
}

impl Default for SlateOptions {
    fn default() -> Self {
        SlateOptions {
            flush_interval_ms: 0,
            block_cache_bytes: 0,
            reader_poll_interval_ms: 0,
            scan_read_ahead_bytes: 0,
            scan_fetch_tasks: 0,
            store_timeout_ms: 0,
            follower_poll_max_ms: 0,
            quiet_key: std::ptr::null(),
            quiet_key_len: 0,
            quiet_prefix: std::ptr::null(),
            quiet_prefix_len: 0,
        }
    }
}

#[repr(C)]
pub struct KvCheckpoint {
    id: [c_char; 40],
    manifest_id: u64,
    create_time_ms: i64,
    expire_time_ms: i64,
}

#[repr(C)]
pub struct KvCounters {
    gets: u64,
    scans: u64,
    keys_read: u64,
    batches_written: u64,
    bytes_written: u64,
}

// The layout pins (src/slate.h has the same numbers as _Static_asserts).
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<c_int>() == 4);
    assert!(KV_OK == 0 && KV_ERR_FENCED == 1 && KV_ERR_CONFLICT == 2 && KV_ERR_IO == 3);
    assert!(KV_ERR_CORRUPT == 4 && KV_ERR_INVALID == 5 && KV_ERR_CLOSED == 6);
    assert!(KV_ERR_INTERNAL == 7 && KV_ERR_NO_STORE == 8);
    assert!(size_of::<SlateOptions>() == 80);
    assert!(offset_of!(SlateOptions, flush_interval_ms) == 0);
    assert!(offset_of!(SlateOptions, block_cache_bytes) == 8);
    assert!(offset_of!(SlateOptions, reader_poll_interval_ms) == 16);
    assert!(offset_of!(SlateOptions, scan_read_ahead_bytes) == 24);
    assert!(offset_of!(SlateOptions, scan_fetch_tasks) == 32);
    assert!(offset_of!(SlateOptions, store_timeout_ms) == 36);
    assert!(offset_of!(SlateOptions, follower_poll_max_ms) == 40);
    assert!(offset_of!(SlateOptions, quiet_key) == 48);
    assert!(offset_of!(SlateOptions, quiet_key_len) == 56);
    assert!(offset_of!(SlateOptions, quiet_prefix) == 64);
    assert!(offset_of!(SlateOptions, quiet_prefix_len) == 72);
    assert!(size_of::<KvError>() == 516 && MSG_LEN == 512);
    assert!(offset_of!(KvError, kind) == 0 && offset_of!(KvError, message) == 4);
    assert!(size_of::<KvCheckpoint>() == 64);
    assert!(offset_of!(KvCheckpoint, id) == 0 && offset_of!(KvCheckpoint, manifest_id) == 40);
    assert!(offset_of!(KvCheckpoint, create_time_ms) == 48);
    assert!(offset_of!(KvCheckpoint, expire_time_ms) == 56);
    assert!(size_of::<KvCounters>() == 40);
    assert!(offset_of!(KvCounters, gets) == 0 && offset_of!(KvCounters, scans) == 8);
    assert!(offset_of!(KvCounters, keys_read) == 16);
    assert!(offset_of!(KvCounters, batches_written) == 24);
    assert!(offset_of!(KvCounters, bytes_written) == 32);
};

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// An error on its way to C: a kv_error_kind plus a human message.
struct Fail {
    kind: c_int,
    msg: String,
}

impl Fail {
    fn new(kind: c_int, msg: impl Into<String>) -> Self {
        Fail {
            kind,
            msg: msg.into(),
        }
    }
    fn invalid(msg: impl Into<String>) -> Self {
        Fail::new(KV_ERR_INVALID, msg)
    }
}

/// SlateDB reports fencing as Closed(Fenced); a clean close means the handle
/// can no longer be used, which is what KV_ERR_CLOSED says.
impl From<slatedb::Error> for Fail {
    fn from(e: slatedb::Error) -> Self {
        let kind = match e.kind() {
            ErrorKind::Closed(CloseReason::Fenced) => KV_ERR_FENCED,
            ErrorKind::Closed(CloseReason::Clean) => KV_ERR_CLOSED,
            ErrorKind::Transaction => KV_ERR_CONFLICT,
            ErrorKind::Unavailable => KV_ERR_IO,
            ErrorKind::Data => KV_ERR_CORRUPT,
            ErrorKind::Invalid => KV_ERR_INVALID,
            _ => KV_ERR_INTERNAL,
        };
        Fail::new(kind, e.to_string())
    }
}

impl From<object_store::Error> for Fail {
    fn from(e: object_store::Error) -> Self {
        Fail::new(KV_ERR_IO, format!("object store: {e}"))
    }
}

type KvResult<T> = Result<T, Fail>;

/// The text between `<tag>` and `</tag>` in an S3 error body.
fn xml_field<'a>(body: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = body.find(&open)? + open.len();
    let len = body[start..].find(&format!("</{tag}>"))?;
    Some(&body[start..start + len])
}

/// An S3 error as one line: object_store quotes the request and the whole
/// XML body ("... Error performing GET http://... - Server returned non-2xx
/// status code: 404 Not Found: <?xml ...><Error><Code>NoSuchBucket</Code>
/// ..."); keep what is before the request and S3's code, message and bucket.
fn tidy_store_message(msg: &str) -> String {
    let Some(code) = xml_field(msg, "Code") else {
        return msg.to_string();
    };
    let head = msg.find("Error performing").map_or(msg, |at| &msg[..at]);
    let head = head.trim_end_matches([' ', ':']);
    let mut out = format!("{head}: {code}");
    if let Some(text) = xml_field(msg, "Message") {
        out.push_str(&format!(": {text}"));
    }
    if let Some(bucket) = xml_field(msg, "BucketName") {
        out.push_str(&format!(" (bucket \"{bucket}\")"));
    }
    out
}

fn write_err(err: *mut KvError, kind: c_int, msg: &str) {
    if err.is_null() {
        return;
    }
    let msg = &tidy_store_message(msg);
    // SAFETY: the caller passes either NULL or a valid kv_error.
    let e = unsafe { &mut *err };
    e.kind = kind;
    let bytes = msg.as_bytes();
    let n = bytes.len().min(MSG_LEN - 1);
    for (dst, src) in e.message.iter_mut().zip(&bytes[..n]) {
        *dst = *src as c_char;
    }
    e.message[n] = 0;
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        format!("panic in rocklake_kv: {s}")
    } else if let Some(s) = p.downcast_ref::<String>() {
        format!("panic in rocklake_kv: {s}")
    } else {
        "panic in rocklake_kv".to_string()
    }
}

/// Run `f` for an exported function: reset *err, catch panics, and turn a
/// failure into *err plus the documented failure value.
fn guard<T>(err: *mut KvError, failure: T, f: impl FnOnce() -> KvResult<T>) -> T {
    write_err(err, KV_OK, "");
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            write_err(err, e.kind, &e.msg);
            failure
        }
        Err(p) => {
            write_err(err, KV_ERR_INTERNAL, &panic_message(p.as_ref()));
            failure
        }
    }
}

/// For functions with no error channel (frees, batch building): a panic is
/// swallowed rather than unwinding into C.
fn guard_void(f: impl FnOnce()) {
    let _ = catch_unwind(AssertUnwindSafe(f));
}

// ---------------------------------------------------------------------------
// Runtime, counters, small helpers
// ---------------------------------------------------------------------------

/// SlateDB's log lines (the `log` crate: retries, backpressure, fencing)
/// on stderr, at the level ROCKLAKE_SLATEDB_LOG names (error, warn, info,
/// debug, trace); without it they are dropped, as before. For diagnosing a
/// store that stalls: SlateDB says why it waits only there.
struct SlateLog;

impl log::Log for SlateLog {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::max_level()
    }
    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            eprintln!("{} slatedb {} {}: {}", now_ms(), r.level(), r.target(), r.args());
        }
    }
    fn flush(&self) {}
}

fn slatedb_log() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let level = std::env::var("ROCKLAKE_SLATEDB_LOG").ok().and_then(|v| v.parse().ok());
        if let Some(level) = level {
            static LOGGER: SlateLog = SlateLog;
            if log::set_logger(&LOGGER).is_ok() {
                log::set_max_level(level);
            }
        }
    });
}

/// One runtime for the process. C threads call `block_on` on it; SlateDB's
/// background tasks (WAL flush, compaction, GC, reader polling) run on its
/// two workers.
fn runtime() -> &'static Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        slatedb_log();
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("rocklake-kv")
            .enable_all()
            .build()
            .expect("cannot start tokio runtime")
    })
}

/// Blocks the calling (C) thread on a future. Calling this from inside a
/// runtime thread would panic; catch_unwind turns that into INTERNAL.
fn block_on<F: std::future::Future>(f: F) -> F::Output {
    runtime().block_on(f)
}

/// Blocks the calling (C) thread on a read (get, scan, iterator step) using
/// a runtime of its own thread. SlateDB starts a task per SST block fetch of
/// a scan (`tokio::spawn` on the current runtime): on the shared runtime
/// each of those is a wake-up of a worker thread and a wake-up back, which
/// cost more than the read itself when the blocks are cached. On a
/// current-thread runtime the fetch tasks run on the caller's thread inside
/// this block_on. Only reads go through here: opening a database starts
/// SlateDB's background tasks, which must live on the shared runtime. An
/// iterator's pending fetches belong to the thread that opened it, so an
/// iterator is used by one thread (kv.h says so).
fn block_on_read<F: std::future::Future>(f: F) -> F::Output {
    thread_local! {
        static LOCAL_RT: Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("cannot start a thread-local tokio runtime");
    }
    LOCAL_RT.with(|rt| rt.block_on(f))
}

static GETS: AtomicU64 = AtomicU64::new(0);
static SCANS: AtomicU64 = AtomicU64::new(0);
static KEYS_READ: AtomicU64 = AtomicU64::new(0);
static BATCHES_WRITTEN: AtomicU64 = AtomicU64::new(0);
static BYTES_WRITTEN: AtomicU64 = AtomicU64::new(0);

fn bump(c: &AtomicU64, n: u64) {
    c.fetch_add(n, Ordering::Relaxed);
}

/// Borrow a C buffer; NULL with length 0 is the empty slice.
fn slice<'a>(p: *const u8, len: usize) -> KvResult<&'a [u8]> {
    if len == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(Fail::invalid("NULL buffer with non-zero length"));
    }
    // SAFETY: C guarantees `p` points at `len` readable bytes for this call.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

fn c_str<'a>(p: *const c_char, what: &str) -> KvResult<&'a str> {
    if p.is_null() {
        return Err(Fail::invalid(format!("{what} is NULL")));
    }
    // SAFETY: C passes a NUL-terminated string.
    unsafe { CStr::from_ptr(p) }
        .to_str()
        .map_err(|_| Fail::invalid(format!("{what} is not valid UTF-8")))
}

/// Copy bytes into a malloc'd buffer C can free(). Never returns NULL on
/// success: a zero-length value still gets a 1-byte allocation.
fn malloc_copy(data: &[u8]) -> KvResult<*mut u8> {
    // SAFETY: plain malloc; we check for NULL.
    let p = unsafe { libc::malloc(data.len().max(1)) } as *mut u8;
    if p.is_null() {
        return Err(Fail::new(KV_ERR_INTERNAL, "out of memory"));
    }
    // SAFETY: p has room for data.len() bytes and does not overlap data.
    unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
    Ok(p)
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------

/// kv_options with zeros replaced by RockLake's defaults.
#[derive(Clone, Copy)]
struct Opts {
    flush_interval: Duration,
    block_cache_bytes: u64,
    reader_poll_interval: Duration,
    scan_read_ahead_bytes: usize,
    scan_fetch_tasks: usize,
    store_timeout: Duration,
    /// followers on an object store: the longest wait between polls once
    /// idle (`Backoff`); zero: no backoff
    follower_poll_max: Duration,
}

fn or_default(v: u64, d: u64) -> u64 {
    if v == 0 {
        d
    } else {
        v
    }
}

fn resolve_opts(p: *const SlateOptions) -> Opts {
    // SAFETY: NULL or a valid slate_options.
    let o = if p.is_null() {
        SlateOptions::default()
    } else {
        unsafe { *p }
    };
    Opts {
        flush_interval: Duration::from_millis(or_default(o.flush_interval_ms, 10)),
        block_cache_bytes: or_default(o.block_cache_bytes, 256 << 20),
        reader_poll_interval: Duration::from_millis(or_default(
            o.reader_poll_interval_ms,
            READER_POLL_MS,
        )),
        scan_read_ahead_bytes: or_default(o.scan_read_ahead_bytes, 1 << 20) as usize,
        scan_fetch_tasks: or_default(o.scan_fetch_tasks as u64, 8) as usize,
        store_timeout: Duration::from_millis(or_default(
            o.store_timeout_ms as u64,
            DEFAULT_STORE_TIMEOUT_MS,
        )),
        follower_poll_max: match o.follower_poll_max_ms {
            0 => Duration::from_millis(DEFAULT_FOLLOWER_POLL_MAX_MS),
            ms if ms < 0 => Duration::ZERO,
            ms => Duration::from_millis(ms as u64),
        },
    }
}

/// kv_options.follower_poll_max_ms when 0 (see kv.h): an idle follower on
/// S3 then makes ~5 requests a second instead of ~100, and shows the first
/// commit after a quiet spell within about a second (docs/operations.md
/// "Followers").
const DEFAULT_FOLLOWER_POLL_MAX_MS: u64 = 1000;

/// What of a WAL object is no news to a follower (slate_options'
/// quiet_key / quiet_prefix): puts of the writer lease (its heartbeat
/// rewrites it every 2 s) and the kv layer's own keys that come with them.
/// A WAL object holding only these does not end a follower's idle backoff;
/// any other entry does, and so does the lease's delete (its writer
/// stopped: a standby promotes on it).
#[derive(Clone, Default)]
struct Quiet {
    key: Vec<u8>,
    prefix: Vec<u8>,
}

impl Quiet {
    /// # Safety
    /// The pointers of a non-NULL `p` name `len` readable bytes each.
    unsafe fn of(p: *const SlateOptions) -> Quiet {
        let Some(o) = (unsafe { p.as_ref() }) else { return Quiet::default() };
        let bytes = |ptr: *const u8, len: u64| {
            if ptr.is_null() || len == 0 {
                Vec::new()
            } else {
                // SAFETY: the caller's promise
                unsafe { std::slice::from_raw_parts(ptr, len as usize) }.to_vec()
            }
        };
        Quiet {
            key: bytes(o.quiet_key, o.quiet_key_len),
            prefix: bytes(o.quiet_prefix, o.quiet_prefix_len),
        }
    }

    fn is_quiet(&self, e: &slatedb::RowEntry) -> bool {
        if !self.prefix.is_empty() && e.key.starts_with(&self.prefix) {
            return true;
        }
        !self.key.is_empty()
            && e.key.as_ref() == self.key.as_slice()
            && matches!(e.value, slatedb::ValueDeletable::Value(_))
    }
}

/// kv_options.store_timeout_ms when 0 (see kv.h).
const DEFAULT_STORE_TIMEOUT_MS: u64 = 30_000;

/// Waits for durability (a WAL flush, a write's await_durable) end after
/// the store timeout whatever the object store is doing: the request
/// timeouts and retry budget below bound each request, this bounds the wait.
async fn bounded<T>(
    limit: Duration,
    what: &str,
    f: impl std::future::Future<Output = Result<T, slatedb::Error>>,
) -> KvResult<T> {
    match tokio::time::timeout(limit, f).await {
        Ok(r) => r.map_err(Fail::from),
        Err(_) => Err(Fail::new(
            KV_ERR_IO,
            format!(
                "the object store did not confirm {what} within the store timeout of {} ms",
                limit.as_millis()
            ),
        )),
    }
}

/// Bounded retries so an unreachable object store surfaces as KV_ERR_IO
/// instead of blocking a caller forever (SlateDB's default is unbounded).
const OBJECT_STORE_MAX_RETRIES: u32 = 4;

/// Block cache sized from the options, plus a smaller cache for SST indexes
/// and filters. Owned by the handle (SlateDB does not close a caller's cache).
fn make_cache(opts: &Opts) -> Arc<dyn DbCache> {
    let moka = |bytes: u64| -> Option<Arc<dyn DbCache>> {
        Some(Arc::new(MokaCache::new_with_opts(MokaCacheOptions {
            max_capacity: bytes,
            time_to_live: None,
            time_to_idle: None,
        })))
    };
    let meta_bytes = (opts.block_cache_bytes / 4).max(16 << 20);
    Arc::new(
        SplitCache::new()
            .with_block_cache(moka(opts.block_cache_bytes))
            .with_meta_cache(moka(meta_bytes))
            .build(),
    )
}

fn scan_options(opts: &Opts) -> ScanOptions {
    ScanOptions::default()
        .with_read_ahead_bytes(opts.scan_read_ahead_bytes)
        .with_max_fetch_tasks(opts.scan_fetch_tasks)
        .with_cache_blocks(true)
}

// ---------------------------------------------------------------------------
// Store URLs
// ---------------------------------------------------------------------------

/// Stores opened as memory://NAME, shared by every handle in this process.
fn memory_registry() -> &'static Mutex<HashMap<String, Arc<InMemory>>> {
    static REG: OnceLock<Mutex<HashMap<String, Arc<InMemory>>>> = OnceLock::new();
    REG.get_or_init(|| Mutex::new(HashMap::new()))
}

fn memory_store(name: &str) -> KvResult<(Arc<dyn ObjectStore>, Path)> {
    if name.is_empty() {
        return Err(Fail::invalid(
            "memory:// URL needs a name, e.g. memory://cat",
        ));
    }
    let mut reg = memory_registry()
        .lock()
        .map_err(|_| Fail::new(KV_ERR_INTERNAL, "memory store registry poisoned"))?;
    let store = reg
        .entry(name.to_string())
        .or_insert_with(|| Arc::new(InMemory::new()))
        .clone();
    Ok((store, Path::from("")))
}

/// A local directory as an object store rooted at that directory, so the
/// SlateDB files (manifest/, wal/, compacted/) sit directly inside it.
/// Only a writer (`create`) makes the directory: a reader of a missing one
/// gets "no store at" and leaves nothing behind.
///
/// The store is rooted at an open descriptor of the directory, not at its
/// name (DirRootedStore): a store directory moved while open keeps
/// receiving its own files where it went, and one removed while open makes
/// every write fail, instead of SlateDB's background flushes, compactions
/// and close writing by name into whatever directory is at that path now
/// (another store, or an empty one an operator made). PostgreSQL chdirs
/// into its data directory for the same reason.
fn local_store(dir: &std::path::Path, create: bool) -> KvResult<(Arc<dyn ObjectStore>, Path)> {
    let abs = if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| Fail::new(KV_ERR_IO, format!("current dir: {e}")))?
            .join(dir)
    };
    if !create && !abs.is_dir() {
        return Err(Fail::new(
            KV_ERR_NO_STORE,
            format!("no store at {} (no such directory)", abs.display()),
        ));
    }
    std::fs::create_dir_all(&abs)
        .map_err(|e| Fail::new(KV_ERR_IO, format!("cannot create {}: {e}", abs.display())))?;
    // fsync written files and their directories: an acknowledged commit on
    // file:// must survive a power loss, not only a process crash.
    match DirRootedStore::open(&abs)? {
        Some(rooted) => {
            let root = rooted.root.clone();
            Ok((Arc::new(rooted), root))
        }
        None => {
            let fs = LocalFileSystem::new_with_prefix(&abs)?.with_fsync(true);
            Ok((Arc::new(fs), Path::from("")))
        }
    }
}

/// A local store whose every path goes through an open descriptor of its
/// directory: the object paths are /proc/self/fd/N/..., which the kernel
/// resolves through the descriptor to the directory itself, wherever it is
/// now. The store owns the descriptor, so it stays open while anything
/// (SlateDB's background tasks, a reader closing on the runtime) still
/// holds the store, and its number can never name another file meanwhile.
///
/// Invariant: `root` is "proc/self/fd/N" for the descriptor `_dir` this
/// store owns; every call is LocalFileSystem's, unchanged but for the text
/// of an I/O failure, which names the store's path as opened.
#[derive(Debug)]
struct DirRootedStore {
    inner: LocalFileSystem,
    /// held, never read: owning it keeps the descriptor `root` names open
    _dir: std::os::fd::OwnedFd,
    root: Path,
    shown: std::path::PathBuf,
}

impl DirRootedStore {
    /// None where /proc/self/fd does not resolve descriptors (no procfs
    /// mounted): the caller roots the store at the directory's name.
    fn open(dir: &std::path::Path) -> KvResult<Option<Self>> {
        use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
        use std::os::unix::ffi::OsStrExt;
        let cpath = std::ffi::CString::new(dir.as_os_str().as_bytes())
            .map_err(|_| Fail::invalid(format!("store path {} holds a NUL", dir.display())))?;
        // SAFETY: a NUL-terminated path; the result is checked.
        let fd = unsafe {
            libc::open(cpath.as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC)
        };
        if fd < 0 {
            let e = std::io::Error::last_os_error();
            return Err(Fail::new(KV_ERR_IO, format!("cannot open {}: {e}", dir.display())));
        }
        // SAFETY: fd was just opened and nothing else owns it.
        let dir_fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let via = format!("/proc/self/fd/{}", dir_fd.as_raw_fd());
        let same = match (std::fs::metadata(&via), std::fs::metadata(dir)) {
            (Ok(a), Ok(b)) => {
                use std::os::unix::fs::MetadataExt;
                a.is_dir() && a.dev() == b.dev() && a.ino() == b.ino()
            }
            _ => false,
        };
        if !same {
            return Ok(None);
        }
        Ok(Some(DirRootedStore {
            inner: LocalFileSystem::new().with_fsync(true),
            _dir: dir_fd,
            root: Path::from(&via[1..]),
            shown: dir.to_path_buf(),
        }))
    }
}

impl DirRootedStore {
    /// An I/O failure names the file through /proc/self/fd/N, which says
    /// nothing to an operator: name it by the store's path as opened.
    /// Only `Generic` (an I/O failure) is rewritten; the other kinds keep
    /// their meaning and fields, which SlateDB acts on.
    fn shown_error(via: &str, shown: &str, e: object_store::Error) -> object_store::Error {
        match e {
            object_store::Error::Generic { store, source } => {
                let msg = source.to_string();
                if !msg.contains(via) {
                    return object_store::Error::Generic { store, source };
                }
                let text = format!(
                    "{} (in the store directory this server opened at {shown}, wherever it is now)",
                    msg.replace(via, shown)
                );
                object_store::Error::Generic {
                    store,
                    source: text.into(),
                }
            }
            other => other,
        }
    }

    fn err(&self) -> impl Fn(object_store::Error) -> object_store::Error + Send + 'static {
        let via = format!("/{}", self.root);
        let shown = self.shown.display().to_string();
        move |e| Self::shown_error(&via, &shown, e)
    }
}

impl std::fmt::Display for DirRootedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LocalFileSystem({}, as /{})", self.shown.display(), self.root)
    }
}

#[async_trait::async_trait]
impl ObjectStore for DirRootedStore {
    // every call is LocalFileSystem's; only an I/O failure's text changes
    async fn put_opts(
        &self,
        location: &Path,
        payload: object_store::PutPayload,
        opts: object_store::PutOptions,
    ) -> object_store::Result<object_store::PutResult> {
        self.inner.put_opts(location, payload, opts).await.map_err(self.err())
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: object_store::PutMultipartOptions,
    ) -> object_store::Result<Box<dyn object_store::MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await.map_err(self.err())
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        self.inner.get_opts(location, options).await.map_err(self.err())
    }

    async fn get_ranges(
        &self,
        location: &Path,
        ranges: &[std::ops::Range<u64>],
    ) -> object_store::Result<Vec<Bytes>> {
        self.inner.get_ranges(location, ranges).await.map_err(self.err())
    }

    fn delete_stream(
        &self,
        locations: futures_util::stream::BoxStream<'static, object_store::Result<Path>>,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations).map_err(self.err()).boxed()
    }

    fn list(
        &self,
        prefix: Option<&Path>,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>>
    {
        self.inner.list(prefix).map_err(self.err()).boxed()
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>>
    {
        self.inner.list_with_offset(prefix, offset).map_err(self.err()).boxed()
    }

    async fn list_with_delimiter(
        &self,
        prefix: Option<&Path>,
    ) -> object_store::Result<object_store::ListResult> {
        self.inner.list_with_delimiter(prefix).await.map_err(self.err())
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: object_store::CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await.map_err(self.err())
    }

    async fn rename_opts(
        &self,
        from: &Path,
        to: &Path,
        options: object_store::RenameOptions,
    ) -> object_store::Result<()> {
        self.inner.rename_opts(from, to, options).await.map_err(self.err())
    }
}

/// s3://bucket/prefix; everything else (credentials, region, endpoint,
/// AWS_ALLOW_HTTP) comes from the AWS_* environment. Path-style requests are
/// object_store's default, which is what S3-compatible servers need.
///
/// `timeout` bounds each request (and the connect within it) and the time
/// object_store keeps retrying one (5xx, throttling, connection errors), so
/// an unreachable or failing store surfaces as an error instead of a wait
/// of minutes (object_store's defaults: 30 s per request, 10 retries within
/// 3 minutes).
fn s3_store(url: &url::Url, timeout: Duration) -> KvResult<(Arc<dyn ObjectStore>, Path)> {
    let bucket = url
        .host_str()
        .filter(|b| !b.is_empty())
        .ok_or_else(|| Fail::invalid("s3:// URL needs a bucket: s3://bucket/prefix"))?;
    let ms = |d: Duration| format!("{}ms", d.as_millis().max(1));
    let retry = RetryConfig {
        backoff: BackoffConfig::default(),
        max_retries: 10,
        retry_timeout: timeout,
    };
    let s3 = AmazonS3Builder::from_env()
        .with_bucket_name(bucket)
        .with_config(AmazonS3ConfigKey::Client(ClientConfigKey::Timeout), ms(timeout))
        .with_config(
            AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout),
            ms(timeout.min(Duration::from_secs(5))),
        )
        .with_retry(retry)
        // Every request runs on the shared runtime. Without this a request
        // ran on the runtime of whoever made it, and so did the connection
        // it opened: reads block on a runtime of the calling C thread
        // (block_on_read), which runs only while that thread reads, yet the
        // connection went back to the client's pool for everyone. A WAL
        // write (on the shared runtime) that picked it up then waited until
        // that thread read again: the promoted or newly opened writer's
        // epoch write, its thread blocked on that very write, never went out
        // and failed after the 30 s request timeout (seen in about one
        // promotion in five of the 100k-file lake at 25 ms, and in cold
        // opens and lease renewals since Round 20: docs/benchmarks.md
        // Round 27).
        .with_http_connector(object_store::client::SpawnedReqwestConnector::new(
            runtime().handle().clone(),
        ))
        .build()?;
    let prefix = url.path().trim_matches('/');
    Ok((Arc::new(s3), Path::from(prefix)))
}

/// The object store and path of a store URL; `create`: a writer's open,
/// which may make a local directory (local_store).
fn resolve_url(raw: &str, opts: &Opts, create: bool) -> KvResult<(Arc<dyn ObjectStore>, Path)> {
    if raw.is_empty() {
        return Err(Fail::invalid("empty store URL"));
    }
    let Some((scheme, rest)) = raw.split_once("://") else {
        return local_store(std::path::Path::new(raw), create);
    };
    match scheme {
        "memory" => memory_store(rest),
        "file" => {
            let u =
                url::Url::parse(raw).map_err(|e| Fail::invalid(format!("bad URL {raw}: {e}")))?;
            let p = u.to_file_path().map_err(|_| {
                Fail::invalid(format!("file URL must be file:///absolute/path: {raw}"))
            })?;
            local_store(&p, create)
        }
        "s3" => {
            let u =
                url::Url::parse(raw).map_err(|e| Fail::invalid(format!("bad URL {raw}: {e}")))?;
            s3_store(&u, opts.store_timeout)
        }
        other => Err(Fail::invalid(format!(
            "unsupported store URL scheme '{other}://' (accepted: file:///abs/path, a plain path, \
             memory://NAME, s3://bucket/prefix)"
        ))),
    }
}

// ---------------------------------------------------------------------------
// kv_db
// ---------------------------------------------------------------------------

// One per open handle, so the size difference between variants is irrelevant.
#[allow(clippy::large_enum_variant)]
enum Engine {
    Writer(Db),
    Reader(DbReader),
}

pub struct KvDb {
    engine: Engine,
    opts: Opts,
    cache: Arc<dyn DbCache>,
    store: Arc<dyn ObjectStore>,
    path: Path,
    /// Readers: the newest pinned view handed out by slate_snapshot_new,
    /// reused while it is still current (see `reader_view`).
    view: Mutex<Option<Arc<View>>>,
    /// Followers (readers that keep a checkpoint): the store their views
    /// open against, answering from what the reader saw (`FollowStore`).
    view_store: Option<Arc<dyn ObjectStore>>,
    /// Followers: what their reader and WAL prober saw (`FollowShared`).
    follow: Option<Arc<FollowShared>>,
    /// Writers: their compactor (`BackgroundCompactor`).
    compactor: Option<Arc<BackgroundCompactor>>,
    /// Writers: the close slate_shutdown started, if any.
    closing: Mutex<Option<Closing>>,
    /// The handles using `cache` (a promoted writer shares its follower's:
    /// `open_writer`); the last one to close closes it.
    cache_users: Arc<AtomicU64>,
    /// The store URL as opened (a promotion checks its follower's).
    url: String,
}

enum Closing {
    Running(tokio::task::JoinHandle<Result<(), slatedb::Error>>),
    Done,
}

// ---------------------------------------------------------------------------
// A follower's store: what its reader read, shared with its pinned views
// ---------------------------------------------------------------------------

/// What a follower's reader learnt of the store, kept for its pinned views
/// (`open_view`). A view is a reader of its own; opened against the bare
/// store it reads the latest manifest and every WAL object since the last
/// L0 flush again (tens to hundreds of requests in series, seconds at
/// 25 ms per request, growing with each commit). Opened against the same
/// state through `FollowStore`, it makes no request at all: WAL objects and
/// manifests are immutable once written (SlateDB writes each id once, with
/// put-if-absent), so their bytes are cached whole; listings and "is there
/// a WAL object N" are answered as the follower's reader (and, for WAL
/// objects, its prober: `probe_wal`) last saw them, so a view holds the
/// state the follower has seen, never an older one (reader_view: the
/// follower is that stale anyway).
///
/// Invariants: `objects` holds only immutable objects (`immutable`), each
/// whole; `bytes` is the sum of their sizes and stays under
/// FOLLOW_CACHE_BYTES (oldest evicted first); `wal_seen` only grows.
struct FollowShared {
    cache: Mutex<ObjCache>,
    /// the reader's last listing of each prefix (its manifest directory)
    lists: Mutex<HashMap<String, Vec<object_store::ObjectMeta>>>,
    /// the highest WAL id the reader has seen exist
    wal_seen: AtomicU64,
    /// the highest manifest id the reader has seen exist
    manifest_seen: AtomicU64,
    /// the GC boundaries (gc/<name>.boundary) as the reader last read
    /// them; None: there was none (a lake whose GC never ran)
    boundaries: Mutex<HashMap<String, Option<(object_store::ObjectMeta, Bytes)>>>,
    /// set when the follower closes: its WAL prober stops (`probe_wal`)
    stop: std::sync::atomic::AtomicBool,
    /// how long its reader's poll and its WAL prober wait (`Backoff`)
    backoff: Backoff,
    /// what of a new WAL object is no news (`Quiet`)
    quiet: Quiet,
}

/// A follower's idle backoff (object stores: there every poll is billed
/// requests). Its reader's poll (`BackoffTicks`) and its WAL prober
/// (`probe_wal`) wait their fast interval while the follower has seen news
/// within the last `max` (a commit of the writer: a WAL object with an
/// entry that is not `Quiet`); past that each wait lasts as long as the
/// quiet beyond `max` has, so the waits double, up to `max`. News seen by
/// either ends every wait at once and makes them fast again.
///
/// So: writes less than `max` apart are followed as fast as without it; a
/// first commit after a quiet spell shows within `max` (plus one request);
/// an idle follower polls every `max`. Invariant: `wait` is never below
/// the fast interval, nor above max(`max`, the fast interval); `max` zero
/// is no backoff.
struct Backoff {
    max: Duration,
    epoch: Instant,
    /// when news was last seen, in ns since `epoch` (the open counts)
    news_ns: AtomicU64,
    wake: tokio::sync::Notify,
}

impl Backoff {
    fn new(max: Duration) -> Self {
        Backoff {
            max,
            epoch: Instant::now(),
            news_ns: AtomicU64::new(0),
            wake: tokio::sync::Notify::new(),
        }
    }

    fn quiet_for(&self) -> Duration {
        let news = Duration::from_nanos(self.news_ns.load(Ordering::Relaxed));
        self.epoch.elapsed().saturating_sub(news)
    }

    /// How long a loop whose fast interval is `fast` waits now.
    fn wait(&self, fast: Duration) -> Duration {
        self.wait_up_to(fast, self.max)
    }

    /// `wait`, with its waits growing up to `cap` (from `max` of quiet on).
    fn wait_up_to(&self, fast: Duration, cap: Duration) -> Duration {
        if self.max.is_zero() {
            return fast;
        }
        let idle = self.quiet_for().saturating_sub(self.max);
        let w = idle.clamp(fast, cap.max(fast));
        debug_assert!(w >= fast && w <= cap.max(fast));
        w
    }

    fn news(&self) {
        let now = self.epoch.elapsed().as_nanos() as u64;
        self.news_ns.fetch_max(now, Ordering::Relaxed);
        self.wake.notify_waiters();
    }

    /// Wait `d` plus what the backoff adds to the fast interval `fast`
    /// (waits up to `cap`); news ends the added part.
    async fn sleep(&self, d: Duration, fast: Duration, cap: Duration) {
        let extra = self.wait_up_to(fast, cap).saturating_sub(fast);
        if extra.is_zero() {
            tokio::time::sleep(d).await;
            return;
        }
        // created before the wait: notify_waiters reaches it from here on
        let woken = self.wake.notified();
        tokio::select! {
            _ = tokio::time::sleep(d + extra) => {}
            _ = woken => {}
        }
    }
}

/// What SystemClock::sleep returns.
type Sleep<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'a>>;

/// The ticks of a follower's reader with a backoff (its clock is
/// `TickedBy<BackoffTicks>`): its poll's ticker waits as `Backoff` says
/// (its ticker is the reader's only one: the manifest poll, `fast` apart),
/// up to READER_IDLE_FACTOR times the backoff's max once the WAL prober
/// runs: the prober finds a new commit (and the lease's renewals, which
/// views hold) within the max by itself, and each poll of the reader is
/// some ten requests (the next manifest, the GC boundary, SlateDB's probe
/// of the next WAL objects in parallel), so at the max it made most of an
/// idle follower's requests. Before the prober has a WAL object to go on
/// from (`probe_wal`) the reader finds the next one, and waits at most the
/// max. Never more than READER_IDLE_LIMIT.
struct BackoffTicks {
    real: DefaultSystemClock,
    shared: Arc<FollowShared>,
    fast: Duration,
}

impl std::fmt::Debug for BackoffTicks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BackoffTicks({:?})", self.fast)
    }
}

/// See `BackoffTicks`.
const READER_IDLE_FACTOR: u32 = 4;
/// The longest a follower's reader waits between polls whatever the max:
/// its managed checkpoint (SlateDB's default lifetime, 10 minutes) is
/// renewed at a poll once half of it has passed, and an expired one lets
/// the writer's GC delete files the reader still reads.
const READER_IDLE_LIMIT: Duration = Duration::from_secs(60);

impl SystemClock for BackoffTicks {
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.real.now()
    }
    fn sleep<'a>(&'a self, d: Duration) -> Sleep<'a> {
        let b = &self.shared.backoff;
        let probing = self.shared.wal_seen.load(Ordering::Relaxed) > 0;
        let cap = if probing { b.max * READER_IDLE_FACTOR } else { b.max };
        Box::pin(b.sleep(d, self.fast, cap.min(READER_IDLE_LIMIT)))
    }
    fn ticker<'a>(&'a self, d: Duration) -> SystemClockTicker<'a> {
        SystemClockTicker::new(self, d)
    }
}

#[derive(Default)]
struct ObjCache {
    objects: HashMap<String, (object_store::ObjectMeta, Bytes)>,
    order: std::collections::VecDeque<String>,
    bytes: usize,
}

/// WAL objects and manifests of a follower kept in memory, per lake: a
/// commit's WAL object is a few KiB, a manifest some KiB per thousand
/// tables. A view whose WAL objects were dropped reads them from the store
/// (slower, as before FollowStore, not wrong).
const FOLLOW_CACHE_BYTES: usize = 32 << 20;

/// wal/<id>.sst and manifest/<id>.manifest: written once, never changed.
fn immutable(p: &Path) -> bool {
    in_dir(p, "wal", ".sst").is_some() || in_dir(p, "manifest", ".manifest").is_some()
}

/// gc/<name>.boundary: rewritten in place as the writer's GC moves on.
fn boundary(p: &Path) -> bool {
    in_dir(p, "gc", ".boundary").is_some()
}

/// The stem of <dir>/<stem><ext>: the file's name without `ext` when its
/// directory is `dir` and its name ends with `ext`.
fn in_dir(p: &Path, dir: &str, ext: &str) -> Option<String> {
    let parts: Vec<_> = p.parts().collect();
    let n = parts.len();
    if n < 2 || parts[n - 2].as_ref() != dir {
        return None;
    }
    parts[n - 1].as_ref().strip_suffix(ext).map(str::to_owned)
}

/// The id of <dir>/<id>.<ext>.
fn object_id(p: &Path, dir: &str, ext: &str) -> Option<u64> {
    in_dir(p, dir, ext)?.parse().ok()
}

fn wal_id(p: &Path) -> Option<u64> {
    object_id(p, "wal", ".sst")
}

fn manifest_id(p: &Path) -> Option<u64> {
    object_id(p, "manifest", ".manifest")
}

impl FollowShared {
    fn new(backoff_max: Duration, quiet: Quiet) -> Arc<Self> {
        Arc::new(FollowShared {
            cache: Mutex::new(ObjCache::default()),
            lists: Mutex::new(HashMap::new()),
            wal_seen: AtomicU64::new(0),
            manifest_seen: AtomicU64::new(0),
            boundaries: Mutex::new(HashMap::new()),
            stop: std::sync::atomic::AtomicBool::new(false),
            backoff: Backoff::new(backoff_max),
            quiet,
        })
    }

    fn cached(&self, key: &str) -> Option<(object_store::ObjectMeta, Bytes)> {
        self.cache.lock().ok()?.objects.get(key).cloned()
    }

    fn insert(&self, key: String, meta: object_store::ObjectMeta, data: Bytes) {
        let Ok(mut c) = self.cache.lock() else { return };
        if data.len() > FOLLOW_CACHE_BYTES / 4 || c.objects.contains_key(&key) {
            return;
        }
        c.bytes += data.len();
        c.order.push_back(key.clone());
        c.objects.insert(key, (meta, data));
        while c.bytes > FOLLOW_CACHE_BYTES {
            let Some(old) = c.order.pop_front() else { break };
            if let Some((_, d)) = c.objects.remove(&old) {
                c.bytes -= d.len();
            }
        }
    }

    fn saw(&self, p: &Path) {
        if let Some(id) = wal_id(p) {
            self.wal_seen.fetch_max(id, Ordering::Relaxed);
        }
        if let Some(id) = manifest_id(p) {
            self.manifest_seen.fetch_max(id, Ordering::Relaxed);
        }
    }

    /// The reader read a manifest: its views' listing of the manifests
    /// names it (the reader finds new manifests by reading the next id,
    /// not by listing), so a view opens at the manifest the reader has.
    fn listed(&self, meta: &object_store::ObjectMeta) {
        if manifest_id(&meta.location).is_none() {
            return;
        }
        let parts: Vec<_> = meta.location.parts().collect();
        let dir = Path::from_iter(parts[..parts.len() - 1].iter().cloned()).to_string();
        let Ok(mut l) = self.lists.lock() else { return };
        let Some(items) = l.get_mut(&dir) else { return };
        // ids are zero-padded: names sort as the ids do
        if items.last().is_none_or(|last| last.location.as_ref() < meta.location.as_ref()) {
            items.push(meta.clone());
        }
    }

    /// Is `p` a WAL object or manifest newer than any the reader has seen
    /// (so, for a view, one that does not exist yet)?
    fn beyond(&self, p: &Path) -> bool {
        wal_id(p).is_some_and(|id| id > self.wal_seen.load(Ordering::Relaxed))
            || manifest_id(p).is_some_and(|id| id > self.manifest_seen.load(Ordering::Relaxed))
    }
}

/// The follower's reader (`view` false: every request goes to the store,
/// what it learns is kept) or one of its pinned views (`view` true: served
/// from what the reader learnt where that is the same answer).
#[derive(Clone)]
struct FollowStore {
    inner: Arc<dyn ObjectStore>,
    shared: Arc<FollowShared>,
    view: bool,
}

impl std::fmt::Debug for FollowStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FollowStore({}, view: {})", self.inner, self.view)
    }
}

impl std::fmt::Display for FollowStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

fn not_found(p: &Path) -> object_store::Error {
    object_store::Error::NotFound {
        path: p.to_string(),
        source: "beyond what the follower has seen".into(),
    }
}

impl FollowStore {
    fn result(
        meta: object_store::ObjectMeta,
        data: Bytes,
        options: &object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        let range = match &options.range {
            Some(r) => r.as_range(meta.size).map_err(|e| object_store::Error::Generic {
                store: "follower",
                source: e.to_string().into(),
            })?,
            None => 0..meta.size,
        };
        let body = if options.head {
            Bytes::new()
        } else {
            data.slice(range.start as usize..range.end as usize)
        };
        Ok(object_store::GetResult {
            payload: object_store::GetResultPayload::Stream(
                futures_util::stream::once(async move { Ok(body) }).boxed(),
            ),
            meta,
            range,
            attributes: Default::default(),
            extensions: Default::default(),
        })
    }

    async fn get_immutable(
        &self,
        location: &Path,
        options: object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        let key = location.to_string();
        if let Some((meta, data)) = self.shared.cached(&key) {
            return Self::result(meta, data, &options);
        }
        // a view asks only for what the reader saw: a WAL object or
        // manifest beyond it is one the follower has not applied
        if self.view && self.shared.beyond(location) {
            return Err(not_found(location));
        }
        let whole = object_store::GetOptions {
            extensions: options.extensions.clone(),
            ..Default::default()
        };
        let got = self.inner.get_opts(location, whole).await?;
        let meta = got.meta.clone();
        let data = got.bytes().await?;
        // cached before it is announced: a view opened once wal_seen names
        // it finds it in memory
        self.shared.insert(key, meta.clone(), data.clone());
        if !self.view {
            let fresh = wal_id(location)
                .filter(|id| *id > self.shared.wal_seen.load(Ordering::Relaxed));
            if let Some(id) = fresh.filter(|_| !self.shared.backoff.max.is_zero()) {
                if self.wal_has_news(location, id).await {
                    self.shared.backoff.news();
                }
            }
            self.shared.saw(location);
            self.shared.listed(&meta);
        }
        Self::result(meta, data, &options)
    }
}

impl FollowStore {
    /// Does WAL object `id` (at `location`, just cached) hold a write that
    /// is not `Quiet`? Read from the cache through a view (no request); one
    /// that cannot be read counts as news.
    async fn wal_has_news(&self, location: &Path, id: u64) -> bool {
        let parts: Vec<_> = location.parts().collect();
        if parts.len() < 2 {
            return true;
        }
        let db_path = Path::from_iter(parts[..parts.len() - 2].iter().cloned());
        let view: Arc<dyn ObjectStore> = Arc::new(FollowStore {
            inner: self.inner.clone(),
            shared: self.shared.clone(),
            view: true,
        });
        let wal = slatedb::WalReader::new(db_path, view).get(id);
        let Ok(mut it) = wal.iterator().await else { return true };
        loop {
            match it.next().await {
                Ok(Some(e)) if self.shared.quiet.is_quiet(&e) => continue,
                Ok(None) => return false,
                _ => return true,
            }
        }
    }

    /// A view reads the boundary the reader last read (its manifest is
    /// one the reader saw with it); the reader reads the store and keeps it.
    async fn get_boundary(
        &self,
        location: &Path,
        options: object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        let key = location.to_string();
        if self.view {
            let known = self.shared.boundaries.lock().ok().and_then(|b| b.get(&key).cloned());
            let Some(known) = known else {
                return self.inner.get_opts(location, options).await;
            };
            let Some((meta, data)) = known else {
                return Err(not_found(location));
            };
            if options.if_none_match.is_some() && options.if_none_match == meta.e_tag {
                return Err(object_store::Error::NotModified {
                    path: key,
                    source: "unchanged since the follower read it".into(),
                });
            }
            return Self::result(meta, data, &options);
        }
        let got = match self.inner.get_opts(location, options.clone()).await {
            Ok(got) => got,
            Err(e @ object_store::Error::NotFound { .. }) => {
                if let Ok(mut b) = self.shared.boundaries.lock() {
                    b.insert(key, None);
                }
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        let meta = got.meta.clone();
        let data = got.bytes().await?;
        if let Ok(mut b) = self.shared.boundaries.lock() {
            b.insert(key, Some((meta.clone(), data.clone())));
        }
        Self::result(meta, data, &object_store::GetOptions { range: None, ..options })
    }
}

#[async_trait::async_trait]
impl ObjectStore for FollowStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: object_store::PutPayload,
        opts: object_store::PutOptions,
    ) -> object_store::Result<object_store::PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: object_store::PutMultipartOptions,
    ) -> object_store::Result<Box<dyn object_store::MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        let plain = options.if_match.is_none()
            && options.if_none_match.is_none()
            && options.if_modified_since.is_none()
            && options.if_unmodified_since.is_none()
            && options.version.is_none();
        if plain && immutable(location) {
            return self.get_immutable(location, options).await;
        }
        if !options.head && options.range.is_none() && boundary(location) {
            return self.get_boundary(location, options).await;
        }
        self.inner.get_opts(location, options).await
    }

    async fn get_ranges(
        &self,
        location: &Path,
        ranges: &[std::ops::Range<u64>],
    ) -> object_store::Result<Vec<Bytes>> {
        if !immutable(location) {
            return self.inner.get_ranges(location, ranges).await;
        }
        let got = self.get_immutable(location, Default::default()).await?;
        let data = got.bytes().await?;
        Ok(ranges.iter().map(|r| data.slice(r.start as usize..r.end as usize)).collect())
    }

    fn delete_stream(
        &self,
        locations: futures_util::stream::BoxStream<'static, object_store::Result<Path>>,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(
        &self,
        prefix: Option<&Path>,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>>
    {
        let key = prefix.map(|p| p.to_string()).unwrap_or_default();
        if self.view {
            let known = self.shared.lists.lock().ok().and_then(|l| l.get(&key).cloned());
            if let Some(items) = known {
                return futures_util::stream::iter(items.into_iter().map(Ok)).boxed();
            }
            return self.inner.list(prefix);
        }
        // the reader's listing, kept whole for the views that follow it
        let inner = self.inner.list(prefix);
        let shared = self.shared.clone();
        futures_util::stream::once(async move {
            let items: Vec<object_store::ObjectMeta> = inner.try_collect().await?;
            for m in &items {
                shared.saw(&m.location);
            }
            if let Ok(mut l) = shared.lists.lock() {
                l.insert(key, items.clone());
            }
            Ok::<_, object_store::Error>(items)
        })
        .map_ok(|items| futures_util::stream::iter(items.into_iter().map(Ok)))
        .try_flatten()
        .boxed()
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>>
    {
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(
        &self,
        prefix: Option<&Path>,
    ) -> object_store::Result<object_store::ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: object_store::CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(
        &self,
        from: &Path,
        to: &Path,
        options: object_store::RenameOptions,
    ) -> object_store::Result<()> {
        self.inner.rename_opts(from, to, options).await
    }
}

/// What a follower's WAL prober waits after a probe that found nothing
/// (at 25 ms per request an idle follower's prober makes some 30 GETs a
/// second, beside its reader's poll), and after a failed one.
const WAL_PROBE_IDLE: Duration = Duration::from_millis(5);
const WAL_PROBE_BACKOFF: Duration = Duration::from_millis(100);

/// A follower's WAL prober (`open_reader`, followers on an object store):
/// asks the store again and again for the WAL object after the highest one
/// the follower has seen, and when it is there keeps it (`get_immutable`:
/// cached, then `wal_seen` moves on). The follower's reader learns of a
/// commit only at its poll's WAL probe, which SlateDB makes after two
/// other round trips (the next manifest's id, then the GC boundary), so a
/// commit waited one poll (three round trips) and up to one more; the
/// prober sees it one round trip after it is durable, and the views
/// (`reader_view`) open from what the follower has seen, so a snapshot
/// shows it without waiting for the reader's poll, whose own probe of it
/// is then answered from memory.
///
/// Why a view that has WAL objects the reader has not applied is a state
/// the store had: WAL ids are written once each, in order, with
/// put-if-absent, and a view replays on top of the reader's manifest M
/// every WAL object from M's replay point up to the highest id seen, F, all
/// of which existed (a found object is immutable; an id is "seen" only
/// once its bytes are cached). That is every write up to WAL F, what a
/// reader that had read M and then probed the WAL at the prober's moment
/// would hold: SlateDB's reader itself replays new WAL objects on an older
/// manifest between manifest changes. Only objects found are used: a
/// "not found" of the prober answers nothing (the reader's own probe of an
/// id beyond F still goes to the store), so nothing stale is served.
///
/// Idle (`Backoff`), it waits longer between probes, up to the backoff's
/// max; a WAL object with news (found by it or by the reader) makes it fast
/// again.
async fn probe_wal(store: FollowStore, wal_dir: Path) {
    let shared = store.shared.clone();
    let idle = |d| shared.backoff.sleep(d, WAL_PROBE_IDLE, shared.backoff.max);
    while !shared.stop.load(Ordering::Relaxed) {
        // nothing seen yet (the reader found every WAL object flushed):
        // the reader's poll finds the next one, the prober goes on from it
        let seen = shared.wal_seen.load(Ordering::Relaxed);
        if seen == 0 {
            idle(WAL_PROBE_IDLE).await;
            continue;
        }
        let next = wal_dir.clone().join(format!("{:020}.sst", seen + 1));
        debug_assert_eq!(wal_id(&next), Some(seen + 1));
        match store.get_immutable(&next, Default::default()).await {
            Ok(_) => {}
            Err(object_store::Error::NotFound { .. }) => idle(WAL_PROBE_IDLE).await,
            Err(_) => idle(WAL_PROBE_BACKOFF).await,
        }
    }
}

// ---------------------------------------------------------------------------
// Pinned reader views (snapshots of a follower)
// ---------------------------------------------------------------------------

/// A SlateDB reader that never refreshes: the state it loaded when it
/// opened (latest manifest plus every WAL object then present) is what it
/// answers until it is closed. SlateDB's DbReader has no snapshot of its
/// own; its poller installs each new state for every later read. A
/// follower's snapshot is therefore one of these. The reader's poller runs
/// on the ticker of its system clock, whose first tick is immediate; the
/// clock below hands the poller a ticker that never fires, and keeps the
/// real clock for everything else.
#[derive(Debug)]
struct NeverTicks(DefaultSystemClock);

impl SystemClock for NeverTicks {
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.0.now()
    }
    fn sleep<'a>(&'a self, _d: Duration) -> Sleep<'a> {
        Box::pin(std::future::pending())
    }
    fn ticker<'a>(&'a self, d: Duration) -> SystemClockTicker<'a> {
        SystemClockTicker::new(self, d)
    }
}

/// A clock that is the real one except that its tickers wait on `ticks`
/// (a pinned view's: `NeverTicks`; a follower's with a backoff:
/// `BackoffTicks`).
#[derive(Debug)]
struct TickedBy<T> {
    real: DefaultSystemClock,
    ticks: T,
}

impl<T: SystemClock> SystemClock for TickedBy<T> {
    fn now(&self) -> chrono::DateTime<chrono::Utc> {
        self.real.now()
    }
    fn sleep<'a>(&'a self, d: Duration) -> Sleep<'a> {
        self.real.sleep(d)
    }
    fn ticker<'a>(&'a self, d: Duration) -> SystemClockTicker<'a> {
        SystemClockTicker::new(&self.ticks, d)
    }
}

/// One pinned reader. Closed (in the background) when the last snapshot
/// and iterator holding it are gone.
pub struct View {
    reader: Option<DbReader>,
    opened: Instant,
    /// The durable sequence it holds.
    seq: u64,
    /// The follower's highest WAL id seen when it opened (it holds at
    /// least the WAL objects up to it).
    wal: u64,
}

impl Drop for View {
    fn drop(&mut self) {
        if let Some(r) = self.reader.take() {
            // may run on any thread, so close on the shared runtime
            runtime().spawn(async move {
                let _ = r.close().await;
            });
        }
    }
}

impl View {
    fn reader(&self) -> &DbReader {
        self.reader.as_ref().expect("a view's reader lives until it is dropped")
    }
}

async fn open_view(db: &KvDb) -> KvResult<View> {
    let reader_opts = DbReaderOptions {
        object_store_max_retries: Some(OBJECT_STORE_MAX_RETRIES),
        ..DbReaderOptions::default()
    };
    let clock: Arc<dyn SystemClock> = Arc::new(TickedBy {
        real: DefaultSystemClock::new(),
        ticks: NeverTicks(DefaultSystemClock::new()),
    });
    // FollowLatest writes nothing to the store (no checkpoint); the
    // follower's own reader keeps its managed checkpoint.
    let store = db.view_store.clone().unwrap_or_else(|| db.store.clone());
    // read before the open: a WAL object seen during it reopens the next one
    let wal = db.follow.as_ref().map_or(0, |f| f.wal_seen.load(Ordering::Relaxed));
    let reader = DbReader::builder(db.path.clone(), store)
        .with_options(reader_opts)
        .with_reader_mode(DbReaderMode::FollowLatest)
        .with_system_clock(clock)
        .with_db_cache(db.cache.clone(), 0)
        .build()
        .await?;
    let seq = reader.subscribe().borrow().durable_seq;
    Ok(View {
        reader: Some(reader),
        opened: Instant::now(),
        seq,
        wal,
    })
}

/// The view a new snapshot of reader `r` pins: the last one handed out if
/// the follower has seen nothing newer than it (its reader applied nothing
/// newer, its WAL prober found no newer WAL object); otherwise a new one. A
/// follower's views open from what its reader saw (`FollowStore`, no
/// request), so a new view holds what the follower has applied and costs
/// only the replay of its WAL objects from memory. A reader without one
/// (`rocklake check`, inspect) reads the store for each view, so it also
/// reuses a view younger than one poll interval (the reader itself is that
/// stale at most, so a snapshot is no staler than a read without one).
fn reader_view(db: &KvDb, r: &DbReader) -> KvResult<Arc<View>> {
    let mut slot = db
        .view
        .lock()
        .map_err(|_| Fail::new(KV_ERR_INTERNAL, "reader view lock poisoned"))?;
    if let Some(v) = slot.as_ref() {
        let live = r.subscribe().borrow().durable_seq;
        let young = db.view_store.is_none() && v.opened.elapsed() < db.opts.reader_poll_interval;
        // a follower has seen a WAL object its reader may not have applied
        let wal_new = db.follow.as_ref().is_some_and(|f| f.wal_seen.load(Ordering::Relaxed) > v.wal);
        if (live <= v.seq && !wal_new) || young {
            return Ok(v.clone());
        }
    }
    let v = Arc::new(block_on(open_view(db))?);
    // never a view older than the one handed out before
    if let Some(old) = slot.as_ref().filter(|old| old.seq > v.seq) {
        return Ok(old.clone());
    }
    *slot = Some(v.clone());
    Ok(v)
}

// kv.h promises kv_db is usable from several threads at once.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<KvDb>();
};

impl KvDb {
    fn writer(&self) -> KvResult<&Db> {
        match &self.engine {
            Engine::Writer(db) => Ok(db),
            Engine::Reader(_) => Err(Fail::invalid("this handle is a read-only reader")),
        }
    }
}

fn db_ref<'a>(db: *const KvDb) -> KvResult<&'a KvDb> {
    if db.is_null() {
        return Err(Fail::invalid("kv_db handle is NULL"));
    }
    // SAFETY: a non-NULL handle came from kv_open_*.
    Ok(unsafe { &*db })
}

/// A writer's compactor, run beside its Db instead of inside it. Started
/// inside SlateDB's open, it made some six requests in series before the
/// open returned (the compactions file read and written twice, the
/// manifest listed, read and its boundary checked: ~0.2 s at 25 ms per
/// request, on the path of a promotion and of every cold open); started
/// after the open, the writer commits meanwhile. SlateDB supports a
/// compactor apart from the Db (as a process of its own): it claims its
/// own epoch in the store, and the writer's manifest updates and its are
/// compare-and-swap, so they interleave safely. Its failure is not the
/// writer's: it is started again a second later while the writer is open
/// (a writer fenced by a newer one fails its next write and closes).
struct BackgroundCompactor {
    stop: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    task: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl BackgroundCompactor {
    fn start(path: Path, store: Arc<dyn ObjectStore>, db: Db) -> Arc<Self> {
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        let task = runtime().spawn(async move {
            loop {
                let c = slatedb::CompactorBuilder::new(path.clone(), store.clone())
                    .with_options(compactor_options())
                    .build();
                let stopping = tokio::select! {
                    _ = c.run() => false,
                    _ = &mut rx => true,
                };
                // whether run() stopped in its start (nothing running yet)
                // or later: stop whatever of it runs
                let _ = c.stop().await;
                // SlateDB's own compactor failing fails its Db (which then
                // heals by reopening); this one is started again while its
                // writer is open, or the writer's flushes would wait on a
                // full L0 for good
                if stopping || db.status().close_reason.is_some() {
                    return;
                }
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                    _ = &mut rx => return,
                }
            }
        });
        Arc::new(BackgroundCompactor {
            stop: Mutex::new(Some(tx)),
            task: Mutex::new(Some(task)),
        })
    }

    /// Stop it and wait until it has: right after the Db's close, so that
    /// nothing of the writer writes to the store once its close returned.
    async fn stop(&self) {
        if let Some(tx) = self.stop.lock().ok().and_then(|mut s| s.take()) {
            let _ = tx.send(());
        }
        let task = self.task.lock().ok().and_then(|mut t| t.take());
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

fn compactor_options() -> slatedb::config::CompactorOptions {
    slatedb::config::CompactorOptions {
        // SlateDB's default polls for compactions every 5 s; a catalog load
        // writes L0 tables far faster than that, and every L0 table is one
        // more source in each scan until it is compacted.
        poll_interval: Duration::from_secs(1),
        object_store_max_retries: Some(OBJECT_STORE_MAX_RETRIES),
        ..Default::default()
    }
}

/// A promoted writer's store while it opens (`open_writer`): the WAL
/// objects and manifests its follower read (`FollowShared`) answer the
/// open's reads of them from memory; everything else, and every object the
/// follower did not read, goes to the store.
///
/// SlateDB's writer open reads the latest manifest, looks for the end of
/// the WAL (HEADs of WAL ids after the manifest's replay point: a round of
/// 8 in parallel, then a binary search, one round trip each) and, after
/// fencing, replays the WAL objects up to it (a HEAD round, then a GET of
/// each): about five round trips of the open the follower had already
/// made. Why the answers are the store's: a found object is immutable
/// (SlateDB writes each WAL and manifest id once, with put-if-absent), so
/// its bytes are the store's whenever they were read; only "found" is
/// answered from memory, never "not found" (those go to the store). The
/// end of the WAL the open finds is then never beyond the store's (ids
/// found exist or existed, and the end only grows), at most behind it
/// when the old writer wrote more since the follower read; the fencing
/// that follows handles that as it handles a writer racing the open (its
/// fence object's put-if-absent fails on an id taken, and it tries the
/// next), so the old writer is fenced exactly as by --takeover. The
/// manifest listing, the fencing writes and every manifest read after
/// them (ids the follower never saw) go to the store.
struct PromoteStore {
    inner: Arc<dyn ObjectStore>,
    /// the follower's; None once the open is over (`forget`)
    seen: Mutex<Option<Arc<FollowShared>>>,
}

impl std::fmt::Debug for PromoteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PromoteStore({})", self.inner)
    }
}

impl std::fmt::Display for PromoteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

impl PromoteStore {
    /// The follower's bytes of the immutable object `location`, if it read it.
    fn seen(&self, location: &Path) -> Option<(object_store::ObjectMeta, Bytes)> {
        if !immutable(location) {
            return None;
        }
        let shared = self.seen.lock().ok()?.clone()?;
        shared.cached(location.as_ref())
    }

    /// The open is over: the follower's memory is let go (its WAL objects
    /// are replayed; what the writer reads later is newer than it).
    fn forget(&self) {
        if let Ok(mut s) = self.seen.lock() {
            *s = None;
        }
    }
}

#[async_trait::async_trait]
impl ObjectStore for PromoteStore {
    async fn put_opts(
        &self,
        location: &Path,
        payload: object_store::PutPayload,
        opts: object_store::PutOptions,
    ) -> object_store::Result<object_store::PutResult> {
        self.inner.put_opts(location, payload, opts).await
    }

    async fn put_multipart_opts(
        &self,
        location: &Path,
        opts: object_store::PutMultipartOptions,
    ) -> object_store::Result<Box<dyn object_store::MultipartUpload>> {
        self.inner.put_multipart_opts(location, opts).await
    }

    async fn get_opts(
        &self,
        location: &Path,
        options: object_store::GetOptions,
    ) -> object_store::Result<object_store::GetResult> {
        let plain = options.if_match.is_none()
            && options.if_none_match.is_none()
            && options.if_modified_since.is_none()
            && options.if_unmodified_since.is_none()
            && options.version.is_none();
        if let Some((meta, data)) = self.seen(location).filter(|_| plain) {
            return FollowStore::result(meta, data, &options);
        }
        self.inner.get_opts(location, options).await
    }

    async fn get_ranges(
        &self,
        location: &Path,
        ranges: &[std::ops::Range<u64>],
    ) -> object_store::Result<Vec<Bytes>> {
        let Some((meta, data)) = self.seen(location) else {
            return self.inner.get_ranges(location, ranges).await;
        };
        if let Some(r) = ranges.iter().find(|r| r.start > r.end || r.end > meta.size) {
            return Err(object_store::Error::Generic {
                store: "promotion",
                source: format!("range {r:?} beyond the object's {} bytes", meta.size).into(),
            });
        }
        Ok(ranges.iter().map(|r| data.slice(r.start as usize..r.end as usize)).collect())
    }

    fn delete_stream(
        &self,
        locations: futures_util::stream::BoxStream<'static, object_store::Result<Path>>,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<Path>> {
        self.inner.delete_stream(locations)
    }

    fn list(
        &self,
        prefix: Option<&Path>,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>>
    {
        self.inner.list(prefix)
    }

    fn list_with_offset(
        &self,
        prefix: Option<&Path>,
        offset: &Path,
    ) -> futures_util::stream::BoxStream<'static, object_store::Result<object_store::ObjectMeta>>
    {
        self.inner.list_with_offset(prefix, offset)
    }

    async fn list_with_delimiter(
        &self,
        prefix: Option<&Path>,
    ) -> object_store::Result<object_store::ListResult> {
        self.inner.list_with_delimiter(prefix).await
    }

    async fn copy_opts(
        &self,
        from: &Path,
        to: &Path,
        options: object_store::CopyOptions,
    ) -> object_store::Result<()> {
        self.inner.copy_opts(from, to, options).await
    }

    async fn rename_opts(
        &self,
        from: &Path,
        to: &Path,
        options: object_store::RenameOptions,
    ) -> object_store::Result<()> {
        self.inner.rename_opts(from, to, options).await
    }
}

/// Open the writer of `url`. `from`: the follower of the same store this
/// writer replaces (a promotion): the writer shares its block cache (the
/// tables' blocks, indexes and filters the follower read are the same
/// immutable objects, under the same cache scope) and its open reads what
/// the follower read from memory (`PromoteStore`).
fn open_writer(url: &str, opts: Opts, from: Option<&KvDb>) -> KvResult<KvDb> {
    let (store, path) = resolve_url(url, &opts, true)?;
    let from = match from {
        Some(f) if f.url != url => {
            return Err(Fail::invalid(format!(
                "a promotion of {url} from a follower of {}",
                f.url
            )))
        }
        Some(KvDb { engine: Engine::Writer(_), .. }) => {
            return Err(Fail::invalid("a promotion from a writer, not a follower"))
        }
        f => f,
    };
    let (cache, cache_users) = match from {
        Some(f) => {
            f.cache_users.fetch_add(1, Ordering::AcqRel);
            (f.cache.clone(), f.cache_users.clone())
        }
        None => (make_cache(&opts), Arc::new(AtomicU64::new(1))),
    };
    let promote = Arc::new(PromoteStore {
        inner: store.clone(),
        seen: Mutex::new(from.and_then(|f| f.follow.clone())),
    });
    let settings = Settings {
        flush_interval: Some(opts.flush_interval),
        object_store_max_retries: Some(OBJECT_STORE_MAX_RETRIES),
        // run after the open (BackgroundCompactor)
        compactor_options: None,
        ..Settings::default()
    };
    let built = block_on(
        Db::builder(path.clone(), promote.clone() as Arc<dyn ObjectStore>)
            .with_settings(settings)
            .with_db_cache(cache.clone(), 0)
            .build(),
    );
    promote.forget();
    let db = match built {
        Ok(db) => db,
        Err(e) => {
            cache_users.fetch_sub(1, Ordering::AcqRel);
            return Err(e.into());
        }
    };
    let compactor = BackgroundCompactor::start(path.clone(), store.clone(), db.clone());
    Ok(KvDb {
        engine: Engine::Writer(db),
        opts,
        cache,
        store,
        path,
        view: Mutex::new(None),
        view_store: None,
        follow: None,
        compactor: Some(compactor),
        closing: Mutex::new(None),
        cache_users,
        url: url.to_owned(),
    })
}

/// SlateDB reports "no manifest" as a data error, which would read as
/// KV_ERR_CORRUPT; a reader pointed at a store nobody created is a bad
/// argument instead, so look for a manifest first.
async fn require_existing_store(
    store: &Arc<dyn ObjectStore>,
    path: &Path,
    url: &str,
) -> KvResult<()> {
    let manifests = path.clone().join("manifest");
    let empty = match store.list_with_delimiter(Some(&manifests)).await {
        Ok(list) => list.objects.is_empty(),
        Err(object_store::Error::NotFound { .. }) => true,
        Err(e) => return Err(e.into()),
    };
    if empty {
        return Err(Fail::new(
            KV_ERR_NO_STORE,
            format!("no store at {url} (a writer must create it first)"),
        ));
    }
    Ok(())
}

/// The default poll interval of a reader (kv.h's reader_poll_interval_ms).
const READER_POLL_MS: u64 = 100;
/// A follower's on an object store when left at the default: each poll
/// there is a few requests in series (the next manifest's id, the GC
/// boundary, the WAL objects after the last one seen: ~100 ms at 25 ms
/// per request) and the next starts one interval after it ends, so the
/// interval adds to what the follower lags by; at 25 ms an idle follower
/// makes some 25 small GETs a second.
const FOLLOWER_OBJECT_STORE_POLL_MS: u64 = 25;

fn follower_poll_interval(url: &str, opts: &Opts, no_writes: bool) -> Duration {
    // tests only: a follower's reader polling seldom, so that what shows
    // a commit sooner than its poll is seen to (test_standby.py, the WAL
    // prober)
    let test = std::env::var("ROCKLAKE_TEST_READER_POLL_MS").ok().and_then(|v| v.parse().ok());
    if let Some(ms) = test.filter(|_| !no_writes) {
        return Duration::from_millis(ms);
    }
    let default = opts.reader_poll_interval == Duration::from_millis(READER_POLL_MS);
    if !no_writes && url.starts_with("s3://") && default {
        return Duration::from_millis(FOLLOWER_OBJECT_STORE_POLL_MS);
    }
    opts.reader_poll_interval
}

fn open_reader(url: &str, opts: Opts, no_writes: bool, quiet: Quiet) -> KvResult<KvDb> {
    let (store, path) = resolve_url(url, &opts, false)?;
    block_on(require_existing_store(&store, &path, url))?;
    // the idle backoff: followers on an object store (locally a poll is a
    // few file lookups, and costs nothing)
    let object_store = url.starts_with("s3://");
    let backoff_max = if object_store { opts.follower_poll_max } else { Duration::ZERO };
    // a follower: its reader keeps what it reads for its views
    let (store, view_store, follow) = if no_writes {
        (store, None, None)
    } else {
        let shared = FollowShared::new(backoff_max, quiet);
        let view: Arc<dyn ObjectStore> = Arc::new(FollowStore {
            inner: store.clone(),
            shared: shared.clone(),
            view: true,
        });
        let main = FollowStore {
            inner: store,
            shared: shared.clone(),
            view: false,
        };
        (Arc::new(main.clone()) as Arc<dyn ObjectStore>, Some(view), Some((main, shared)))
    };
    let cache = make_cache(&opts);
    let poll = follower_poll_interval(url, &opts, no_writes);
    let reader_opts = DbReaderOptions {
        manifest_poll_interval: poll,
        object_store_max_retries: Some(OBJECT_STORE_MAX_RETRIES),
        ..DbReaderOptions::default()
    };
    let clock: Arc<dyn SystemClock> = match follow.as_ref() {
        Some((_, shared)) if !shared.backoff.max.is_zero() => Arc::new(TickedBy {
            real: DefaultSystemClock::new(),
            ticks: BackoffTicks {
                real: DefaultSystemClock::new(),
                shared: shared.clone(),
                fast: poll,
            },
        }),
        _ => Arc::new(DefaultSystemClock::new()),
    };
    // Default mode (managed checkpoint): follows the latest state and keeps
    // a checkpoint alive so GC cannot delete files under the reader; that
    // checkpoint is a manifest write at open, on each refresh and at close.
    // no_writes: follow the latest manifest without a checkpoint, writing
    // nothing to the store (short-lived readers: check, inspect, the
    // writer-lease probe).
    let mode = if no_writes {
        DbReaderMode::FollowLatest
    } else {
        DbReaderMode::ManagedCheckpoint
    };
    let reader = block_on(
        DbReader::builder(path.clone(), store.clone())
            .with_options(reader_opts)
            .with_reader_mode(mode)
            .with_system_clock(clock)
            .with_db_cache(cache.clone(), 0)
            .build(),
    )?;
    // after the reader's open, so the prober starts from the WAL end it
    // found; on an object store, where the reader's poll is slow (locally
    // it is a few file lookups)
    if let Some((main, _)) = follow.as_ref().filter(|_| url.starts_with("s3://")) {
        runtime().spawn(probe_wal(main.clone(), path.clone().join("wal")));
    }
    Ok(KvDb {
        engine: Engine::Reader(reader),
        opts,
        cache,
        store,
        path,
        view: Mutex::new(None),
        view_store,
        follow: follow.map(|(_, shared)| shared),
        compactor: None,
        closing: Mutex::new(None),
        cache_users: Arc::new(AtomicU64::new(1)),
        url: url.to_owned(),
    })
}

fn into_handle(db: KvDb) -> *mut KvDb {
    Box::into_raw(Box::new(db))
}

#[no_mangle]
pub extern "C" fn kv_error_kind_name(kind: c_int) -> *const c_char {
    let s: &'static [u8] = match kind {
        KV_OK => b"ok\0",
        KV_ERR_FENCED => b"fenced\0",
        KV_ERR_CONFLICT => b"conflict\0",
        KV_ERR_IO => b"io\0",
        KV_ERR_CORRUPT => b"corrupt\0",
        KV_ERR_INVALID => b"invalid\0",
        KV_ERR_CLOSED => b"closed\0",
        KV_ERR_INTERNAL => b"internal\0",
        KV_ERR_NO_STORE => b"no store\0",
        _ => b"unknown\0",
    };
    s.as_ptr() as *const c_char
}

#[no_mangle]
pub unsafe extern "C" fn slate_open_writer(
    url: *const c_char,
    opts: *const SlateOptions,
    from: *const KvDb,
    err: *mut KvError,
) -> *mut KvDb {
    guard(err, std::ptr::null_mut(), || {
        let url = c_str(url, "url")?;
        // SAFETY: NULL or a live handle from kv_open_reader (slate.h)
        let from = if from.is_null() { None } else { Some(db_ref(from)?) };
        open_writer(url, resolve_opts(opts), from).map(into_handle)
    })
}

#[no_mangle]
pub unsafe extern "C" fn slate_open_reader(
    url: *const c_char,
    opts: *const SlateOptions,
    no_writes: c_int,
    err: *mut KvError,
) -> *mut KvDb {
    guard(err, std::ptr::null_mut(), || {
        let url = c_str(url, "url")?;
        // SAFETY: NULL or a slate_options whose quiet pointers are valid (slate.h)
        let quiet = unsafe { Quiet::of(opts) };
        open_reader(url, resolve_opts(opts), no_writes != 0, quiet).map(into_handle)
    })
}

#[no_mangle]
pub unsafe extern "C" fn slate_is_reader(db: *const KvDb) -> c_int {
    guard(std::ptr::null_mut(), 0, || {
        Ok(matches!(db_ref(db)?.engine, Engine::Reader(_)) as c_int)
    })
}

/// A follower's idle backoff now (slate.h): 1 and *poll_ms (how long it
/// now waits between its requests for new commits: its fast poll interval,
/// up to the backoff's max) and *idle (1: past its fast pace), or 0 when
/// the handle never backs off (a writer, a local store, max 0).
#[no_mangle]
pub unsafe extern "C" fn slate_follower_backoff(
    db: *const KvDb,
    poll_ms: *mut u64,
    idle: *mut c_int,
) -> c_int {
    guard(std::ptr::null_mut(), 0, || {
        let db = db_ref(db)?;
        let Some(f) = db.follow.as_ref().filter(|f| !f.backoff.max.is_zero()) else {
            return Ok(0);
        };
        let fast = follower_poll_interval(&db.url, &db.opts, false);
        let wait = f.backoff.wait(fast);
        // SAFETY: NULL or valid out-pointers
        if let Some(p) = unsafe { poll_ms.as_mut() } {
            *p = wait.as_millis() as u64;
        }
        if let Some(i) = unsafe { idle.as_mut() } {
            *i = (wait > fast) as c_int;
        }
        Ok(1)
    })
}

async fn close_engine(db: &KvDb) -> KvResult<()> {
    if let Some(f) = &db.follow {
        f.stop.store(true, Ordering::Relaxed);
        f.backoff.wake.notify_waiters(); // a prober waiting idle sees it now
    }
    // the last view: closed here unless a snapshot still holds it (then
    // when that is freed)
    let view = db.view.lock().ok().and_then(|mut v| v.take());
    if let Some(v) = view.and_then(|v| Arc::try_unwrap(v).ok()) {
        let mut v = v;
        if let Some(r) = v.reader.take() {
            let _ = r.close().await;
        }
    }
    let res = match &db.engine {
        Engine::Writer(w) => w.close().await,
        Engine::Reader(r) => r.close().await,
    };
    // after the Db's close, as SlateDB orders its own compactor's stop: the
    // close flushes the memtable, which waits for compactions while L0 is
    // full (stopped first, that flush never ended: a hang seen under load)
    if let Some(c) = &db.compactor {
        c.stop().await;
    }
    // The cache is ours (passed via with_db_cache), so SlateDB leaves it
    // open; shared with a promoted writer, the last of the two closes it.
    if db.cache_users.fetch_sub(1, Ordering::AcqRel) == 1 {
        let _ = db.cache.close().await;
    }
    res.map_err(Fail::from)
}

/// Close a writer's SlateDB engine but keep the handle (its calls then fail
/// as on a closed store), waiting at most the store timeout: for a writer
/// whose store failed, so that it has stopped writing before another
/// writer of the same store opens in this process. Readers: nothing.
#[no_mangle]
pub unsafe extern "C" fn slate_shutdown(db: *mut KvDb, err: *mut KvError) -> c_int {
    guard(err, -1, || {
        let db = db_ref(db)?;
        let Engine::Writer(w) = &db.engine else {
            return Ok(0);
        };
        let mut slot = db
            .closing
            .lock()
            .map_err(|_| Fail::new(KV_ERR_INTERNAL, "shutdown lock poisoned"))?;
        let done = match slot.as_mut() {
            Some(Closing::Done) => return Ok(0),
            Some(Closing::Running(h)) => {
                block_on(async { tokio::time::timeout(db.opts.store_timeout, h).await })
            }
            None => {
                // The close runs as a task of its own, never cancelled: a
                // close cut short leaves SlateDB's background tasks
                // running, and a second writer of the store opened in this
                // process while they did lost acknowledged commits in
                // testing. A call that times out leaves it running; the
                // next call waits for it again.
                let w = w.clone();
                let compactor = db.compactor.clone();
                let mut h = runtime().spawn(async move {
                    let closed = w.close().await;
                    if let Some(c) = compactor {
                        c.stop().await;
                    }
                    closed
                });
                let r = block_on(async { tokio::time::timeout(db.opts.store_timeout, &mut h).await });
                *slot = Some(Closing::Running(h));
                r
            }
        };
        match done {
            Err(_) => Err(Fail::new(
                KV_ERR_IO,
                format!(
                    "the failed writer did not finish closing within the store timeout of {} ms",
                    db.opts.store_timeout.as_millis()
                ),
            )),
            // closed, or closed with the error that broke it
            Ok(_) => {
                *slot = Some(Closing::Done);
                Ok(0)
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn slate_close(db: *mut KvDb, err: *mut KvError) -> c_int {
    guard(err, -1, || {
        if db.is_null() {
            return Ok(0);
        }
        // SAFETY: handle from kv_open_*; ownership returns to Rust here, so it
        // is freed however close() turns out.
        let db = unsafe { Box::from_raw(db) };
        block_on(close_engine(&db))?;
        Ok(0)
    })
}

// ---------------------------------------------------------------------------
// Snapshots and point reads
// ---------------------------------------------------------------------------

/// A writer's SlateDB snapshot, or a reader's pinned view.
pub enum KvSnapshot {
    Writer(Arc<DbSnapshot>),
    Reader(Arc<View>),
}

#[no_mangle]
pub unsafe extern "C" fn slate_snapshot_new(db: *mut KvDb, err: *mut KvError) -> *mut KvSnapshot {
    guard(err, std::ptr::null_mut(), || {
        let db = db_ref(db)?;
        let snap = match &db.engine {
            Engine::Writer(w) => KvSnapshot::Writer(w.snapshot()?),
            Engine::Reader(r) => KvSnapshot::Reader(reader_view(db, r)?),
        };
        Ok(Box::into_raw(Box::new(snap)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn slate_snapshot_free(snap: *mut KvSnapshot) {
    guard_void(|| {
        if !snap.is_null() {
            // SAFETY: handle from kv_snapshot_new, freed once.
            drop(unsafe { Box::from_raw(snap) });
        }
    })
}

fn snap_ref<'a>(snap: *mut KvSnapshot) -> Option<&'a KvSnapshot> {
    // SAFETY: NULL or a live handle from kv_snapshot_new.
    unsafe { snap.as_ref() }
}

/// A follower's read without a snapshot reads its newest view: its views
/// may hold WAL objects its reader has not applied yet (`probe_wal`), and a
/// read without a snapshot must not show an older state than a snapshot
/// taken before it (a counter beside the rows of a view).
fn follower_latest(db: &KvDb, snap: Option<&KvSnapshot>) -> KvResult<Option<KvSnapshot>> {
    if snap.is_some() || db.follow.is_none() {
        return Ok(None);
    }
    let Engine::Reader(r) = &db.engine else {
        return Ok(None);
    };
    Ok(Some(KvSnapshot::Reader(reader_view(db, r)?)))
}

async fn get_value(db: &KvDb, snap: Option<&KvSnapshot>, key: &[u8]) -> KvResult<Option<Bytes>> {
    let ro = ReadOptions::default();
    let v = match (snap, &db.engine) {
        (Some(KvSnapshot::Writer(s)), _) => s.get_with_options(key, &ro).await?,
        (Some(KvSnapshot::Reader(v)), _) => v.reader().get_with_options(key, &ro).await?,
        (None, Engine::Writer(w)) => w.get_with_options(key, &ro).await?,
        (None, Engine::Reader(r)) => r.get_with_options(key, &ro).await?,
    };
    Ok(v)
}

#[no_mangle]
pub unsafe extern "C" fn slate_get(
    db: *mut KvDb,
    snap: *mut KvSnapshot,
    key: *const u8,
    klen: usize,
    val: *mut *mut u8,
    vlen: *mut usize,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        let db = db_ref(db)?;
        let key = slice(key, klen)?;
        if key.is_empty() {
            return Err(Fail::invalid("empty key"));
        }
        bump(&GETS, 1);
        let latest = follower_latest(db, snap_ref(snap))?;
        let snap = snap_ref(snap).or(latest.as_ref());
        let Some(v) = block_on_read(get_value(db, snap, key))? else {
            return Ok(0);
        };
        bump(&KEYS_READ, 1);
        if !val.is_null() {
            let p = malloc_copy(&v)?;
            // SAFETY: out-parameters supplied by C.
            unsafe { *val = p };
        }
        if !vlen.is_null() {
            unsafe { *vlen = v.len() };
        }
        Ok(1)
    })
}

// ---------------------------------------------------------------------------
// Iterators
// ---------------------------------------------------------------------------

/// Most entries one kv_iter_next fetches ahead (see `refill`).
const ITER_MAX_BATCH: usize = 256;

pub struct KvIter {
    /// None when the range is empty (end <= start), exhausted, or a seek
    /// went past it. Entries already in `ahead` are still handed out.
    iter: Option<DbIterator>,
    /// Entries read from `iter` but not yet handed out. Stepping SlateDB's
    /// iterator once per block_on made the runtime entry cost as much as the
    /// step itself on long scans, so entries come in batches that grow
    /// (1, 2, 4 … ITER_MAX_BATCH) as the scan goes on: a scan that stops
    /// after a row or two reads no more than it did before.
    ahead: std::collections::VecDeque<slatedb::KeyValue>,
    batch: usize,
    start: Bytes,
    end: Option<Bytes>,
    /// The last pair returned; kv_iter_next hands out pointers into these.
    last_key: Option<Bytes>,
    last_val: Bytes,
    /// A reader's pinned view the scan reads, kept open until the iterator
    /// is freed even if its snapshot is freed first.
    _view: Option<Arc<View>>,
}

async fn open_iter(
    db: &KvDb,
    snap: Option<&KvSnapshot>,
    range: (Bound<Bytes>, Bound<Bytes>),
) -> KvResult<DbIterator> {
    let so = scan_options(&db.opts);
    let it = match (snap, &db.engine) {
        (Some(KvSnapshot::Writer(s)), _) => s.scan_with_options(range, &so).await?,
        (Some(KvSnapshot::Reader(v)), _) => v.reader().scan_with_options(range, &so).await?,
        (None, Engine::Writer(w)) => w.scan_with_options(range, &so).await?,
        (None, Engine::Reader(r)) => r.scan_with_options(range, &so).await?,
    };
    Ok(it)
}

/// slate_scan: [start, end), end None = unbounded.
fn scan_range(
    db: *mut KvDb,
    snap: *mut KvSnapshot,
    start: &[u8],
    end: Option<&[u8]>,
) -> KvResult<*mut KvIter> {
    let db = db_ref(db)?;
    let latest = follower_latest(db, snap_ref(snap))?;
    let snap = snap_ref(snap).or(latest.as_ref());
    let start = Bytes::copy_from_slice(start);
    let end = end.map(Bytes::copy_from_slice);
    // SlateDB panics on an empty range; an empty range simply yields nothing.
    let empty = matches!(&end, Some(e) if *e <= start);
    let iter = if empty {
        None
    } else {
        let hi = end.clone().map_or(Bound::Unbounded, Bound::Excluded);
        Some(block_on_read(open_iter(db, snap, (Bound::Included(start.clone()), hi)))?)
    };
    bump(&SCANS, 1);
    let view = match snap {
        Some(KvSnapshot::Reader(v)) => Some(v.clone()),
        _ => None,
    };
    let it = KvIter {
        iter,
        ahead: std::collections::VecDeque::new(),
        batch: 1,
        start,
        end,
        last_key: None,
        last_val: Bytes::new(),
        _view: view,
    };
    Ok(Box::into_raw(Box::new(it)))
}

#[no_mangle]
pub unsafe extern "C" fn slate_scan(
    db: *mut KvDb,
    snap: *mut KvSnapshot,
    start: *const u8,
    slen: usize,
    end: *const u8,
    elen: usize,
    err: *mut KvError,
) -> *mut KvIter {
    guard(err, std::ptr::null_mut(), || {
        let start = slice(start, slen)?;
        let end = if end.is_null() {
            None
        } else {
            Some(slice(end, elen)?)
        };
        scan_range(db, snap, start, end)
    })
}

fn iter_mut<'a>(it: *mut KvIter) -> KvResult<&'a mut KvIter> {
    // SAFETY: NULL or a live handle from kv_scan*.
    unsafe { it.as_mut() }.ok_or_else(|| Fail::invalid("kv_iter handle is NULL"))
}

#[no_mangle]
pub unsafe extern "C" fn slate_iter_next(
    it: *mut KvIter,
    key: *mut *const u8,
    klen: *mut usize,
    val: *mut *const u8,
    vlen: *mut usize,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        let it = iter_mut(it)?;
        if it.ahead.is_empty() {
            refill(it)?;
        }
        let Some(kv) = it.ahead.pop_front() else {
            return Ok(0);
        };
        bump(&KEYS_READ, 1);
        // Keep the Bytes alive in the iterator so the pointers stay valid
        // until the next call.
        let k = it.last_key.insert(kv.key);
        it.last_val = kv.value;
        // SAFETY: out-parameters supplied by C (each may be NULL).
        unsafe {
            if !key.is_null() {
                *key = k.as_ptr();
            }
            if !klen.is_null() {
                *klen = k.len();
            }
            if !val.is_null() {
                *val = it.last_val.as_ptr();
            }
            if !vlen.is_null() {
                *vlen = it.last_val.len();
            }
        }
        Ok(1)
    })
}

/// Read the next batch of entries into `ahead` in one block_on. Drops the
/// SlateDB iterator once it is exhausted, releasing its resources early.
fn refill(it: &mut KvIter) -> KvResult<()> {
    let Some(inner) = it.iter.as_mut() else {
        return Ok(());
    };
    let want = it.batch;
    it.batch = (it.batch * 2).min(ITER_MAX_BATCH);
    let ahead = &mut it.ahead;
    let exhausted = block_on_read(async {
        for _ in 0..want {
            match inner.next().await? {
                Some(kv) => ahead.push_back(kv),
                None => return Ok::<bool, slatedb::Error>(true),
            }
        }
        Ok(false)
    })?;
    if exhausted {
        it.iter = None;
    }
    Ok(())
}

/// Seek semantics: the next kv_iter_next returns the first not-yet-returned
/// key >= `target` inside the scan range. Seeking below the last returned key
/// is an error; seeking to it, or below the range start, changes nothing;
/// seeking at or past the range end exhausts the iterator.
#[no_mangle]
pub unsafe extern "C" fn slate_iter_seek(
    it: *mut KvIter,
    key: *const u8,
    klen: usize,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        let it = iter_mut(it)?;
        let target = slice(key, klen)?;
        if let Some(last) = &it.last_key {
            if target < last.as_ref() {
                return Err(Fail::invalid("kv_iter_seek: cannot seek backwards"));
            }
            if target == last.as_ref() {
                return Ok(0);
            }
        }
        if target <= it.start.as_ref() && it.last_key.is_none() {
            return Ok(0);
        }
        if matches!(&it.end, Some(e) if target >= e.as_ref()) {
            it.iter = None;
            it.ahead.clear();
            return Ok(0);
        }
        // Entries fetched ahead below the target are skipped; if one at or
        // past it remains, the SlateDB iterator is already positioned
        // beyond the target and needs no seek.
        while matches!(it.ahead.front(), Some(kv) if kv.key.as_ref() < target) {
            it.ahead.pop_front();
        }
        if !it.ahead.is_empty() {
            return Ok(0);
        }
        it.batch = 1; // a seek starts a new run of reads
        if let Some(inner) = it.iter.as_mut() {
            block_on_read(inner.seek(target))?;
        }
        Ok(0)
    })
}

#[no_mangle]
pub unsafe extern "C" fn slate_iter_free(it: *mut KvIter) {
    guard_void(|| {
        if !it.is_null() {
            // SAFETY: handle from kv_scan*, freed once.
            drop(unsafe { Box::from_raw(it) });
        }
    })
}

// ---------------------------------------------------------------------------
// Split points of a writer's load (a parallel load of its in-memory copy)
// ---------------------------------------------------------------------------

/// The data blocks of every table of a writer's LSM tree (L0 tables and
/// sorted runs, of every segment) as (first key, stored bytes). An SST
/// shared by several views counts once per view (an overestimate of its
/// part, harmless to a split). The block
/// indexes come through the handle's cache, where the load's scans then
/// find them.
async fn load_blocks(db: &KvDb, w: &Db) -> KvResult<Vec<(Bytes, u64)>> {
    let m = w.manifest();
    let handles: Vec<_> = m.all_sst_views().map(|v| v.sst.clone()).collect();
    let reader = slatedb::SstReader::new(
        db.path.clone(),
        db.store.clone(),
        Some(db.cache.clone()),
        None,
    );
    let files = handles
        .into_iter()
        .map(|h| reader.open_with_handle(h))
        .collect::<Result<Vec<_>, _>>()?;
    let indexes = futures_util::future::try_join_all(files.iter().map(|f| f.index())).await?;
    let mut blocks = Vec::new();
    for (f, idx) in files.iter().zip(indexes.iter()) {
        let end = f.info().index_offset;
        let n = idx.len();
        for i in 0..n {
            let Some((off, key)) = idx.get(i) else { break };
            let next = idx.get(i + 1).map_or(end, |(o, _)| o);
            blocks.push((Bytes::copy_from_slice(key), next.saturating_sub(off)));
        }
    }
    Ok(blocks)
}

/// Keys that cut a writer's keyspace into `parts` ranges of about equal
/// stored size (the first keys of data blocks, weighted by their bytes,
/// across overlapping L0 tables too): at most parts - 1, strictly
/// ascending, none empty. None when the tables hold less than `min_bytes`
/// (a small store loads in one pass) or there is nothing to split.
fn load_splits(db: &KvDb, parts: usize, min_bytes: u64) -> KvResult<Vec<Bytes>> {
    let w = db.writer()?;
    if parts < 2 {
        return Ok(Vec::new());
    }
    let mut blocks = block_on(load_blocks(db, w))?;
    let total: u64 = blocks.iter().map(|b| b.1).sum();
    if total == 0 || total < min_bytes {
        return Ok(Vec::new());
    }
    blocks.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<Bytes> = Vec::new();
    let mut acc = 0u64;
    for (key, bytes) in blocks {
        // the block's first key starts the next part once the bytes before
        // it reach that part's share
        let share = total / parts as u64 * (out.len() as u64 + 1);
        if acc >= share
            && out.len() + 1 < parts
            && !key.is_empty()
            && out.last().is_none_or(|l| key > *l)
        {
            out.push(key);
        }
        acc += bytes;
    }
    Ok(out)
}

/// slate_load_splits: the split keys of load_splits, written into `out` as
/// one malloc'd buffer of (u32 length, little-endian; key bytes) entries,
/// `*count` of them (*out NULL when none). 0, or -1 with *err.
#[no_mangle]
pub unsafe extern "C" fn slate_load_splits(
    db: *mut KvDb,
    parts: u32,
    min_bytes: u64,
    out: *mut *mut u8,
    outlen: *mut usize,
    count: *mut usize,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        if out.is_null() || outlen.is_null() || count.is_null() {
            return Err(Fail::invalid("slate_load_splits: NULL out-parameter"));
        }
        let db = db_ref(db)?;
        let keys = load_splits(db, parts as usize, min_bytes)?;
        let mut buf = Vec::new();
        for k in &keys {
            buf.extend_from_slice(&(k.len() as u32).to_le_bytes());
            buf.extend_from_slice(k);
        }
        let p = if keys.is_empty() {
            std::ptr::null_mut()
        } else {
            malloc_copy(&buf)?
        };
        // SAFETY: out-parameters checked non-NULL above.
        unsafe {
            *out = p;
            *outlen = buf.len();
            *count = keys.len();
        }
        Ok(0)
    })
}

// ---------------------------------------------------------------------------
// Batches and writes
// ---------------------------------------------------------------------------

enum Op {
    Put(Bytes, Bytes),
    Delete(Bytes),
}

/// Ops are kept in our own list (not a WriteBatch) because a write must not
/// consume the batch and SlateDB's write() takes the WriteBatch by value.
#[derive(Default)]
pub struct KvBatch {
    ops: Vec<Op>,
}

fn batch_mut<'a>(b: *mut KvBatch) -> Option<&'a mut KvBatch> {
    // SAFETY: NULL or a live handle from kv_batch_new.
    unsafe { b.as_mut() }
}

#[no_mangle]
pub extern "C" fn kv_batch_new() -> *mut KvBatch {
    Box::into_raw(Box::default())
}

#[no_mangle]
pub unsafe extern "C" fn kv_batch_put(
    b: *mut KvBatch,
    key: *const u8,
    klen: usize,
    val: *const u8,
    vlen: usize,
) {
    guard_void(|| {
        let (Some(b), Ok(k), Ok(v)) = (batch_mut(b), slice(key, klen), slice(val, vlen)) else {
            return;
        };
        b.ops.push(Op::Put(
            Bytes::copy_from_slice(k),
            Bytes::copy_from_slice(v),
        ));
    })
}

#[no_mangle]
pub unsafe extern "C" fn kv_batch_delete(b: *mut KvBatch, key: *const u8, klen: usize) {
    guard_void(|| {
        let (Some(b), Ok(k)) = (batch_mut(b), slice(key, klen)) else {
            return;
        };
        b.ops.push(Op::Delete(Bytes::copy_from_slice(k)));
    })
}

/// The i-th op of a batch, for the C mirror: 1 = put (key and value set),
/// 0 = delete (value NULL, 0), -1 = no such op. Pointers borrow from the
/// batch until it is changed or freed.
#[no_mangle]
pub unsafe extern "C" fn slate_batch_op(
    b: *const KvBatch,
    i: usize,
    key: *mut *const u8,
    klen: *mut usize,
    val: *mut *const u8,
    vlen: *mut usize,
) -> c_int {
    guard(std::ptr::null_mut(), -1, || {
        // SAFETY: NULL or a live handle from kv_batch_new.
        let Some(b) = (unsafe { b.as_ref() }) else {
            return Ok(-1);
        };
        let Some(op) = b.ops.get(i) else {
            return Ok(-1);
        };
        let (k, v, kind) = match op {
            Op::Put(k, v) => (k, Some(v), 1),
            Op::Delete(k) => (k, None, 0),
        };
        // SAFETY: out-parameters supplied by C, all non-NULL by contract.
        unsafe {
            *key = k.as_ptr();
            *klen = k.len();
            *val = v.map_or(std::ptr::null(), |v| v.as_ptr());
            *vlen = v.map_or(0, |v| v.len());
        }
        Ok(kind)
    })
}

#[no_mangle]
pub unsafe extern "C" fn kv_batch_count(b: *const KvBatch) -> usize {
    // SAFETY: NULL or a live handle.
    unsafe { b.as_ref() }.map_or(0, |b| b.ops.len())
}

#[no_mangle]
pub unsafe extern "C" fn kv_batch_free(b: *mut KvBatch) {
    guard_void(|| {
        if !b.is_null() {
            // SAFETY: handle from kv_batch_new, freed once.
            drop(unsafe { Box::from_raw(b) });
        }
    })
}

/// SlateDB panics on empty keys and keys/values over u32::MAX bytes; reject
/// them here as KV_ERR_INVALID. Returns the WriteBatch and its byte size.
fn build_batch(b: &KvBatch) -> KvResult<(WriteBatch, u64)> {
    let mut wb = WriteBatch::new();
    let mut bytes = 0u64;
    for op in &b.ops {
        let (k, v) = match op {
            Op::Put(k, v) => (k, Some(v)),
            Op::Delete(k) => (k, None),
        };
        if k.is_empty() {
            return Err(Fail::invalid("empty key in batch"));
        }
        if k.len() > u16::MAX as usize {
            return Err(Fail::invalid(format!(
                "key of {} bytes exceeds 65535",
                k.len()
            )));
        }
        match v {
            Some(v) if v.len() > u32::MAX as usize => {
                return Err(Fail::invalid(format!(
                    "value of {} bytes is too large",
                    v.len()
                )));
            }
            Some(v) => {
                bytes += (k.len() + v.len()) as u64;
                wb.put_bytes(k.clone(), v.clone());
            }
            None => {
                bytes += k.len() as u64;
                wb.delete(k);
            }
        }
    }
    Ok((wb, bytes))
}

/// A write applied to the memtable whose durability has not been awaited yet
/// (see kv_write_begin / kv_write_wait in kv.h).
pub struct KvPending {
    handle: slatedb::WriteHandle,
    bytes: u64,
    /// the handle's store timeout, which bounds the wait
    timeout: Duration,
}

/// Apply `b` to the memtable; `extra_key`/`extra_val` (extra_key NULL for
/// none) is one more put in the same atomic batch: kv.c's journal position
/// (see journal.h).
#[no_mangle]
pub unsafe extern "C" fn slate_write_begin(
    db: *mut KvDb,
    b: *const KvBatch,
    extra_key: *const u8,
    extra_klen: usize,
    extra_val: *const u8,
    extra_vlen: usize,
    out: *mut *mut KvPending,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        // SAFETY: out is a valid pointer supplied by C (checked for NULL).
        let out = unsafe { out.as_mut() }.ok_or_else(|| Fail::invalid("out is NULL"))?;
        *out = std::ptr::null_mut();
        let kdb = db_ref(db)?;
        let w = kdb.writer()?;
        // SAFETY: NULL or a live handle.
        let b = unsafe { b.as_ref() }.ok_or_else(|| Fail::invalid("kv_batch is NULL"))?;
        if b.ops.is_empty() {
            return Ok(0); // nothing to apply; *out stays NULL
        }
        let (mut wb, bytes) = build_batch(b)?;
        if !extra_key.is_null() && extra_klen > 0 {
            // not in the counters: they count the caller's bytes
            wb.put(slice(extra_key, extra_klen)?, slice(extra_val, extra_vlen)?);
        }
        // SlateDB holds a write back while too much is waiting for the WAL
        // (a store that stopped answering): bounded like the waits
        let handle = block_on(bounded(
            kdb.opts.store_timeout,
            "room for a write",
            w.write_with_options(wb, &WriteOptions::default()),
        ))?;
        *out = Box::into_raw(Box::new(KvPending {
            handle,
            bytes,
            timeout: kdb.opts.store_timeout,
        }));
        Ok(0)
    })
}

#[no_mangle]
pub unsafe extern "C" fn slate_write_wait(p: *mut KvPending, err: *mut KvError) -> c_int {
    guard(err, -1, || {
        if p.is_null() {
            return Ok(0);
        }
        // SAFETY: p came from kv_write_begin and is consumed here exactly once.
        let pending = unsafe { Box::from_raw(p) };
        let limit = pending.timeout;
        block_on(bounded(limit, "a write", pending.handle.await_durable()))?;
        bump(&BATCHES_WRITTEN, 1);
        bump(&BYTES_WRITTEN, pending.bytes);
        Ok(0)
    })
}

/// Consume a pending write without waiting for SlateDB's durability: the
/// caller (kv.c's journal) has made it durable another way.
#[no_mangle]
pub unsafe extern "C" fn slate_write_release(p: *mut KvPending) {
    if p.is_null() {
        return;
    }
    guard_void(|| {
        // SAFETY: p came from slate_write_begin and is consumed here exactly once.
        let pending = unsafe { Box::from_raw(p) };
        bump(&BATCHES_WRITTEN, 1);
        bump(&BYTES_WRITTEN, pending.bytes);
    });
}

#[no_mangle]
pub unsafe extern "C" fn slate_flush(db: *mut KvDb, err: *mut KvError) -> c_int {
    guard(err, -1, || {
        let db = db_ref(db)?;
        match &db.engine {
            Engine::Writer(w) => block_on(bounded(db.opts.store_timeout, "a flush", w.flush()))?,
            Engine::Reader(_) => {} // a reader has nothing of its own to flush
        }
        Ok(0)
    })
}

/// Start writing the memtable to an L0 table in the background; returns at
/// once. SlateDB's memtable keeps every version of a key until it is
/// flushed, and the flush keeps only the versions live snapshots need, so
/// flushing bounds how many versions of a hot key a scan steps over.
#[no_mangle]
pub unsafe extern "C" fn slate_flush_memtable_async(db: *mut KvDb, err: *mut KvError) -> c_int {
    guard(err, -1, || {
        if let Engine::Writer(w) = &db_ref(db)?.engine {
            let w = w.clone();
            runtime().spawn(async move {
                let opts = slatedb::config::FlushOptions {
                    flush_type: slatedb::config::FlushType::MemTable,
                };
                // a failure here only leaves the versions in memory
                let _ = w.flush_with_options(opts).await;
            });
        }
        Ok(0)
    })
}

// ---------------------------------------------------------------------------
// Checkpoints
// ---------------------------------------------------------------------------

fn fill_checkpoint_raw(
    out: &mut KvCheckpoint,
    id: &str,
    manifest_id: u64,
    create_ms: i64,
    expire_ms: i64,
) {
    out.id = [0; 40];
    for (dst, src) in out.id.iter_mut().zip(id.as_bytes().iter().take(39)) {
        *dst = *src as c_char;
    }
    out.manifest_id = manifest_id;
    out.create_time_ms = create_ms;
    out.expire_time_ms = expire_ms;
}

fn fill_checkpoint(out: &mut KvCheckpoint, cp: &slatedb::Checkpoint) {
    let expire = cp.expire_time.map_or(0, |t| t.timestamp_millis());
    fill_checkpoint_raw(
        out,
        &cp.id.to_string(),
        cp.manifest_id,
        cp.create_time.timestamp_millis(),
        expire,
    );
}

async fn list_checkpoints(
    store: Arc<dyn ObjectStore>,
    path: Path,
) -> KvResult<Vec<slatedb::Checkpoint>> {
    let admin = AdminBuilder::new(path, store).build();
    Ok(admin.list_checkpoints(None).await?)
}

#[no_mangle]
pub unsafe extern "C" fn slate_checkpoint_create(
    db: *mut KvDb,
    lifetime_ms: u64,
    out: *mut KvCheckpoint,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        let db = db_ref(db)?;
        let w = db.writer()?;
        // SAFETY: NULL or a valid out-struct.
        let out = unsafe { out.as_mut() }.ok_or_else(|| Fail::invalid("out is NULL"))?;
        let opts = CheckpointOptions {
            lifetime: (lifetime_ms > 0).then(|| Duration::from_millis(lifetime_ms)),
            ..CheckpointOptions::default()
        };
        let created_at = now_ms();
        let res = block_on(w.create_checkpoint(CheckpointScope::All, &opts))?;
        // The create result carries only id + manifest; read the stored
        // times back from the manifest, falling back to our own clock.
        let listed = block_on(list_checkpoints(db.store.clone(), db.path.clone()))?;
        match listed.iter().find(|c| c.id == res.id) {
            Some(cp) => fill_checkpoint(out, cp),
            None => {
                let expire = if lifetime_ms > 0 {
                    created_at + lifetime_ms as i64
                } else {
                    0
                };
                fill_checkpoint_raw(
                    out,
                    &res.id.to_string(),
                    res.manifest_id,
                    created_at,
                    expire,
                );
            }
        }
        Ok(0)
    })
}

#[no_mangle]
pub unsafe extern "C" fn kv_checkpoint_list(
    url: *const c_char,
    out: *mut *mut KvCheckpoint,
    n: *mut usize,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        let url = c_str(url, "url")?;
        if out.is_null() || n.is_null() {
            return Err(Fail::invalid("out and n must not be NULL"));
        }
        let (store, path) = resolve_url(url, &resolve_opts(std::ptr::null()), false)?;
        let cps = block_on(list_checkpoints(store, path))?;
        let size = std::mem::size_of::<KvCheckpoint>() * cps.len().max(1);
        // SAFETY: malloc'd so C can free() it; checked for NULL.
        let arr = unsafe { libc::malloc(size) } as *mut KvCheckpoint;
        if arr.is_null() {
            return Err(Fail::new(KV_ERR_INTERNAL, "out of memory"));
        }
        for (i, cp) in cps.iter().enumerate() {
            // SAFETY: i < cps.len(), inside the allocation; write() avoids
            // reading the uninitialised slot.
            unsafe {
                arr.add(i).write(KvCheckpoint {
                    id: [0; 40],
                    manifest_id: 0,
                    create_time_ms: 0,
                    expire_time_ms: 0,
                });
                fill_checkpoint(&mut *arr.add(i), cp);
            }
        }
        // SAFETY: out-parameters checked non-NULL above.
        unsafe {
            *out = arr;
            *n = cps.len();
        }
        Ok(0)
    })
}

// ---------------------------------------------------------------------------
// Listing
// ---------------------------------------------------------------------------

/// The names directly below `url` that hold objects (one level, as a
/// directory listing): for finding the stores under an object-store root,
/// which has no directories to read. *out is malloc'd: each name followed
/// by a NUL, *len bytes in all (caller frees). Returns 0 or -1.
#[no_mangle]
pub unsafe extern "C" fn kv_list_dirs(
    url: *const c_char,
    out: *mut *mut c_char,
    len: *mut usize,
    err: *mut KvError,
) -> c_int {
    guard(err, -1, || {
        let url = c_str(url, "url")?;
        if out.is_null() || len.is_null() {
            return Err(Fail::invalid("out and len must not be NULL"));
        }
        let mut names = Vec::new();
        // a local root that does not exist yet has no names, and listing it
        // creates nothing (a reader's resolve_url says KV_ERR_NO_STORE)
        let resolved = match resolve_url(url, &resolve_opts(std::ptr::null()), false) {
            Ok(r) => Some(r),
            Err(e) if e.kind == KV_ERR_NO_STORE => None,
            Err(e) => return Err(e),
        };
        if let Some((store, path)) = resolved {
            let prefix = (!path.as_ref().is_empty()).then_some(&path);
            let list = block_on(store.list_with_delimiter(prefix))?;
            for p in &list.common_prefixes {
                if let Some(name) = p.filename() {
                    names.extend_from_slice(name.as_bytes());
                    names.push(0);
                }
            }
        }
        let buf = malloc_copy(&names)?;
        // SAFETY: out-parameters checked non-NULL above.
        unsafe {
            *out = buf as *mut c_char;
            *len = names.len();
        }
        Ok(0)
    })
}

/// Does a SlateDB store exist at `url` (a manifest), without opening it or
/// creating anything? 1 yes, 0 no, -1 with *err.
#[no_mangle]
pub unsafe extern "C" fn kv_store_exists(url: *const c_char, err: *mut KvError) -> c_int {
    guard(err, -1, || {
        let url = c_str(url, "url")?;
        let (store, path) = match resolve_url(url, &resolve_opts(std::ptr::null()), false) {
            Ok(r) => r,
            Err(e) if e.kind == KV_ERR_NO_STORE => return Ok(0), // no such directory
            Err(e) => return Err(e),
        };
        match block_on(require_existing_store(&store, &path, url)) {
            Ok(()) => Ok(1),
            Err(e) if e.kind == KV_ERR_NO_STORE => Ok(0),
            Err(e) => Err(e),
        }
    })
}

// ---------------------------------------------------------------------------
// Counters
// ---------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn slate_counters_get(out: *mut KvCounters) {
    guard_void(|| {
        // SAFETY: NULL or a valid out-struct.
        if let Some(out) = unsafe { out.as_mut() } {
            out.gets = GETS.load(Ordering::Relaxed);
            out.scans = SCANS.load(Ordering::Relaxed);
            out.keys_read = KEYS_READ.load(Ordering::Relaxed);
            out.batches_written = BATCHES_WRITTEN.load(Ordering::Relaxed);
            out.bytes_written = BYTES_WRITTEN.load(Ordering::Relaxed);
        }
    })
}
