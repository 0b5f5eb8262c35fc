#!/usr/bin/env python3
"""Generates the JPEG test fixtures and their reference pixels (development only).

Run once with Pillow installed (pip install pillow); the outputs are committed, so tests
never need Python. References are decoded by Pillow's libjpeg(-turbo): `NAME.rgb` holds
raw RGB bytes of the full decode, `NAME.dc.rgb` the 1/8-scale decode (`draft`, which is
libjpeg's DC-only path, like `djpeg -scale 1/8`), `NAME.half.rgb` / `NAME.quarter.rgb` its
1/2 and 1/4 scaled decodes.
"""
import io, os, random, sys
from PIL import Image, ImageDraw

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/ImageDecodingTests/Fixtures/jpeg"
random.seed(7)

def scene(w, h):
    im = Image.new("RGB", (w, h))
    px = im.load()
    for y in range(h):
        for x in range(w):
            r = int(255 * x / max(1, w - 1))
            g = int(255 * y / max(1, h - 1))
            b = (x * 7 + y * 13) % 256
            n = random.randint(-12, 12)
            px[x, y] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    d = ImageDraw.Draw(im)
    if w < 4 or h < 4:
        return im
    d.ellipse([w // 5, h // 5, w * 3 // 5, h * 4 // 5], fill=(200, 40, 60))
    d.rectangle([w // 2, h // 3, w - 2, h // 2], fill=(20, 90, 230))
    return im

def save(name, im, **kw):
    path = os.path.join(out, name + ".jpg")
    im.save(path, "JPEG", **kw)
    return path

def reference(path, name, dc=True):
    with Image.open(path) as im:
        im = im.convert("RGB")
        open(os.path.join(out, name + ".rgb"), "wb").write(im.tobytes())
    if dc:
        with Image.open(path) as im:
            w, h = im.size
            im.draft("RGB", (max(1, w // 8), max(1, h // 8)))
            assert im.size == ((w + 7) // 8, (h + 7) // 8), (name, im.size)
            open(os.path.join(out, name + ".dc.rgb"), "wb").write(im.convert("RGB").tobytes())
            print(name, "dc", im.size)

def scaled_references(path, name, scales):
    """Writes `NAME.SUFFIX.rgb` for each (divisor, suffix): libjpeg's decode scaled by
    1/divisor (`draft` picks the scale from the integer ratio of the sizes, hence the
    floor division); divisor 1 is the full decode, written as `NAME.rgb`."""
    for divisor, suffix in scales:
        with Image.open(path) as im:
            w, h = im.size
            if divisor > 1:
                im.draft("RGB", (max(1, w // divisor), max(1, h // divisor)))
                assert im.size == ((w + divisor - 1) // divisor, (h + divisor - 1) // divisor), (name, im.size)
            target = os.path.join(out, name + (f".{suffix}" if suffix else "") + ".rgb")
            open(target, "wb").write(im.convert("RGB").tobytes())
            print(name, suffix or "full", im.size)

cases = [
    ("g-444-64x48", (64, 48), dict(quality=90, subsampling=0)),
    ("g-422-64x48", (64, 48), dict(quality=90, subsampling=1)),
    ("g-420-64x48", (64, 48), dict(quality=90, subsampling=2)),
    ("g-420-odd-17x9", (17, 9), dict(quality=85, subsampling=2)),
    ("g-1x1", (1, 1), dict(quality=90)),
    ("g-420-optimized-64x48", (64, 48), dict(quality=75, subsampling=2, optimize=True)),
    ("g-progressive-420-64x48", (64, 48), dict(quality=90, subsampling=2, progressive=True)),
    ("g-progressive-444-33x21", (33, 21), dict(quality=95, subsampling=0, progressive=True)),
    ("g-restart-420-64x48", (64, 48), dict(quality=90, subsampling=2, restart_marker_blocks=3)),
    ("g-restart-progressive-64x48", (64, 48), dict(quality=90, subsampling=2, progressive=True, restart_marker_rows=1)),
    ("g-q20-420-40x30", (40, 30), dict(quality=20, subsampling=2)),
]
for name, size, kw in cases:
    reference(save(name, scene(*size), **kw), name)

gray = scene(40, 24).convert("L")
reference(save("g-gray-40x24", gray, quality=90), "g-gray-40x24")
reference(save("g-gray-progressive-40x24", gray, quality=90, progressive=True), "g-gray-progressive-40x24")

# EXIF orientation 6 (rotate 90° clockwise to display): reference is the upright picture.
tall = scene(24, 16)
exif = Image.Exif()
exif[0x0112] = 6
path = save("g-exif-orientation6-24x16", tall, quality=95, subsampling=0, exif=exif.tobytes())
with Image.open(path) as im:
    from PIL import ImageOps
    upright = ImageOps.exif_transpose(im).convert("RGB")
    open(os.path.join(out, "g-exif-orientation6-24x16.rgb"), "wb").write(upright.tobytes())
    print("exif upright", upright.size)

# CMYK: must be refused cleanly.
scene(16, 16).convert("CMYK").save(os.path.join(out, "g-cmyk-16x16.jpg"), "JPEG", quality=90)
# A PNG with a .jpg name.
buffer = io.BytesIO()
scene(8, 8).save(buffer, "PNG")
open(os.path.join(out, "g-png-named.jpg"), "wb").write(buffer.getvalue())

# References for the shared fixtures (full decode only for the smaller ones).
for name in ["synthetic-375x500-baseline", "synthetic-500x333-progressive", "synthetic-320x240-grayscale"]:
    reference(os.path.join(out, name + ".jpg"), name)
for name in ["synthetic-500x375-baseline", "synthetic-1080x810-progressive"]:
    path = os.path.join(out, name + ".jpg")
    with Image.open(path) as im:
        w, h = im.size
        im.draft("RGB", (w // 8, h // 8))
        assert im.size == ((w + 7) // 8, (h + 7) // 8), (name, im.size)
        open(os.path.join(out, name + ".dc.rgb"), "wb").write(im.convert("RGB").tobytes())
        print(name, "dc", im.size)

# libjpeg's scaled decodes at 1/2 and 1/4 (its reduced 4×4 and 2×2 IDCTs).
for name in [
    "synthetic-500x375-baseline", "synthetic-500x333-progressive", "synthetic-320x240-grayscale",
    "synthetic-375x500-baseline", "g-420-64x48", "g-422-64x48", "g-444-64x48", "g-420-odd-17x9",
    "g-progressive-420-64x48",
]:
    scaled_references(os.path.join(out, name + ".jpg"), name, [(2, "half"), (4, "quarter")])

# 3×2 luma sampling, which Pillow cannot write: libjpeg-turbo's cjpeg (libjpeg-turbo-progs).
import shutil, subprocess, tempfile
if shutil.which("cjpeg"):
    image = Image.new("RGB", (50, 34))
    pixels = image.load()
    for y in range(34):
        for x in range(50):
            pixels[x, y] = ((x * 5 + y * 3) % 256, (x * x + y * 7) % 256, (y * 11 + x) % 256)
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "source.ppm")
        image.save(source)
        name = "g-sampling-3x2-50x34"
        target = os.path.join(out, name + ".jpg")
        subprocess.run(["cjpeg", "-sample", "3x2,1x1,1x1", "-quality", "90", "-outfile", target, source], check=True)
    scaled_references(target, name, [(1, ""), (2, "half"), (4, "quarter"), (8, "dc")])

# One component declaring 2×2 sampling (a non-interleaved scan of a subsampled layout).
if shutil.which("cjpeg"):
    image = Image.new("L", (21, 13))
    pixels = image.load()
    for y in range(13):
        for x in range(21):
            pixels[x, y] = (x * 11 + y * 17) % 256
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "source.pgm")
        image.save(source)
        name = "g-gray-sampled-2x2-21x13"
        target = os.path.join(out, name + ".jpg")
        subprocess.run(["cjpeg", "-grayscale", "-sample", "2x2", "-quality", "90", "-outfile", target, source], check=True)
    scaled_references(target, name, [(1, ""), (2, "half"), (4, "quarter"), (8, "dc")])

# A detailed, photo-like 500×375 picture (texture and noise in every block, ~60 KB at
# quality 85): the smooth synthetic fixtures have few AC coefficients, so this is the one
# that measures per-symbol decoding speed in `make bench`. Its own generator, so the
# fixtures above stay byte for byte what they were.
detail = random.Random(2026)
image = Image.new("RGB", (500, 375))
pixels = image.load()
for y in range(375):
    for x in range(500):
        n = detail.randint(0, 30)
        pixels[x, y] = ((x // 2 + y // 3 + n) % 256, (128 + (x - y) // 4 + n) % 256, (200 - y // 2 + n) % 256)
draw = ImageDraw.Draw(image)
for _ in range(40):
    x, y, r = detail.randint(0, 499), detail.randint(0, 374), detail.randint(4, 40)
    draw.ellipse([x - r, y - r, x + r, y + r], outline=(detail.randint(0, 255), detail.randint(0, 255), detail.randint(0, 255)), width=3)
name = "g-detailed-500x375"
path = save(name, image, quality=85, subsampling=2)
scaled_references(path, name, [(4, "quarter"), (8, "dc")])

# Added in the tenth session, at the end so that everything above stays byte for byte
# what it was (scene() draws from the shared random generator).

# Progressive 4:2:0 with odd sizes whose chroma rounds up across a block boundary:
# 33 × 17 pixels are 16.5 × 8.5 chroma samples, 17 × 9 once rounded up, so the
# non-interleaved chroma scans have three blocks by two, not two by one.
name = "g-progressive-420-odd-33x17"
path = save(name, scene(33, 17), quality=90, subsampling=2, progressive=True)
reference(path, name)
scaled_references(path, name, [(2, "half"), (4, "quarter")])

# Saturated colours, pixel by pixel, 13 wide: converting back from YCbCr overshoots 0 and
# 255 in every channel, and columns 8–12 go through the conversion's scalar tail.
colours = [(255, 0, 255), (0, 255, 0), (255, 0, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (0, 0, 0), (255, 255, 255)]
saturated = Image.new("RGB", (13, 8))
pixels = saturated.load()
picks = random.Random(13)
for y in range(8):
    for x in range(13):
        pixels[x, y] = picks.choice(colours)
name = "g-saturated-444-13x8"
reference(save(name, saturated, quality=92, subsampling=0), name)

# A progressive scan script whose DC refinement comes before any AC scan, so no AC table
# has been defined when it is read (cjpeg writes each scan's tables just before it).
if shutil.which("cjpeg"):
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "source.ppm")
        scene(24, 16).save(source)
        script = os.path.join(tmp, "scans.txt")
        open(script, "w").write("0,1,2: 0-0, 0, 1;\n0,1,2: 0-0, 1, 0;\n0: 1-63, 0, 0;\n1: 1-63, 0, 0;\n2: 1-63, 0, 0;\n")
        name = "g-progressive-dc-refined-first-24x16"
        target = os.path.join(out, name + ".jpg")
        subprocess.run(["cjpeg", "-quality", "90", "-scans", script, "-outfile", target, source], check=True)
    scaled_references(target, name, [(1, ""), (8, "dc")])

# Added in the eleventh session.

# RGB stored as RGB (cjpeg -rgb: components named R, G, B, no colour transform), which
# the decoder must not convert from YCbCr; and chroma whose two planes are sampled
# differently (Cb 2×2, Cr at full resolution), which the one-pass YCbCr path leaves to
# the general one: Cb upsampled the fancy way, Cr copied.
if shutil.which("cjpeg"):
    for name, options in [
        ("g-rgb-24x16", ["-rgb"]),
        ("g-mixed-chroma-32x24", ["-sample", "2x2,1x1,2x2"]),
        ("g-mixed-chroma-h2v1-32x24", ["-sample", "2x1,1x1,2x1"]),
    ]:
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "source.ppm")
            w, h = (int(n) for n in name.rsplit("-", 1)[1].split("x"))
            scene(w, h).save(source)
            target = os.path.join(out, name + ".jpg")
            subprocess.run(["cjpeg", "-quality", "90"] + options + ["-outfile", target, source], check=True)
        scaled_references(target, name, [(1, ""), (8, "dc")])
