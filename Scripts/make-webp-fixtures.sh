#!/bin/sh
# Generates the WEBP test fixtures and their reference pixels (development only).
#
# Needs libwebp's tools and headers (Debian: apt-get install webp libwebp-dev) and a C
# compiler; the outputs are committed, so tests never need them. Each NAME.webp comes
# with NAME.rgb: the RGB that libwebp's own `dwebp` decodes it to (fancy upsampling, its
# default), which our decoder must match byte for byte. Sources are the JPEG fixtures.
set -eu
out=${1:-Tests/TextRenderingTests/Fixtures/webp}
jpeg=Tests/TextRenderingTests/Fixtures/jpeg
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

reference() {  # name: decode NAME.webp with dwebp, keep the raw RGB of the PPM
  dwebp -quiet "$out/$1.webp" -ppm -o "$tmp/$1.ppm"
  # A binary PPM: "P6\n<w> <h>\n255\n" then the pixels.
  tail -c "$(($(wc -c < "$tmp/$1.ppm") - $(head -c 20 "$tmp/$1.ppm" | head -n 3 | wc -c)))" "$tmp/$1.ppm" > "$out/$1.rgb"
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
# The benchmark's photo, and a lossless file (refused by name).
cwebp -quiet -q 75 "$jpeg/synthetic-500x375-baseline.jpg" -o "$out/photo-500x375.webp"
cwebp -quiet -lossless "$jpeg/g-420-64x48.jpg" -o "$out/lossless-64x48.webp"
