# SPDX-License-Identifier: GPL-2.0
"""C (clang's AST) to Promela: one inline per named function.

Every access to shared memory becomes one step through the memory
model's macros (tests/spin/wmm/memory.pml):

  READ_ONCE(x), a plain read of a shared field   LOAD(cpu, ctx, dst, addr, id)
  WRITE_ONCE(x, v), a plain write of one          STORE(cpu, ctx, addr, v, id)
  __atomic_add_fetch() and friends              RMW_ADD(cpu, ctx, dst, addr, v, id)
  __atomic_load_n()                             LOAD (x86: every load acquires)
  smp_mb(), smp_rmb(), smp_wmb()                MB(), RMB(), WMB()
  barrier()                                     CBARRIER() (orders nothing
                                                more: no access is reordered)

Local computation (locals, parameters, constants, branches on them) is
folded into the step before it.  The harness's own state is read through
its macros (IN_INTERRUPT(), IRQS_DISABLED(), IRQ_SAVE()...): such a read
joins the step before it, or, with none open, is a step guarded by
CAN_RUN(cpu, ctx), as every memory step is.  Calls to functions with a
body in the translation unit are inlined; calls named in the spec's
abstractions become the harness's macros; WARN()'s condition becomes an
assertion.  Anything else (an asm statement, a pointer the extractor
cannot name, a switch, a call with no body and no abstraction) fails the
extraction with its file and line.

The model's values are Promela ints that never wrap, each access is a
step in program order, a locked read-modify-write is a full barrier and
an atomic load an acquire.  Where the C means something else, the
extraction fails too: a cast to a narrower type, or an unsigned - or ~,
of a value read from shared memory (a value masked to fit is allowed);
an __atomic_*() with a memory order weaker than the model gives it
(loads: ACQUIRE or SEQ_CST; read-modify-writes: SEQ_CST); a plain
access to a field that the functions also access with READ_ONCE(),
WRITE_ONCE() or an atomic (the compiler keeps the order of marked
accesses only), unless the spec's plain says why it cannot race.

Shared memory is one array, mem[], in the memory model: the extractor
gives every (object, field) that the functions touch a range of
addresses, object by object element (per-CPU arrays have NCPU elements).
"""

import re

from tools.extract.clang import ExtractError, where

# Promela's int is 32 bits.
INT_MIN, INT_MAX = -(1 << 31), (1 << 31) - 1

# An expression of the inline's parameters and constants only.
STABLE = re.compile(r'[\s()0-9+*-]*(?:(?:me_cpu|me_ctx|NCPU|a_\w+)'
                    r'[\s()0-9+*-]*)*')

BINOPS = {'+', '-', '*', '/', '%', '<', '>', '<=', '>=', '==', '!=', '&',
          '|', '^', '<<', '>>'}


# ------------------------------------------------------------------
# The intermediate form: a list of these, nested in If and Loop.


class Step:
    """One memory access (kind 'mem'), or a read or check of the
    harness's state (kind 'ctx'), which may join the step before it."""

    def __init__(self, kind, text, src=None):
        self.kind, self.text, self.src = kind, text, src


class Local:
    """Local computation: joins the step before it."""

    def __init__(self, text):
        self.text = text


class If:
    def __init__(self, cond, then, other):
        self.cond, self.then, self.other = cond, then, other


class Loop:
    """do :: pre; if :: cond -> body :: else -> break fi od"""

    def __init__(self, pre, cond, body):
        self.pre, self.cond, self.body = pre, cond, body


class Break:
    pass


def has_step(ir):
    for n in ir:
        if isinstance(n, Step):
            return True
        if isinstance(n, If) and (has_step(n.then) or has_step(n.other)):
            return True
        if isinstance(n, Loop) and (has_step(n.pre) or has_step(n.body)):
            return True
    return False


def ends(ir):
    """Does this sequence end in a break (control never falls out)?"""
    if not ir:
        return False
    last = ir[-1]
    if isinstance(last, Break):
        return True
    if isinstance(last, If):
        return ends(last.then) and ends(last.other)
    return False


def append_tail(ir, node):
    """Append node to every path through ir that falls out of its end:
    into both branches of a final If, so that it joins their last step."""
    if ir and isinstance(ir[-1], If):
        for branch in (ir[-1].then, ir[-1].other):
            if not ends(branch):
                append_tail(branch, node)
    elif not ends(ir):
        ir.append(node)


# ------------------------------------------------------------------
# Values: a Promela expression (str), or a pointer the model can name.


class Ptr:
    """&obj[idx] (idx None: obj is not an array)."""

    def __init__(self, obj, idx):
        self.obj, self.idx = obj, idx


class Loc:
    """A shared location: field (with sub, for an array field) of
    element idx of obj."""

    def __init__(self, obj, idx, field, sub=None, length=1, marked=False):
        self.obj, self.idx, self.field = obj, idx, field
        self.sub, self.length, self.marked = sub, length, marked

    def name(self):
        s = self.obj
        if self.idx is not None:
            s += '[%s]' % self.idx
        if self.field:
            s += '.' + self.field
        if self.sub is not None:
            s += '[%s]' % self.sub
        return s


class Named:
    def __init__(self, name):
        self.name = name


class FuncRef(Named):
    """A function used as a value (a function pointer argument)."""


class FuncChoice:
    """cond ? a : b, of two FuncRefs."""

    def __init__(self, cond, a, b):
        self.cond, self.a, self.b = cond, a, b


class LocalVar(Named):
    """A local, a parameter, or an expression standing for one."""


class Unbound(Named):
    """A pointer local before its one assignment."""


class Array(Named):
    """A global array of objects, before its subscript."""


class AddrOf:
    """&loc, as an atomic builtin's first argument."""

    def __init__(self, loc):
        self.loc = loc


class LocalRef:
    """&local, as an inlined callee's pointer argument: *p is the
    local."""

    def __init__(self, var):
        self.var = var


def strip(node):
    while node.get('kind') in ('ParenExpr', 'ConstantExpr') or (
            node.get('kind') in ('ImplicitCastExpr', 'CStyleCastExpr')
            and node.get('castKind') in ('NoOp', 'BitCast')):
        node = node['inner'][0]
    return node


def qual(node):
    return node.get('type', {}).get('qualType', '')


def is_pointer(qualtype):
    return qualtype.rstrip().endswith('*')


# A Promela expression of integer literals only (no && or ||, which
# Python spells otherwise; no / or %, which round otherwise).
LITERAL = re.compile(r'[\d\s()+*<>=!&|^~-]*\d[\d\s()+*<>=!&|^~-]*')


def fold(v):
    """v, or its value if it is made of integer literals only (a field
    the spec fixes, compared with a constant): so that a branch the
    model never takes is not translated at all."""
    if not isinstance(v, str) or not LITERAL.fullmatch(v) or \
            '&&' in v or '||' in v:
        return v
    try:
        # Python's operators on ints and bools are C's on these (every
        # binary operation the translator writes is parenthesised).
        return str(int(eval(re.sub(r'!(?!=)', ' not ', v),
                            {'__builtins__': {}})))
    except (SyntaxError, TypeError, ValueError):
        return v


def walk(node):
    yield node
    for i in node.get('inner', []) or []:
        if isinstance(i, dict):
            yield from walk(i)


# ------------------------------------------------------------------


class Frame:
    """One function being translated (a top-level one or an inlined
    callee): its locals, parameters and return variable."""

    def __init__(self, node, prefix, ret):
        self.node, self.fn = node, node['name']
        self.prefix, self.ret = prefix, ret
        self.vars = {}      # decl id -> LocalVar or Ptr
        self.done = None    # the flag a return inside a loop sets


