# SPDX-License-Identifier: GPL-2.0
"""Writing the translated functions out as Promela.

Steps become atomic blocks, each with at most one memory step: local
computation, barriers and reads of the harness's state join the block
before them, and a block holds them until its memory step (if it has
none yet) or the next memory step, which opens the next block.  A block
that starts with a read of the harness's state is guarded by
CAN_RUN(me_cpu, me_ctx).  A branch whose arms hold memory steps is an if
whose guards read only locals (values the steps before computed).
"""

from tools.extract.translate import Break, If, Local, Loop, Step, has_step


def _local_text(node):
    """A node without memory steps as one Promela statement sequence."""
    if isinstance(node, (Local,)):
        return node.text
    if isinstance(node, Step):
        return node.text
    if isinstance(node, Break):
        return 'break'
    if isinstance(node, If):
        return 'if :: %s -> %s :: else -> %s fi' % (
            node.cond, _seq_text(node.then), _seq_text(node.other))
    if isinstance(node, Loop):
        return 'do :: %s%s -> %s :: else -> break od' % (
            _seq_text(node.pre) + '; ' if node.pre else '', node.cond,
            _seq_text(node.body))
    raise TypeError(node)


def _seq_text(ir):
    return '; '.join(_local_text(n) for n in ir) or 'skip'


def emit(ir, indent=1):
    """Promela lines for an IR sequence."""
    lines = []
    group = []
    group_nodes = []
    tab = '\t' * indent

    def flush():
        if group:
            if len(group) == 1 and group[0].startswith('atomic {'):
                lines.append(tab + group[0])
            else:
                lines.append(tab + 'atomic { ' + '; '.join(group) + ' }')
            group.clear()
            group_nodes.clear()

    for node in ir:
        if isinstance(node, Step) and node.kind == 'mem':
            # At most one memory step a block: what came before it in
            # the block (locals, reads of the harness's state) stays.
            if any(isinstance(g, Step) for g in group_nodes):
                flush()
            group.append(node.text)
            group_nodes.append(node)
        elif isinstance(node, Step):
            if not group:
                group.append('CAN_RUN(me_cpu, me_ctx)')
            group.append(node.text)
        elif isinstance(node, (Local, Break)) or not has_step([node]):
            if isinstance(node, (If, Loop)) and _has_ctx(node) and \
                    not group:
                group.append('CAN_RUN(me_cpu, me_ctx)')
            group.append(_local_text(node))
        elif isinstance(node, If):
            flush()
            lines.append(tab + 'if')
            lines.append(tab + ':: %s ->' % node.cond)
            lines += emit(node.then, indent + 1) or [tab + '\tskip']
            lines.append(tab + ':: else ->')
            lines += emit(node.other, indent + 1) or [tab + '\tskip']
            lines.append(tab + 'fi;')
        elif isinstance(node, Loop):
            flush()
            lines.append(tab + 'do')
            lines.append(tab + ':: 1 ->')
            body = list(node.pre) + [If(node.cond, node.body, [Break()])]
            lines += emit(body, indent + 1)
            lines.append(tab + 'od;')
        else:
            raise TypeError(node)
    flush()
    return [l if l.rstrip().endswith((';', '->', 'if', 'do', 'else ->'))
            else l + ';' for l in lines]


def _has_ctx(node):
    """Does a branch without memory steps read the harness's state?"""
    if isinstance(node, Step):
        return True
    if isinstance(node, If):
        return any(_has_ctx(n) for n in node.then + node.other)
    if isinstance(node, Loop):
        return any(_has_ctx(n) for n in node.pre + node.body)
    return False


def layout(fields, objects):
    """#defines giving every (object, field) its addresses in mem[]:
    element-major within a field, fields one after another."""
    lines = []
    base = '0'
    for (obj, field) in sorted(fields, key=lambda k: (k[0], k[1] or '')):
        length = fields[(obj, field)]
        count = objects.get(obj)
        name = 'A_%s' % obj + ('_%s' % field.replace('.', '__')
                               if field else '')
        params, offset = [], []
        if count is not None:
            params.append('i')
            offset.append('(i) * %d' % length)
        if length > 1:
            params.append('j')
            offset.append('(j)')
        expr = ' + '.join([base] + offset)
        if params:
            lines.append('#define %s(%s)\t(%s)' % (
                name, ', '.join(params), expr))
        else:
            lines.append('#define %s\t(%s)' % (name, expr))
        size = '%d' % length if count is None else '(%s) * %d' % (
            count, length)
        base = '%s + %s' % (base, size) if base != '0' else size
    lines.append('#define EX_NLOC\t(%s)' % base)
    return lines
