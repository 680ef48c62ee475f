#!/usr/bin/env python3
"""check-circles.py — no two files of src/ call each other in a circle,
but for the circles src/LAYERS's [circles] accepts, each with its reason.

The include rule (check-layers.py) sees headers only: files that share a
header can still call each other in both directions. This check reads what
the built objects really link to: for every object of the library, the
global symbols it defines and the ones it needs (`nm`); file A calls file B
when A needs a symbol B defines. It then finds the strongly connected sets
of that graph (Tarjan) and fails (exit 1) naming

    circle: sql/sql.c sql/sql_expr.c ... (not in src/LAYERS [circles])

for each set of two or more files that [circles] does not list exactly, and

    src/LAYERS:LINE: circle ... is no longer one (remove it)

for each listed set the objects no longer form.

    scripts/check-circles.py [--root DIR] [--build DIR]   (DIR/obj/FOLDER/FILE.o)
    scripts/check-circles.py --edges FILE                 who calls FILE, and whom it calls

Run by `make circles` (after the library is built) and by `make test`.
"""
import argparse
import importlib.util
import os
import subprocess
import sys


def load_layers_module():
    """check-layers.py beside this script: the one parser of src/LAYERS."""
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location('check_layers', os.path.join(here, 'check-layers.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def symbols(obj):
    """(defined, needed) global symbol names of one object file."""
    out = subprocess.run(['nm', '-g', obj], stdout=subprocess.PIPE, text=True, check=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            needed.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRVWCG':
            defined.add(parts[2])
    return defined, needed


def call_graph(objdir):
    files = {}
    for folder in sorted(os.listdir(objdir)):
        d = os.path.join(objdir, folder)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith('.o'):
                files[f'{folder}/{f[:-2]}.c'] = symbols(os.path.join(d, f))
    owner = {}
    for f, (defined, _) in files.items():
        for s in defined:
            owner[s] = f
    edges = {f: set() for f in files}
    for f, (_, needed) in files.items():
        for s in needed:
            g = owner.get(s)
            if g and g != f:
                edges[f].add(g)
    return edges


def circles_of(edges):
    """The strongly connected sets of two or more files (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.add(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(frozenset(comp))
    return out


def main():
    ap = argparse.ArgumentParser(description='find circles of calls between the files of src/')
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    ap.add_argument('--root', default=here)
    ap.add_argument('--build', default=os.environ.get('BUILD', 'build'))
    ap.add_argument('--edges', metavar='FILE', help='print who calls FILE (FOLDER/NAME.c) and whom it calls')
    a = ap.parse_args()
    objdir = os.path.join(a.root, a.build, 'obj') if not os.path.isabs(a.build) else os.path.join(a.build, 'obj')
    if not os.path.isdir(objdir):
        print(f'circles: no objects under {objdir} (build the library first: make)', file=sys.stderr)
        return 2
    edges = call_graph(objdir)
    if a.edges:
        print(f'{a.edges} calls: {" ".join(sorted(edges.get(a.edges, ())))}')
        print(f'{a.edges} is called by: {" ".join(sorted(f for f, g in edges.items() if a.edges in g))}')
        return 0
    layers = load_layers_module()
    try:
        _, _, _, listed = layers.parse_map(os.path.join(a.root, 'src', 'LAYERS'))
    except (layers.MapError, OSError) as e:
        print(e)
        return 1
    found = circles_of(edges)
    allowed = {files: n for files, _, n in listed}
    problems = []
    for comp in sorted(found, key=lambda c: sorted(c)):
        if comp not in allowed:
            problems.append(f'circle: {" ".join(sorted(comp))} (not in src/LAYERS [circles]; '
                            'see who calls whom with --edges FILE)')
    for files, n in sorted(allowed.items(), key=lambda x: x[1]):
        if files not in found:
            problems.append(f'src/LAYERS:{n}: circle {" ".join(sorted(files))} is no longer one (remove it)')
    for p in problems:
        print(p)
    if problems:
        print(f'circles: {len(problems)} problem(s); the accepted ones: src/LAYERS [circles]')
        return 1
    print(f'circles: {len(edges)} files, {sum(len(v) for v in edges.values())} calls between them, '
          f'{len(found)} circle(s), each accepted in src/LAYERS')
    return 0


if __name__ == '__main__':
    sys.exit(main())
