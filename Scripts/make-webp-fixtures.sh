#!/bin/sh
# Generates the WEBP test fixtures and their reference pixels (development only).
#
# Needs libwebp's tools and headers, libvpx's encoder (Debian: apt-get install webp
# libwebp-dev vpx-tools) and a C compiler; the outputs are committed, so tests never need
# them. Each NAME.webp comes with NAME.rgb: the RGBA that libwebp's own `dwebp` decodes it
# to (fancy upsampling, its default), blended over black as (c * a + 127) // 255, which
# our decoder must match byte for byte. Sources are the JPEG fixtures and a few pictures
# drawn here.
set -eu
out=${1:-Tests/ImageDecodingTests/Fixtures/webp}
jpeg=Tests/ImageDecodingTests/Fixtures/jpeg
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# cwebp cannot ask for several token partitions; this does (libwebp's encoder API).
cat > "$tmp/partitions.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <webp/decode.h>
#include <webp/encode.h>
int main(int argc, char** argv) {  /* in.webp out.webp partitions-log2 */
  FILE* f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
  unsigned char* data = malloc(n); fread(data, 1, n, f); fclose(f);
  int w, h; unsigned char* rgb = WebPDecodeRGB(data, n, &w, &h);
  WebPConfig config; WebPConfigInit(&config); config.partitions = atoi(argv[3]); config.quality = 70;
  config.low_memory = 1;  /* the encoder's token buffer would force a single partition */
  WebPPicture picture; WebPPictureInit(&picture); picture.width = w; picture.height = h;
  WebPPictureImportRGB(&picture, rgb, 3 * w);
  WebPMemoryWriter writer; WebPMemoryWriterInit(&writer);
  picture.writer = WebPMemoryWrite; picture.custom_ptr = &writer;
  if (!WebPEncode(&config, &picture)) return 1;
  f = fopen(argv[2], "wb"); fwrite(writer.mem, 1, writer.size, f); fclose(f);
  return 0;
}
C
cc -o "$tmp/partitions" "$tmp/partitions.c" -lwebp

