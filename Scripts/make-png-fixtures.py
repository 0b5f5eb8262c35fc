#!/usr/bin/env python3
"""Generates the PNG test fixtures and their reference pixels (development only).

Run once with Pillow installed (pip install pillow); the outputs are committed, so tests
never need Python. Pillow cannot write interlaced, 16-bit colour or 2-bit pictures, nor
choose filters, so most fixtures are written by the small encoder below (every colour
type and bit depth, interlaced or not, each row with another of the five filters, stored
/ fixed-Huffman / dynamic-Huffman DEFLATE, image data split over several IDAT chunks);
Pillow then reads each one back and must see the pixels it was made from, which checks
the encoder. `NAME.rgb` holds the expected 8-bit RGB: 16-bit samples keep their high
byte, lower depths are scaled to 0…255, and transparency is blended over the `bKGD`
colour or black as `(c * a + bg * (255 - a) + 127) // 255`. One fixture is a photo
written by Pillow's own encoder (its adaptive filters), with Pillow's decode as reference
(`photo-200x150`; `photo-500x375` is the whole photo, for the benchmark).
"""
import os, random, struct, sys, zlib
from PIL import Image

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/ImageDecodingTests/Fixtures/png"
os.makedirs(out, exist_ok=True)
random.seed(11)

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, body):
    data = kind.encode() + body
    return struct.pack(">I", len(body)) + data + struct.pack(">I", zlib.crc32(data) & 0xFFFFFFFF)


