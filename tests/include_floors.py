#!/usr/bin/env python3
"""include_floors: core's rooms are floors, and no include climbs one.

Usage:
  include_floors.py ROOT FLOOR...   check the tree at ROOT (core/, ui/, app/, tests/) against
                                    the floors, bottom up (core/CMakeLists.txt's
                                    OE_CORE_FLOORS); exit 1 listing every violation, one a line
  include_floors.py --self-test     build small trees with each kind of violation (and a clean
                                    one) in a temporary directory and check that the check
                                    finds each, by file and line, and passes the clean one

What it checks, for every #include "..." in .h/.cpp files:
  - in core/: a header of core names its room ("analysis/Analyzer.h", not "Analyzer.h"), and
    that room is on the including file's floor or below it;
  - every folder of core/ is a floor (a new room is placed in OE_CORE_FLOORS);
  - in ui/ and app/: core headers name their room too, and none is under a room's internal/
    folder (core's own; white-box tests may include them, and link oecore_internal to).
"""
import os
import re
import subprocess
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(top):
    for folder, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(('.h', '.cpp')):
                yield os.path.join(folder, name)


def includes(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def check(root, floors):
    core = os.path.join(root, 'core')
    level = {room: i for i, room in enumerate(floors)}
    problems = []
    headers = {}  # file name -> its path under core/
    for path in sources(core):
        rel = os.path.relpath(path, core)
        if path.endswith('.h'):
            headers.setdefault(os.path.basename(path), rel)
    for name in sorted(os.listdir(core)):
        if os.path.isdir(os.path.join(core, name)) and name not in level:
            problems.append(f'core/{name}: a room that is not a floor (add it to OE_CORE_FLOORS)')

    def named(where, number, target):
        """The core header `target` names, or None; records a bare name as a problem."""
        if '/' not in target:
            # A header beside the includer is its own (ui's, app's), unless it is core's.
            beside = os.path.exists(os.path.join(os.path.dirname(where), target))
            in_core = where.startswith(core + os.sep)
            if target in headers and (in_core or not beside):
                problems.append(f'{os.path.relpath(where, root)}:{number}: "{target}" does not '
                                f'name its room: write "{headers[target]}"')
            return None
        room = target.split('/', 1)[0]
        if room in level and os.path.exists(os.path.join(core, target)):
            return target
        return None

    for path in sources(core):
        room = os.path.relpath(path, core).split(os.sep, 1)[0]
        if room not in level:
            continue
        for number, target in includes(path):
            header = named(path, number, target)
            if header is None:
                continue
            to = header.split('/', 1)[0]
            if level[to] > level[room]:
                problems.append(f'{os.path.relpath(path, root)}:{number}: includes "{header}": '
                                f'{room} (floor {level[room]}) climbs to {to} '
                                f'(floor {level[to]})')
    for top in ('ui', 'app'):
        for path in sources(os.path.join(root, top)):
            for number, target in includes(path):
                header = named(path, number, target)
                if header and '/internal/' in header:
                    problems.append(f'{os.path.relpath(path, root)}:{number}: includes '
                                    f'"{header}", core\'s own (internal/)')
    return problems


def main(argv):
    if len(argv) >= 2 and argv[1] == '--self-test':
        return self_test()
    if len(argv) < 3:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    root, floors = argv[1], argv[2:]
    if len(floors) == 1:
        floors = floors[0].replace(';', ' ').split()
    if not os.path.isdir(os.path.join(root, 'core')):
        print(f'include_floors: no core/ folder in {root}', file=sys.stderr)
        return 2
    problems = check(root, floors)
    for p in problems:
        print(p)
    if problems:
        print(f'include_floors: {len(problems)} problem(s); floors, bottom up: '
              f'{" < ".join(floors)}')
        return 1
    print(f'include_floors: no include climbs ({" < ".join(floors)})')
    return 0


def write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)


def self_test():
    clean = {
        'core/low/Low.h': '#pragma once\n',
        'core/low/internal/Secret.h': '#pragma once\n#include "low/Low.h"\n',
        'core/high/High.h': '#pragma once\n#include "low/Low.h"\n#include <QString>\n',
        'core/high/High.cpp': '#include "high/High.h"\n#include "low/internal/Secret.h"\n',
        'ui/View.cpp': '#include "View.h"\n#include "high/High.h"\n',
        'ui/View.h': '#pragma once\n',
        'tests/tst_low.cpp': '#include "low/internal/Secret.h"\n',
    }
    cases = {
        'clean': ({}, 0, []),
        'climb': ({'core/low/Low.cpp': '#include "low/Low.h"\n\n#include "high/High.h"\n'}, 1,
                  ['core/low/Low.cpp:3: includes "high/High.h": low (floor 0) climbs to high '
                   '(floor 1)']),
        'bare name': ({'core/high/Other.cpp': '#include "Low.h"\n'}, 1,
                      ['core/high/Other.cpp:1: "Low.h" does not name its room: write '
                       '"low/Low.h"']),
        'room not a floor': ({'core/attic/Old.h': '#pragma once\n'}, 1,
                             ['core/attic: a room that is not a floor']),
        'internal from ui': ({'app/main.cpp': '#include "low/internal/Secret.h"\n'}, 1,
                             ['app/main.cpp:1: includes "low/internal/Secret.h", core\'s own']),
    }
    failures = 0
    for name, (extra, want_rc, want_lines) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            write(root, {**clean, **extra})
            run = subprocess.run([sys.executable, os.path.abspath(__file__), root, 'low high'],
                                 capture_output=True, text=True)
            missing = [w for w in want_lines if w not in run.stdout]
            if run.returncode != want_rc or missing:
                failures += 1
                print(f'self-test "{name}": exit {run.returncode} (want {want_rc}); '
                      f'missing {missing}; output:\n{run.stdout}{run.stderr}')
            else:
                print(f'self-test "{name}": ok (exit {run.returncode})')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
