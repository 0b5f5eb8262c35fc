#!/usr/bin/env python3
"""Prints ASCIIGlyphs.swift's table: each printable ASCII character's ink coverage (development only).

Draws every character from U+0020 to U+007E in DejaVu Sans Mono (Debian's fonts-dejavu-core)
with Pillow, in a cell as a terminal lays it out (the advance wide, ascent plus descent
tall), large (a 96-pixel font), and averages its ink over a grid of ACROSS x DOWN parts:
how much of each part the glyph's ink covers, from 0 (none) to 255 (all), two hexadecimal
digits a part. The output replaces Modules/TextRendering/Pictures/ASCIIGlyphs.swift.

    python3 Scripts/make-ascii-glyphs.py > Modules/TextRendering/Pictures/ASCIIGlyphs.swift
"""
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
ACROSS, DOWN = 4, 8
SIZE = 96

font = ImageFont.truetype(FONT, SIZE)
ascent, descent = font.getmetrics()
width = round(font.getlength("M"))
height = ascent + descent

rows = []
for code in range(0x20, 0x7F):
    image = Image.new("L", (width, height), 0)
    ImageDraw.Draw(image).text((0, 0), chr(code), font=font, fill=255)
    pixels = image.load()
    parts = []
    for py in range(DOWN):
        for px in range(ACROSS):
            x0, x1 = px * width // ACROSS, (px + 1) * width // ACROSS
            y0, y1 = py * height // DOWN, (py + 1) * height // DOWN
            total = sum(pixels[x, y] for y in range(y0, y1) for x in range(x0, x1))
            parts.append(round(total / ((x1 - x0) * (y1 - y0))))
    rows.append((chr(code), parts))


def literal(character):
    return {"\\": "\\\\", '"': '\\"'}.get(character, character)


print("// Made by Scripts/make-ascii-glyphs.py from DejaVu Sans Mono; do not edit.")
print()
print("extension GlyphSet {")
print("  /// Every printable ASCII character's ink on ``asciiGrid``'s parts of a cell, row by row,")
print("  /// two hexadecimal digits a part from 00 (none) to ff (all), as DejaVu Sans Mono draws it")
print("  /// in a terminal's cell (its advance wide, its ascent and descent tall).")
print("  static let asciiCoverage: [(Character, String)] = [")
for character, parts in rows:
    print(f'    ("{literal(character)}", "{"".join(f"{p:02x}" for p in parts)}"),')
print("  ]")
print()
print("  /// The grid ``asciiCoverage`` is on: parts across and down a cell.")
print(f"  static let asciiGrid = (across: {ACROSS}, down: {DOWN})")
print("}")