def pack_row(samples, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = acc << depth | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filter_row(kind, row, prev, bpp):
    out = bytearray([kind])
    for i, x in enumerate(row):
        a = row[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
        out.append((x - predictor) & 0xFF)
    return bytes(out)


def encode(pixels, w, h, ct, depth, interlace, compression="dynamic", idat_size=None, plte=None, trns=None,
           bkgd=None, extra=b""):
    """pixels[y][x] is a tuple of samples at full precision."""
    ch = CHANNELS[ct]
    bpp = max(1, ch * depth // 8)
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    raw = bytearray()
    kind = 0
    for x0, y0, dx, dy in passes:
        xs = list(range(x0, w, dx))
        ys = list(range(y0, h, dy))
        if not xs or not ys:
            continue
        prev = bytes(len(pack_row([0] * len(xs) * ch, depth)))
        for y in ys:
            row = pack_row([s for x in xs for s in pixels[y][x]], depth)
            raw += filter_row(kind, row, prev, bpp)
            kind = (kind + 1) % 5
            prev = row
    if compression == "stored":
        stream = zlib.compress(bytes(raw), 0)
    elif compression == "fixed":
        c = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_FIXED)
        stream = c.compress(bytes(raw)) + c.flush()
    else:
        stream = zlib.compress(bytes(raw), 9)
    png = b"\x89PNG\r\n\x1a\n" + chunk("IHDR", struct.pack(">IIBBBBB", w, h, depth, ct, 0, 0, int(interlace)))
    png += extra
    if plte:
        png += chunk("PLTE", bytes(v for rgb in plte for v in rgb))
    if trns is not None:
        png += chunk("tRNS", trns)
    if bkgd is not None:
        png += chunk("bKGD", bkgd)
    step = idat_size or len(stream)
    for start in range(0, len(stream), step):
        png += chunk("IDAT", stream[start:start + step])
    return png + chunk("IEND", b"")


def level(s, depth):
    if depth == 16:
        return s >> 8
    if depth == 8:
        return s
    return s * 255 // ((1 << depth) - 1)


def blend(c, a, bg):
    return (c * a + bg * (255 - a) + 127) // 255


def reference(pixels, w, h, ct, depth, plte=None, trns_alpha=None, trns_value=None, bg=(0, 0, 0)):
    out = bytearray()
    for y in range(h):
        for x in range(w):
            p = pixels[y][x]
            if ct == 3:
                r, g, b = plte[p[0]] if p[0] < len(plte) else (0, 0, 0)
                a = trns_alpha[p[0]] if trns_alpha and p[0] < len(trns_alpha) else 255
            elif ct in (0, 4):
                r = g = b = level(p[0], depth)
                a = level(p[1], depth) if ct == 4 else 255
            else:
                r, g, b = (level(s, depth) for s in p[:3])
                a = level(p[3], depth) if ct == 6 else 255
            if trns_value is not None and tuple(p) == trns_value:
                a = 0
            out += bytes([blend(r, a, bg[0]), blend(g, a, bg[1]), blend(b, a, bg[2])])
    return bytes(out)


def scene(w, h, ct, depth, palette_size=0):
    top = (1 << depth) - 1
    ch = CHANNELS[ct]
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            if ct == 3:
                row.append(((x * 3 + y * 5 + random.randint(0, 2)) % palette_size,))
                continue
            base = [
                top * x // max(1, w - 1),
                top * y // max(1, h - 1),
                (x * 7 + y * 13) * top // (7 * w + 13 * h),
                top - top * (x + y) // max(1, w + h - 2),
            ]
            noise = [min(top, max(0, v + random.randint(-top // 16, top // 16))) for v in base]
            if ch == 1:
                row.append((noise[0],))
            elif ch == 2:
                row.append((noise[0], noise[3]))
            elif ch == 3:
                row.append(tuple(noise[:3]))
            else:
                row.append(tuple(noise))
        rows.append(row)
    return rows


def write(name, png, ref):
    with open(os.path.join(out, name + ".png"), "wb") as f:
        f.write(png)
    with open(os.path.join(out, name + ".rgb"), "wb") as f:
        f.write(ref)


def check_with_pillow(name, pixels, ct, depth, plte=None):
    """Pillow must read back the samples the file was made from (as far as it keeps them)."""
    with Image.open(os.path.join(out, name + ".png")) as im:
        im.load()
        data = list(im.get_flattened_data() if hasattr(im, 'get_flattened_data') else im.getdata())
    flat = [p for row in pixels for p in row]
    for mine, theirs in zip(flat, data):
        theirs = theirs if isinstance(theirs, tuple) else (theirs,)
        if ct == 3:
            expected = plte[mine[0]]
            got = theirs[:3] if len(theirs) >= 3 else plte[theirs[0]]
        elif depth == 16 and ct != 0:
            expected = tuple(s >> 8 for s in mine)  # Pillow reads 16-bit colour as 8-bit
            got = (theirs[0], theirs[3]) if ct == 4 and len(theirs) == 4 else theirs[:len(expected)]
        elif depth < 8 and ct == 0:
            expected = (level(mine[0], depth),)  # Pillow scales them to 8 bits
            got = theirs[:1]
        else:
            expected = mine
            got = theirs[:len(mine)]
        assert tuple(got) == tuple(expected), (name, mine, theirs, im.mode)


W, H = 19, 13  # odd sizes: partial Adam7 passes, rows that end mid-byte
cases = [
    (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
    (4, 8), (4, 16), (6, 8), (6, 16),
]
compressions = ["dynamic", "fixed", "stored"]
names = []
for index, (ct, depth) in enumerate(cases):
    for interlace in (False, True):
        palette_size = min(1 << depth, 37) if ct == 3 else 0
        plte = [(random.randint(0, 255), random.randint(0, 255), random.randint(0, 255)) for _ in range(palette_size)]
        pixels = scene(W, H, ct, depth, palette_size)
        name = f"c{ct}-{depth}bit{'-interlaced' if interlace else ''}"
        compression = compressions[(index + interlace) % 3]
        png = encode(pixels, W, H, ct, depth, interlace, compression, idat_size=23 if index % 4 == 1 else None,
                     plte=plte or None)
        write(name, png, reference(pixels, W, H, ct, depth, plte=plte))
        check_with_pillow(name, pixels, ct, depth, plte)
        names.append(name)

# Transparency and background.
pixels = scene(W, H, 3, 8, 37)
plte = [(random.randint(0, 255), random.randint(0, 255), random.randint(0, 255)) for _ in range(37)]
alphas = [random.choice([0, 255, random.randint(1, 254)]) for _ in range(20)]  # shorter than the palette
write("c3-8bit-trns", encode(pixels, W, H, 3, 8, False, plte=plte, trns=bytes(alphas)),
      reference(pixels, W, H, 3, 8, plte=plte, trns_alpha=alphas))
pixels = scene(W, H, 0, 8)
pixels[3][4] = pixels[7][11] = (77,)
write("c0-8bit-trns", encode(pixels, W, H, 0, 8, False, trns=struct.pack(">H", 77)),
      reference(pixels, W, H, 0, 8, trns_value=(77,)))
pixels = scene(W, H, 2, 16)
pixels[0][0] = pixels[12][18] = (1000, 20000, 65535)
write("c2-16bit-trns", encode(pixels, W, H, 2, 16, True, trns=struct.pack(">HHH", 1000, 20000, 65535)),
      reference(pixels, W, H, 2, 16, trns_value=(1000, 20000, 65535)))
pixels = scene(W, H, 6, 8)
write("c6-8bit-bkgd", encode(pixels, W, H, 6, 8, False, bkgd=struct.pack(">HHH", 250, 240, 10)),
      reference(pixels, W, H, 6, 8, bg=(250, 240, 10)))
# Ancillary chunks we do not read (text, an animation control chunk) are skipped.
pixels = scene(W, H, 2, 8)
extra = chunk("tEXt", b"Comment\x00\x1b[31mhello") + chunk("acTL", struct.pack(">II", 1, 0))
write("c2-8bit-ancillary", encode(pixels, W, H, 2, 8, False, extra=extra), reference(pixels, W, H, 2, 8))
pixels = [[(200, 10, 30)]]
write("c2-8bit-1x1", encode(pixels, 1, 1, 2, 8, True), reference(pixels, 1, 1, 2, 8))

# A photo through Pillow's own encoder.
photo = Image.open(sys.argv[2] if len(sys.argv) > 2 else "../shared/fixtures/images/synthetic-500x375-baseline.jpg")
photo = photo.convert("RGB")
photo.save(os.path.join(out, "photo-500x375.png"), optimize=True)  # no reference: for the benchmark
photo = photo.crop((150, 100, 350, 250))
photo.save(os.path.join(out, "photo-200x150.png"), optimize=True)
with Image.open(os.path.join(out, "photo-200x150.png")) as im:
    with open(os.path.join(out, "photo-200x150.rgb"), "wb") as f:
        f.write(im.convert("RGB").tobytes())

print("\n".join(names))
