#!/usr/bin/env python3
"""check-layers.py — the layer map of src/ (src/LAYERS), enforced.

src/ holds one folder per layer (the folder is the layer). Reads src/LAYERS,
then every `#include "..."` of every src/FOLDER/*.c, *.h and *.inc file, and
fails (exit 1) listing each violation as

    src/FOLDER/FILE:LINE: includes F2/HEADER (layer F2) from layer F1: WHY

when a file includes a header of a folder above its own, a header of a lower
folder its layer does not use, or another folder's private header, unless
[exceptions] sanctions exactly that include; and when a project header is
included without its folder. It also fails when a src file is missing from
the map (or the map names a file that does not exist), when a source file
sits directly in src/, when an exception no longer matches an include, and
when the "Layer map" section of docs/architecture.md or a folder's README.md
is not the one generated from the map.

    scripts/check-layers.py [--root DIR]   check (DIR: the repository)
    scripts/check-layers.py --doc          print the generated doc section
    scripts/check-layers.py --write-doc    rewrite it in docs/architecture.md
                                           and every src/FOLDER/README.md

Run by `make layers` and as the first suite of `make test` (tests/run.sh,
tests/test_layers.py). Only direct includes count: a header that includes
another hands it on, which the rule already allows one layer down.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE = re.compile(r'.+\.(c|h|inc)$')
DOC_BEGIN = '<!-- layer-map:begin (generated from src/LAYERS by scripts/check-layers.py --write-doc; do not edit) -->'
DOC_END = '<!-- layer-map:end -->'


class MapError(Exception):
    pass


class Layer:
    def __init__(self, name, index):
        self.name = name
        self.index = index
        self.uses = None      # list of layer names / header names
        self.owns = ''
        self.blind = ''
        self.private = set()
        self.units = []       # (files, text)


def parse_map(path):
    layers, where, exceptions, circles = [], {}, {}, []
    cur = None
    in_exceptions = in_circles = False
    with open(path, encoding='utf-8') as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            m = re.match(r'^\[([a-z0-9_-]+)\]\s*$', line)
            if m:
                if m.group(1) == 'exceptions':
                    in_exceptions, in_circles, cur = True, False, None
                elif m.group(1) == 'circles':
                    in_exceptions, in_circles, cur = False, True, None
                else:
                    if in_exceptions or in_circles:
                        raise MapError(f'{path}:{n}: layer after [exceptions] or [circles]')
                    if any(l.name == m.group(1) for l in layers):
                        raise MapError(f'{path}:{n}: layer {m.group(1)} twice')
                    cur = Layer(m.group(1), len(layers))
                    layers.append(cur)
                continue
            if in_circles:
                words = line.split()
                files = []
                while words and SOURCE.match(words[0]):
                    files.append(words.pop(0))
                if len(files) < 2 or not words:
                    raise MapError(f'{path}:{n}: a circle is FILE FILE... JUSTIFICATION')
                circles.append((frozenset(files), ' '.join(words), n))
                continue
            if in_exceptions:
                parts = line.split(None, 2)
                if len(parts) < 3:
                    raise MapError(f'{path}:{n}: an exception is FILE HEADER JUSTIFICATION')
                key = (parts[0], parts[1])
                if key in exceptions:
                    raise MapError(f'{path}:{n}: exception {parts[0]} {parts[1]} twice')
                exceptions[key] = (parts[2].strip(), n)
                continue
            if cur is None:
                raise MapError(f'{path}:{n}: a line outside any [layer]')
            m = re.match(r'^(uses|owns|knows nothing of|private):\s*(.*)$', line)
            if m:
                key, val = m.group(1), m.group(2).strip()
                if key == 'uses':
                    cur.uses = [] if val == '-' else val.split()
                elif key == 'owns':
                    cur.owns = val
                elif key == 'knows nothing of':
                    cur.blind = val
                else:
                    cur.private.update(f'{cur.name}/{p}' for p in val.split())
                continue
            words = line.split()
            files = []
            while words and SOURCE.match(words[0]):
                files.append(words.pop(0))
            if not files or not words:
                raise MapError(f'{path}:{n}: a file line is FILE... TEXT')
            files = [f'{cur.name}/{fn}' for fn in files]
            for fn in files:
                if fn in where:
                    raise MapError(f'{path}:{n}: {fn} is in layer {where[fn].name} already')
                where[fn] = cur
            cur.units.append((files, ' '.join(words)))
    if not layers:
        raise MapError(f'{path}: no layers')
    names = {l.name: l for l in layers}
    for l in layers:
        if l.uses is None:
            raise MapError(f'{path}: layer {l.name} has no uses: line')
        for u in l.uses:
            target = names.get(u) or where.get(u)
            if target is None:
                raise MapError(f'{path}: layer {l.name} uses {u}, which is neither a layer nor a mapped file')
            if target.index >= l.index:
                raise MapError(f'{path}: layer {l.name} uses {u}, which is not below it')
        for p in l.private:
            if where.get(p) is not l:
                raise MapError(f'{path}: private {p} is not a file of layer {l.name}')
    for files, _, n in circles:
        for fn in files:
            if fn not in where:
                raise MapError(f'{path}:{n}: circle names {fn}, which is not a mapped file')
    return layers, where, exceptions, circles


def may_include(layer, header, hlayer, where):
    """None if `layer`'s files may include `header` (of `hlayer`), else why not."""
    if hlayer is layer:
        return None
    if hlayer.index > layer.index:
        return 'a layer above'
    if header in hlayer.private:
        return f'private to layer {hlayer.name}'
    if hlayer.name in layer.uses or header in layer.uses:
        return None
    some = [u for u in layer.uses if where.get(u) is hlayer]
    if some:
        return f'layer {layer.name} uses only {", ".join(some)} of {hlayer.name}'
    return f'layer {layer.name} does not use {hlayer.name}'


