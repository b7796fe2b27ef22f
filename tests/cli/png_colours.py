#!/usr/bin/env python3
"""Reads a PNG (8-bit RGB or RGBA, as Chromium writes its screenshots) with
the standard library only and prints "WIDTH HEIGHT DISTINCT_COLOURS", then
one line "#rrggbb N" per colour argument: how many pixels are within 6 per
channel of it. Lets the browser test check a screenshot is not blank and
shows the status colours of the heat map."""
import struct
import sys
import zlib


def decode(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit(f"{path}: depth {depth} colour type {ctype} interlace {interlace} not handled")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xff
            elif kind == 2:
                line[i] = (line[i] + b) & 0xff
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xff
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    width, height, bpp, rows = decode(sys.argv[1])
    counts = {}
    for line in rows:
        for x in range(0, len(line), bpp):
            px = line[x:x + 3]
            counts[px] = counts.get(px, 0) + 1
    print(width, height, len(counts))
    for arg in sys.argv[2:]:
        want = bytes.fromhex(arg.lstrip("#"))
        near = sum(n for px, n in counts.items()
                   if all(abs(px[k] - want[k]) <= 6 for k in range(3)))
        print(arg, near)


if __name__ == "__main__":
    main()
