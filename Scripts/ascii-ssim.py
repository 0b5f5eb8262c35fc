#!/usr/bin/env python3
"""Scores ASCII pictures against chafa's: luma SSIM of each, drawn as a terminal draws it,
against the photograph (development only).

    Scripts/ascii-ssim.py .build/release/DogBreedsCLI PHOTO.jpg...

For each photograph: `show --picture ascii --size 60x20` from a local stand-in for the API
(Scripts/dog-api-stub.py), in 24-bit colour (`--color always`, COLORTERM=truecolor) and
plain (`--color never`), and `chafa --symbols ascii -s 60x20` with `-c full` and `-c none`.
Each output's cells are drawn with Pillow in a monospace font (Noto Mono, a font that is
not the one the glyph table is made from, by default) at 10 x 20 pixels a cell, each
cell's background filled and its glyph drawn over it in its foreground colour; plain
output is drawn light grey on black. The photograph is resized (Lanczos) to the drawing's
size, and scikit-image's structural_similarity compares the two in luma (BT.601).
Needs chafa (Debian), Pillow and scikit-image (PyPI).
"""
import os, re, subprocess, sys, time
import numpy as np
from PIL import Image, ImageDraw, ImageFont
from skimage.metrics import structural_similarity

FONT = os.environ.get("FONT", "/usr/share/fonts/truetype/noto/NotoMono-Regular.ttf")
CELL = (10, 20)
PLAIN = ((229, 229, 229), (0, 0, 0))
PORT = 18791
HERE = os.path.dirname(os.path.abspath(__file__))
SGR = re.compile(r"\x1b\[([0-9;]*)m")
OTHER = re.compile(r"\x1b(\[[0-9;?]*[A-Za-ln-z]|[^\[])")


def cells(text):
    """The grid of (character, foreground, background) of SGR-coloured text."""
    rows = []
    fg = bg = None
    for line in text.split("\n"):
        line = OTHER.sub("", line)
        row = []
        at = 0
        for match in list(SGR.finditer(line)) + [None]:
            end = match.start() if match else len(line)
            for character in line[at:end]:
                row.append((character, fg, bg))
            if not match:
                break
            at = match.end()
            codes = [int(c) if c else 0 for c in match.group(1).split(";")]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0:
                    fg = bg = None
                elif c == 39:
                    fg = None
                elif c == 49:
                    bg = None
                elif c in (38, 48) and codes[i + 1] == 2:
                    colour = tuple(codes[i + 2 : i + 5])
                    fg, bg = (colour, bg) if c == 38 else (fg, colour)
                    i += 4
                elif c in (38, 48) and codes[i + 1] == 5:
                    i += 2
                i += 1
        rows.append(row)
    return rows


def picture(rows):
    """The picture's rows: the longest run of rows of one length (the text around it differs)."""
    best, run = [], []
    for row in rows:
        if run and len(row) == len(run[0]) and len(row) > 0:
            run.append(row)
        else:
            run = [row] if row else []
        if len(run) > len(best):
            best = list(run)
    return best


def draw(rows, font):
    width, height = len(rows[0]) * CELL[0], len(rows) * CELL[1]
    image = Image.new("RGB", (width, height), PLAIN[1])
    canvas = ImageDraw.Draw(image)
    for y, row in enumerate(rows):
        for x, (character, fg, bg) in enumerate(row):
            box = (x * CELL[0], y * CELL[1], (x + 1) * CELL[0] - 1, (y + 1) * CELL[1] - 1)
            canvas.rectangle(box, fill=bg or PLAIN[1])
            canvas.text((x * CELL[0], y * CELL[1]), character, font=font, fill=fg or PLAIN[0])
    return image


def luma(image):
    return np.asarray(image.convert("RGB"), dtype=np.float64) @ [0.299, 0.587, 0.114]


def score(text, photo, font):
    rows = picture(cells(text))
    drawn = draw(rows, font)
    source = Image.open(photo).convert("RGB").resize(drawn.size, Image.LANCZOS)
    return structural_similarity(luma(drawn), luma(source), data_range=255)


def main():
    binary, photos = sys.argv[1], sys.argv[2:]
    font = ImageFont.truetype(FONT, 16)
    print("| photo | ours, colour | chafa, colour | ours, plain | chafa, plain |")
    print("| --- | --- | --- | --- | --- |")
    for photo in photos:
        stub = subprocess.Popen([sys.executable, os.path.join(HERE, "dog-api-stub.py"), str(PORT), photo])
        time.sleep(0.5)
        try:
            base = [binary, "show", "hound", "--base-url", f"http://127.0.0.1:{PORT}/api", "--picture", "ascii",
                    "--size", "60x20"]
            env = dict(os.environ, COLORTERM="truecolor")
            env.pop("NO_COLOR", None)
            ours = [subprocess.run(base + ["--color", c], env=env, capture_output=True, text=True, check=True).stdout
                    for c in ("always", "never")]
        finally:
            stub.kill()
            stub.wait()
        theirs = [subprocess.run(["chafa", "--symbols", "ascii", "-f", "symbols", "-s", "60x20", "-c", c, photo],
                                 capture_output=True, text=True, check=True).stdout for c in ("full", "none")]
        figures = [score(t, photo, font) for t in (ours[0], theirs[0], ours[1], theirs[1])]
        print(f"| {os.path.basename(photo)} | " + " | ".join(f"{f:.3f}" for f in figures) + " |")


main()
