#!/usr/bin/env python3
"""The colours of chosen pixels of a PNG screenshot: report_groups_png.py
PNG X Y [X Y ...] prints "#rrggbb" per point, one a line. With --count
X0 Y0 X1 Y1 COLOUR...: per colour, how many pixels of the rectangle
[X0, X1) x [Y0, Y1) are within 6 per channel of it. Lets the browser test
check that a block or a cell of the canvas page has its status colour."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_colours import decode  # noqa: E402


def pixel(rows, bpp, x, y):
    return rows[y][x * bpp:x * bpp + 3]


def main():
    _, _, bpp, rows = decode(sys.argv[1])
    args = sys.argv[2:]
    if args and args[0] == "--count":
        x0, y0, x1, y1 = (int(v) for v in args[1:5])
        for arg in args[5:]:
            want = bytes.fromhex(arg.lstrip("#"))
            n = sum(1 for y in range(y0, y1) for x in range(x0, x1)
                    if all(abs(pixel(rows, bpp, x, y)[k] - want[k]) <= 6
                           for k in range(3)))
            print(arg, n)
        return
    for k in range(0, len(args), 2):
        print("#" + pixel(rows, bpp, int(args[k]), int(args[k + 1])).hex())


main()
