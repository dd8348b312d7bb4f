"""check_pictures.py - the examples' pictures read back by code that shares nothing with
the code that wrote them (tests/examples/suite.sh runs it; standard library only).

  python3 tests/examples/check_pictures.py png FILE.png...
      Each PNG is decoded here: signature, every chunk's CRC-32 (zlib.crc32), IHDR (8-bit
      RGB), the IDAT stream through zlib (which checks the deflate bits and Adler-32), and
      the five PNG row filters undone. Where FILE.png.rgb exists (a binary PPM written by
      make_figures --raw) the decoded pixels must equal it byte for byte. The file must
      be smaller than its pixels (w*h*3) by the factor given with --shrink (default 4),
      except for files named *noise* (random pixels) and tiny ones, which must stay
      within deflate's fixed-Huffman worst case (9 bits a byte plus framing).
  python3 tests/examples/check_pictures.py loss DIR
      DIR/loss.svg's two summary lines must state what DIR/loss.csv's held-out curves do:
      the lowest value and its epoch, the last value and epoch, and the rise after the
      lowest point (to the printed precision).
Prints PASS / FAIL lines; exits 1 if anything failed.
"""
import os
import re
import struct
import sys
import zlib

failed = 0


def say(ok, name, why=""):
    global failed
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))
    failed += not ok


def decode_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("bad signature")
    pos, idat, ihdr, seen_end = 8, b"", None, False
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        ctype = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(ctype + body) & 0xFFFFFFFF != crc:
            raise ValueError("CRC mismatch in chunk %r" % ctype)
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"IDAT":
            idat += body
        elif ctype == b"IEND":
            seen_end = True
        pos += 12 + length
    if ihdr is None or not seen_end:
        raise ValueError("missing IHDR or IEND")
    w, h, depth, color, comp, filt, interlace = ihdr
    if (depth, color, comp, filt, interlace) != (8, 2, 0, 0, 0):
        raise ValueError("not 8-bit RGB, non-interlaced: %r" % (ihdr,))
    d = zlib.decompressobj()
    raw = d.decompress(idat) + d.flush()
    if not d.eof or d.unused_data:
        raise ValueError("zlib stream incomplete or followed by junk")
    stride = w * 3
    if len(raw) != h * (stride + 1):
        raise ValueError("inflated %d bytes, expected %d" % (len(raw), h * (stride + 1)))
    out, prev = bytearray(), bytearray(stride)
    for y in range(h):
        ft, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = row[x - 3] if x >= 3 else 0
            b = prev[x]
            c = prev[x - 3] if x >= 3 else 0
            if ft == 0:
                pred = 0
            elif ft == 1:
                pred = a
            elif ft == 2:
                pred = b
            elif ft == 3:
                pred = (a + b) // 2
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            else:
                raise ValueError("row %d: filter type %d" % (y, ft))
            row[x] = (row[x] + pred) & 0xFF
        out += row
        prev = row
    return w, h, bytes(out), len(data)


def read_ppm(path):
    data = open(path, "rb").read()
    m = re.match(rb"P6 (\d+) (\d+) 255\n", data)
    if not m:
        raise ValueError("bad PPM header")
    return int(m.group(1)), int(m.group(2)), data[m.end():]


def check_png(paths, shrink):
    for path in paths:
        name = os.path.basename(path)
        try:
            w, h, pixels, size = decode_png(path)
        except Exception as e:  # any decoding error is the finding
            say(False, "png %s decodes" % name, str(e))
            continue
        say(True, "png %s decodes (CRC-32s, zlib/Adler-32, filters; %dx%d)" % (name, w, h))
        if os.path.exists(path + ".rgb"):
            rw, rh, rpix = read_ppm(path + ".rgb")
            same = (rw, rh) == (w, h) and rpix == pixels
            first = next((i for i in range(min(len(rpix), len(pixels))) if rpix[i] != pixels[i]), None)
            say(same, "png %s pixels = what was drawn" % name,
                "size %dx%d vs %dx%d, first differing byte %r" % (w, h, rw, rh, first))
        raw = w * h * 3
        if "noise" in name or raw < 1024:
            bound = (raw + h) * 9 // 8 + 80   # 9-bit literals, filter bytes, PNG and zlib framing
            say(size <= bound, "png %s (random pixels) within the worst case: %d bytes for %d" % (name, size, raw),
                "%d > %d" % (size, bound))
        else:
            say(size * shrink <= raw, "png %s shrinks: %d bytes for %d bytes of pixels (%.1fx)" % (name, size, raw, raw / size),
                "less than %gx smaller" % shrink)


def check_loss(directory):
    rows = [line.strip().split(",") for line in open(os.path.join(directory, "loss.csv"))][1:]
    epochs = [int(r[0]) for r in rows]
    svg = open(os.path.join(directory, "loss.svg")).read()
    lines = re.findall(r'<text class="summary"[^>]*>([^<]*)</text>', svg)
    if len(lines) != 2:
        say(False, "demo loss.svg title states the measured curves", "found %d summary lines" % len(lines))
        return
    for col, line, who in ((2, lines[0], "no dropout"), (4, lines[1], "dropout")):
        loss = [float(r[col]) for r in rows]
        lo = min(range(len(loss)), key=lambda i: (loss[i], i))
        last = len(loss) - 1
        m = re.search(r"lowest ([0-9.]+) at epoch (\d+), then (rises|ends) to ([0-9.]+) at epoch (\d+) \(([+-][0-9.]+)\)", line)
        if lo == last:
            ok = ("lowest at the last epoch, %d: %.3f" % (epochs[lo], loss[lo])) in line
            why = "the curve is lowest at its end but the title says: " + line
        elif not m:
            ok, why = False, "the title says neither rise nor fall: " + line
        else:
            said_lo, said_e, verb, said_last, said_le, said_rise = m.groups()
            ok = (abs(float(said_lo) - loss[lo]) <= 6e-4 and int(said_e) == epochs[lo]
                  and abs(float(said_last) - loss[last]) <= 6e-4 and int(said_le) == epochs[last]
                  and abs(float(said_rise) - (loss[last] - loss[lo])) <= 1.2e-3
                  and (verb == "rises") == (loss[last] > loss[lo]))
            why = "title %r, curve: lowest %.4f at epoch %d, last %.4f at epoch %d" % (
                line, loss[lo], epochs[lo], loss[last], epochs[last])
        say(ok, "demo loss.svg title states the %s held-out curve (lowest point, rise after it)" % who, why)


def main(argv):
    if len(argv) >= 2 and argv[1] == "png":
        shrink, files = 4.0, argv[2:]
        if files[:1] == ["--shrink"]:
            shrink, files = float(files[1]), files[2:]
        check_png(files, shrink)
    elif len(argv) == 3 and argv[1] == "loss":
        check_loss(argv[2])
    else:
        print(__doc__)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
