#!/usr/bin/env python3
"""include_floors: core's rooms are floors, and no include climbs one or crosses one.

Usage:
  include_floors.py ROOT FLOOR... [--ui UI_FLOOR...]
                                    check the tree at ROOT (core/, ui/, app/) against core's
                                    floors, bottom up (core/CMakeLists.txt's OE_CORE_FLOORS),
                                    and ui's (ui/CMakeLists.txt's OE_UI_FLOORS; rooms that share
                                    a floor are joined by commas, and never include each
                                    other); exit 1 listing every violation, one a line
  include_floors.py --self-test     build small trees with each kind of violation (and a clean
                                    one) in a temporary directory and check that the check
                                    finds each, by file and line, and passes the clean one

What it checks, for every #include "..." in .h/.cpp files:
  - in core/: a header of core names its room ("analysis/Analyzer.h", not "Analyzer.h"), and
    that room is the including file's own or on a floor below it: never on a floor above, nor
    another room on the same floor (rooms that share a floor stand apart; a room that needs
    both goes on a floor above them, as ui's explorer over the wizard and the dialogs);
  - every folder of core/ is a floor (a new room is placed in OE_CORE_FLOORS);
  - in ui/: the same for ui's rooms (a header of ui names its room, rooms never include from
    a floor above; charts/ and export/ are the report library the CLI links);
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


class Tree:
    """One library tree (core/ or ui/): its rooms, their floors and its headers."""

    def __init__(self, root, top, floors, variable):
        self.top, self.variable = top, variable
        self.base = os.path.join(root, top)
        self.level = {}
        for i, floor in enumerate(floors):
            for room in floor.split(','):
                self.level[room] = i
        self.headers = {}  # file name -> its path under the tree
        for path in sources(self.base):
            if path.endswith('.h'):
                self.headers.setdefault(os.path.basename(path),
                                        os.path.relpath(path, self.base))

    def room_of(self, path):
        if not path.startswith(self.base + os.sep):
            return None
        room = os.path.relpath(path, self.base).split(os.sep, 1)[0]
        return room if room in self.level else None

    def header(self, target):
        room = target.split('/', 1)[0]
        if room in self.level and os.path.exists(os.path.join(self.base, target)):
            return target
        return None


def check(root, floors, ui_floors):
    trees = [Tree(root, 'core', floors, 'OE_CORE_FLOORS')]
    if ui_floors:
        trees.append(Tree(root, 'ui', ui_floors, 'OE_UI_FLOORS'))
    problems = []
    for tree in trees:
        for name in sorted(os.listdir(tree.base)):
            if os.path.isdir(os.path.join(tree.base, name)) and name not in tree.level:
                problems.append(f'{tree.top}/{name}: a room that is not a floor '
                                f'(add it to {tree.variable})')

    def named(where, number, target):
        """(tree, header) that `target` names, or None; records a bare name as a problem."""
        for tree in trees:
            if '/' not in target:
                # A header beside the includer is its own (app's), unless it is the tree's.
                beside = os.path.exists(os.path.join(os.path.dirname(where), target))
                inside = where.startswith(tree.base + os.sep)
                if target in tree.headers and (inside or not beside):
                    problems.append(f'{os.path.relpath(where, root)}:{number}: "{target}" does '
                                    f'not name its room: write "{tree.headers[target]}"')
                    return None
            elif tree.header(target):
                return tree, target
        return None

    for top in ('core', 'ui', 'app'):
        for path in sources(os.path.join(root, top)):
            for number, target in includes(path):
                found = named(path, number, target)
                if found is None:
                    continue
                tree, header = found
                at = os.path.relpath(path, root)
                if tree.top == 'core' and top != 'core' and '/internal/' in header:
                    problems.append(f'{at}:{number}: includes "{header}", core\'s own '
                                    f'(internal/)')
                room = tree.room_of(path)
                if room is None:
                    continue
                to = header.split('/', 1)[0]
                if tree.level[to] > tree.level[room]:
                    problems.append(f'{at}:{number}: includes "{header}": {room} (floor '
                                    f'{tree.level[room]}) climbs to {to} (floor '
                                    f'{tree.level[to]})')
                elif to != room and tree.level[to] == tree.level[room]:
                    problems.append(f'{at}:{number}: includes "{header}": {room} and {to} '
                                    f'share floor {tree.level[room]}, and rooms on one floor '
                                    f'never include each other')
    return problems


def main(argv):
    if len(argv) >= 2 and argv[1] == '--self-test':
        return self_test()
    if len(argv) < 3:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    args = argv[2:]
    ui_floors = []
    if '--ui' in args:
        ui_floors = args[args.index('--ui') + 1:]
        args = args[:args.index('--ui')]
    root, floors = argv[1], split_list(args)
    ui_floors = split_list(ui_floors)
    if not os.path.isdir(os.path.join(root, 'core')):
        print(f'include_floors: no core/ folder in {root}', file=sys.stderr)
        return 2
    problems = check(root, floors, ui_floors)
    for p in problems:
        print(p)
    if problems:
        print(f'include_floors: {len(problems)} problem(s); floors, bottom up: '
              f'{describe(floors, ui_floors)}')
        return 1
    print(f'include_floors: no include climbs or crosses a floor '
          f'({describe(floors, ui_floors)})')
    return 0


def split_list(args):
    """Floors given as separate arguments or as one CMake list ("a;b") or one string."""
    return [f for a in args for f in a.replace(';', ' ').split()]


def describe(floors, ui_floors):
    text = 'core: ' + ' < '.join(floors)
    if ui_floors:
        text += '; ui: ' + ' < '.join(ui_floors)
    return text


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
        'ui/base/Chart.h': '#pragma once\n#include "low/Low.h"\n',
        'ui/pages/View.cpp': '#include "pages/View.h"\n#include "base/Chart.h"\n'
                             '#include "high/High.h"\n',
        'ui/pages/View.h': '#pragma once\n',
        'ui/wizard/Wizard.h': '#pragma once\n#include "base/Chart.h"\n',
        'ui/window/Window.h': '#pragma once\n',
        'ui/window/Window.cpp': '#include "window/Window.h"\n#include "pages/View.h"\n'
                                '#include "wizard/Wizard.h"\n',
        'app/Main.cpp': '#include "Main.h"\n#include "pages/View.h"\n',
        'app/Main.h': '#pragma once\n',
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
        'internal from app': ({'app/main.cpp': '#include "low/internal/Secret.h"\n'}, 1,
                              ['app/main.cpp:1: includes "low/internal/Secret.h", core\'s own']),
        'ui climb': ({'ui/base/Chart.cpp': '#include "base/Chart.h"\n#include "pages/View.h"\n'},
                     1, ['ui/base/Chart.cpp:2: includes "pages/View.h": base (floor 0) climbs to '
                         'pages (floor 1)']),
        'ui bare name': ({'app/Other.cpp': '#include "View.h"\n'}, 1,
                         ['app/Other.cpp:1: "View.h" does not name its room: write '
                          '"pages/View.h"']),
        'ui room not a floor': ({'ui/attic/Old.h': '#pragma once\n'}, 1,
                                ['ui/attic: a room that is not a floor (add it to OE_UI_FLOORS)']),
        # Rooms on one floor (pages and wizard, as explorer and wizard were) never include each
        # other, either way; the room above both (window) may include both.
        'ui shared floor': ({'ui/wizard/Wizard.cpp': '#include "wizard/Wizard.h"\n'
                                                     '#include "pages/View.h"\n'}, 1,
                            ['ui/wizard/Wizard.cpp:2: includes "pages/View.h": wizard and pages '
                             'share floor 1, and rooms on one floor never include each other']),
        'ui shared floor, other way': ({'ui/pages/Page.cpp': '#include "wizard/Wizard.h"\n'}, 1,
                                       ['ui/pages/Page.cpp:1: includes "wizard/Wizard.h": pages and '
                                        'wizard share floor 1']),
        'ui shared floor climbs': ({'ui/wizard/Wizard.cpp': '#include "window/Window.h"\n'}, 1,
                                   ['ui/wizard/Wizard.cpp:1: includes "window/Window.h": wizard '
                                    '(floor 1) climbs to window (floor 2)']),
    }
    failures = 0
    for name, (extra, want_rc, want_lines) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            write(root, {**clean, **extra})
            run = subprocess.run([sys.executable, os.path.abspath(__file__), root, 'low;high',
                                  '--ui', 'base', 'pages,wizard', 'window'],
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
