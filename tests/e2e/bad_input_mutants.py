#!/usr/bin/env python3
"""Mutants of valid inputs for the bad-input sweep (bad_input_sweep.sh): IR files, topology specs,
workloads, nccl-tests logs and MSCCLang scripts, each changed in one place (a value made hostile,
an attribute or key dropped, an element repeated or dropped, a cut, a flipped byte). The same seed
gives the same mutants.

usage: bad_input_mutants.py FIXTURES_DIR SPECS_DIR OUT_DIR COUNT
Writes COUNT mutants to OUT_DIR and prints one line per mutant: KIND PATH, KIND being xml, topo,
workload, log or script (the commands the sweep runs on it depend on the kind).
"""
import json
import os
import random
import re
import sys

HOSTILE_NUMBERS = ['', '-1', '0', '-2147483649', '2147483648', '4294967296', '9223372036854775808',
                   '99999999999999999999999', 'nan', 'inf', '-0', '+1', '0x10', '1e9', ' 7', '7 ', '1.5',
                   'x', '\u00e9', '&#0;', '1,2']
HOSTILE_JSON = [None, -1, 0, 2 ** 31, 2 ** 63, 10 ** 30, 1e308, -1e308, 0.5, '', 'x', [], {}, True,
                '1/0', '-3/7', '99999999999999999999/3']


def xml_mutant(text, rng):
    kind = rng.randrange(7)
    attrs = list(re.finditer(r'(\w+)="([^"]*)"', text))
    elements = list(re.finditer(r'<(step|tb|gpu)\b[^>]*/?>', text))
    if kind == 0 and attrs:  # a value made hostile
        m = rng.choice(attrs)
        value = rng.choice(HOSTILE_NUMBERS).replace('"', '')
        return text[:m.start(2)] + value + text[m.end(2):]
    if kind == 1 and attrs:  # an attribute dropped
        m = rng.choice(attrs)
        return text[:m.start()] + text[m.end():]
    if kind == 2 and elements:  # an element repeated (a step, or a thread block's or rank's opening tag)
        m = rng.choice(elements)
        return text[:m.end()] + m.group(0) + text[m.end():]
    if kind == 3 and elements:  # an element dropped
        m = rng.choice(elements)
        return text[:m.start()] + text[m.end():]
    if kind == 4:  # cut anywhere
        return text[:rng.randrange(len(text))]
    if kind == 5:  # one byte changed
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.choice([0x3c, 0x3e, 0x22, 0x26, 0x20, 0x30, 0x39, 0x7f])) + text[i + 1:]
    m = rng.choice(attrs) if attrs else None  # an attribute given twice
    return text if m is None else text[:m.end()] + ' ' + m.group(0) + text[m.end():]


def json_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from json_paths(v, path + (i,))


def json_mutant(text, rng):
    if rng.randrange(5) == 0:  # cut anywhere
        return text[:rng.randrange(len(text))]
    doc = json.loads(text)
    paths = [p for p in json_paths(doc) if p]
    path = rng.choice(paths)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if rng.randrange(3) == 0:
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice(HOSTILE_JSON)
    return json.dumps(doc)


def line_mutant(text, rng):
    """A log: one number of one line made hostile, or a line repeated, dropped or cut."""
    lines = text.split('\n')
    i = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        numbers = list(re.finditer(r'-?\d+(\.\d+)?', lines[i]))
        if numbers:
            m = rng.choice(numbers)
            lines[i] = lines[i][:m.start()] + rng.choice(HOSTILE_NUMBERS) + lines[i][m.end():]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        del lines[i]
    else:
        lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
    return '\n'.join(lines)


def script_mutant(text, rng):
    """An MSCCLang script with one integer literal made hostile (sizes, ranks, indices, channels)."""
    numbers = list(re.finditer(r'(?<![\w.])\d+(?![\w.])', text))
    if not numbers:
        return text
    m = rng.choice(numbers)
    return text[:m.start()] + rng.choice(['-1', '0', '10**9', '2**31', '4097', '(1/0)', 'None']) + text[m.end():]


def main():
    fixtures, specs, out, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    sources = [
        ('xml', os.path.join(fixtures, 'verify/good/allgather_pairs_n2.xml'), xml_mutant),
        ('xml', os.path.join(fixtures, 'msccl-tools/valid/allreduce_ring_a100_n4_ch1_i1_LL128.xml'), xml_mutant),
        ('xml', os.path.join(fixtures, 'msccl-scheduler/ncv4/ar_tree_12_LL.xml'), xml_mutant),
        ('topo', os.path.join(specs, 'topologies/dgx1.json'), json_mutant),
        ('topo', os.path.join(specs, 'topologies/a100-2.json'), json_mutant),
        ('workload', os.path.join(specs, 'workloads/resnet50.json'), json_mutant),
        ('log', os.path.join(fixtures, 'nccl-tests-logs/h100-1x8-allreduce-nccl2.29.txt'), line_mutant),
        ('script', os.path.join(fixtures, 'python/ring_allreduce.py'), script_mutant),
    ]
    texts = []
    for kind, path, mutate in sources:
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            texts.append((kind, f.read(), mutate, os.path.splitext(path)[1]))
    rng = random.Random(2000)
    os.makedirs(out, exist_ok=True)
    for n in range(count):
        kind, text, mutate, ext = texts[n % len(texts)]
        path = os.path.join(out, 'mutant%04d%s' % (n, ext))
        with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(mutate(text, rng))
        print(kind, path)


if __name__ == '__main__':
    main()
