#!/usr/bin/env python3
"""remedy_names: outside its folder and the registry, no product file names a particular remedy.

Usage:
  remedy_names.py ROOT        check the tree at ROOT (core/, ui/, app/); exit 1 listing every
                              file and line that names one, one a line
  remedy_names.py --self-test build small trees (a clean one, and one of each kind of naming)
                              in a temporary directory and check that each is found by file
                              and line and the clean one passes

A remedy lives in its own folder, core/remedy/<folder>/ (any but internal/), as a class deriving
from Remedy, and is listed once in core/remedy/RemedyRegistry.cpp. Everywhere else (core's
engine, ui's dialogs and wizard, the CLI) asks the registry. So no other .h/.cpp file:
  - names a remedy's kind (RewriteKind::Extract: the values of RewriteConfig.h's RewriteKind),
  - names a remedy's class (ExtractRemedy: a class of a remedy folder deriving from Remedy),
  - includes a header of a remedy's folder ("remedy/extract/...").
"""
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from include_floors import sources, write  # noqa: E402  (the same tree walk and test trees)

KIND_ENUM = re.compile(r'enum\s+class\s+RewriteKind\s*\{(.*?)\};', re.S)
REMEDY_CLASS = re.compile(r'class\s+(\w+)\s*:\s*public\s+Remedy\b')
INCLUDE = re.compile(r'^\s*#\s*include\s+"remedy/(\w+)/')


def kinds(root):
    path = os.path.join(root, 'core', 'remedy', 'RewriteConfig.h')
    with open(path, encoding='utf-8') as f:
        m = KIND_ENUM.search(f.read())
    if not m:
        return []
    body = re.sub(r'//[^\n]*', '', m.group(1))
    return [name.split('=')[0].strip() for name in body.split(',') if name.strip()]


def remedy_folders(root):
    base = os.path.join(root, 'core', 'remedy')
    return sorted(d for d in os.listdir(base)
                  if os.path.isdir(os.path.join(base, d)) and d != 'internal')


def remedy_classes(root, folders):
    names = []
    for folder in folders:
        for path in sources(os.path.join(root, 'core', 'remedy', folder)):
            with open(path, encoding='utf-8', errors='replace') as f:
                names += REMEDY_CLASS.findall(f.read())
    return sorted(set(names))


def check(root):
    folders = remedy_folders(root)
    kind_names = kinds(root)
    classes = remedy_classes(root, folders)
    if not kind_names or not folders:
        return ['%s: no RewriteKind or no remedy folder found' % root]
    kind_use = re.compile(r'\bRewriteKind::(%s)\b' % '|'.join(map(re.escape, kind_names)))
    class_use = re.compile(r'\b(%s)\b' % '|'.join(map(re.escape, classes))) if classes else None
    allowed = {os.path.join('core', 'remedy', 'RemedyRegistry.h'),
               os.path.join('core', 'remedy', 'RemedyRegistry.cpp')}
    problems = []
    for top in ('core', 'ui', 'app'):
        for path in sources(os.path.join(root, top)):
            rel = os.path.relpath(path, root)
            parts = rel.split(os.sep)
            if rel in allowed or (parts[:2] == ['core', 'remedy'] and len(parts) > 3 and
                                  parts[2] in folders):
                continue
            with open(path, encoding='utf-8', errors='replace') as f:
                for number, line in enumerate(f, 1):
                    code = line.split('//')[0]
                    m = kind_use.search(code)
                    if m:
                        problems.append('%s:%d: names the remedy RewriteKind::%s'
                                        % (rel, number, m.group(1)))
                    m = class_use.search(code) if class_use and not INCLUDE.match(line) else None
                    if m:
                        problems.append('%s:%d: names the remedy class %s'
                                        % (rel, number, m.group(1)))
                    m = INCLUDE.match(line)
                    if m and m.group(1) in folders:
                        problems.append('%s:%d: includes the remedy folder remedy/%s'
                                        % (rel, number, m.group(1)))
    return problems


def self_test():
    clean = {
        'core/remedy/RewriteConfig.h': 'enum class RewriteKind\n{\n    Alpha, // one\n    Beta\n};\n',
        'core/remedy/RemedyRegistry.cpp': '#include "remedy/alpha/AlphaRemedy.h"\nAlphaRemedy a;\n',
        'core/remedy/alpha/AlphaRemedy.h': 'class AlphaRemedy : public Remedy\n{\n  RewriteKind k = RewriteKind::Alpha;\n};\n',
        'core/remedy/beta/BetaRemedy.h': 'class BetaRemedy : public Remedy {};\n',
        'core/remedy/internal/Engine.cpp': 'const Remedy &r = RemedyRegistry::of(kind);\n',
        'ui/Dialog.cpp': '// RewriteKind::Alpha in a comment is no use\nint x;\n',
        'app/Cli.cpp': 'int y;\n',
    }
    bad = {
        'ui/Dialog.cpp': ('ui/Dialog.cpp:2: names the remedy RewriteKind::Beta',
                          '// ok\nif (k == RewriteKind::Beta) {}\n'),
        'app/Cli.cpp': ('app/Cli.cpp:1: names the remedy class AlphaRemedy', 'AlphaRemedy r;\n'),
        'core/remedy/internal/Engine.cpp': (
            'core/remedy/internal/Engine.cpp:1: includes the remedy folder remedy/beta',
            '#include "remedy/beta/BetaRemedy.h"\n'),
    }
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, 'clean')
        write(root, clean)
        if check(root):
            failures.append('the clean tree fails: %s' % check(root))
        for rel, (expected, text) in bad.items():
            root = os.path.join(tmp, rel.replace('/', '_'))
            write(root, dict(clean, **{rel: text}))
            found = check(root)
            if found != [expected]:
                failures.append('%s: expected [%s], found %s' % (rel, expected, found))
    for failure in failures:
        print(failure)
    print('self-test: %s' % ('FAILED' if failures else 'passed'))
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = check(argv[1])
    for problem in problems:
        print(problem)
    if not problems:
        print('no product file outside its folder and the registry names a remedy')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