class Translator:
    """Translates the spec's functions; collects the layout of shared
    memory and the source of every step."""

    def __init__(self, spec):
        self.spec = spec
        self.objects = spec.get('objects', {})
        self.calls = spec.get('calls', {})
        self.big = spec.get('big_constants', {})
        self.index_fields = spec.get('index_fields', {})
        self.constants = spec.get('constants', {})
        self.private = spec.get('private', {})
        self.pointer_fields = spec.get('pointer_fields', {})
        self.field_values = spec.get('field_values', {})
        self.cpu_private = spec.get('cpu_private', {})
        self.object_fields = spec.get('object_fields', {})
        self.statistics = spec.get('statistics', {})
        self.locked = spec.get('locked', {})
        self.sole_writer = spec.get('sole_writer', {})
        self.held = set()   # the locks held here (acquire, release)
        self.top_ctx = None
        self.pre_stack = []     # where an expression's steps go
        self.fields = {}    # (obj, field) -> length
        self.sources = []   # step id -> description
        self.tus = []
        self.plain = spec.get('plain', {})
        # (obj, field) -> [(marked, "load" or "store", file:line)]: every
        # access of the functions, for check_marking().
        self.accesses = {}
        # Promela names (temporaries, locals) that hold a value read
        # from shared memory, or computed from one: what a narrowing
        # cast or unsigned arithmetic must not touch (shared_value()).
        self.shared = set()

    # -- errors --

    def fail(self, node, msg):
        raise ExtractError(where(node), msg)

    # -- the top level --

    def function(self, tu, name, variant=None, top_ctx=None):
        """Translate function name of tu into an inline called variant
        (name by default); top_ctx: the harness's context that nothing
        on its CPU interrupts, for a variant that may only run there."""
        self.top_ctx = top_ctx
        fn = tu.functions.get(name)
        if fn is None:
            raise ExtractError(tu.path, 'no definition of %s()' % name)
        self.tu = tu
        self.depth = 0      # branches and loops around this statement
        self.decls = []     # Promela locals of this inline
        self.tmp = 0
        self.top = variant or name
        self.stack = []
        self.held = set()
        params = [p for p in fn.get('inner', [])
                  if p.get('kind') == 'ParmVarDecl']
        ret = None
        rtype = qual(fn).split('(')[0].strip()
        if rtype != 'void':
            ret = 'ret'
        frame = Frame(fn, self.top + '_', ret)
        args = []
        bind = self.spec.get('params', {}).get(name, {})
        for p in params:
            if is_pointer(qual(p)):
                if p['name'] not in bind:
                    self.fail(p, 'pointer parameter %s of %s(): the spec '
                              'must say which object it points into' %
                              (p['name'], name))
                obj = bind[p['name']]
                frame.vars[p['id']] = Ptr(obj, 'a_' + p['name'])
            else:
                self.check_unassigned(fn, p)
                frame.vars[p['id']] = LocalVar('a_' + p['name'])
            args.append('a_' + p['name'])
        body = [i for i in fn['inner'] if i.get('kind') == 'CompoundStmt'][0]
        self.stack.append(frame)
        ir = self.block(body.get('inner', []))
        self.stack.pop()
        resets = [d for d in self.decls]
        if resets:
            append_tail(ir, Local('; '.join('%s = 0' % d for d in resets)))
        if top_ctx:
            ir.insert(0, Local('assert(me_ctx == %s)' % top_ctx))
        sig = ['me_cpu', 'me_ctx'] + args + ([ret] if ret else [])
        return dict(name=variant or name, where=where(fn), sig=sig, ir=ir,
                    decls=list(self.decls), c_name=name)

    def check_unassigned(self, fn, p):
        saved, self.stack = self.stack, self.stack + [Frame(fn, '', None)]
        try:
            if self.assigned(p):
                self.fail(p, 'parameter %s is assigned: not supported' %
                          p['name'])
        finally:
            self.stack = saved

    # -- names --

    @property
    def frame(self):
        return self.stack[-1]

    def new_local(self, base):
        name = '%s%s' % (self.frame.prefix, base)
        if name not in self.decls:
            self.decls.append(name)
        return name

    def new_tmp(self):
        self.tmp += 1
        name = '%s_t%d' % (self.top, self.tmp)
        self.decls.append(name)
        return name

    def src(self, node, what, kind='step'):
        """Record where a step comes from; kind 'step' (a step of its
        own), 'private' or 'joined' (joins the step before it), or
        'harness' (a call that is a step of the harness's)."""
        chain = ' <- '.join('%s()' % f.fn for f in reversed(self.stack))
        self.sources.append(dict(fn=self.frame.fn, chain=chain, top=self.top,
                                 where=where(node), what=what, kind=kind))
        return len(self.sources) - 1

    # -- statements --

    def block(self, nodes):
        """Translate a statement list.  A statement that may leave the
        list (return, break) takes the rest of the list into the paths
        that fall through it."""
        out = []
        nodes = list(nodes)
        i = 0
        while i < len(nodes):
            n = nodes[i]
            kind = n.get('kind')
            rest = nodes[i + 1:]
            if kind == 'CompoundStmt':
                nodes = nodes[:i] + n.get('inner', []) + rest
                continue
            if kind == 'ReturnStmt':
                out += self.ret(n)
                return out
            if kind == 'BreakStmt':
                out.append(Break())
                return out
            if kind == 'ContinueStmt':
                # The rest of the body is not on this path (leaves() put
                # it in the other arm of the if around us); the loop's
                # increment follows the body on every path (loop()).
                return out
            if kind == 'IfStmt' and self.leaves(n):
                pre, cond = self.cond(n['inner'][0])
                then, other = self.branches(cond, [n['inner'][1]] + rest,
                                            n['inner'][2:3] + rest, False)
                return out + pre + self.if_node(cond, then, other)
            if kind in ('ForStmt', 'WhileStmt') and self.returns(n):
                saved = self.frame.done
                self.frame.done = self.new_local('done')
                out += self.loop(n)
                done = self.frame.done
                self.frame.done = saved
                return out + [If('!%s' % done, self.block(rest), [])]
            out += self.stmt(n)
            i += 1
        return out

    def branches(self, cond, then, other, merge=True):
        """Translate both arms of an if; an arm that a constant
        condition never takes is not translated at all.  merge: the
        arms meet again after the if (they do not when each holds the
        rest of the function)."""
        self.depth += merge
        held = set(self.held)
        try:
            t = self.block(then) if cond != '0' else []
            after_then = self.held if cond != '0' else None
            self.held = set(held)
            o = self.block(other) if cond != '1' else []
            if after_then is not None and cond != '1':
                # Held after the if: what both arms still hold.
                self.held &= after_then
            elif after_then is not None:
                self.held = after_then
        finally:
            self.depth -= merge
        return t, o

    def if_node(self, cond, then, other):
        if cond == '1':
            return then
        if cond == '0':
            return other
        if not then and not other:
            return []
        return [If(cond, then, other)]

    def leaves(self, node):
        """Does this statement contain a return, or a break that leaves
        the loop we are in?"""
        def scan(n, in_loop):
            k = n.get('kind')
            if k == 'ReturnStmt':
                return True
            if k in ('BreakStmt', 'ContinueStmt') and not in_loop:
                return True
            inner = in_loop or k in ('ForStmt', 'WhileStmt', 'DoStmt',
                                     'SwitchStmt')
            return any(scan(c, inner) for c in n.get('inner', []) or []
                       if isinstance(c, dict))
        return scan(node, False)

    def returns(self, node):
        return any(n.get('kind') == 'ReturnStmt' for n in walk(node))

    def ret(self, n):
        out = []
        if n.get('inner'):
            if self.frame.ret is None:
                self.fail(n, 'return with a value from a void function')
            pre, v = self.rvalue_in(n['inner'][0])
            if isinstance(v, Ptr):
                self.fail(n, 'returns a pointer: only a callee that is '
                          'one return statement may')
            out += pre + [self.set_local(self.frame.ret, v)]
        if self.frame.done:
            out += [Local('%s = 1' % self.frame.done), Break()]
        return out

    def stmt(self, n):
        kind = n.get('kind')
        if kind == 'NullStmt':
            return []
        if kind == 'DeclStmt':
            out = []
            for d in n.get('inner', []):
                out += self.decl(d)
            return out
        if kind == 'IfStmt':
            pre, cond = self.cond(n['inner'][0])
            then, other = self.branches(cond, [n['inner'][1]],
                                        n['inner'][2:3])
            return pre + self.if_node(cond, then, other)
        if kind in ('ForStmt', 'WhileStmt'):
            return self.loop(n)
        if kind == 'SwitchStmt':
            return self.switch(n)
        if kind == 'DoStmt':
            body, cond = n['inner']
            c = strip(cond)
            if c.get('kind') == 'IntegerLiteral' and c['value'] == '0':
                return self.block([body])
            self.fail(n, 'do-while loop: only do { } while (0)')
        if kind == 'GCCAsmStmt':
            self.fail(n, 'asm statement: a primitive the model does not '
                      'know (tools/extract/prelude.h)')
        if kind.endswith('Expr') or kind.endswith('Operator') or \
                kind.endswith('Literal'):
            return self.expr_stmt(n)
        self.fail(n, 'statement %s: not supported' % kind)

    def decl(self, d):
        if d.get('kind') != 'VarDecl':
            self.fail(d, '%s in a function: not supported' % d.get('kind'))
        if d.get('storageClass') == 'static':
            self.fail(d, 'static local %s: not supported' % d['name'])
        init = [i for i in d.get('inner', []) if 'kind' in i]
        if is_pointer(qual(d)):
            if not init:
                # Bound by its one assignment (assign(), below).
                self.frame.vars[d['id']] = Unbound(d['name'])
                return []
            pre, v = self.rvalue_in(init[0])
            if not isinstance(v, Ptr):
                self.fail(d, 'pointer %s: its value is not a pointer the '
                          'model can name' % d['name'])
            self.frame.vars[d['id']] = v
            return pre
        if not init:
            name = self.new_local(d['name'])
            self.frame.vars[d['id']] = LocalVar(name)
            return []
        pre, v = self.rvalue_in(init[0])
        if isinstance(v, (FuncRef, FuncChoice)) and not pre and \
                not self.assigned(d):
            self.frame.vars[d['id']] = v
            return []
        v = fold(v)
        if not pre and STABLE.fullmatch(v) and not self.assigned(d):
            # Never assigned again, and made of the inline's parameters
            # and constants only: the variable is its value.
            self.frame.vars[d['id']] = LocalVar('(%s)' % v)
            return []
        name = self.new_local(d['name'])
        self.frame.vars[d['id']] = LocalVar(name)
        return pre + [self.set_local(name, v)]

    def assigned(self, d):
        """Is the variable d assigned anywhere in the function being
        translated (but its declaration)?"""
        fn = self.frame.node
        for n in walk(fn):
            if n.get('kind') in ('BinaryOperator', 'CompoundAssignOperator',
                                 'UnaryOperator') and (
                    n.get('opcode') in ('=', '++', '--') or
                    n.get('kind') == 'CompoundAssignOperator'):
                target = strip(n['inner'][0])
                if target.get('kind') == 'DeclRefExpr' and \
                        target['referencedDecl']['id'] == d['id']:
                    return True
        return False

    def loop(self, n):
        if n['kind'] == 'ForStmt':
            init, _, cond, inc, body = n['inner']
        else:
            init, inc = {}, {}
            cond, body = n['inner'][-2], n['inner'][-1]
        out = []
        step = self.pointer_walk(init, inc)
        if step:
            out += step[0]
            inc = {}
        elif init.get('kind'):
            out += self.stmt(init) if 'Stmt' in init['kind'] else \
                self.expr_stmt(init)
        if not cond.get('kind'):
            self.fail(n, 'loop without a condition: not supported')
        pre, c = self.cond(cond)
        self.depth += 1
        held = set(self.held)
        b = self.block([body])
        # Held after the loop: what its body kept (a body that takes a
        # lock releases it before the next time round).
        self.held &= held
        self.depth -= 1
        if inc.get('kind') and not ends(b):
            b += self.expr_stmt(inc)
        if step and not ends(b):
            b.append(step[1])
        return out + [Loop(pre, c, b)]

    def pointer_walk(self, init, inc):
        """for (p = &a[i]; ...; p++), p a pointer local: p walks the
        elements of one object array, and becomes &a[k] with k an index
        local.  Returns (the steps of the init, the increment), or None
        for a loop of another form."""
        if not inc.get('kind') == 'UnaryOperator' or \
                inc['opcode'] != '++':
            return None
        var = strip(inc['inner'][0])
        if var.get('kind') != 'DeclRefExpr' or not is_pointer(qual(var)):
            return None
        first = strip(init) if init.get('kind') else {}
        if first.get('kind') != 'BinaryOperator' or \
                first['opcode'] != '=' or \
                strip(first['inner'][0]).get('referencedDecl', {}).get(
                    'id') != var['referencedDecl']['id']:
            self.fail(inc, 'a pointer loop that does not start by '
                      'assigning its pointer: not supported')
        pre, v = self.rvalue_in(first['inner'][1])
        if not isinstance(v, Ptr) or v.idx is None:
            self.fail(init, 'a pointer loop over something the model '
                      'cannot name')
        k = self.new_local(var['referencedDecl']['name'] + '_i')
        for f in reversed(self.stack):
            if var['referencedDecl']['id'] in f.vars:
                f.vars[var['referencedDecl']['id']] = Ptr(v.obj, k)
                break
        else:
            self.fail(var, 'pointer %s: not a local' % var[
                'referencedDecl']['name'])
        return pre + [Local('%s = %s' % (k, v.idx))], \
            Local('%s = %s + 1' % (k, k))

    def switch(self, n):
        """switch (v) { case A: ...; break; ... default: ... }: an
        if-else chain on v.  Each case ends in break, and nothing else
        leaves it: a case that falls through into the next (but labels
        stacked on one body), a break elsewhere in a case, or a return
        fails the extraction."""
        cond, body = n['inner'][-2], n['inner'][-1]
        pre, v = self.cond(cond)
        if not re.fullmatch(r'\(?[\w]+\)?', v):
            # Evaluated once, as in C: the chain tests a copy.
            t = self.new_tmp()
            pre.append(self.set_local(t, v))
            v = t
        groups = []     # [labels or None (default), statements]
        for st in body.get('inner', []) if body.get('kind') == \
                'CompoundStmt' else [body]:
            labels = []
            while st.get('kind') in ('CaseStmt', 'DefaultStmt'):
                if st['kind'] == 'DefaultStmt':
                    labels.append(None)
                else:
                    value = const_eval(self, st['inner'][0])
                    if value is None:
                        self.fail(st, 'case label that is not an integer '
                                  'constant: not supported')
                    labels.append(value)
                st = st['inner'][-1]
            if labels:
                groups.append([labels, []])
            elif not groups:
                self.fail(st, 'a statement before the first case label: '
                          'not supported')
            groups[-1][1].append(st)
        if self.returns(n):
            self.fail(n, 'a return inside a switch: not supported')
        chain = []
        for i, (labels, stmts) in enumerate(groups):
            last = stmts[-1] if stmts else {}
            if last.get('kind') == 'BreakStmt':
                stmts = stmts[:-1]
            elif i < len(groups) - 1:
                self.fail(last or n, 'a switch case that falls through '
                          'into the next: not supported')
            if any(self.leaves(st) for st in stmts):
                self.fail(n, 'a break inside a switch case but its last '
                          'statement: not supported')
            test = None if None in labels else ' || '.join(
                '%s == %s' % (v, self.constant(n, x)) for x in labels)
            chain.append((test, stmts))
        # Each case in the C's order (the source map's step order), then
        # the chain from the last: the default's body, if any, is its
        # last else.
        bodies = []
        for test, stmts in chain:
            if test is None:
                self.depth += 1
                bodies.append(self.block(stmts))
                self.depth -= 1
            else:
                bodies.append(self.branches('(%s)' % test, stmts, [])[0])
        other = next((b for (t, _), b in zip(chain, bodies) if t is None),
                     [])
        for (test, _), then in reversed(list(zip(chain, bodies))):
            if test is not None:
                other = [If('(%s)' % test, then, other)]
        return pre + other

    def expr_stmt(self, n):
        """An expression statement: the steps of its side effects."""
        pre = []
        self.pre_stack.append(pre)
        self.effect(n)
        self.pre_stack.pop()
        return pre

    def cond(self, n):
        pre, v = self.rvalue_in(n)
        if isinstance(v, (Ptr, FuncRef, FuncChoice)):
            self.fail(n, 'a pointer as a condition: not supported')
        return pre, fold(v)

    # -- expressions: each returns a value and adds its steps to the
    # -- innermost pre list

    def rvalue_in(self, n):
        """(the steps that compute n, its value)."""
        pre = []
        self.pre_stack.append(pre)
        v = self.rvalue(n)
        self.pre_stack.pop()
        return pre, v

    def emit(self, node):
        self.pre_stack[-1].append(node)

    def effect(self, n):
        """An expression evaluated for its side effects only."""
        n = strip(n)
        kind = n.get('kind')
        if kind in ('ImplicitCastExpr', 'CStyleCastExpr') and \
                n.get('castKind') == 'ToVoid':
            inner = strip(n['inner'][0])
            if inner.get('kind') == 'DeclRefExpr':
                return      # (void)x: a use, no effect
            return self.effect(inner)
        if kind == 'BinaryOperator' and n['opcode'] == ',':
            self.effect(n['inner'][0])
            return self.effect(n['inner'][1])
        self.rvalue(n)

    def rvalue(self, n):
        kind = n.get('kind')
        value = const_eval(self, n)
        if value is not None:
            # An integer constant expression, folded with C's types:
            # only its value has to fit Promela's int.
            return self.constant(n, value)
        if kind in ('ParenExpr',):
            v = self.rvalue(n['inner'][0])
            return v if isinstance(v, Ptr) else '(%s)' % v
        if kind == 'ConstantExpr':
            return self.rvalue(n['inner'][0])
        if kind in ('ImplicitCastExpr', 'CStyleCastExpr'):
            return self.cast(n)
        if kind == 'IntegerLiteral':
            return self.constant(n, int(n['value']))
        if kind == 'CharacterLiteral':
            return str(n['value'])
        if kind == 'DeclRefExpr':
            ref = n['referencedDecl']
            if ref.get('kind') == 'EnumConstantDecl':
                return str(self.tu.enums[ref['id']][1])
            lv = self.lvalue(n)
            if isinstance(lv, (Ptr, FuncRef, FuncChoice, AddrOf, LocalRef)):
                return lv
            self.fail(n, '%s used as a value without a load' % ref['name'])
        if kind == 'UnaryOperator':
            return self.unary(n)
        if kind == 'BinaryOperator':
            return self.binary(n)
        if kind == 'CompoundAssignOperator':
            op = n['opcode'][:-1]
            return self.assign(n['inner'][0], None, op, n['inner'][1], n)
        if kind == 'ConditionalOperator':
            return self.ternary(n)
        if kind == 'CallExpr':
            return self.call(n)
        if kind == 'AtomicExpr':
            # Its operands: the pointer, the memory order, the value.
            inner = n['inner']
            return self.atomic(n, self.tu.token(n), [inner[0]] + inner[2:3],
                               inner[1])
        if kind == 'StmtExpr':
            self.fail(n, 'statement expression: a macro the model does not '
                      'know (tools/extract/prelude.h)')
        self.fail(n, 'expression %s: not supported' % kind)

    def constant(self, n, v):
        if INT_MIN <= v <= INT_MAX:
            return str(v)
        if v in self.big:
            return self.big[v][0]
        self.fail(n, 'constant %d does not fit Promela\'s int, and the spec '
                  'names no stand-in for it' % v)

    def cast(self, n):
        ck = n.get('castKind')
        inner = n['inner'][0]
        if ck == 'LValueToRValue':
            lv = self.lvalue(inner)
            return self.load(lv, n)
        if ck in ('NoOp', 'IntegralCast', 'BitCast'):
            v = self.rvalue(inner)
            # The model's values are Promela ints that never wrap: a
            # shared value cast to a narrower type would wrap in the C.
            if ck == 'IntegralCast' and self.shared_value(v) and \
                    c_type(n)[0] < c_type(inner)[0] and \
                    not self.masked(inner, c_type(n)[0]):
                self.fail(n, 'narrowing cast of a value read from shared '
                          'memory (%s to %s): the model does not wrap as '
                          'the C does' % (c_name(inner), c_name(n)))
            return v
        if ck == 'IntegralToBoolean':
            return fold('(%s != 0)' % self.rvalue(inner))
        if ck == 'NullToPointer':
            return '0'      # NULL, as an argument to an abstracted call
        if ck == 'FunctionToPointerDecay':
            f = strip(inner)
            if f.get('kind') == 'DeclRefExpr' and \
                    f['referencedDecl'].get('kind') == 'FunctionDecl':
                return FuncRef(f['referencedDecl']['name'])
            self.fail(n, 'a function pointer the model cannot name')
        if ck == 'ArrayToPointerDecay':
            lv = self.lvalue(inner)
            if isinstance(lv, Ptr):
                return lv
            self.fail(n, 'an array used as a pointer: not supported')
        if ck == 'ToVoid':
            self.effect(inner)
            return '0'
        self.fail(n, 'cast %s: not supported' % ck)

    def masked(self, node, bits):
        """Is node x & MASK, with a constant MASK that a signed type of
        bits holds (so that the value fits whatever x is)?"""
        node = strip(node)
        if node.get('kind') != 'BinaryOperator' or node['opcode'] != '&':
            return False
        masks = [const_eval(self, i) for i in node['inner']]
        return any(m is not None and 0 <= m < 1 << (bits - 1)
                   for m in masks)

    def set_local(self, name, v):
        """name = v, a local computation; name holds a shared value if v
        does."""
        if isinstance(v, (Ptr, FuncRef, FuncChoice, AddrOf, LocalRef)):
            raise ExtractError('?', 'internal: a pointer in a local')
        if self.shared_value(v):
            self.shared.add(name)
        return Local('%s = %s' % (name, v))

    def shared_value(self, v):
        """Is the Promela expression v computed from shared memory?"""
        return isinstance(v, str) and any(
            w in self.shared for w in re.findall(r'\w+', v))

    def no_wrap(self, n, op, *vals):
        """Fail on a subtraction or complement, in an unsigned type, of
        a value read from shared memory: below 0 the C wraps, and the
        model's int goes negative."""
        bits, signed = c_type(n)
        if op in ('-', '~') and not signed and bits > 1 and \
                any(self.shared_value(v) for v in vals):
            self.fail(n, 'unsigned %s (%s) of a value read from shared '
                      'memory: the model does not wrap as the C does' %
                      (op, c_name(n)))

    def access(self, key, marked, what, n):
        """Record an access of a shared field for check_marking()."""
        if key not in self.private:
            self.accesses.setdefault(key, []).append((marked, what,
                                                      where(n)))

    def check_marking(self):
        """A field that the functions access with READ_ONCE(),
        WRITE_ONCE() or an atomic is shared while they run: a plain
        access to it is a data race the model cannot show (it keeps
        program order, which the compiler keeps only for marked
        accesses).  Fail on the first plain one, unless the spec's
        plain says why it cannot race (a field's one writer reading its
        own value, say).  Private fields (one context) are exempt."""
        for key, acc in sorted(self.accesses.items(),
                               key=lambda kv: (kv[0][0], kv[0][1] or '')):
            if key in self.plain or not any(m for m, _, _ in acc):
                continue
            for marked, what, at in acc:
                if not marked:
                    name = key[0] + ('.' + key[1] if key[1] else '')
                    raise ExtractError(at, 'plain %s of %s, which the code '
                                       'also accesses with READ_ONCE(), '
                                       'WRITE_ONCE() or an atomic: mark it, '
                                       'or say in the spec\'s plain why it '
                                       'cannot race' % (what, name))

    def step_kind(self, key, load=False):
        if key in self.private:
            return 'private'
        if load and key in self.sole_writer and \
                self.top in self.sole_writer[key][1]:
            return 'joined'
        if (self.top_ctx and key in self.cpu_private) or self.under(key):
            return 'joined'
        return 'step'

    def under(self, key):
        """Is key a field of the spec's locked whose lock is held?"""
        return key in self.locked and self.locked[key][0] in self.held

    def mem_step(self, key, text, sid):
        """A memory access: its own step, or, in a top-context variant,
        an access to a field only this CPU touches, which joins the step
        before it: nothing on this CPU can interrupt the top context,
        and no other CPU reads or writes the field, so the access
        commutes with every step that could come between (Lipton).
        Likewise an access, with the lock held, to a field the spec's
        locked says no other context touches but under that lock."""
        if (self.top_ctx and key in self.cpu_private) or self.under(key):
            return Local(text)
        return Step('mem', text, sid)

    def load(self, lv, n):
        if isinstance(lv, (LocalVar, Const)):
            return lv.name
        if isinstance(lv, (Ptr, FuncRef, FuncChoice, AddrOf, LocalRef)):
            return lv
        if isinstance(lv, Loc):
            key = (lv.obj, lv.field)
            if key in self.statistics:
                return '0'
            if key in self.index_fields:
                return lv.idx
            if key in self.pointer_fields:
                return Ptr(*self.pointer_fields[key][:2])
            if key in self.field_values:
                return self.field_values[key][0]
            t = self.new_tmp()
            self.shared.add(t)
            self.access(key, lv.marked, 'load', n)
            sid = self.src(n, '%s %s' % ('READ_ONCE' if lv.marked else
                                         'load', lv.name()),
                           self.step_kind(key, True))
            if key in self.private:
                self.emit(Local('LOADP(me_cpu, me_ctx, %s, %s, %s)' % (
                    t, self.addr(lv), self.private[key])))
                return t
            if key in self.sole_writer and \
                    self.top in self.sole_writer[key][1]:
                # The one writer's load of its own value: no other step
                # changes what it reads (its own buffered store, or
                # memory), so it joins the step before it (Lipton);
                # LOAD_OWN asserts whose it is, STORE_OWN every store.
                self.emit(Local('LOAD_OWN(me_cpu, me_ctx, %s, %s, %d, %s)' %
                                (t, self.addr(lv), sid,
                                 self.sole_writer[key][0])))
                return t
            self.emit(self.mem_step(key, 'LOAD(me_cpu, me_ctx, %s, %s, %d)' %
                                    (t, self.addr(lv), sid), sid))
            return t
        self.fail(n, 'load from something the model cannot name')

    def unary(self, n):
        op = n['opcode']
        if op in ('!', '-', '~', '+'):
            v = self.rvalue(n['inner'][0])
            if isinstance(v, Ptr):
                self.fail(n, 'pointer arithmetic: not supported')
            self.no_wrap(n, op, v)
            if op == '!' and v.strip('()') in ('0', '1'):
                return str(int(v.strip('()') == '0'))
            return fold('(%s%s)' % ('' if op == '+' else op, v))
        if op == '&':
            lv = self.lvalue(n['inner'][0])
            if isinstance(lv, Ptr):
                return lv
            if isinstance(lv, Loc):
                return AddrOf(lv)
            if isinstance(lv, LocalVar) and not isinstance(lv, Const) and \
                    re.fullmatch(r'\w+', lv.name):
                return LocalRef(lv)
            self.fail(n, 'address of a local: not supported')
        if op in ('++', '--'):
            return self.assign(n['inner'][0], None, op[0], None, n,
                               postfix=n.get('isPostfix'))
        if op == '*':
            lv = self.lvalue(n)
            return self.load(lv, n)
        self.fail(n, 'unary %s: not supported' % op)

    def binary(self, n):
        op = n['opcode']
        a, b = n['inner']
        if op == '=':
            return self.assign(a, b, None, None, n)
        if op == ',':
            self.effect(a)
            return self.rvalue(b)
        if op in ('&&', '||'):
            return self.logical(n, op, a, b)
        if op in ('>=', '<') and self.wrap_cmp(a, b):
            # ULONG_CMP_GE(x, y), ULONG_CMP_LT(x, y) (rcu/rcu.h): ~0UL / 2
            # >= x - y, or <, x at or after y modulo the wrap.  The
            # model's values never wrap, nor come within half the range
            # of each other: that is x >= y (x < y).
            x, y = (self.rvalue(v) for v in strip(b)['inner'])
            return '(%s %s %s)' % (x, op, y)
        if op in ('<', '>', '<=', '>=', '==', '!=') and any(
                self.too_big(v) for v in (a, b)):
            # A comparison with a constant beyond Promela's int, of a
            # value the spec fixes: known here (a time the model sets to
            # 0 against a timeout).
            va, vb = (str(const_eval(self, v)) if self.too_big(v) else
                      self.rvalue(v) for v in (a, b))
            folded = fold('(%s %s %s)' % (va, op, vb))
            if re.fullmatch(r'-?\d+', folded):
                return folded
            self.constant(n, const_eval(self, a if self.too_big(a) else b))
        if op in BINOPS:
            va = self.rvalue(a)
            vb = self.rvalue(b)
            if op in ('==', '!=') and isinstance(vb, FuncRef) and \
                    isinstance(va, (FuncRef, FuncChoice)):
                return self.same_function(va, vb, op)
            if isinstance(va, Ptr) and isinstance(vb, Ptr) and \
                    va.obj == vb.obj and op in ('<', '<=', '>', '>=',
                                                '==', '!='):
                # Two elements of one array: their indices compare.
                return fold('(%s %s %s)' % (va.idx, op, vb.idx))
            if not isinstance(va, str) or not isinstance(vb, str):
                self.fail(n, 'pointer arithmetic or comparison: not '
                          'supported')
            self.no_wrap(n, op, va, vb)
            return fold('(%s %s %s)' % (va, op, vb))
        self.fail(n, 'operator %s: not supported' % op)

    def too_big(self, node):
        v = const_eval(self, node)
        return v is not None and not INT_MIN <= v <= INT_MAX and \
            v not in self.big

    def wrap_cmp(self, a, b):
        """Is this ~0UL / 2 OP x - y, in unsigned long?"""
        b = strip(b)
        return const_eval(self, a) == (1 << 63) - 1 and \
            b.get('kind') == 'BinaryOperator' and b['opcode'] == '-' and \
            c_type(b) == (64, False)

    def same_function(self, va, vb, op):
        """f == g (op '==') or f != g, of functions the model knows."""
        if isinstance(va, FuncChoice):
            x = self.same_function(va.a, vb, op)
            y = self.same_function(va.b, vb, op)
            return x if x == y else fold('(%s -> %s : %s)' % (va.cond, x, y))
        return str(int((va.name == vb.name) == (op == '==')))

    def logical(self, n, op, a, b):
        va = self.rvalue(a)
        if va.strip('()') in ('0', '1'):
            left = int(va.strip('()'))
            if (op == '&&') != bool(left):
                return str(left)    # C does not evaluate the right one
        pre, vb = self.rvalue_in(b)
        if not pre and vb.strip('()') == ('0' if op == '&&' else '1'):
            # a && 0, a || 1: the value is known (a's steps, if any,
            # are emitted already).
            return vb.strip('()')
        if not pre:
            return '(%s %s %s)' % (va, op, vb)
        # The right operand has steps: evaluate it only when C does.
        t = self.new_tmp()
        self.emit(Local('%s = (%s != 0)' % (t, va)))
        body = pre + [Local('%s = (%s != 0)' % (t, vb))]
        self.emit(If(t if op == '&&' else '!' + t, body, []))
        return t

    def ternary(self, n):
        c, a, b = n['inner']
        vc = fold(self.rvalue(c))
        pa, va = self.rvalue_in(a)
        pb, vb = self.rvalue_in(b)
        if isinstance(va, FuncRef) and isinstance(vb, FuncRef) and \
                not pa and not pb:
            # A choice of function: the call through it branches.
            return va if vc == '1' else vb if vc == '0' else \
                FuncChoice(vc, va, vb)
        if not pa and not pb:
            return '(%s -> %s : %s)' % (vc, va, vb)
        t = self.new_tmp()
        self.emit(If(vc, pa + [self.set_local(t, va)],
                     pb + [self.set_local(t, vb)]))
        return t

    def assign(self, target, value, op, operand, n, postfix=False):
        """target = value, or target op= operand (op with operand None:
        ++ or --).  Returns the value of the expression."""
        lv = self.lvalue(target)
        # A pointer local's assignment outside any branch or loop binds
        # it to what it points to from there on (a second one too).
        if isinstance(lv, (Unbound, Ptr)) and op is None and \
                self.depth == 0 and strip(target).get('kind') == \
                'DeclRefExpr':
            v = self.rvalue(value)
            if not isinstance(v, Ptr):
                self.fail(n, 'pointer %s: its value is not a pointer the '
                          'model can name' % lv.name)
            t = strip(target)
            for f in reversed(self.stack):
                if t['referencedDecl']['id'] in f.vars:
                    f.vars[t['referencedDecl']['id']] = v
                    return v
        if isinstance(lv, (Ptr, Unbound)):
            self.fail(n, 'assignment to a pointer (but its one assignment '
                      'outside any branch or loop): not supported')
        if op is None:
            v = self.rvalue(value)
            if isinstance(v, Ptr):
                self.fail(n, 'a pointer stored: not supported')
            return self.store(lv, v, n)
        old = self.load(lv, n)
        if operand is None:
            rhs = '1'
        else:
            rhs = self.rvalue(operand)
        self.no_wrap(n, op, old, rhs)
        new = '(%s %s %s)' % (old, op, rhs)
        if isinstance(lv, LocalVar):
            if postfix:
                t = self.new_tmp()
                self.emit(self.set_local(t, old))
                self.emit(self.set_local(lv.name, new.replace(
                    old, t, 1)))
                return t
            self.emit(self.set_local(lv.name, new))
            return lv.name
        self.store(lv, new, n)
        return old if postfix else new

    def store(self, lv, v, n):
        if isinstance(lv, LocalVar):
            self.emit(self.set_local(lv.name, v))
            return lv.name
        if isinstance(lv, Loc):
            if (lv.obj, lv.field) in self.statistics:
                # A counter nothing the model runs reads: a state of its
                # own for every value would make the model infinite.
                return v
            if self.field_values.get((lv.obj, lv.field), (None,))[0] == \
                    fold(v):
                # A store of the value the spec fixes the field at.
                return v
            if (lv.obj, lv.field) in self.index_fields or \
                    (lv.obj, lv.field) in self.field_values or \
                    (lv.obj, lv.field) in self.pointer_fields:
                self.fail(n, 'store to %s, which the spec says is '
                          'constant' % lv.name())
            self.access((lv.obj, lv.field), lv.marked, 'store', n)
            sid = self.src(n, '%s %s' % ('WRITE_ONCE' if lv.marked else
                                         'store', lv.name()),
                           self.step_kind((lv.obj, lv.field)))
            if (lv.obj, lv.field) in self.private:
                self.emit(Local('STOREP(me_cpu, me_ctx, %s, %s, %s)' % (
                    self.addr(lv), v, self.private[(lv.obj, lv.field)])))
                return v
            if (lv.obj, lv.field) in self.sole_writer:
                self.emit(Step('mem', 'STORE_OWN(me_cpu, me_ctx, %s, %s, '
                               '%d, %s)' % (self.addr(lv), v, sid,
                                            self.sole_writer[
                                                (lv.obj, lv.field)][0]),
                               sid))
                return v
            self.emit(self.mem_step((lv.obj, lv.field),
                                    'STORE(me_cpu, me_ctx, %s, %s, %d)' %
                                    (self.addr(lv), v, sid), sid))
            return v
        self.fail(n, 'store to something the model cannot name')

    # -- lvalues --

    def lvalue(self, n):
        kind = n.get('kind')
        if kind == 'ParenExpr':
            return self.lvalue(n['inner'][0])
        if kind in ('ImplicitCastExpr', 'CStyleCastExpr') and \
                n.get('castKind') in ('NoOp', 'LValueToRValue'):
            if n.get('castKind') == 'LValueToRValue' and \
                    is_pointer(qual(n)):
                return self.lvalue(n['inner'][0])
            return self.lvalue(n['inner'][0])
        if kind == 'DeclRefExpr':
            ref = n['referencedDecl']
            for f in reversed(self.stack):
                if ref['id'] in f.vars:
                    return f.vars[ref['id']]
            if ref['name'] in self.constants:
                return Const(self.constants[ref['name']][0])
            if ref.get('kind') == 'VarDecl' and ref['name'] in \
                    self.tu.globals:
                if ref['name'] not in self.objects:
                    self.fail(n, 'global %s is not one of the spec\'s '
                              'objects' % ref['name'])
                if self.objects[ref['name']] is not None:
                    return Array(ref['name'])
                if qual(n).startswith('struct '):
                    return Ptr(ref['name'], None)
                return Loc(ref['name'], None, None)
            self.fail(n, '%s: not a local, parameter or known global' %
                      ref.get('name'))
        if kind == 'ArraySubscriptExpr':
            base, idx = n['inner']
            vi = self.rvalue(idx)
            b = strip(base)
            if b.get('kind') == 'ImplicitCastExpr' and \
                    b.get('castKind') == 'ArrayToPointerDecay':
                arr = self.lvalue(b['inner'][0])
                if isinstance(arr, Array) and \
                        qual(n).startswith('struct '):
                    return Ptr(arr.name, vi)
                if isinstance(arr, Array):
                    return Loc(arr.name, vi, None)
                if isinstance(arr, Loc) and (arr.obj, arr.field) in \
                        self.object_fields:
                    # An array field of structs that the spec makes an
                    # object of its own (the tree's nodes).
                    return Ptr(self.object_fields[(arr.obj, arr.field)],
                               vi)
                if isinstance(arr, Loc) and arr.length > 1:
                    return Loc(arr.obj, arr.idx, arr.field, vi, arr.length,
                               arr.marked)
            self.fail(n, 'subscript of something the model cannot name')
        if kind == 'MemberExpr':
            base = n['inner'][0]
            if n.get('isArrow'):
                p = self.rvalue(base)
            else:
                p = self.lvalue(base)
            if isinstance(p, Loc) and p.sub is None and p.length == 1:
                # A field of a struct (or union) field: one location each,
                # named by its path (a union's members do not alias here).
                field = '%s.%s' % (p.field, n['name'])
                return Loc(p.obj, p.idx, field, None, 1, p.marked)
            if not isinstance(p, Ptr):
                self.fail(n, 'field %s of something the model cannot name' %
                          n['name'])
            m = re.search(r'\[(\d+)\]$', qual(n))
            length = int(m.group(1)) if m else 1
            return Loc(p.obj, p.idx, n['name'], None, length)
        if kind == 'UnaryOperator' and n['opcode'] == '*':
            inner = strip(n['inner'][0])
            marked = 'volatile' in qual(n)
            if inner.get('kind') == 'UnaryOperator' and \
                    inner['opcode'] == '&':
                lv = self.lvalue(inner['inner'][0])
                if isinstance(lv, Loc):
                    lv.marked = marked
                return lv
            p = self.rvalue(inner)
            if isinstance(p, Ptr):
                return p
            if isinstance(p, LocalRef):
                return p.var     # *sp, where the caller passed &local
            if isinstance(p, AddrOf):
                # *sp, where the caller passed &loc: that location.
                return Loc(p.loc.obj, p.loc.idx, p.loc.field, p.loc.sub,
                           p.loc.length, marked)
            self.fail(n, 'dereference of something the model cannot name')
        if kind == 'CallExpr':
            v = self.call(n)
            if isinstance(v, Ptr):
                return v
        self.fail(n, 'lvalue %s: not supported' % kind)

    def addr(self, lv):
        """The address of a location, which gets its place in the
        layout when first used."""
        self.fields[(lv.obj, lv.field)] = lv.length
        s = 'A_%s' % lv.obj + ('_%s' % lv.field.replace('.', '__')
                               if lv.field else '')
        args = []
        if self.objects.get(lv.obj) is not None:
            args.append(str(lv.idx))
        if lv.length > 1:
            args.append(str(lv.sub))
        return '%s(%s)' % (s, ', '.join(args)) if args else s

    # -- calls --

    def call(self, n):
        callee = strip(n['inner'][0])
        if callee.get('kind') == 'ImplicitCastExpr':
            callee = strip(callee['inner'][0])
        if callee.get('kind') != 'DeclRefExpr':
            self.fail(n, 'call through a pointer: not supported')
        name = callee['referencedDecl']['name']
        args = n['inner'][1:]
        for f in reversed(self.stack):
            bound = f.vars.get(callee['referencedDecl']['id'])
            if isinstance(bound, (FuncRef, FuncChoice)):
                return self.call_through(n, bound, args)
        if callee['referencedDecl'].get('kind') != 'FunctionDecl' and \
                name not in self.calls:
            # A function pointer variable: only the spec can say what
            # the call does (a hook of the harness's).
            self.fail(n, 'call through the pointer %s: not supported '
                      'unless the spec abstracts it' % name)
        return self.call_name(n, name, args)

    def call_through(self, n, f, args):
        """A call through a function pointer whose value the caller
        gave: that function, or (a FuncChoice) either, as C would."""
        if isinstance(f, FuncRef):
            return self.call_name(n, f.name, args)
        t = self.new_tmp()
        pa, va = self.rvalue_in_call(n, f.a, args)
        pb, vb = self.rvalue_in_call(n, f.b, args)
        self.emit(If(f.cond, pa + [self.set_local(t, va)],
                     pb + [self.set_local(t, vb)]))
        return t

    def rvalue_in_call(self, n, f, args):
        pre = []
        self.pre_stack.append(pre)
        self.depth += 1
        try:
            v = self.call_name(n, f.name, args)
        finally:
            self.depth -= 1
            self.pre_stack.pop()
        return pre, v

    def call_name(self, n, name, args):
        hook = getattr(self, 'hook_' + name, None)
        if hook:
            return hook(n, args)
        if name in self.calls:
            return self.abstract(n, name, args)
        for tu in [self.tu] + self.tus:
            if name in tu.functions:
                saved, self.tu = self.tu, tu
                try:
                    return self.inline(n, name, args, saved)
                finally:
                    self.tu = saved
        self.fail(n, 'call to %s(): no body here and no abstraction in the '
                  'spec' % name)

    def abstract(self, n, name, args):
        kind, template = self.calls[name][:2]
        # A pointer argument is named by what it points to: a lock, say,
        # by its object and field (every element's the same).
        vals = [v.loc.obj + '_' + v.loc.field.replace('.', '__')
                if isinstance(v, AddrOf) else v.obj if isinstance(v, Ptr)
                else v.name if isinstance(v, FuncRef) else v
                for v in (self.rvalue(a) for a in args)]
        text = template.format(*vals)
        if kind == 'expr':
            return text if re.fullmatch(r'-?\d+', text) else '(%s)' % text
        if kind in ('step', 'acquire', 'release', 'step_release',
                    'locked'):
            # The source map names it, for the step table.
            self.src(n, '%s() is %s' % (name, text.split('(')[0]),
                     'harness')
            # A release (of a lock) joins the step before it: it
            # commutes with every other process's step to its left, as
            # nothing waits to see it but an acquire (Lipton).
            if kind == 'locked' and not self.held:
                self.fail(n, '%s(): the spec says it runs under a lock, '
                          'and none is held here' % name)
            # A locked step touches only what the lock held guards: it
            # joins the step before it, as an access to a locked field.
            self.emit(Local(text) if kind in ('release', 'locked') else
                      Step('mem', text))
            # A lock is named by its first argument (its object and
            # field); a step_release releases every lock held.
            if kind == 'acquire':
                self.held.add(vals[0])
            elif kind == 'release':
                self.held.discard(vals[0])
            elif kind == 'step_release':
                self.held = set()
            return '0'
        return self.ctx_value('{t} = ' + text.replace('{', '{{').replace(
            '}', '}}'))

    def inline(self, n, name, args, caller_tu):
        """Inline a call (the callee in self.tu, the arguments in the
        caller's, caller_tu)."""
        fn = self.tu.functions[name]
        if any(f.fn == name for f in self.stack):
            self.fail(n, 'recursive call to %s(): not supported' % name)
        params = [p for p in fn.get('inner', [])
                  if p.get('kind') == 'ParmVarDecl']
        if len(params) != len(args):
            self.fail(n, 'variadic call to %s(): not supported' % name)
        callee_tu, self.tu = self.tu, caller_tu
        vals = [self.rvalue(a) for a in args]
        self.tu = callee_tu
        body = [i for i in fn['inner'] if i.get('kind') == 'CompoundStmt'][0]
        stmts = body.get('inner', [])
        rtype = qual(fn).split('(')[0].strip()
        frame = Frame(fn, '%s_%s_' % (self.top, name), None)
        for p, v in zip(params, vals):
            if isinstance(v, (Ptr, AddrOf, LocalRef, FuncRef, FuncChoice)):
                frame.vars[p['id']] = v
                continue
            self.check_unassigned(fn, p)
            frame.vars[p['id']] = LocalVar('(%s)' % v)
        self.stack.append(frame)
        try:
            # A callee that is one return statement is an expression.
            if len(stmts) == 1 and stmts[0].get('kind') == 'ReturnStmt' \
                    and stmts[0].get('inner'):
                return self.rvalue(stmts[0]['inner'][0])
            if is_pointer(rtype):
                self.fail(n, '%s() returns a pointer and is more than one '
                          'return statement: not supported' % name)
            if rtype != 'void':
                frame.ret = self.new_tmp()
            ir = self.block(stmts)
        finally:
            self.stack.pop()
        for node in ir:
            self.emit(node)
        return frame.ret or '0'

    def atomic(self, n, name, args, order):
        ops = {'__atomic_add_fetch': ('+', 'new'),
               '__atomic_sub_fetch': ('-', 'new'),
               '__atomic_fetch_add': ('+', 'old'),
               '__atomic_fetch_sub': ('-', 'old')}
        where_to = self.rvalue(args[0])
        if not isinstance(where_to, AddrOf):
            self.fail(n, '%s on something the model cannot name' % name)
        lv = where_to.loc
        # What the model gives them: a load is an acquire (x86; the
        # extracted code's own loads are never deferred), a
        # read-modify-write a full barrier (x86's lock prefix).  In C
        # only these orders mean that much; a weaker one would be
        # modelled stronger than it is.
        mo = const_eval(self, order)
        if mo not in ATOMIC_ORDERS[name == '__atomic_load_n']:
            self.fail(n, 'memory order %s of %s: the model makes it %s' % (
                MEMORY_ORDERS.get(mo, mo), name,
                'an acquire' if name == '__atomic_load_n' else
                'a full barrier'))
        self.access((lv.obj, lv.field), True, 'load' if
                    name == '__atomic_load_n' else 'read-modify-write', n)
        if name == '__atomic_load_n':
            t = self.new_tmp()
            self.shared.add(t)
            sid = self.src(n, '%s %s' % (name, lv.name()))
            self.emit(Step('mem', 'LOAD(me_cpu, me_ctx, %s, %s, %d)' %
                           (t, self.addr(lv), sid), sid))
            return t
        if name in ops:
            op, which = ops[name]
            v = self.rvalue(args[1])
            t = self.new_tmp()
            self.shared.add(t)
            sid = self.src(n, '%s %s' % (name, lv.name()))
            delta = v if op == '+' else '-(%s)' % v
            self.emit(Step('mem', 'RMW_ADD(me_cpu, me_ctx, %s, %s, %s, %d)' %
                           (t, self.addr(lv), delta, sid), sid))
            if which == 'old':
                return '(%s - (%s))' % (t, delta)
            return t
        self.fail(n, '%s: not supported' % name)

    # -- the prelude's primitives (tools/extract/prelude.h) --

    def barrier_step(self, n, macro, what=None):
        # A barrier touches no memory: it joins the step before it (if
        # it must wait, the block splits there; the wait is the same).
        sid = self.src(n, what or macro.lower(), 'joined')
        self.emit(Step('ctx', '%s(me_cpu, me_ctx, %d)' % (macro, sid), sid))
        return '0'

    def hook___spin_mb(self, n, args):
        return self.barrier_step(n, 'MB')

    def hook___spin_rmb(self, n, args):
        return self.barrier_step(n, 'RMB')

    def hook___spin_wmb(self, n, args):
        return self.barrier_step(n, 'WMB')

    def hook___spin_barrier(self, n, args):
        # barrier(): the compiler keeps the accesses on either side in
        # order.  The model never reorders a context's accesses (and
        # check_marking() refuses plain accesses to shared fields, whose
        # order the compiler would not keep), so it orders nothing more
        # there; it is a step of the source map and of the model
        # (CBARRIER), joined to the step before it, so that the step
        # table shows it and a model without it differs.
        return self.barrier_step(n, 'CBARRIER', 'barrier (compiler)')

    def hook___spin_ignore(self, n, args):
        return '0'

    def hook___spin_cpu(self, n, args):
        return 'me_cpu'

    def hook___spin_nr_cpus(self, n, args):
        return 'NCPU'

    def ctx_value(self, text):
        """A read of the harness's state, text with {t} for the new
        temporary that gets the value."""
        t = self.new_tmp()
        self.emit(Step('ctx', text.format(t=t)))
        return t

    def hook___spin_in_interrupt(self, n, args):
        return self.ctx_value('{t} = IN_INTERRUPT(me_cpu, me_ctx)')

    def hook___spin_preempt_count(self, n, args):
        return self.ctx_value('{t} = PREEMPT_COUNT(me_cpu, me_ctx)')

    def hook___spin_no_preempt(self, n, args):
        self.emit(Step('ctx', 'NO_PREEMPT(me_cpu, me_ctx)'))
        return '0'

    def hook___spin_assert_irqs_disabled(self, n, args):
        self.emit(Step('ctx', 'assert(IRQS_DISABLED(me_cpu, me_ctx))'))
        return '0'

    def hook___spin_irq_save(self, n, args):
        return self.ctx_value('IRQ_SAVE(me_cpu, me_ctx, {t})')

    def hook___spin_irq_restore(self, n, args):
        v = self.rvalue(args[0])
        self.emit(Step('ctx', 'IRQ_RESTORE(me_cpu, me_ctx, %s)' % v))
        return '0'

    def hook___spin_static_key(self, n, args):
        # static_branch_*(&key): the key by name, which the spec must
        # give as a constant (a key is set once, at boot).
        a = strip(args[0])
        while a.get('kind') in ('ImplicitCastExpr', 'CStyleCastExpr',
                                'ParenExpr') or (
                a.get('kind') == 'UnaryOperator' and a['opcode'] == '&'):
            a = strip(a['inner'][0])
        if a.get('kind') != 'DeclRefExpr':
            self.fail(n, 'static key: not a named key')
        name = a['referencedDecl']['name']
        if name not in self.constants:
            self.fail(n, 'static key %s: the spec\'s constants must give '
                      'its boot-time state' % name)
        return self.constants[name][0]

    def hook___spin_current(self, n, args):
        return Ptr('task', 'CURRENT(me_cpu, me_ctx)')

    def hook___spin_warn(self, n, args):
        v = self.rvalue(args[0])
        sid = self.src(n, 'WARN', 'assert')
        self.emit(Local('assert(!(%s)) /* WARN %d */' % (v, sid)))
        return v


