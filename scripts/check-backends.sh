#!/usr/bin/env bash
# Checks that EPS, PDF and SVG show the same picture, since all three come from one
# scene. For every profile given (default: every fixture), in grey and in colour (-c):
#   - rasterises with Ghostscript at 72 dpi our EPS in the modern style (-e9in: the drawing at its own
#     size; the style PDF, SVG and PNG take by default), our PDF, and our SVG converted
#     by rsvg-convert to PDF;
#   - fails if the PDF or the SVG differs from the EPS in more than 2% of the pixels
#     (a pixel differs when its grey level is off by more than 48 of 255);
#   - checks every SVG with xmllint, every PDF's fonts with pdffonts (embedded, subset) and
#     its text with pdftotext (the job's name reads back);
# then checks that outlined SVG text is placed by Helvetica's widths and drawn without
# the system's fonts, output-resolution drawing on a long generated profile (sizes, rsvg-convert,
# pixels of SVG, PDF and PNG against the exact EPS at 150 dpi), and renders one SVG in headless Chromium and checks
# the screenshot is not blank.
# usage: scripts/check-backends.sh [--cand BIN] [--no-browser] [FILE.hp...]
# Needs (Debian): ghostscript librsvg2-bin libxml2-utils poppler-utils chromium python3.
set -euo pipefail
cd "$(dirname "$0")/.."
cand=target/release/hpgraph browser=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --cand) cand=$2; shift 2 ;;
    --no-browser) browser=no; shift ;;
    *) break ;;
  esac
done
cand=$(cd "$(dirname "$cand")" && pwd)/$(basename "$cand")
[ $# -gt 0 ] || set -- fixtures/profiles/*.hp fixtures/edge/*.hp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

raster() { # FILE.pdf|eps OUT.pgm
  local eps=()
  case "$1" in *.eps) eps=(-dEPSCrop) ;; esac  # the EPS marks itself so (EPSF header)
  gs -q -dSAFER -dBATCH -dNOPAUSE -dFirstPage=1 -dLastPage=1 -sDEVICE=pgmraw -r72 \
     "${eps[@]}" -sOutputFile="$2" "$1"
}

cat > "$work/diff.py" <<'PY'
import sys
def pgm(path):
    data = open(path, "rb").read()
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i + 1].isspace():
            i += 1
        if data[i:i + 1] == b"#":
            i = data.index(b"\n", i) + 1
            continue
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        fields.append(data[i:j]); i = j
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[i + 1:i + 1 + w * h]
(wa, ha, a), (wb, hb, b) = pgm(sys.argv[1]), pgm(sys.argv[2])
if (wa, ha) != (wb, hb):
    print(f"size {wb}x{hb}, not {wa}x{ha}"); sys.exit(0)
print(f"{100 * sum(1 for x, y in zip(a, b) if abs(x - y) > 48) / (wa * ha):.2f}")
PY

