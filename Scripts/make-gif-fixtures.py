#!/usr/bin/env python3
"""Generates the GIF test fixtures and their reference pixels (development only).

Run once with Pillow installed (pip install pillow); the outputs are committed, so tests
never need Python. NAME.rgb is the first frame as Pillow decodes it, in RGBA blended over
black as (c * a + 127) // 255. One fixture is rewritten here (its colour table made local,
its frame moved onto a larger canvas), with a reference computed here: black around the
frame.
"""
import io, os, random, struct, sys
from PIL import Image

out = sys.argv[1] if len(sys.argv) > 1 else "Tests/ImageDecodingTests/Fixtures/gif"
jpeg = sys.argv[2] if len(sys.argv) > 2 else "Tests/ImageDecodingTests/Fixtures/jpeg"
os.makedirs(out, exist_ok=True)


def reference(name):
    with Image.open(os.path.join(out, name + ".gif")) as im:
        im.seek(0)
        rgba = im.convert("RGBA").tobytes()
    data = bytearray()
    for i in range(0, len(rgba), 4):
        a = rgba[i + 3]
        data += bytes((c * a + 127) // 255 for c in rgba[i:i + 3])
    open(os.path.join(out, name + ".rgb"), "wb").write(bytes(data))


photo = Image.open(os.path.join(jpeg, "g-detailed-500x375.jpg")).convert("RGB")
small = photo.resize((64, 48))
paletted = small.quantize(256)
paletted.save(os.path.join(out, "photo-64x48.gif"), interlace=False)
reference("photo-64x48")
paletted.save(os.path.join(out, "photo-interlaced-64x48.gif"), interlace=True)
reference("photo-interlaced-64x48")
# Large enough for the encoder to fill the code table and start again (clear codes).
photo.crop((150, 100, 350, 250)).quantize(256).save(os.path.join(out, "photo-200x150.gif"), interlace=False)
reference("photo-200x150")

two = photo.resize((33, 17)).convert("1").convert("P")
two.save(os.path.join(out, "two-colours-odd-33x17.gif"))
reference("two-colours-odd-33x17")

# Transparency: the colour most used becomes the transparent one.
sixteen = photo.resize((40, 30)).quantize(16)
counts = sixteen.histogram()
most = max(range(16), key=lambda c: counts[c])
sixteen.save(os.path.join(out, "transparent-40x30.gif"), transparency=most)
reference("transparent-40x30")

# An animation: the first frame is the picture.
frames = [photo.resize((48, 36)).quantize(64), photo.rotate(90).resize((48, 36)).quantize(64)]
frames[0].save(os.path.join(out, "animated-48x36.gif"), save_all=True, append_images=frames[1:], duration=100)
reference("animated-48x36")

# A local colour table and a frame at (5, 3) on a 50x40 canvas, written from photo-64x48
# shrunk to 20x10 (so the frame is smaller than the canvas).
buffer = io.BytesIO()
tiny = small.resize((20, 10)).quantize(32)
tiny.save(buffer, "GIF", interlace=False)
data = bytearray(buffer.getvalue())
flags = data[10]
assert flags & 0x80
table_size = 3 << ((flags & 7) + 1)
table = data[13:13 + table_size]
rest = data[13 + table_size:]
image = rest.index(b"\x2c")
descriptor = rest[image:image + 10]
assert descriptor[9] & 0x80 == 0
new_descriptor = bytearray(descriptor)
new_descriptor[1:5] = struct.pack("<HH", 5, 3)
new_descriptor[9] = 0x80 | (flags & 7)
header = bytearray(data[:13])
header[6:10] = struct.pack("<HH", 50, 40)
header[10] = flags & 0x70  # no global table
gif = bytes(header) + bytes(rest[:image]) + bytes(new_descriptor) + bytes(table) + bytes(rest[image + 10:])
open(os.path.join(out, "local-table-offset-50x40.gif"), "wb").write(gif)
canvas = bytearray(50 * 40 * 3)
rgb = tiny.convert("RGB").tobytes()
for y in range(10):
    for x in range(20):
        at = ((3 + y) * 50 + 5 + x) * 3
        canvas[at:at + 3] = rgb[(y * 20 + x) * 3:(y * 20 + x) * 3 + 3]
open(os.path.join(out, "local-table-offset-50x40.rgb"), "wb").write(bytes(canvas))

# The same frame with a global table of other colours left in place: the local one wins.
header = bytearray(data[:13])
header[10] = flags  # the global table stays
wrong = bytes(255 - b for b in table)
gif = bytes(header) + wrong + bytes(rest[:image]) + bytes(descriptor[:9]) + bytes([0x80 | (flags & 7)]) + bytes(table) + bytes(rest[image + 10:])
open(os.path.join(out, "local-over-global-20x10.gif"), "wb").write(gif)
open(os.path.join(out, "local-over-global-20x10.rgb"), "wb").write(rgb)

# A code table that fills and is kept (a "deferred clear"): an encoder may stop adding
# strings when the table holds 4,096 and go on with 12-bit codes for those it has, writing
# no clear code. Written here by a small LZW encoder: noise until the table is full, then
# the strings added last (code 4095 and those just before it) again, so they are used.


def lzw_codes(indices, size=8):
    """The codes and their widths for `indices`, a clear code first, never another."""
    clear = 1 << size
    width, next_code, table, strings = size + 1, clear + 2, {}, {}
    codes = [(clear, width)]
    prefix = indices[0]
    for index in indices[1:]:
        if (prefix, index) in table:
            prefix = table[(prefix, index)]
            continue
        codes.append((prefix, width))
        if next_code < 4096:
            table[(prefix, index)] = next_code
            strings[next_code] = (prefix, index)
            next_code += 1
            if next_code > 1 << width and width < 12:
                width += 1
        prefix = index
    codes += [(prefix, width), (clear + 1, width)]
    return codes, next_code, strings


def expand(code, strings):
    out = []
    while code in strings:
        code, last = strings[code]
        out.append(last)
    return [code] + out[::-1]


rng = random.Random(27)
noise = [rng.randrange(256) for _ in range(8000)]
length = next(n for n in range(3800, 8000) if lzw_codes(noise[:n])[1] == 4096) + 1
indices = noise[:length]
strings = lzw_codes(indices)[2]
code = 4095
while len(indices) < 64 * 64:
    indices += expand(code, strings)
    code = 4095 if code <= 4080 else code - 1
indices = indices[:64 * 64]
codes = lzw_codes(indices)[0]
assert [code for code, _ in codes].count(4095) >= 2, "code 4095 is used after the table is full"
bits = count = 0
data = bytearray()
for code, width in codes:
    bits |= code << count
    count += width
    while count >= 8:
        data.append(bits & 0xFF)
        bits >>= 8
        count -= 8
if count:
    data.append(bits)
palette = bytes(rng.randrange(256) for _ in range(768))
gif = bytearray(b"GIF89a" + struct.pack("<HHBBB", 64, 64, 0xF7, 0, 0) + palette)
gif += b"\x2c" + struct.pack("<HHHHB", 0, 0, 64, 64, 0) + b"\x08"
for start in range(0, len(data), 255):
    gif += bytes([len(data[start:start + 255])]) + data[start:start + 255]
gif += b"\x00\x3b"
open(os.path.join(out, "deferred-clear-64x64.gif"), "wb").write(bytes(gif))
reference("deferred-clear-64x64")
with open(os.path.join(out, "deferred-clear-64x64.rgb"), "rb") as written:
    assert written.read() == b"".join(palette[3 * i:3 * i + 3] for i in indices), "Pillow reads what was written"