# C11's memory orders, by value; the ones the model gives an atomic
# load (True) and a read-modify-write (False).
MEMORY_ORDERS = {0: '__ATOMIC_RELAXED', 1: '__ATOMIC_CONSUME',
                 2: '__ATOMIC_ACQUIRE', 3: '__ATOMIC_RELEASE',
                 4: '__ATOMIC_ACQ_REL', 5: '__ATOMIC_SEQ_CST'}
ATOMIC_ORDERS = {True: (2, 5), False: (5,)}


class Const(LocalVar):
    """A global the spec says never changes from its value."""


def c_name(node):
    """An integer node's C type, typedefs and typeof() spelled out."""
    t = node.get('type', {})
    return t.get('desugaredQualType', t.get('qualType', ''))


def c_type(node):
    """(bits, signed) of an integer node's C type."""
    t = c_name(node)
    if 'bool' in t:
        return 1, False
    bits = 64 if 'long' in t else 16 if 'short' in t else \
        8 if 'char' in t else 32
    return bits, 'unsigned' not in t


def wrap(value, node):
    bits, signed = c_type(node)
    if bits == 1:
        return int(value != 0)
    value &= (1 << bits) - 1
    if signed and value >> (bits - 1):
        value -= 1 << bits
    return value


C_BINOPS = {
    '+': lambda a, b: a + b, '-': lambda a, b: a - b,
    '*': lambda a, b: a * b, '&': lambda a, b: a & b,
    '|': lambda a, b: a | b, '^': lambda a, b: a ^ b,
    '<<': lambda a, b: a << b, '>>': lambda a, b: a >> b,
    '<': lambda a, b: int(a < b), '>': lambda a, b: int(a > b),
    '<=': lambda a, b: int(a <= b), '>=': lambda a, b: int(a >= b),
    '==': lambda a, b: int(a == b), '!=': lambda a, b: int(a != b),
    '&&': lambda a, b: int(bool(a and b)),
    '||': lambda a, b: int(bool(a or b)),
    '/': lambda a, b: abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1),
    '%': lambda a, b: a - C_BINOPS['/'](a, b) * b,
}


