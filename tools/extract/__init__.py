# SPDX-License-Identifier: GPL-2.0
"""Spin models from the C that boots: the extractor.

    python3 -m tools.extract MODEL [-o DIR] [--root DIR]

reads the named functions of rcu/*.c with clang's JSON AST (clang.py),
translates each into a Promela inline whose every shared-memory access
is one step through the memory model's macros (translate.py), and writes
them, with the layout of shared memory, as one Promela file
(promela.py).  A construct it does not understand fails the extraction
with its file and line; so do the C meanings the model does not keep
(translate.py says which): a narrowing cast or unsigned subtraction of
a value read from shared memory, an atomic's memory order weaker than
the model gives it, a plain access to a field the code also marks.
What the spec abstracts, it names with a reason.  The harnesses that
call the inlines, and the memory models, are tests/spin/extracted/ and
tests/spin/wmm/memory.pml; docs/spin-extractor.md says what is
extracted and what the harness assumes.

A spec is a dict:
  name       the model's name
  files      {C file: [function, ...]}: the inlines, in order (a file
             with none lends its functions to the others' calls)
  objects    {global: element count (a Promela expression) or None}:
             the globals the code may touch (None: not an array)
  calls      {function: (kind, template, why)}: calls not to inline,
             and what they become: kind 'expr' (a pure expression),
             'ctx' (a read of the harness's state), 'step' (a step of
             its own that others can see), 'acquire' and 'release' (a
             lock's, named by the first argument; a release joins the
             step before it), 'step_release' (a step that releases the
             locks held) or 'locked' (a step on state that only the lock
             held guards: it joins the step before it); the template
             takes the arguments as {0}, {1}...
  params     {function: {pointer parameter: object}}: what a top-level
             function's pointer parameters point into; the inline takes
             the element's index instead
  big_constants {value: (Promela name, why)}: constants beyond 32 bits
  index_fields  {(object, field): why}: fields that always hold the
             element's own index (read as the index, never loaded)
  constants  {global: (value, why)}: globals that never change here
  field_values  {(object, field): (value, why)}: fields that keep one
             value here (a store to one fails the extraction)
  pointer_fields  {(object, field): (object, index, why)}: pointer fields
             and the element they always point to
  private    {(object, field): context}: fields only that context of
             the harness touches: their accesses join the step before
             them (LOADP/STOREP, checked by an assertion)
  cpu_private  {(object, field): why}: fields only their own CPU
             touches; in a variant (below) they join the step before
  export     {constant: header}: integer constants of the C the harness
             uses, written into the layout as #defines
  locked     {(object, field): (lock, why)}: fields no other context
             touches but under that lock (an object_field name, as
             SPIN_LOCK()'s argument): the accesses made holding it join
             the step before them, as a private field's
  sole_writer {(object, field): (context, [inline...], why)}: fields
             only that context writes: their loads in those inlines
             (the context's) join the step before them (LOAD_OWN,
             STORE_OWN check whose they are)
  statistics {(object, field): why}: counters that only statistics
             read: their loads are 0 and their stores are left out
  object_fields {(object, field): object}: an array field of structs
             whose elements are the elements of another object
  plain      {(object, field): why}: plain accesses to a field the code
             also accesses with READ_ONCE(), WRITE_ONCE() or an atomic,
             which cannot race (otherwise the extraction fails on them)
  variants   {inline: (function, context)}: a second inline of the
             function for a context nothing on its CPU interrupts (the
             NMI): its accesses to cpu_private fields join their
             neighbours, as the reduced model 7 does by hand
"""

import json
import os
import shutil
import tempfile
import types

from tools.extract.clang import TU, ExtractError
from tools.extract.promela import emit, layout
from tools.extract.translate import Translator, const_eval

__all__ = ['extract', 'ExtractError']


