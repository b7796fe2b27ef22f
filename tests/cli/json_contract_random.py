#!/usr/bin/env python3
"""Random command lines against the -j contract (issue 13).

Usage: json_contract_random.py IBAHPROBE RUNS SEED WORKDIR

Builds RUNS argument vectors from a fixed SEED out of the binary's own
option tables (`__complete options`), runs each (stdin /dev/null, cwd
WORKDIR) and checks, for every run:
  - the exit status is 0, 1, 2 or 3 (no crash, no sanitizer report);
  - on exit 2 with -j, --pretty or probe --jsonl in force: stdout is exactly
    one JSON document, well-formed UTF-8, {"error": "...", "exit_status": 2}
    (one line under --jsonl);
  - on exit 2 without them: stdout is empty.
Whether JSON is in force is decided here by a model of GNU getopt_long over
the same tables (bundles, attached and detached arguments, unique prefixes,
ambiguity, "--", the stop at the command name), independent of the C code.
Writes every exit-2 JSON output to WORKDIR/json-errors for a jq check, prints
one line per failure (at most 20) and a summary; exits 1 on any failure.
"""
import json
import os
import random
import subprocess
import sys

NO_CRASH = {0, 1, 2, 3}


def option_table(binary, command=None):
    """[(long, short, takes_arg)] from `__complete options [COMMAND]`."""
    args = [binary, "__complete", "options"] + ([command] if command else [])
    out = subprocess.run(args, capture_output=True, check=True).stdout
    table = []
    for line in out.decode().splitlines():
        long_name, short, arg = line.split("\t")[:3]
        table.append((long_name[2:], short[1:] if short else "", bool(arg)))
    return table


class Level:
    """One getopt_long pass: its long options in table order, its short
    option string (the first of a letter wins, as strchr finds it)."""

    def __init__(self, table):
        self.longs = table
        self.shorts = {}
        for _, short, takes_arg in table:
            if short and short not in self.shorts:
                self.shorts[short] = takes_arg

    def find_long(self, name):
        """The option getopt_long takes for --name: exact, else the one
        prefix match; None when unknown or ambiguous."""
        for entry in self.longs:
            if entry[0] == name:
                return entry
        fits = [e for e in self.longs if e[0].startswith(name)]
        return fits[0] if len(fits) == 1 else None


def parse(args, level, stop_at_operand, seen):
    """Walks args as getopt_long would; adds the long names of the flags it
    takes to seen. Returns the index where it stopped (stop_at_operand: the
    first operand, after a "--" if that ended it)."""
    i = 0
    while i < len(args):
        tok = args[i]
        if tok == b"--":
            return i + 1
        if tok.startswith(b"--"):
            name, eq, _ = tok[2:].partition(b"=")
            entry = level.find_long(name.decode("latin-1"))
            i += 1
            if entry is None:
                continue
            if entry[2]:
                if not eq:
                    i += 1  # the next word is its argument, whatever it is
            elif not eq:
                seen.add(entry[0])
            continue
        if tok.startswith(b"-") and len(tok) > 1:
            i += 1
            chars = tok[1:].decode("latin-1")
            for k, c in enumerate(chars):
                if c not in level.shorts or c in ":;":
                    continue
                if level.shorts[c]:
                    if k + 1 == len(chars):
                        i += 1
                    break
                seen.add(next(e[0] for e in level.longs if e[1] == c))
            continue
        if stop_at_operand:
            return i
        i += 1
    return i


def json_mode(argv, common, commands):
    """(json in force, JSON Lines in force) for argv (without argv[0])."""
    seen = set()
    at = parse(argv, Level(common), True, seen)
    jsonl = False
    if at < len(argv):
        name = argv[at].decode("latin-1")
        own = commands.get(name, [])
        later = set()
        parse(argv[at + 1:], Level(common + own), False, later)
        jsonl = name == "probe" and "jsonl" in later
        seen |= later
    return bool(seen & {"json", "pretty"}) or jsonl, jsonl


# Words for option arguments and operands: numbers in and out of range,
# option look-alikes, bytes that are no UTF-8, files that are or are not.
BAD_UTF8 = [b"\xff\xfe", b"lid:\xc0\xaf", b"\xed\xa0\x80", b"x\xf4\x90\x80\x80",
            b"\xe2\x82", b"\xf0\x9f\x98", b"\x80"]
VALUES = [b"0", b"1", b"5", b"300", b"65536", b"0x0x28", b"auto", b"abc",
          b"", b"-j", b"--json", b"--pretty", b"-", b"1-3,64", b"eth", b"ib",
          b"lid:5", b"/nonexistent", b"/dev/null", b"\xc3\xa9t\xc3\xa9",
          b"-1", b"4294967296"] + BAD_UTF8
OPERANDS = [b"lid:5", b"lid:0", b"lid:0x0x28", b"gid:fe80::1", b"fe80::1",
            b"10.0.0.2", b"::ffff:10.0.0.2", b"guid:0x1", b"node:h\xff",
            b"", b"-", b"/nonexistent", b"/dev/null", b"1", b"help",
            b"ports", b"commands", b"options", b"devices"] + BAD_UTF8
