#!/usr/bin/env python3
"""test_layers.py — the layer map (src/LAYERS) holds, and its checker
(scripts/check-layers.py) catches each kind of break; the built objects call
each other in no circle the map does not accept (scripts/check-circles.py,
when $BUILD/obj exists); SQLSTATEs are spelled only in src/base/error.h
(scripts/check-sqlstates.py), which catches a raw one.

Runs the checker on the real tree (it must pass), then on copies of src/,
docs/architecture.md and src/LAYERS under $ROCKLAKE_TEST_TMP with one
deliberate break each (it must fail, naming the break). Prints
"ok - ..." / "not ok - ..." and "N passed, N failed" (tests/run.sh).
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
CHECKER = os.path.join(ROOT, 'scripts', 'check-layers.py')
SQLSTATES = os.path.join(ROOT, 'scripts', 'check-sqlstates.py')
# check-circles.py runs the map's parser from ROOT's scripts/, with --root
CIRCLES = os.path.join(ROOT, 'scripts', 'check-circles.py')
passed = failed = 0


def report(ok, what, out=''):
    global passed, failed
    if ok:
        passed += 1
        print(f'ok - {what}')
    else:
        failed += 1
        print(f'not ok - {what}')
        for line in out.splitlines():
            print(f'    {line}')


def run(root, checker=CHECKER):
    p = subprocess.run([sys.executable, checker, '--root', root],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def run_circles(root, objdir):
    p = subprocess.run([sys.executable, CIRCLES, '--root', root, '--build', objdir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def copy_tree(tmp):
    root = tempfile.mkdtemp(prefix='layers_', dir=tmp)
    shutil.copytree(os.path.join(ROOT, 'src'), os.path.join(root, 'src'))
    os.makedirs(os.path.join(root, 'docs'))
    shutil.copy(os.path.join(ROOT, 'docs', 'architecture.md'), os.path.join(root, 'docs'))
    return root


def edit(root, rel, fn):
    path = os.path.join(root, rel)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    new = fn(text)
    assert new != text, f'edit of {rel} changed nothing'
    with open(path, 'w', encoding='utf-8') as f:
        f.write(new)


def add_include(header):
    """An edit adding `#include "header"` before a file's first project
    include (include_line finds its line)."""
    def fn(text):
        i = text.index('#include "')
        return text[:i] + f'#include "{header}"\n' + text[i:]
    return fn


def include_line(root, rel, header):
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.strip() == f'#include "{header}"':
                return n
    return -1


def expect_fail(tmp, what, breaks, want):
    """breaks(root) damages a copy; the checker must exit 1 printing `want`
    (a string, or a function of root giving it)."""
    root = copy_tree(tmp)
    breaks(root)
    rc, out = run(root)
    w = want(root) if callable(want) else want
    report(rc == 1 and w in out, f'{what}: fails with "{w}"', out)
    shutil.rmtree(root, ignore_errors=True)


def main():
    tmp = os.environ.get('ROCKLAKE_TEST_TMP') or tempfile.gettempdir()
    os.makedirs(tmp, exist_ok=True)

    rc, out = run(ROOT)
    report(rc == 0, 'the real tree follows the layer map', out)

    root = copy_tree(tmp)
    rc, out = run(root)
    report(rc == 0, 'an untouched copy of the tree passes', out)
    shutil.rmtree(root, ignore_errors=True)

    # an upward include: the kv layer reaching the SQL engine
    expect_fail(tmp, 'kv.c including sql.h',
                lambda r: edit(r, 'src/kv/kv.c', add_include('sql/sql.h')),
                lambda r: f'src/kv/kv.c:{include_line(r, "src/kv/kv.c", "sql/sql.h")}: includes sql/sql.h '
                          '(layer sql) from layer kv: a layer above')
    # an upward include from a header, one layer up
    expect_fail(tmp, 'desc.h including catalog.h',
                lambda r: edit(r, 'src/keys/desc.h', add_include('catalog/catalog.h')),
                'includes catalog/catalog.h (layer catalog) from layer keys: a layer above')
    # a lower layer the layer does not use: SQL reaching the store
    expect_fail(tmp, 'sql_select.c including kv.h',
                lambda r: edit(r, 'src/sql/sql_select.c', add_include('kv/kv.h')),
                'includes kv/kv.h (layer kv) from layer sql: layer sql does not use kv')
    # a header of a used layer that the layer's uses leave out
    expect_fail(tmp, 'sql_dml.c including tags.h',
                lambda r: edit(r, 'src/sql/sql_dml.c', add_include('keys/tags.h')),
                'includes keys/tags.h (layer keys) from layer sql: layer sql uses only keys/codec.h, keys/desc.h of keys')
    # another layer's private header
    expect_fail(tmp, 'client.c including sql_int.h',
                lambda r: edit(r, 'src/server/client.c', add_include('sql/sql_int.h')),
                'includes sql/sql_int.h (layer sql) from layer server: private to layer sql')
    # the running server never reaches the store
    expect_fail(tmp, 'client.c including kv.h',
                lambda r: edit(r, 'src/server/client.c', add_include('kv/kv.h')),
                'includes kv/kv.h (layer kv) from layer server: layer server does not use kv')
    # the protocol layer is pure: it cannot reach the running server
    expect_fail(tmp, 'auth.c including server.h',
                lambda r: edit(r, 'src/pgwire/auth.c', add_include('server/server.h')),
                'includes server/server.h (layer server) from layer pgwire: a layer above')

    # the storage codec cannot reach PostgreSQL's type I/O (pgtype is above it)
    expect_fail(tmp, 'codec.c including pgtype.h',
                lambda r: edit(r, 'src/keys/codec.c', add_include('pgtype/pgtype.h')),
                'includes pgtype/pgtype.h (layer pgtype) from layer keys: a layer above')

    # a header included twice (the split of sql_int.h once left repeated blocks)
    expect_fail(tmp, 'a repeated include',
                lambda r: edit(r, 'src/sql/sql_select.c', add_include('sql/sql_expr.h')),
                'includes sql/sql_expr.h again (first at line')
    # a project header named without its folder
    expect_fail(tmp, 'an include without its folder',
                lambda r: edit(r, 'src/kv/kv.c', add_include('buf.h')),
                'includes buf.h without its folder (write "base/buf.h")')

    # a new file nobody placed, in a folder and loose in src/
    def new_file(rel):
        def fn(r):
            with open(os.path.join(r, 'src', rel), 'w') as f:
                f.write('#include "base/buf.h"\n')
        return fn
    expect_fail(tmp, 'a src file missing from the map', new_file('base/newthing.c'),
                'src/base/newthing.c: not in the layer map')
    expect_fail(tmp, 'a source file directly in src/', new_file('newthing.c'),
                'src/newthing.c: a source file directly in src/')

    # a mapped file that is gone
    expect_fail(tmp, 'a mapped file that does not exist',
                lambda r: os.remove(os.path.join(r, 'src', 'pgwire', 'hba.c')),
                'src/LAYERS: names pgwire/hba.c, which is not in src/')

    # an exception that matches no include (its include was removed) must go too
    expect_fail(tmp, 'a stale exception',
                lambda r: edit(r, 'src/LAYERS',
                               lambda t: t.replace('[exceptions]\n',
                                                   '[exceptions]\npgwire/hba.c kv/kv.h   gone\n')),
                'exception pgwire/hba.c kv/kv.h matches no forbidden include')

    # the docs' layer map and each folder's README are generated from the map
    expect_fail(tmp, 'docs out of date',
                lambda r: edit(r, 'src/LAYERS',
                               lambda t: t.replace('bump allocator with stable pointers',
                                                   'bump allocator, stable pointers')),
                'docs/architecture.md: the layer map differs from src/LAYERS')
    expect_fail(tmp, 'a folder README edited by hand',
                lambda r: edit(r, 'src/kv/README.md',
                               lambda t: t.replace('| file | owns |', '| file | what |')),
                'src/kv/README.md: missing or not the one generated from src/LAYERS')

    # a file listed twice is a broken map
    expect_fail(tmp, 'a file placed twice',
                lambda r: edit(r, 'src/LAYERS',
                               lambda t: t.replace('\n[exceptions]\n',
                                                   '\nmain.c  again\n\n[exceptions]\n')),
                'cli/main.c is in layer cli already')

    # circles of calls between files (scripts/check-circles.py), from the
    # built objects: only when the library has been built (make test does)
    build = os.environ.get('BUILD', 'build')
    objdir = build if os.path.isabs(build) else os.path.join(ROOT, build)
    if os.path.isdir(os.path.join(objdir, 'obj')):
        rc, out = run_circles(ROOT, objdir)
        report(rc == 0, 'the built objects form only the circles src/LAYERS accepts', out)
        root = copy_tree(tmp)
        edit(root, 'src/LAYERS', lambda t: t[:t.index('\n[circles]\n')])
        rc, out = run_circles(root, objdir)
        report(rc == 1 and 'circle: ' in out and
               '(not in src/LAYERS [circles]' in out,
               'a circle the map does not accept fails the check', out)
        shutil.rmtree(root, ignore_errors=True)
        root = copy_tree(tmp)
        edit(root, 'src/LAYERS', lambda t: t + 'base/buf.c base/arena.c   a circle that is not one\n')
        rc, out = run_circles(root, objdir)
        report(rc == 1 and 'circle base/arena.c base/buf.c is no longer one' in out,
               'an accepted circle that is gone fails the check', out)
        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f'# circles: no {objdir}/obj (build first); skipped')

    # SQLSTATEs: only error.h spells them
    rc, out = run(ROOT, SQLSTATES)
    report(rc == 0, 'the real tree spells no SQLSTATE outside error.h', out)
    root = copy_tree(tmp)
    edit(root, 'src/sql/sql_parse.c',
         lambda t: t.replace('RL_SQLSTATE_SYNTAX_ERROR', '"42601"', 1))
    rc, out = run(root, SQLSTATES)
    w = 'raw SQLSTATE literal "42601" (use RL_SQLSTATE_SYNTAX_ERROR)'
    report(rc == 1 and w in out, f'a raw SQLSTATE in sql_parse.c: fails with "{w}"', out)
    shutil.rmtree(root, ignore_errors=True)

    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