checked=0 failed=0
for hp in "$@"; do
  name=$(basename "$hp" .hp)
  for flags in "" "-c"; do
    tag="$name${flags:+ $flags}"
    # shellcheck disable=SC2086
    if ! "$cand" $flags --style modern -e9in -o "$work/p.eps" "$hp" 2>/dev/null; then
      continue  # not a profile: nothing to compare
    fi
    # shellcheck disable=SC2086
    "$cand" $flags -o "$work/p.pdf" "$hp" 2>/dev/null
    # shellcheck disable=SC2086
    "$cand" $flags -o "$work/p.svg" "$hp" 2>/dev/null
    rsvg-convert -f pdf -o "$work/svg.pdf" "$work/p.svg"
    raster "$work/p.eps" "$work/eps.pgm"
    raster "$work/p.pdf" "$work/pdf.pgm"
    raster "$work/svg.pdf" "$work/svg.pgm"
    problems=""
    for kind in pdf svg; do
      d=$(python3 "$work/diff.py" "$work/eps.pgm" "$work/$kind.pgm")
      if ! awk -v d="$d" 'BEGIN { exit !(d + 0 == d && d <= 2.0) }'; then
        problems+=" $kind differs from EPS: $d%"
      fi
      printf -v "pix_$kind" '%s' "$d"
    done
    xmllint --noout "$work/p.svg" 2>"$work/xml.log" || problems+=" SVG not well-formed: $(head -c 200 "$work/xml.log")"
    if pdffonts "$work/p.pdf" | awk 'NR > 2 && $(NF-4) != "yes" { bad = 1 } END { exit !bad }'; then
      problems+=" PDF font not embedded"
    fi
    if pdffonts "$work/p.pdf" | awk 'NR > 2 && $(NF-3) != "yes" { bad = 1 } END { exit !bad }'; then
      problems+=" PDF font not marked as a subset"
    fi
    # The font is cut to the glyphs used; its text must still read back: the job's
    # name, as the .hp file has it, is in what pdftotext extracts (its start: a long
    # title is cut, as hp2ps cuts it).
    job=$(sed -n 's/^JOB "\([^" ]*\).*/\1/p' "$hp" | head -n 1 | cut -c1-20)
    if [ -n "$job" ] && ! pdftotext "$work/p.pdf" - | grep -qF -- "$job"; then
      problems+=" PDF text does not read back ($job)"
    fi
    checked=$((checked + 1))
    if [ -n "$problems" ]; then
      failed=$((failed + 1)); echo "$tag:$problems"
    else
      echo "$tag: pdf ${pix_pdf}% svg ${pix_svg}% of pixels differ from EPS"
    fi
  done
done