def source_files(src):
    """(mapped-style paths FOLDER/FILE of every source file in a folder of
    src/, source files lying directly in src/)."""
    nested, loose = [], []
    for entry in sorted(os.listdir(src)):
        full = os.path.join(src, entry)
        if os.path.isdir(full):
            nested += [f'{entry}/{f}' for f in sorted(os.listdir(full)) if SOURCE.match(f)]
        elif SOURCE.match(entry):
            loose.append(entry)
    return nested, loose


def check(root):
    src = os.path.join(root, 'src')
    problems = []
    try:
        layers, where, exceptions, circles = parse_map(os.path.join(src, 'LAYERS'))
    except (MapError, OSError) as e:
        return [str(e)]
    present, loose = source_files(src)
    for f in loose:
        problems.append(f'src/{f}: a source file directly in src/ (move it into its layer\'s folder and place it in src/LAYERS)')
    for f in present:
        if f not in where:
            problems.append(f'src/{f}: not in the layer map src/LAYERS (place it in a layer)')
    for f in sorted(set(where) - set(present)):
        problems.append(f'src/LAYERS: names {f}, which is not in src/')
    by_base = {}
    for f in where:
        by_base.setdefault(os.path.basename(f), []).append(f)
    used = set()
    for f in present:
        layer = where.get(f)
        if layer is None:
            continue
        with open(os.path.join(src, f), encoding='utf-8', errors='replace') as fh:
            seen = {}
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                h = m.group(1)
                if h in seen:
                    problems.append(f'src/{f}:{n}: includes {h} again (first at line {seen[h]}): '
                                    'remove the repeat')
                    continue
                seen[h] = n
                if '/' not in h and h in by_base:
                    problems.append(f'src/{f}:{n}: includes {h} without its folder (write "{by_base[h][0]}")')
                    continue
                hlayer = where.get(h)
                if hlayer is None:
                    continue  # unmapped (reported above) or not a src header
                why = may_include(layer, h, hlayer, where)
                if why is None:
                    continue
                if (f, h) in exceptions:
                    used.add((f, h))
                    continue
                problems.append(f'src/{f}:{n}: includes {h} (layer {hlayer.name}) from layer {layer.name}: {why}')
    for (f, h), (_, n) in sorted(exceptions.items()):
        if (f, h) not in used:
            problems.append(f'src/LAYERS:{n}: exception {f} {h} matches no forbidden include (remove it)')
    doc = os.path.join(root, 'docs', 'architecture.md')
    if os.path.exists(doc):
        with open(doc, encoding='utf-8') as fh:
            text = fh.read()
        got = doc_section_of(text)
        if got is None:
            problems.append(f'docs/architecture.md: no generated layer map ({DOC_BEGIN[:24]}...)')
        elif got != render_doc(layers, exceptions, circles):
            problems.append('docs/architecture.md: the layer map differs from src/LAYERS '
                            '(run python3 scripts/check-layers.py --write-doc)')
    for l in layers:
        readme = os.path.join(src, l.name, 'README.md')
        try:
            with open(readme, encoding='utf-8') as fh:
                text = fh.read()
        except OSError:
            text = None
        if text != render_readme(l, layers, exceptions):
            problems.append(f'src/{l.name}/README.md: missing or not the one generated from src/LAYERS '
                            '(run python3 scripts/check-layers.py --write-doc)')
    return problems


def doc_section_of(text):
    b = text.find(DOC_BEGIN)
    e = text.find(DOC_END)
    if b < 0 or e < b:
        return None
    return text[b + len(DOC_BEGIN):e]