JSON_WORDS = [b"-j", b"--json", b"--js", b"--jso", b"--j", b"--pretty",
              b"--pre", b"--pret", b"-vj", b"-qjv", b"-jv", b"-jP0", b"-jq"]
STRAY = [b"--bogus", b"-Z", b"--json=1", b"--pretty=x", b"--jsonl",
         b"--js=1", b"--", b"-jZ", b"-Pj", b"--p", b"--t", b"-h", b"-V"]


def option_words(rng, entry):
    """One use of an option from a table: short or long, its argument
    detached, attached or (long) after '='."""
    long_name, short, takes_arg = entry
    use_short = short and rng.random() < 0.5
    name = (b"-" + short.encode()) if use_short else b"--" + long_name.encode()
    if not use_short and rng.random() < 0.2:
        # An abbreviation; getopt may find it unique, ambiguous or unknown.
        name = name[:rng.randint(3, len(name))]
    if not takes_arg:
        return [name]
    value = rng.choice(VALUES)
    form = rng.random()
    if form < 0.6:
        return [name, value]
    if use_short:
        return [name + value]
    return [name + b"=" + value]


def random_argv(rng, common, commands, names):
    argv = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        pick = rng.random()
        if pick < 0.35:
            argv.append(rng.choice(JSON_WORDS))
        elif pick < 0.85:
            argv += option_words(rng, rng.choice(common))
        else:
            argv.append(rng.choice([w for w in STRAY if w != b"--"]))
    if rng.random() < 0.03:
        return argv  # no command at all
    if rng.random() < 0.03:
        argv.append(b"--")
    name = rng.choice(names + ["frobnicate", "__complete"])
    argv.append(name.encode())
    own = commands.get(name, [])
    for _ in range(rng.randint(0, 6)):
        pick = rng.random()
        if pick < 0.2:
            argv.append(rng.choice(JSON_WORDS))
        elif pick < 0.45 and own:
            argv += option_words(rng, rng.choice(own))
        elif pick < 0.6:
            argv += option_words(rng, rng.choice(common))
        elif pick < 0.7:
            argv.append(rng.choice(STRAY))
        else:
            argv.append(rng.choice(OPERANDS))
    return argv


def one_json_document(out):
    """The document if out is exactly one strict JSON value (well-formed
    UTF-8, no NaN or Infinity), else None."""
    try:
        text = out.decode("utf-8")
        decoder = json.JSONDecoder(parse_constant=lambda c: 1 / 0)
        doc, end = decoder.raw_decode(text.lstrip())
    except (UnicodeDecodeError, ValueError, ZeroDivisionError):
        return None
    return doc if text.lstrip()[end:].strip() == "" else None


def main():
    binary, runs, seed, workdir = os.path.abspath(sys.argv[1]), int(sys.argv[2]), \
        int(sys.argv[3]), sys.argv[4]
    skip = set(os.environ.get("RANDOM_SKIP_COMMANDS", "").split())
    names = [c for c in subprocess.run(
        [binary, "__complete", "commands"], capture_output=True,
        check=True).stdout.decode().split() if c not in skip]
    common = option_table(binary)
    commands = {c: option_table(binary, c) for c in names + ["__complete"]}
    env = dict(os.environ)
    env.pop("POSIXLY_CORRECT", None)  # getopt's order mode depends on it
    rng = random.Random(seed)
    failures, counts = [], {s: 0 for s in range(256)}
    json_errors = open(os.path.join(workdir, "json-errors"), "wb")
    json_error_count = 0
    for n in range(runs):
        argv = random_argv(rng, common, commands, names)
        in_json, in_jsonl = json_mode(argv, common, commands)
        try:
            proc = subprocess.run([binary.encode()] + argv, cwd=workdir,
                                  stdin=subprocess.DEVNULL,
                                  capture_output=True, env=env, timeout=20)
        except subprocess.TimeoutExpired:
            failures.append((n, argv, "timed out", b""))
            continue
        status = proc.returncode
        counts[status % 256] += 1
        why = None
        if status not in NO_CRASH:
            why = "exit status %d" % status
        elif status == 2 and in_json:
            doc = one_json_document(proc.stdout)
            if not (isinstance(doc, dict) and set(doc) == {"error",
                    "exit_status"} and isinstance(doc["error"], str)
                    and doc["error"] and doc["exit_status"] == 2):
                why = "exit 2 under -j without exactly one JSON error"
            elif in_jsonl and proc.stdout.count(b"\n") != 1:
                why = "exit 2 under --jsonl: not one line"
            else:
                json_errors.write(proc.stdout)
                json_error_count += 1
        elif status == 2 and proc.stdout:
            why = "exit 2 without -j wrote to stdout"
        if why:
            failures.append((n, argv, why, proc.stdout + b" | "
                             + proc.stderr[-300:]))
    json_errors.close()
    for n, argv, why, out in failures[:20]:
        print("run %d: %s: %r\n  %r" % (n, why, argv, out[:400]))
    print("%d runs (seed %d): %s; %d JSON errors; %d failures" % (
        runs, seed, ", ".join("exit %d: %d" % (s, c)
                              for s, c in counts.items() if c),
        json_error_count, len(failures)))
    with open(os.path.join(workdir, "json-error-count"), "w") as f:
        f.write("%d\n" % json_error_count)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
