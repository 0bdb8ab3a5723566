#!/usr/bin/env python3
"""Code bytes of a wasm module by crate, from its code and name sections.

Usage: python3 xtask/scripts/wasm_sizes.py FILE.wasm [TOP]

Run it on a module that still has its name section, e.g. the main module
after wasm-split and before wasm-bindgen and wasm-opt:
target/wasm/wasm32-unknown-unknown/wasm-release/frontend_split.wasm
(docs/BENCHMARKS.md, "What the lobby's main module is made of"). Functions
are grouped by the first path segment of their (legacy-mangled) name; a
generic impl `<T as crate::Trait>` by the crate it names first.
"""
import collections
import re
import sys


def leb(data, i):
    result = shift = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, i


def sections(data):
    i = 8
    while i < len(data):
        sid = data[i]
        size, i = leb(data, i + 1)
        yield sid, i, size
        i += size


def imported_functions(data, off):
    count, j = leb(data, off)
    functions = 0
    for _ in range(count):
        for _ in range(2):  # module and field names
            length, j = leb(data, j)
            j += length
        kind = data[j]
        j += 1
        if kind == 0:  # function: type index
            _, j = leb(data, j)
            functions += 1
        elif kind == 1:  # table: element type, limits
            j += 1
            flags, j = leb(data, j)
            _, j = leb(data, j)
            if flags & 1:
                _, j = leb(data, j)
        elif kind == 2:  # memory: limits
            flags, j = leb(data, j)
            _, j = leb(data, j)
            if flags & 1:
                _, j = leb(data, j)
        elif kind == 3:  # global: type, mutability
            j += 2
    return functions


def function_names(data, off, size):
    names = {}
    length, j = leb(data, off)
    if data[j : j + length] != b"name":
        return names
    j += length
    end = off + size
    while j < end:
        sub = data[j]
        sub_size, j = leb(data, j + 1)
        if sub == 1:
            count, k = leb(data, j)
            for _ in range(count):
                index, k = leb(data, k)
                length, k = leb(data, k)
                names[index] = data[k : k + length].decode("utf8", "replace")
                k += length
        j += sub_size
    return names


def crate_of(name):
    legacy = re.match(r"_ZN(\d+)", name)
    if legacy:
        start = legacy.end()
        segment = name[start : start + int(legacy.group(1))]
        if segment.startswith("_$LT$"):
            named = re.search(r"([a-z_][a-z_0-9]*)\.\.", segment + name[start:])
            return named.group(1) if named else "<impl>"
        return segment
    v0 = re.search(r"\d+_?([a-z_][a-z_0-9]+)", name[2:]) if name.startswith("_R") else None
    return v0.group(1) if v0 else name.split("::")[0][:40]


def main():
    data = open(sys.argv[1], "rb").read()
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    imports, code, names = 0, None, {}
    for sid, off, size in sections(data):
        if sid == 2:
            imports = imported_functions(data, off)
        elif sid == 10:
            code = (off, size)
        elif sid == 0:
            names.update(function_names(data, off, size))
    if code is None:
        sys.exit("no code section")
    count, j = leb(data, code[0])
    totals, functions = collections.Counter(), collections.Counter()
    for index in range(imports, imports + count):
        body, k = leb(data, j)
        crate = crate_of(names.get(index, "?"))
        totals[crate] += body
        functions[crate] += 1
        j = k + body
    total = sum(totals.values())
    print(f"{total} bytes of function bodies in {count} functions")
    for crate, size in totals.most_common(top):
        print(f"{size:9d} {100 * size / total:5.1f}% {functions[crate]:6d}  {crate}")


if __name__ == "__main__":
    main()