def render_doc(layers, exceptions, circles=()):
    out = ['']
    for l in reversed(layers):
        uses = ', '.join(f'`{u}`' for u in l.uses) or 'nothing'
        out.append(f'**`{l.name}`** — {l.owns}.  ')
        line = f'Includes its own headers and {uses}'
        if l.private:
            line += '; private: ' + ', '.join(f'`{p}`' for p in sorted(l.private))
        if l.blind and l.blind != '-':
            line += f'; knows nothing of {l.blind}'
        out.append(line + '.')
        out.append('')
        out.append('| file | owns |')
        out.append('|---|---|')
        for files, text in l.units:
            out.append('| ' + ', '.join(f'`src/{f}`' for f in files) + f' | {text} |')
        out.append('')
    out.append('Sanctioned exceptions (`[exceptions]` in `src/LAYERS`):')
    out.append('')
    if not exceptions:
        out.append('- none')
    for (f, h), (why, _) in sorted(exceptions.items()):
        out.append(f'- `src/{f}` includes `{h}`: {why}.')
    out.append('')
    out.append('Accepted circles of calls between files (`[circles]` in `src/LAYERS`, '
               'checked by `make circles`):')
    out.append('')
    if not circles:
        out.append('- none')
    for files, why, _ in circles:
        out.append('- ' + ', '.join(f'`src/{f}`' for f in sorted(files)) + f': {why}.')
    out.append('')
    return '\n'.join(out)


def render_readme(layer, layers, exceptions):
    """src/FOLDER/README.md of one layer, generated from src/LAYERS."""
    above = [l.name for l in layers if l.index > layer.index and
             (layer.name in l.uses or any(u.startswith(layer.name + '/') for u in l.uses))]
    out = [f'# src/{layer.name}/', '',
           '<!-- generated from src/LAYERS by scripts/check-layers.py --write-doc; do not edit -->', '',
           f'**Owns:** {layer.owns}.', '']
    uses = ', '.join(f'`{u}/`' if '/' not in u else f'`{u}`' for u in layer.uses) or 'nothing but the C and system libraries'
    out.append(f'**May include:** its own headers and {uses}.  ')
    out.append('**Used by:** ' + (', '.join(f'`{a}/`' for a in above) or 'nothing above it (the top)') + '.  ')
    if layer.blind and layer.blind != '-':
        out.append(f'**Knows nothing of:** {layer.blind}.  ')
    if layer.private:
        out.append('**Private headers** (this folder only): ' +
                   ', '.join(f'`{os.path.basename(p)}`' for p in sorted(layer.private)) + '.  ')
    out += ['', '| file | owns |', '|---|---|']
    for files, text in layer.units:
        out.append('| ' + ', '.join(f'`{os.path.basename(f)}`' for f in files) + f' | {text} |')
    mine = [(f, h, why) for (f, h), (why, _) in sorted(exceptions.items()) if f.startswith(layer.name + '/')]
    if mine:
        out += ['', 'Includes the rule forbids, accepted in `src/LAYERS` `[exceptions]`:', '']
        out += [f'- `{os.path.basename(f)}` includes `{h}`: {why}.' for f, h, why in mine]
    out += ['', 'The whole map and its rule: `src/LAYERS`, `docs/architecture.md`.', '']
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description='check the layer map of src/ (src/LAYERS)')
    ap.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    ap.add_argument('--doc', action='store_true', help='print the generated doc section')
    ap.add_argument('--write-doc', action='store_true', help='rewrite it in docs/architecture.md')
    a = ap.parse_args()
    if a.doc or a.write_doc:
        try:
            layers, _, exceptions, circles = parse_map(os.path.join(a.root, 'src', 'LAYERS'))
        except (MapError, OSError) as e:
            print(e, file=sys.stderr)
            return 1
        body = render_doc(layers, exceptions, circles)
        if a.doc:
            sys.stdout.write(body)
            return 0
        doc = os.path.join(a.root, 'docs', 'architecture.md')
        with open(doc, encoding='utf-8') as fh:
            text = fh.read()
        if doc_section_of(text) is None:
            print(f'{doc}: add the lines {DOC_BEGIN} and {DOC_END} first', file=sys.stderr)
            return 1
        b = text.find(DOC_BEGIN) + len(DOC_BEGIN)
        e = text.find(DOC_END)
        with open(doc, 'w', encoding='utf-8') as fh:
            fh.write(text[:b] + body + text[e:])
        for l in layers:
            with open(os.path.join(a.root, 'src', l.name, 'README.md'), 'w', encoding='utf-8') as fh:
                fh.write(render_readme(l, layers, exceptions))
        return 0
    problems = check(a.root)
    for p in problems:
        print(p)
    if problems:
        print(f'layers: {len(problems)} problem(s); the map and its rule: src/LAYERS, docs/architecture.md')
        return 1
    print('layers: every src file is placed and every include follows the layer map')
    return 0


if __name__ == '__main__':
    sys.exit(main())
