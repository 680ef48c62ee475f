"""Generated sections of docs/benchmarks.md.

Each benchmark driver owns one section, delimited by
`<!-- begin NAME (generated) -->` and `<!-- end NAME -->`, and replaces only
that section, so the real-DuckDB results (bench/duckdb_bench.py), the replay
results (bench/run.py) and the hand-written profiling notes live in one file
without one driver erasing another's output.
"""
import os

TITLE = '# Benchmarks: RockLake as DuckDB\'s DuckLake catalog'
HANDWRITTEN = '## Profiling and fixes'


def markers(name):
    return f'<!-- begin {name} (generated) -->', f'<!-- end {name} -->'


def replace_section(path, name, body, first=False):
    """Write `body` as section NAME of the markdown file at `path`: in place
    if the section exists, else right after the title (first=True) or before
    the hand-written part (else at the end)."""
    begin, end = markers(name)
    block = f'{begin}\n{body.rstrip()}\n{end}\n'
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        text = TITLE + '\n\n'
    if begin in text and end in text:
        a = text.index(begin)
        b = text.index(end, a) + len(end)
        text = text[:a] + block.rstrip('\n') + text[b:]
    elif first:
        blank = text.find('\n\n') if text.startswith('# ') else -1
        # after the title's paragraph; a title line alone: after that line
        nl = blank + 2 if blank >= 0 else (text.find('\n') + 1 if text.startswith('# ') else 0)
        text = text[:nl] + block + '\n' + text[nl:]
    elif HANDWRITTEN in text:
        i = text.index(HANDWRITTEN)
        text = text[:i] + block + '\n' + text[i:]
    else:
        text = text.rstrip('\n') + '\n\n' + block
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
