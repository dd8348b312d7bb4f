#!/usr/bin/env python3
"""tests/docs/api_prototypes.py - docs/API.md against the headers, prototype by prototype.

Usage: api_prototypes.py API.md HEADER...   (tests/docs/suite.sh runs it)

From each header it takes every public function of the interface part (before the
implementation section; the DROPOUT_V0_API compatibility block left out):
  - DROPOUTDEF / DROPOUT_CUDADEF declarations;
  - DROPOUT_HD inline building blocks (host and device), but not the private dropout__ ones;
and from API.md every function prototype written in a ```c block (a statement of the form
`TYPE name(PARAMS);`; usage lines are indented code, not ```c blocks). Both sides are
normalised (the DROPOUTDEF / DROPOUT_HD / DROPOUT_CUDADEF markers dropped, white space
collapsed, `T *p` spacing) and compared whole: return type, name, every parameter's type
and name. It prints one line per finding and exits 1 when
  - a header function has no prototype in API.md (undocumented),
  - an API.md prototype is not, character for character once normalised, the header's
    (a stale signature: a changed type, order or parameter name), or names no function;
  - an enum value the page states (in a ```c block, `NAME = value`, or a table row
    `| \`NAME\` | value |`) is not the header's, or an error code of the headers has no row
    (the header's values: its enums, and the rows X(NAME, value, ...) of the registries
    they are generated from, DROPOUT__ERRORS, DROPOUT__DTYPES, ...).
The PASS lines say how many prototypes and values were compared."""
import re
import sys

MARKERS = r'\b(?:DROPOUTDEF|DROPOUT_CUDADEF|DROPOUT_OPENCLDEF|DROPOUT_HD)\b'


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def drop_block(lines, opener):
    """Remove the lines from `#ifdef OPENER` / `#if defined(OPENER)` to its matching #endif."""
    out, depth = [], 0
    for line in lines:
        s = line.strip()
        if depth == 0:
            if re.match(r'#\s*if(def)?\s+(defined\s*\(?\s*)?' + opener + r'\b', s):
                depth = 1
                continue
            out.append(line)
        else:
            if re.match(r'#\s*if', s):
                depth += 1
            elif re.match(r'#\s*endif', s):
                depth -= 1
    return out


def normalise(proto):
    p = re.sub(MARKERS, ' ', proto)
    p = re.sub(r'\b(?:static|inline|extern|__host__|__device__|__forceinline__)\b', ' ', p)
    p = re.sub(r'\s+', ' ', p).strip()
    p = re.sub(r'\s*\*\s*', ' *', p)          # T *p, T **p
    p = re.sub(r'\* \*', '**', p)
    p = re.sub(r'\s*,\s*', ', ', p)
    p = re.sub(r'\(\s*', '(', p)
    p = re.sub(r'\s*\)', ')', p)
    p = re.sub(r'\s*\[\s*', '[', p)
    p = re.sub(r'\s*\]', ']', p)
    p = re.sub(r'\s+\(', '(', p)
    return p.rstrip(';').strip()


def name_of(proto):
    m = re.search(r'(\w+)\(', proto)
    return m.group(1) if m else None


def header_prototypes(path):
    text = open(path, encoding='utf-8').read()
    # the interface part only: stop at the implementation section
    cut = re.search(r'^#\s*if(def)?\s+(defined\s*\(\s*)?DROPOUT(_CUDA|_OPENCL)?_IMPLEMENTATION\b', text, flags=re.M)
    if cut:
        text = text[:cut.start()]
    lines = drop_block(text.split('\n'), 'DROPOUT_V0_API')
    text = strip_comments('\n'.join(lines))
    # preprocessor lines out (their bodies, e.g. #define DROPOUTDEF extern, are not prototypes)
    text = '\n'.join(l for l in text.split('\n') if not l.lstrip().startswith('#'))
    found = {}
    for m in re.finditer(MARKERS, text):
        i = text.find('(', m.end())
        if i < 0:
            continue
        depth, j = 0, i
        while j < len(text):
            if text[j] == '(':
                depth += 1
            elif text[j] == ')':
                depth -= 1
                if depth == 0:
                    break
            j += 1
        proto = normalise(text[m.start():j + 1])
        if '##' in proto:   # a token-pasted declaration: no name to compare, and grep cannot find it
            found.setdefault('(token-pasted) ' + proto, proto)
            continue
        name = name_of(proto)
        if not name or name.startswith('dropout__') or name.startswith('dropout_cuda__'):
            continue
        if ';' in proto or '{' in proto:   # a marker that did not open a function
            continue
        found.setdefault(name, proto)
    return found


def header_constants(path):
    """NAME = value of the public enums (DROPOUT_*) of a header's interface part."""
    text = open(path, encoding='utf-8').read()
    cut = re.search(r'^#\s*if(def)?\s+(defined\s*\(\s*)?DROPOUT(_CUDA|_OPENCL)?_IMPLEMENTATION\b', text, flags=re.M)
    if cut:
        text = text[:cut.start()]
    text = strip_comments('\n'.join(drop_block(text.split('\n'), 'DROPOUT_V0_API')))
    found = {}
    for body in re.findall(r'\benum\b[^{;]*\{([^}]*)\}', text):
        for name, value in re.findall(r'\b(DROPOUT_[A-Z0-9_]+)\s*=\s*(-?\s*\d+)', body):
            found[name] = int(value.replace(' ', ''))
    # the registries the enums are generated from: X(DROPOUT_ERR_P, -1, ...) rows name the
    # constant; DROPOUT__DTYPES' X(F32, 1, ...) rows make DROPOUT_DTYPE_F32 = 1, and
    # DROPOUT__OPS' X(FORWARD, 1, ...) rows DROPOUT_OP_FORWARD = 1
    for macro, body in re.findall(r'^#\s*define\s+(DROPOUT_[A-Z0-9_]*)\(X\)((?:[^\n]*\\\n)*[^\n]*)', text, flags=re.M):
        prefix = {'DROPOUT__DTYPES': 'DROPOUT_DTYPE_', 'DROPOUT__OPS': 'DROPOUT_OP_'}.get(macro, '')
        for name, value in re.findall(r'\bX\(\s*([A-Z0-9_]+)\s*,\s*(-?\s*\d+)', body):
            found[prefix + name] = int(value.replace(' ', ''))
    return found


