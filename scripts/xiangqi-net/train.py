#!/usr/bin/env python3
"""Trains Qiguan's Xiangqi network (issue 37) on positions from the engine's own games
(`xiangqi_datagen`), quantises it and writes the net file the engine reads
(`core/src/xiangqi/engine/nnue.rs` documents the format and the features; this file must
agree with it).

    python3 scripts/xiangqi-net/train.py DATA.txt [MORE.txt ...] --out net.qxnn
        [--epochs 40] [--batch 16384] [--lr 0.001] [--wdl 0.3] [--seed 1] [--threads N]

Each data line: FEN | Red's score in centipawns | Red's result (1, 0.5, 0). The target is
(1 - wdl) × sigmoid(score / K) + wdl × result, from the side to move's side, with K fitted to
the data (the scale at which the search's scores best predict the results), so that the net
speaks the search's centipawns. Every twentieth position is held back. Boards are also
learnt mirrored left to right (the rules are symmetric), chosen at random per position.
Prints each epoch's losses, K, the quantised net's start-position evaluation (written into the
file and checked by the engine's test), and the largest difference between the float and the
quantised evaluations on held-back positions.
"""

import argparse
import math
import random
import struct
import sys
import time

import numpy as np
import torch

FILES, RANKS = 9, 10
POINTS = FILES * RANKS
HIDDEN = 128
QA, QB, SCALE = 255, 1024, 400
KINDS = {"k": 0, "a": 1, "b": 2, "n": 3, "r": 4, "c": 5, "p": 6}
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def pieces(fen):
    """(color 0 red / 1 black, kind 0-6, point rank*9+file) for each piece; side to move."""
    board, side = fen.split()[:2]
    out = []
    for row, text in enumerate(board.split("/")):
        rank = RANKS - 1 - row
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
                continue
            out.append((0 if ch.isupper() else 1, KINDS[ch.lower()], rank * FILES + file))
            file += 1
    return out, (0 if side == "w" else 1)


def reachable(kind, file, rank):
    """Whether a piece of this kind (0 general ... 6 soldier) can stand there, the rank
    counted from its own back rank (as nnue.rs's `reachable`)."""
    if kind == 0:
        return 3 <= file <= 5 and rank <= 2
    if kind == 1:
        return (file, rank) in ((3, 0), (5, 0), (4, 1), (3, 2), (5, 2))
    if kind == 2:
        return (file, rank) in ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4))
    if kind == 6:
        return rank >= 5 or (rank in (3, 4) and file % 2 == 0)
    return True


def index_table():
    """The compact feature of each (whose * 7 + kind, point as the viewer sees it), in
    nnue.rs's order; FEATURES (the row of zeros) where a piece cannot stand."""
    table, nxt = [], 0
    for block in range(14):
        theirs, kind = divmod(block, 7)
        row = []
        for sq in range(POINTS):
            rank = sq // FILES
            own = rank if theirs == 0 else RANKS - 1 - rank
            if reachable(kind, sq % FILES, own):
                row.append(nxt)
                nxt += 1
            else:
                row.append(None)
        table.append(row)
    return table, nxt


INDEX, FEATURES = index_table()
assert FEATURES == 692
PAD = FEATURES  # an empty slot, or a piece where none can stand: a row of zeros
INDEX = [[PAD if f is None else f for f in row] for row in INDEX]


