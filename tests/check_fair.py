#!/usr/bin/env python3
"""Checks every roll and deal of a finished Qiguan game record against its revealed seed.

An independent checker, written from docs/protocol.md ("Provably fair chance") with Python's
standard library only: it shares no code with the server or the app.

    python3 tests/check_fair.py RECORD.json

Exit status 0 and "every roll checked" when every chance action of the record is the one the
seed and the players' contributions give; 1 and the first failure otherwise; 2 when the record
cannot be read or its seed is not revealed yet.
"""

import hashlib
import json
import sys

SCHEME = b"qiguan-fair-1"
# A flip-mode Junqi deal shuffles this list (25 pieces a side: side letter, then rank letter).
JUNQI_PIECES = "1 2 3 3 4 4 5 5 6 6 7 7 7 8 8 8 9 9 9 B B L L L F".split()
JUNQI_START = ["s" + p for p in JUNQI_PIECES] + ["n" + p for p in JUNQI_PIECES]


class Stream:
    """The 64-bit words of one draw: SHA-256 blocks, four big-endian words each."""

    def __init__(self, seed, draw, contributions):
        prefix = SCHEME + seed + draw.to_bytes(4, "big") + len(contributions).to_bytes(4, "big")
        for c in contributions:
            data = c.encode("utf-8")
            prefix += len(data).to_bytes(4, "big") + data
        self.prefix = prefix
        self.block = 0
        self.words = []

    def word(self):
        if not self.words:
            digest = hashlib.sha256(self.prefix + self.block.to_bytes(4, "big")).digest()
            self.words = [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]
            self.block += 1
        return self.words.pop(0)

    def below(self, n):
        """A uniform number below n, by rejection: no modulo bias."""
        if n <= 1:
            return 0
        top = 2**64 - 1
        limit = top - top % n
        while True:
            x = self.word()
            if x < limit:
                return x % n


def derive(game, stream):
    """The chance action the stream gives in this game."""
    if game == "aeroplane":
        return "d%d" % (stream.below(6) + 1)
    if game == "junqi":
        pieces = list(JUNQI_START)
        for i in range(len(pieces) - 1, 0, -1):
            j = stream.below(i + 1)
            pieces[i], pieces[j] = pieces[j], pieces[i]
        return "deal:" + "".join(pieces)
    raise ValueError("game %r has no chance" % game)


def check(record):
    """Returns (True, message) when every draw checks out, (False, message) otherwise."""
    fair = record.get("fair")
    chance = [i for i, a in enumerate(record["actions"]) if a["by"] == "authority"]
    if fair is None:
        return False, "no commitment: rolls not verifiable (older game)"
    if fair.get("scheme") != SCHEME.decode():
        return False, "unknown scheme %r" % fair.get("scheme")
    seed_hex = fair.get("seed")
    if not seed_hex:
        raise LookupError("the seed is not revealed yet: the game is not over")
    seed = bytes.fromhex(seed_hex)
    if len(seed) != 32:
        return False, "the seed is not 32 bytes"
    if hashlib.sha256(seed).hexdigest() != fair["commitment"]:
        return False, "the revealed seed is not the one committed to"
    draws = fair.get("draws", [])
    if [d["ply"] for d in draws] != chance:
        return False, "the draws %s do not match the chance actions %s" % (
            [d["ply"] for d in draws],
            chance,
        )
    for number, draw in enumerate(draws):
        recorded = record["actions"][draw["ply"]]["action"]
        derived = derive(record["game"], Stream(seed, number, draw["contributions"]))
        if recorded != derived:
            return False, "draw %d (action %d): recorded %s, the seed gives %s" % (
                number + 1,
                draw["ply"] + 1,
                recorded,
                derived,
            )
    return True, "every roll checked: %d draws" % len(draws)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            record = json.load(f)
        ok, message = check(record)
    except (OSError, ValueError, KeyError, TypeError, LookupError) as e:
        print("cannot check: %s" % e, file=sys.stderr)
        return 2
    print(message)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