def doc_constants(path):
    """NAME = value in the page's ```c blocks, and `NAME` | value in its tables."""
    text = open(path, encoding='utf-8').read()
    found = []
    for block in re.findall(r'^```c\n(.*?)^```', text, flags=re.S | re.M):
        for name, value in re.findall(r'\b(DROPOUT_[A-Z0-9_]+)\s*=\s*(-?\s*\d+)', strip_comments(block)):
            found.append((name, int(value.replace(' ', ''))))
    for name, value in re.findall(r'^\|\s*`(DROPOUT_[A-Z0-9_]+)`\s*\|\s*(-?\d+)\s*\|', text, flags=re.M):
        found.append((name, int(value)))
    return found


def doc_prototypes(path):
    text = open(path, encoding='utf-8').read()
    blocks = re.findall(r'^```c\n(.*?)^```', text, flags=re.S | re.M)
    protos = []
    for block in blocks:
        code = strip_comments(block)
        code = '\n'.join(l for l in code.split('\n') if not l.lstrip().startswith('#'))
        # drop braced bodies (typedef struct { ... }, enum { ... }) so that their fields do
        # not read as statements
        prev = None
        while prev != code:
            prev = code
            code = re.sub(r'\{[^{}]*\}', ' ', code)
        for stmt in code.split(';'):
            s = re.sub(r'\s+', ' ', stmt).strip()
            if not s or s.startswith('typedef') or '=' in s:
                continue
            if re.match(r'^(?:(?:DROPOUTDEF|DROPOUT_CUDADEF|DROPOUT_OPENCLDEF|DROPOUT_HD|const|unsigned|struct)\s+)*'
                        r'[A-Za-z_]\w*(?:[\s*]+const)?[\s*]+dropout_\w+\s*\(.*\)$', s):
                protos.append(normalise(s))
    return protos


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    doc, headers = sys.argv[1], sys.argv[2:]
    want = {}
    for h in headers:
        for name, proto in header_prototypes(h).items():
            want.setdefault(name, (proto, h))
    have = doc_prototypes(doc)
    bad = 0
    seen = set()
    # an optional backend's header that is not in this checkout (dropout_opencl.h before
    # its branch is merged): its prototypes on the page are named, not checked
    opencl = any(h.endswith('dropout_opencl.h') for h in headers)
    unchecked = sorted(name_of(p) for p in have if name_of(p).startswith('dropout_opencl_') and not opencl)
    if unchecked:
        print('note: dropout_opencl.h not given: %d prototypes of it not checked' % len(unchecked))
    for proto in have:
        name = name_of(proto)
        if name.startswith('dropout_opencl_') and not opencl:
            continue
        if name not in want:
            print('FAIL docs: %s has a prototype of %s, which no header declares: %s' % (doc, name, proto))
            bad += 1
        elif want[name][0] != proto:
            print('FAIL docs: %s: %s differs from %s:\n      doc:    %s\n      header: %s'
                  % (doc, name, want[name][1], proto, want[name][0]))
            bad += 1
        seen.add(name)
    missing = sorted(n for n in want if n not in seen)
    if missing:
        print('FAIL docs: %s lacks the prototype of %d header function(s): %s'
              % (doc, len(missing), ' '.join(missing)))
        bad += 1
    # the pinned values: every enum value the page states is the header's, and every error
    # code of the headers has its row
    consts = {}
    for h in headers:
        consts.update(header_constants(h))
    stated = doc_constants(doc)
    wrong = ['%s = %d (header: %s)' % (n, v, consts.get(n)) for n, v in stated
             if n in consts and consts[n] != v]
    unknown = sorted(set(n for n, v in stated if n not in consts and
                         not (n.startswith('DROPOUT_ERR_OPENCL') and not opencl)))
    text = open(doc, encoding='utf-8').read()
    table = set(re.findall(r'^\|\s*`(DROPOUT_[A-Z0-9_]+)[^`]*`\s*\|', text, flags=re.M))
    unlisted = sorted(n for n in consts if n.startswith('DROPOUT_ERR_') and n not in table)
    proto_bad = bad
    if wrong or unknown or unlisted:
        print('FAIL docs: %s: enum values stated wrongly: %s; not in the headers: %s; error codes without a row: %s'
              % (doc, ', '.join(wrong) or 'none', ' '.join(unknown) or 'none', ' '.join(unlisted) or 'none'))
        bad += 1
    else:
        print('PASS docs: %s states %d enum values (ops, dtypes, error codes, ...), each the header\'s; every error code has its row'
              % (doc, len(stated)))
    if not proto_bad:
        print('PASS docs: %s gives the full prototype of all %d public functions of %s, each as the header declares it'
              % (doc, len(want), ' and '.join(headers)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