def feature(view, color, kind, sq):
    theirs = color ^ view
    point = sq if view == 0 else (RANKS - 1 - sq // FILES) * FILES + sq % FILES
    return INDEX[theirs * 7 + kind][point]


def features(fen):
    """The side to move's features and the other side's, each padded to 32."""
    ps, stm = pieces(fen)
    views = []
    for view in (stm, 1 - stm):
        f = [feature(view, c, k, s) for c, k, s in ps]
        views.append(f + [PAD] * (32 - len(f)))
    return views[0], views[1], stm


def mirror_table():
    """Each feature's left-right mirror (the pad stays the pad; what a piece can reach is
    symmetric, so every feature has one)."""
    t = np.full(FEATURES + 1, PAD, dtype=np.int64)
    for block in range(14):
        for sq in range(POINTS):
            f = INDEX[block][sq]
            if f != PAD:
                rank, file = divmod(sq, FILES)
                t[f] = INDEX[block][rank * FILES + FILES - 1 - file]
    assert sorted(t[:FEATURES].tolist()) == list(range(FEATURES))
    return torch.from_numpy(t)


def load(paths):
    us, them, score, result = [], [], [], []
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.split("|")
                if len(parts) != 3:
                    continue
                fen = parts[0].strip()
                a, b, stm = features(fen)
                sign = 1 if stm == 0 else -1
                us.append(a)
                them.append(b)
                score.append(sign * float(parts[1]))
                r = float(parts[2])
                result.append(r if stm == 0 else 1.0 - r)
    return (
        torch.tensor(us, dtype=torch.int64),
        torch.tensor(them, dtype=torch.int64),
        torch.tensor(score, dtype=torch.float32),
        torch.tensor(result, dtype=torch.float32),
    )


def fit_k(score, result):
    """The K at which sigmoid(score / K) best predicts the results (golden-section search)."""
    def err(k):
        return float(((torch.sigmoid(score / k) - result) ** 2).mean())
    lo, hi = 50.0, 2000.0
    for _ in range(60):
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if err(a) < err(b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ft = torch.nn.EmbeddingBag(FEATURES + 1, HIDDEN, mode="sum", padding_idx=PAD)
        self.bias = torch.nn.Parameter(torch.zeros(HIDDEN))
        self.out = torch.nn.Linear(2 * HIDDEN, 1)
        with torch.no_grad():
            self.ft.weight.normal_(0.0, 0.05)
            self.ft.weight[PAD].zero_()
            self.out.weight.normal_(0.0, 0.02)
            self.out.bias.zero_()

    def forward(self, us, them):
        a = torch.clamp(self.ft(us) + self.bias, 0.0, 1.0)
        b = torch.clamp(self.ft(them) + self.bias, 0.0, 1.0)
        return self.out(torch.cat([a, b], dim=1)).squeeze(1)  # logits; × SCALE = centipawns


def quantise(net):
    w1 = torch.round(net.ft.weight.detach()[:FEATURES] * QA).clamp(-127, 127).to(torch.int64)
    b1 = torch.round(net.bias.detach() * QA).clamp(-32767, 32767).to(torch.int64)
    w2 = torch.round(net.out.weight.detach()[0] * QB).clamp(-32767, 32767).to(torch.int64)
    b2 = int(round(float(net.out.bias.detach()[0]) * QA * QB))
    return w1, b1, w2, b2


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def quantised_value(q, us, them):
    """The engine's integer evaluation (centipawns, side to move's side) of a position given
    by its two lists of features, exactly as nnue.rs computes it."""
    w1, b1, w2, b2 = q
    total = b2
    for half, fs in enumerate((us, them)):
        acc = b1.clone()
        for f in fs:
            if f != PAD:
                acc += w1[f]
        acc = ((acc + 32768) % 65536) - 32768  # the engine's i16 wraps
        total += int((acc.clamp(0, QA) * w2[half * HIDDEN:(half + 1) * HIDDEN]).sum())
    v = trunc_div(total * SCALE, QA * QB)
    return max(-20000, min(20000, v))


def quantised_eval(q, fen):
    us, them, _ = features(fen)
    return quantised_value(q, us, them)


def write(path, q, start_eval):
    w1, b1, w2, b2 = q
    with open(path, "wb") as f:
        f.write(b"QXNN")
        f.write(struct.pack("<IIIi", 2, FEATURES, HIDDEN, start_eval))
        f.write(w1.to(torch.int8).numpy().astype("i1").tobytes())
        f.write(b1.to(torch.int16).numpy().astype("<i2").tobytes())
        f.write(w2.to(torch.int16).numpy().astype("<i2").tobytes())
        f.write(struct.pack("<i", b2))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("data", nargs="+")
    p.add_argument("--out", required=True)
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--batch", type=int, default=16384)
    p.add_argument("--lr", type=float, default=0.001)
    p.add_argument("--wdl", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0)
    args = p.parse_args()
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)

    t0 = time.time()
    us, them, score, result = load(args.data)
    n = len(score)
    held = torch.arange(n) % 20 == 19
    print(f"{n} positions from {', '.join(args.data)} read in {time.time() - t0:.0f} s; "
          f"{int(held.sum())} held back", flush=True)
    k = fit_k(score[~held], result[~held])
    print(f"K = {k:.1f}", flush=True)
    target = (1 - args.wdl) * torch.sigmoid(score / k) + args.wdl * result
    train_idx = torch.nonzero(~held).squeeze(1)
    held_idx = torch.nonzero(held).squeeze(1)
    mirror = mirror_table()

    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)

    def loss_on(idx, flip=None):
        a, b = us[idx], them[idx]
        if flip is not None:
            a = torch.where(flip[:, None], mirror[a], a)
            b = torch.where(flip[:, None], mirror[b], b)
        out = net(a, b) * SCALE / k
        return ((torch.sigmoid(out) - target[idx]) ** 2).mean()

    for epoch in range(1, args.epochs + 1):
        t = time.time()
        perm = train_idx[torch.randperm(len(train_idx))]
        total, batches = 0.0, 0
        net.train()
        for start in range(0, len(perm), args.batch):
            idx = perm[start:start + args.batch]
            flip = torch.rand(len(idx)) < 0.5
            loss = loss_on(idx, flip)
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                net.ft.weight[PAD].zero_()
                net.ft.weight.clamp_(-127 / QA, 127 / QA)
                net.out.weight.clamp_(-8.0, 8.0)
            total += float(loss.detach())
            batches += 1
        sched.step()
        net.eval()
        with torch.no_grad():
            h = float(sum(loss_on(held_idx[i:i + 65536]) * len(held_idx[i:i + 65536])
                          for i in range(0, len(held_idx), 65536)) / len(held_idx))
        print(f"epoch {epoch}: train {total / batches:.6f}, held back {h:.6f}, "
              f"{time.time() - t:.0f} s", flush=True)

    q = quantise(net)
    start_eval = quantised_eval(q, START_FEN)
    # The float net against the quantised one on held-back positions.
    sample = held_idx[:500]
    with torch.no_grad():
        fl = (net(us[sample], them[sample]) * SCALE).tolist()
    worst = max(abs(quantised_value(q, us[i].tolist(), them[i].tolist()) - fl[j])
                for j, i in enumerate(sample.tolist()))
    write(args.out, q, start_eval)
    a, b, _ = features(START_FEN)
    with torch.no_grad():
        start_float = float(net(torch.tensor([a]), torch.tensor([b]))) * SCALE
    print(f"start position: {start_eval} (float {start_float:.1f})")
    print(f"largest float/quantised difference over 500 held-back positions: {worst:.1f} cp")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
