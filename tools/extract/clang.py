# SPDX-License-Identifier: GPL-2.0
"""The front end: clang's JSON AST of one C file, with every location
made whole.

clang -Xclang -ast-dump=json writes a location's file and line only when
they differ from the location printed before it; load() walks the dump
in its own order and fills them in, so that every node can say where it
came from (the macro's use site for a node a macro expanded).
"""

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


class TU:
    """One translation unit: its functions with bodies, its global
    variables and its enum constants, by name."""

    def __init__(self, path, root, include=()):
        self.path = path
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
        self.root = root
        ast = json.loads(p.stdout)
        _fill(ast, {})
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