# PNG against EPS, both antialiased at 150 dpi, compared in 3x3-pixel blocks (a block
# differs when a channel's mean is off by more than 32 of 255), on the first profiles
# given, in grey and colour: at most 1% of the blocks (the figures' promise is 2%; they
# differ in well under 0.5%, so a regression shows before it matters). The PNG's text is
# TeX Gyre Heros and Ghostscript's is its Nimbus Sans (the same design).
cat > "$work/png.py" <<'PY'
"""RGB pixels of a PNG (8-bit RGB or RGBA, alpha over white), no library needed."""
import zlib, struct
def rgb(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    i, idat = 8, b""
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    raw, bpp = zlib.decompress(idat), {2: 3, 6: 4}[ctype]
    stride, prev, out = w * bpp, bytearray(w * bpp), bytearray()
    for row in range(h):
        f = raw[row * (stride + 1)]
        line = bytearray(raw[row * (stride + 1) + 1:(row + 1) * (stride + 1)])
        for k in range(stride):  # undo PNG's per-row filter
            a = line[k - bpp] if k >= bpp else 0
            b, c = prev[k], (prev[k - bpp] if k >= bpp else 0)
            if f == 1: line[k] = (line[k] + a) & 255
            elif f == 2: line[k] = (line[k] + b) & 255
            elif f == 3: line[k] = (line[k] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[k] = (line[k] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        for k in range(0, stride, bpp):
            alpha = line[k + 3] if bpp == 4 else 255
            for ch in range(3):
                out.append((line[k + ch] * alpha + 255 * (255 - alpha)) // 255)
    return w, h, out
PY
cat > "$work/pngdiff.py" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from png import rgb
(wa, ha, a), (wb, hb, b) = rgb(sys.argv[1]), rgb(sys.argv[2])
if (wa, ha) != (wb, hb):
    print(f"size {wb}x{hb}, not {wa}x{ha}"); sys.exit(0)
blocks = bad = 0
for by in range(0, ha - 2, 3):
    for bx in range(0, wa - 2, 3):
        worst = 0
        for ch in range(3):
            sa = sb = 0
            for y in range(by, by + 3):
                o = (y * wa + bx) * 3 + ch
                sa += a[o] + a[o + 3] + a[o + 6]
                sb += b[o] + b[o + 3] + b[o + 6]
            worst = max(worst, abs(sa - sb))
        blocks += 1
        bad += worst > 9 * 32
print(f"{100 * bad / blocks:.2f}")
PY
for hp in "${@:1:4}"; do
  name=$(basename "$hp" .hp)
  for flags in "" "-c"; do
    # shellcheck disable=SC2086
    "$cand" $flags --style modern -e9in -o "$work/p.eps" "$hp" 2>/dev/null || continue
    # shellcheck disable=SC2086
    "$cand" $flags -o "$work/p.png" "$hp" 2>/dev/null
    gs -q -dSAFER -dBATCH -dNOPAUSE -dFirstPage=1 -dLastPage=1 -sDEVICE=png16m -r150 \
       -dTextAlphaBits=4 -dGraphicsAlphaBits=4 -dEPSCrop -sOutputFile="$work/eps.png" "$work/p.eps"
    d=$(python3 "$work/pngdiff.py" "$work/eps.png" "$work/p.png" "$work")
    checked=$((checked + 1))
    if awk -v d="$d" 'BEGIN { exit !(d + 0 == d && d <= 1.0) }'; then
      echo "$name${flags:+ $flags} PNG: ${d}% of 3x3 blocks differ from EPS"
    else
      failed=$((failed + 1)); echo "$name${flags:+ $flags} PNG differs from EPS: $d%"
    fi
  done
done

# SVG text as outlines (--outline-text, PNG's way): the glyphs of each string are placed
# by Helvetica's widths, as Ghostscript's
# `stringwidth` measures them (the invisible text over them carries the width the glyphs
# were placed with), and the picture does not depend on the fonts installed: rsvg-convert
# with no font at all draws the same pixels as with the system's fonts.
cat > "$work/gswidth.py" <<'PY'
"""Helvetica's width of strings, as Ghostscript's `stringwidth` measures them (at
7200 dpi: at 72 it rounds to whole pixels)."""
import subprocess
def stringwidths(strings):  # [(text, size in points)]
    ps = "".join("/Helvetica findfont %g scalefont setfont (%s) stringwidth pop ==\n"
                 % (size, s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)"))
                 for s, size in strings)
    out = subprocess.run(["gs", "-q", "-dSAFER", "-dNODISPLAY", "-r7200", "-dBATCH", "-"],
                         input=ps.encode(), capture_output=True, check=True).stdout.split()
    assert len(out) == len(strings), out[-5:]
    return [float(w) for w in out]
PY
cat > "$work/widths.py" <<'PY'
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[2])
from gswidth import stringwidths
svg = ET.parse(sys.argv[1]).getroot()
texts = [(t.text or "", float(t.get("textLength")), float(t.get("font-size")))
         for t in svg.iter("{http://www.w3.org/2000/svg}text") if t.get("fill") == "none"]
texts = [t for t in texts if t[0].isascii() and t[0]]
assert texts, "no text in the SVG"
widths = stringwidths([(s, size) for s, _, size in texts])
worst = max(abs(w - length) for w, (_, length, _) in zip(widths, texts))
print(f"{len(texts)} strings, widths within {worst:.4f} pt of Ghostscript's")
sys.exit(0 if worst < 0.01 else 1)
PY
# Plain SVG text keeps PostScript's widths through librsvg, which rounds each glyph's
# advance to a whole point when it writes a PDF: every word of three or more characters
# in rsvg-convert's PDF (as pdftotext reads it) is as wide as Ghostscript's `stringwidth`
# says, within 0.05 pt.
cat > "$work/placed.py" <<'PY'
import sys, re, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[3])
from gswidth import stringwidths
svg = ET.parse(sys.argv[1]).getroot()
sizes = {}  # each word of the SVG's text, by its font size (None: set at two sizes)
for t in svg.iter("{http://www.w3.org/2000/svg}text"):
    s, size = "".join(t.itertext()), float(t.get("font-size"))
    for w in s.split(" ") if s.isascii() else []:
        if len(w) >= 3:
            sizes[w] = size if sizes.get(w, size) == size else None
words = re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>',
                   open(sys.argv[2]).read())
seen = [(w.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"), float(b) - float(a))
        for a, b, w in words]
seen = [(w, width) for w, width in seen if sizes.get(w)]
assert seen, "no string of the SVG found in its PDF"
widths = stringwidths([(w, sizes[w]) for w, _ in seen])
worst = max(abs(g - width) for g, (_, width) in zip(widths, seen))
print(f"{len(seen)} strings through rsvg-convert, widths within {worst:.3f} pt of Ghostscript's")
sys.exit(0 if worst < 0.05 else 1)
PY
for hp in "${@:1:2}"; do
  name=$(basename "$hp" .hp)
  "$cand" -c -o "$work/t.svg" "$hp" 2>/dev/null || continue
  rsvg-convert -f pdf -o "$work/t.pdf" "$work/t.svg"
  pdftotext -bbox "$work/t.pdf" "$work/t.html"
  checked=$((checked + 1))
  if widths=$(python3 "$work/placed.py" "$work/t.svg" "$work/t.html" "$work"); then
    echo "$name SVG: $widths"
  else
    failed=$((failed + 1)); echo "$name SVG text not placed by Helvetica's widths: $widths"
  fi
done

# A fontconfig that knows no font (an empty file would fall back to the system's).
mkdir -p "$work/no-fonts" "$work/font-cache"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>%s</cachedir></fontconfig>\n' \
  "$work/no-fonts" "$work/font-cache" > "$work/no-fonts.conf"
for hp in "${@:1:2}"; do
  name=$(basename "$hp" .hp)
  "$cand" -c --outline-text -o "$work/t.svg" "$hp" 2>/dev/null || continue
  checked=$((checked + 1))
  if widths=$(python3 "$work/widths.py" "$work/t.svg" "$work"); then
    echo "$name SVG text: $widths"
  else
    failed=$((failed + 1)); echo "$name SVG text placed otherwise than Helvetica's widths: $widths"
  fi
  rsvg-convert -o "$work/fonts.png" "$work/t.svg"
  FONTCONFIG_FILE="$work/no-fonts.conf" rsvg-convert -o "$work/no-fonts.png" "$work/t.svg" 2>/dev/null
  checked=$((checked + 1))
  if python3 -c "import sys; sys.path.insert(0, sys.argv[1]); from png import rgb; sys.exit(rgb(sys.argv[2]) != rgb(sys.argv[3]))" \
       "$work" "$work/fonts.png" "$work/no-fonts.png"; then
    echo "$name SVG: the same pixels with and without the system's fonts"
  else
    failed=$((failed + 1)); echo "$name SVG looks different without the system's fonts"
  fi
done

# Output-resolution drawing on a long profile (100,000 samples x 25 bands): the SVG and
# PDF are at most 1 MB, rsvg-convert opens the SVG, the PDF differs from the PDF drawn
# with every point (--exact) and the PDF and SVG from the exact EPS in at most 1% of the
# pixels at 150 dpi, and the PNG from the exact EPS in at most 1% of its 3x3 blocks.
gen=$(dirname "$cand")/examples/gen-profile
if [ -x "$gen" ]; then
  "$gen" 100000 25 25 2 > "$work/long.hp"
  raster150() { gs -q -dSAFER -dBATCH -dNOPAUSE -dFirstPage=1 -dLastPage=1 -sDEVICE=pgmraw -r150 -sOutputFile="$2" "$1"; }
  "$cand" -c --style modern -o "$work/exact.eps" --exact "$work/long.hp"
  "$cand" -c -o "$work/long.pdf" "$work/long.hp"
  "$cand" -c -o "$work/exact.pdf" --exact "$work/long.hp"
  "$cand" -c -o "$work/long.svg" "$work/long.hp"
  problems=""
  for f in long.pdf long.svg; do
    size=$(stat -c %s "$work/$f")
    [ "$size" -le 1048576 ] || problems+=" $f is $size bytes"
  done
  rsvg-convert -f pdf -o "$work/long-svg.pdf" "$work/long.svg" 2>"$work/rsvg.log" \
    || problems+=" rsvg-convert refuses the SVG: $(head -c 200 "$work/rsvg.log")"
  xmllint --noout "$work/long.svg" 2>/dev/null || problems+=" SVG not well-formed"
  raster150 "$work/exact.pdf" "$work/exact-pdf.pgm"
  raster150 "$work/long.pdf" "$work/long-pdf.pgm"
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=pgmraw -r150 -dEPSCrop -sOutputFile="$work/exact-eps.pgm" "$work/exact.eps"
  reduced=$(python3 "$work/diff.py" "$work/exact-pdf.pgm" "$work/long-pdf.pgm")
  versus_eps=$(python3 "$work/diff.py" "$work/exact-eps.pgm" "$work/long-pdf.pgm")
  awk -v d="$reduced" 'BEGIN { exit !(d + 0 == d && d <= 1.0) }' \
    || problems+=" reduced PDF differs from exact PDF in $reduced% of pixels"
  awk -v d="$versus_eps" 'BEGIN { exit !(d + 0 == d && d <= 1.0) }' \
    || problems+=" reduced PDF differs from exact EPS in $versus_eps% of pixels"
  if [ -f "$work/long-svg.pdf" ]; then
    raster150 "$work/long-svg.pdf" "$work/long-svg.pgm"
    svg_eps=$(python3 "$work/diff.py" "$work/exact-eps.pgm" "$work/long-svg.pgm")
    awk -v d="$svg_eps" 'BEGIN { exit !(d + 0 == d && d <= 1.0) }' \
      || problems+=" SVG (through rsvg-convert) differs from exact EPS in $svg_eps% of pixels"
  fi
  # The PNG against the exact EPS as for the fixtures above: antialiased, 3x3 blocks.
  "$cand" -c -o "$work/long.png" "$work/long.hp"
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=png16m -r150 -dTextAlphaBits=4 -dGraphicsAlphaBits=4 \
     -dEPSCrop -sOutputFile="$work/exact-eps.png" "$work/exact.eps"
  png_eps=$(python3 "$work/pngdiff.py" "$work/exact-eps.png" "$work/long.png" "$work")
  awk -v d="$png_eps" 'BEGIN { exit !(d + 0 == d && d <= 1.0) }' \
    || problems+=" PNG differs from exact EPS in $png_eps% of 3x3 blocks"
  checked=$((checked + 1))
  if [ -n "$problems" ]; then
    failed=$((failed + 1)); echo "long profile:$problems"
  else
    echo "long profile: SVG $(stat -c %s "$work/long.svg") bytes, PDF $(stat -c %s "$work/long.pdf") bytes;" \
      "reduced PDF vs exact PDF ${reduced}%, vs exact EPS ${versus_eps}%, SVG (rsvg) vs EPS ${svg_eps:-?}% at 150 dpi;" \
      "PNG vs EPS ${png_eps}% of 3x3 blocks"
  fi
else
  echo "long profile: skipped ($gen not built: cargo build --release --examples)"
fi

if [ "$browser" = yes ]; then
  svg=$work/browser.svg
  "$cand" -c -o "$svg" "${1}" 2>/dev/null || "$cand" -c -o "$svg" fixtures/profiles/ManyCC-hc.hp
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$work/chrome" --window-size=900,650 \
    --screenshot="$work/shot.png" "file://$svg" > "$work/chrome.log" 2>&1 || true
  if python3 - "$work/shot.png" "$work" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from png import rgb
w, h, px = rgb(sys.argv[1])
colours, dark = set(), 0
for k in range(0, len(px), 9):
    c = bytes(px[k:k + 3])
    colours.add(c)
    dark += sum(c) < 600
print(f"browser screenshot {w}x{h}: {len(colours)} colours, {dark} sampled pixels not white")
sys.exit(0 if len(colours) > 5 and dark > 1000 else 1)
PY
  then
    checked=$((checked + 1))
  else
    failed=$((failed + 1)); echo "browser screenshot is blank (see chromium's log: $(tail -c 300 "$work/chrome.log"))"
  fi
fi
echo "backends: $((checked - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