def extract(spec, root):
    """Returns (layout, inlines, source map) for spec, reading the C
    under root: the first two as Promela text."""
    tr = Translator(spec)
    fns = []
    tus = {path: TU(path, root) for path in spec['files']}
    tr.tus = list(tus.values())
    for path, names in spec['files'].items():
        for name in names:
            fns.append(tr.function(tus[path], name))
            for variant, (c_name, ctx) in spec.get('variants', {}).items():
                if c_name == name:
                    fns.append(tr.function(tus[path], name, variant, ctx))
    tr.check_marking()
    out = ['/*',
           ' * Generated by tools/extract from the C sources: do not edit.',
           ' * Model: %s.  The functions, and where they are:' %
           spec['name']]
    for f in fns:
        out.append(' *   %-34s %s' % (f['name'] + '()', f['where']))
    out += [' * Every memory step is LOAD/STORE/RMW_ADD/MB of',
            ' * tests/spin/wmm/memory.pml; its last argument is its id in',
            ' * the source map (%s.map.json).' % spec['name'],
            ' */', '']
    lay = out[:2] + [' * Model: %s: the addresses of shared memory in mem[];' %
                     spec['name'],
                     ' * the inlines are in %s-gen.pml.' % spec['name'],
                     ' */', ''] + layout(tr.fields, spec.get('objects', {}))
    for name, (header, value) in sorted(exported(spec, root).items()):
        lay.append('#define %s\t%d\t/* %s */' % (name, value, header))
    lines = {}
    for f in fns:
        decl = ', '.join(f['decls'])
        out.append('#define DECL_%s\t%s' % (
            f['name'], 'int %s;' % decl if decl else ''))
    out.append('')
    for f in fns:
        out.append('/* %s(), %s */' % (f['name'], f['where']))
        out.append('inline %s(%s)' % (f['name'], ', '.join(f['sig'])))
        out.append('{')
        first = len(out) + 1
        out += emit(f['ir'])
        for n in range(first, len(out) + 1):
            lines[n] = f['name']
        out.append('}')
        out.append('')
    smap = dict(model=spec['name'], steps=tr.sources,
                functions={f['name']: f['where'] for f in fns},
                lines=lines)
    return '\n'.join(lay) + '\n', '\n'.join(out) + '\n', smap


def exported(spec, root):
    """{name: (header, value)} of the spec's export: integer constants
    (macros, enumerators) of the C, read by clang, in one run, as the
    initializers of variables in a file that includes their headers."""
    names = sorted(spec.get('export', {}))
    if not names:
        return {}
    out = {}
    d = tempfile.mkdtemp(prefix='extract-export-')
    try:
        path = os.path.join(d, 'export.c')
        with open(path, 'w') as f:
            for header in sorted(set(spec['export'].values())):
                f.write('#include "%s"\n' % header)
            for i, name in enumerate(names):
                f.write('long __spin_export_%d = %s;\n' % (i, name))
        tu = TU(path, root)
        for i, name in enumerate(names):
            init = [n for n in tu.globals['__spin_export_%d' % i].get(
                'inner', []) if 'kind' in n]
            value = const_eval(types.SimpleNamespace(tu=tu), init[0]) \
                if init else None
            if value is None:
                raise ExtractError(spec['export'][name], '%s is not an '
                                   'integer constant' % name)
            out[name] = (spec['export'][name], value)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return out


def write(spec, root, out_dir):
    """Write NAME-layout.pml (the addresses, for the harness to include
    before its own definitions), NAME-gen.pml (the inlines, to include
    after them: cpp expands their macros where they stand) and
    NAME.map.json (the source map) into out_dir."""
    lay, text, smap = extract(spec, root)
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, spec['name'])
    for suffix, content in (('-layout.pml', lay), ('-gen.pml', text)):
        with open(base + suffix, 'w') as f:
            f.write(content)
    with open(base + '.map.json', 'w') as f:
        json.dump(smap, f, indent=1)
    return smap
