# SPDX-License-Identifier: GPL-2.0
"""The front end: clang's JSON AST of one C file, with every location
made whole.

clang -Xclang -ast-dump=json writes a location's file and line only when
they differ from the location printed before it; load() walks the dump
in its own order and fills them in, so that every node can say where it
came from (the macro's use site for a node a macro expanded).
"""

import hashlib
import json
import os
import subprocess

PRELUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       'prelude.h')


class ExtractError(Exception):
    """What the extractor cannot translate, and where: "file:line: why"."""

    def __init__(self, where, msg):
        super().__init__('%s: %s' % (where, msg))
        self.where = where
        self.msg = msg


def _fill(node, last):
    if isinstance(node, dict):
        if 'offset' in node:
            for key in ('file', 'line'):
                if key in node:
                    last[key] = node[key]
                else:
                    node[key] = last.get(key)
        for value in node.values():
            _fill(value, last)
    elif isinstance(node, list):
        for value in node:
            _fill(value, last)


def where(node):
    """"file:line" of a node: where its text is, or, for text a macro
    produced, where the macro was used."""
    b = node.get('range', {}).get('begin', {}) or node.get('loc', {})
    b = b.get('expansionLoc', b)
    if not b.get('file'):
        return '?'
    return '%s:%s' % (b['file'], b.get('line', '?'))


# The headers a translation unit may include: every .h under these
# directories of the root (-I . and -I arch/x86/include).
HEADER_DIRS = ('kernel', 'rcu', 'arch')

# Parsed ASTs, by what they were parsed from (_source_key()).  make
# verify extracts a model from each kernel mutant's copy of the C, and a
# mutant edits one file: the others parse as they did in the clean C.
_ASTS = {}


def _source_key(path, root):
    """A hash of the file, every header it may include, and the
    prelude: what its AST depends on (the path is in it too, as the AST
    names it)."""
    h = hashlib.sha1(path.encode())
    files = [PRELUDE, os.path.join(root, path)]
    for d in HEADER_DIRS:
        for top, dirs, names in os.walk(os.path.join(root, d)):
            dirs.sort()
            files += [os.path.join(top, n) for n in sorted(names)
                      if n.endswith('.h')]
    for f in files:
        h.update(os.path.relpath(f, root).encode() + b'\0')
        with open(f, 'rb') as fd:
            h.update(fd.read())
    return h.hexdigest()


def _parse(path, root, include):
    """clang's JSON AST of path, its locations filled in."""
    cmd = ['clang', '-std=gnu11', '-ffreestanding', '-fsyntax-only',
           '-I', '.', '-I', 'arch/x86/include']
    for d in include:
        cmd += ['-I', d]
    cmd += ['-include', PRELUDE, '-Xclang', '-ast-dump=json', path]
    p = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    errors = [l for l in p.stderr.splitlines() if ' error: ' in l]
    if p.returncode or errors:
        raise ExtractError(path, 'clang failed: ' + (
            errors[0] if errors else p.stderr.strip()[-300:]))
    ast = json.loads(p.stdout)
    _fill(ast, {})
    return ast


class TU:
    """One translation unit: its functions with bodies, its global
    variables and its enum constants, by name.  The translator only
    reads the AST, so one parsed from the same sources is reused."""

    def __init__(self, path, root, include=()):
        self.path = path
        self.root = root
        # Only the tree's own files are kept for reuse (an export's or a
        # test's temporary file is not).
        key = None if include or os.path.isabs(path) else \
            _source_key(path, root)
        ast = _ASTS.get(key) if key else None
        if ast is None:
            ast = _parse(path, root, include)
            if key:
                _ASTS[key] = ast
        self.functions = {}
        self.globals = {}
        self.enums = {}
        for d in ast.get('inner', []):
            kind = d.get('kind')
            if kind == 'FunctionDecl' and any(
                    i.get('kind') == 'CompoundStmt'
                    for i in d.get('inner', [])):
                self.functions[d['name']] = d
            elif kind == 'VarDecl':
                self.globals[d['name']] = d
            elif kind == 'EnumDecl':
                self._enum(d)

    def _enum(self, d):
        value = -1
        for c in d.get('inner', []):
            if c.get('kind') != 'EnumConstantDecl':
                continue
            inits = [i for i in c.get('inner', [])
                     if i.get('kind') == 'ConstantExpr']
            value = int(inits[0]['value']) if inits else value + 1
            self.enums[c['id']] = (c['name'], value)

    def token(self, node):
        """The source token a node begins with (where it is spelled):
        the JSON dump leaves some operators' names out (AtomicExpr's)."""
        b = node.get('range', {}).get('begin', {})
        b = b.get('spellingLoc', b)
        path = os.path.join(self.root, b.get('file') or '')
        with open(path, 'rb') as f:
            f.seek(b['offset'])
            return f.read(b['tokLen']).decode()