def const_eval(tr, n):
    """The value of an integer constant expression, in C's types, or
    None if n is not one."""
    kind = n.get('kind')
    if kind == 'IntegerLiteral':
        return wrap(int(n['value']), n)
    if kind == 'CharacterLiteral':
        return int(n['value'])
    if kind == 'DeclRefExpr':
        ref = n.get('referencedDecl', {})
        if ref.get('kind') == 'EnumConstantDecl':
            return tr.tu.enums[ref['id']][1]
        return None
    if kind in ('ParenExpr', 'ConstantExpr'):
        return const_eval(tr, n['inner'][0])
    if kind in ('ImplicitCastExpr', 'CStyleCastExpr') and n.get(
            'castKind') in ('IntegralCast', 'NoOp', 'IntegralToBoolean'):
        v = const_eval(tr, n['inner'][0])
        return None if v is None else wrap(v, n)
    if kind == 'UnaryOperator' and n['opcode'] in ('-', '~', '!', '+'):
        v = const_eval(tr, n['inner'][0])
        if v is None:
            return None
        op = n['opcode']
        return wrap(-v if op == '-' else ~v if op == '~' else
                    int(not v) if op == '!' else v, n)
    if kind == 'BinaryOperator' and n['opcode'] in C_BINOPS:
        a = const_eval(tr, n['inner'][0])
        b = const_eval(tr, n['inner'][1])
        if a is None or b is None or (n['opcode'] in '/%' and not b):
            return None
        return wrap(C_BINOPS[n['opcode']](a, b), n)
    return None