reference() {  # name: decode NAME.webp with dwebp to RGBA, blend it over black
  dwebp -quiet "$out/$1.webp" -pam -o "$tmp/$1.pam"
  python3 - "$tmp/$1.pam" "$out/$1.rgb" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
rgba = data[data.index(b"ENDHDR\n") + 7:]
out = bytearray()
for i in range(0, len(rgba), 4):
    a = rgba[i + 3]
    out += bytes((c * a + 127) // 255 for c in rgba[i:i + 3])
open(sys.argv[2], "wb").write(bytes(out))
PY
}

wrap_ivf() {  # file.ivf name: the IVF file's first frame in a simple WEBP container, as NAME.webp
  python3 - "$1" "$out/$2.webp" <<'PY'
import sys
ivf = open(sys.argv[1], "rb").read()
size = int.from_bytes(ivf[32:36], "little")  # after the 32-byte file header
frame = ivf[44:44 + size] + (b"\0" if size % 2 else b"")
riff = b"WEBP" + b"VP8 " + size.to_bytes(4, "little") + frame
open(sys.argv[2], "wb").write(b"RIFF" + len(riff).to_bytes(4, "little") + riff)
PY
}

make() {  # name source cwebp-options…
  name=$1; source=$2; shift 2
  cwebp -quiet "$@" "$source" -o "$out/$name.webp"
  reference "$name"
}

make simple-filter-64x48 "$jpeg/g-420-64x48.jpg" -q 60 -nostrong -f 50
make strong-filter-64x48 "$jpeg/g-420-64x48.jpg" -q 60 -strong -f 80 -sharpness 2
make no-filter-odd-33x17 "$jpeg/g-detailed-500x375.jpg" -q 80 -f 0 -crop 7 9 33 17
make segments-sharp-120x90 "$jpeg/g-detailed-500x375.jpg" -q 40 -segments 4 -sns 90 -sharpness 6 -resize 120 90
make low-quality-1x1 "$jpeg/g-1x1.jpg" -q 5
make high-quality-odd-17x9 "$jpeg/g-420-odd-17x9.jpg" -q 98 -f 20
make detailed-200x150 "$jpeg/g-detailed-500x375.jpg" -q 75 -crop 150 100 200 150
make sharpness-5-64x48 "$jpeg/g-detailed-500x375.jpg" -q 70 -f 45 -sharpness 5 -resize 64 48
make lowest-quality-64x48 "$jpeg/g-detailed-500x375.jpg" -q 0 -resize 64 48
# Filter level 15, the first whose high-edge-variance threshold is 1.
make filter-level-15-64x48 "$jpeg/g-detailed-500x375.jpg" -q 50 -sns 0 -segments 1 -f 80 -resize 64 48
# Sharpness 4, the last that halves the interior limit (5 and up quarter it).
make sharpness-4-64x48 "$jpeg/g-detailed-500x375.jpg" -q 50 -f 60 -sharpness 4 -resize 64 48

# A key frame from libvpx, VP8's own encoder, which sets the loop filter's deltas (+2 for
# the intra reference frame, +4 more for 4x4 prediction); libwebp's encoder never does.
# Its IVF frame is wrapped in a simple WEBP container.
cwebp -quiet -q 95 -resize 64 48 "$jpeg/g-detailed-500x375.jpg" -o "$tmp/vpx-source.webp"
dwebp -quiet "$tmp/vpx-source.webp" -yuv -o "$tmp/vpx-source.yuv"
vpxenc --codec=vp8 --i420 -w 64 -h 48 --limit=1 --ivf --good --cpu-used=0 --end-usage=q \
  --cq-level=56 --min-q=52 --max-q=60 --token-parts=1 -o "$tmp/vpx.ivf" "$tmp/vpx-source.yuv" \
  < /dev/null > /dev/null 2>&1
wrap_ivf "$tmp/vpx.ivf" libvpx-deltas-64x48
reference libvpx-deltas-64x48
# Quantiser index 0, where the second-order block's AC factor (4 × 155/100) is raised to
# its floor of 8. libvpx writes a second-order block only for 16×16 prediction, which it
# picks for a picture of flat 4×4 tiles (a photo gets 4×4 prediction at this quality, and
# cwebp never goes below index 2); the tiles' levels vary, so the block's AC is not zero.
python3 - "$tmp/tiles.yuv" <<'PY'
import sys
luma = bytes(120 + ((x // 4) * 7 + (y // 4) * 13) % 13 - 6 for y in range(48) for x in range(64))
open(sys.argv[1], "wb").write(luma + bytes([128]) * (32 * 24 * 2))
PY
vpxenc --codec=vp8 --i420 -w 64 -h 48 --limit=1 --ivf --good --cpu-used=0 --end-usage=q \
  --cq-level=0 --min-q=0 --max-q=0 --token-parts=0 -o "$tmp/tiles.ivf" "$tmp/tiles.yuv" \
  < /dev/null > /dev/null 2>&1
wrap_ivf "$tmp/tiles.ivf" libvpx-quantizer-0-64x48
reference libvpx-quantizer-0-64x48
# With an ALPH chunk inside a VP8X file: the colours decode, the transparency is left out
# (PPM has none either).
cwebp -quiet -q 70 "$jpeg/g-444-64x48.jpg" -o "$tmp/opaque.webp"
dwebp -quiet "$tmp/opaque.webp" -pam -o "$tmp/opaque.pam"
python3 - "$tmp/opaque.pam" "$tmp/alpha.pam" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
header_end = data.index(b"ENDHDR\n") + 7
pixels = bytearray(data[header_end:])
for i in range(3, len(pixels), 4):
    pixels[i] = (i // 4) % 256  # a ramp of transparency
open(sys.argv[2], "wb").write(data[:header_end] + bytes(pixels))
PY
cwebp -quiet -q 70 -exact "$tmp/alpha.pam" -o "$out/alpha-vp8x-64x48.webp"
reference alpha-vp8x-64x48
"$tmp/partitions" "$out/detailed-200x150.webp" "$out/partitions-4-200x150.webp" 2
reference partitions-4-200x150
# Alpha stored raw, then the same file with its alpha filtered by each of the three
# filters (written here: cwebp picks filters itself and, for this ramp, picks none), and
# compressed (a lossless bitstream in the ALPH chunk).
cwebp -quiet -q 70 -exact -alpha_method 0 -alpha_filter none "$tmp/alpha.pam" -o "$out/alpha-raw-64x48.webp"
reference alpha-raw-64x48
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
data = bytearray(open(f"{out}/alpha-raw-64x48.webp", "rb").read())
at = data.index(b"ALPH") + 8
w, h = 64, 48
assert data[at] & 0x0F == 0  # raw, unfiltered
alpha = data[at + 1:at + 1 + w * h]
def predict(kind, values, x, y):
    if y == 0:
        return values[x - 1] if x > 0 else 0
    if kind == 2 or x == 0:
        return values[(y - 1) * w + x]
    if kind == 1:
        return values[y * w + x - 1]
    g = values[y * w + x - 1] + values[(y - 1) * w + x] - values[(y - 1) * w + x - 1]
    return min(max(g, 0), 255)
for kind, name in ((1, "horizontal"), (2, "vertical"), (3, "gradient")):
    filtered = bytes((alpha[y * w + x] - predict(kind, alpha, x, y)) & 0xFF for y in range(h) for x in range(w))
    copy = bytearray(data)
    copy[at] = kind << 2
    copy[at + 1:at + 1 + w * h] = filtered
    open(f"{out}/alpha-{name}-64x48.webp", "wb").write(bytes(copy))
PY
for name in horizontal vertical gradient; do reference "alpha-$name-64x48"; done
cwebp -quiet -q 70 -exact "$tmp/alpha.pam" -o "$out/alpha-compressed-64x48.webp"
reference alpha-compressed-64x48

# Lossless: a photo (predictor, cross-colour and subtract-green transforms, colour cache),
# the picture with the alpha ramp, and drawings of 3, 12 and 200 colours (colour
# indexing, 4, 2 and 1 index per pixel, at the settings where cwebp chooses it).
make lossless-photo-64x48 "$jpeg/g-420-64x48.jpg" -lossless -z 6
make lossless-fast-odd-33x17 "$jpeg/g-detailed-500x375.jpg" -lossless -z 0 -crop 3 5 33 17
cwebp -quiet -lossless -exact "$tmp/alpha.pam" -o "$out/lossless-alpha-64x48.webp"
reference lossless-alpha-64x48
python3 - "$tmp" <<'PY'
import sys
for colours in (3, 12, 200):
    w, h = 64, 48
    palette = [((i * 97) % 256, (i * 57 + 30) % 256, (i * 13 + 200) % 256) for i in range(colours)]
    pixels = bytearray()
    for y in range(h):
        for x in range(w):
            pixels += bytes(palette[((x // 3) * 7 + (y // 2) * 3 + (x * y) // 41) % colours])
    open(f"{sys.argv[1]}/palette-{colours}.ppm", "wb").write(b"P6\n%d %d\n255\n" % (w, h) + bytes(pixels))
PY
for colours in 3 12 200; do
  level=5
  [ "$colours" = 200 ] && level=0
  cwebp -quiet -lossless -z $level "$tmp/palette-$colours.ppm" -o "$out/lossless-palette-$colours-64x48.webp"
  reference "lossless-palette-$colours-64x48"
done

# An animation, assembled by webpmux: its first frame (64x48) at (8, 6) on an 80x60 canvas
# (the second frame sets the canvas's size). The reference is the first frame as dwebp
# decodes it, placed on a black canvas: what a viewer shows before the animation plays.
cwebp -quiet -q 70 "$jpeg/g-420-64x48.jpg" -o "$tmp/frame1.webp"
cwebp -quiet -q 70 -resize 80 60 "$jpeg/g-detailed-500x375.jpg" -o "$tmp/frame2.webp"
webpmux -frame "$tmp/frame1.webp" +100+8+6 -frame "$tmp/frame2.webp" +100+0+0 -loop 0 \
  -o "$out/animated-80x60.webp" > /dev/null 2>&1
dwebp -quiet "$tmp/frame1.webp" -pam -o "$tmp/frame1.pam"
python3 - "$tmp/frame1.pam" "$out/animated-80x60.rgb" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
rgba = data[data.index(b"ENDHDR\n") + 7:]
canvas = bytearray(80 * 60 * 3)
for y in range(48):
    for x in range(64):
        r, g, b, a = rgba[(y * 64 + x) * 4:(y * 64 + x) * 4 + 4]
        at = ((6 + y) * 80 + 8 + x) * 3
        canvas[at:at + 3] = bytes((c * a + 127) // 255 for c in (r, g, b))
open(sys.argv[2], "wb").write(bytes(canvas))
PY

# The benchmark's photos.
cwebp -quiet -q 75 "$jpeg/synthetic-500x375-baseline.jpg" -o "$out/photo-500x375.webp"
cwebp -quiet -lossless "$jpeg/synthetic-500x375-baseline.jpg" -o "$out/photo-lossless-500x375.webp"
