#!/usr/bin/env python3
"""Prints DisplayWidth.wideRanges (development only).

Needs the unicodedata2 package of the Unicode version Swift's own character properties
have (pip install 'unicodedata2<18' for Unicode 17, Swift 6.3's). The output replaces the
table's body in Modules/TextRendering/Layout/DisplayWidth.swift: the East Asian Wide and
Fullwidth characters (and the unassigned code points Unicode gives that width in the CJK
planes), a range running on over unassigned code points up to the next, and U+3248–U+324F,
Ambiguous to Unicode but two columns to glibc and xterm.
"""
import unicodedata2 as unicode

LIMIT = 0x40000
wide = [unicode.east_asian_width(chr(v)) in "WF" for v in range(LIMIT)]
unassigned = [unicode.category(chr(v)) == "Cn" for v in range(LIMIT)]
for low, high in [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD)]:
    for v in range(low, high + 1):
        wide[v] = wide[v] or unassigned[v]
for v in range(0x3248, 0x3250):
    wide[v] = True

ranges = []
v = 0
while v < LIMIT:
    if not wide[v]:
        v += 1
        continue
    low = v
    while True:
        while v + 1 < LIMIT and wide[v + 1]:
            v += 1
        gap = v + 1
        while gap < LIMIT and unassigned[gap] and not wide[gap]:
            gap += 1
        if gap < LIMIT and wide[gap] and gap > v + 1:
            v = gap
            continue
        break
    ranges.append("0x%X...0x%X," % (low, v))
    v += 1

line = "   "
for item in ranges:
    if len(line) + len(item) + 1 > 108:
        print(line)
        line = "   "
    line += " " + item
print(line)
print("// Unicode", unicode.unidata_version)
