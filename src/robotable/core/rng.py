"""The state's own random number generator.

A tiny 64-bit generator (SplitMix64) whose whole state is one integer: cloning it is copying an
int, saving it is writing an int, and the same seed yields the same stream on every platform and
Python version. `random.Random` would need 625 words per clone and its algorithms for shuffle and
randrange are not promised to stay fixed across versions.
"""

from __future__ import annotations

import math
import random
from typing import Any

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from . import cython_shim as cython

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
# SplitMix64's constants as C globals for the compiled engine (plain ints in Python).
_MASK64 = cython.declare(cython.ulonglong, _MASK)
_GOLDEN64 = cython.declare(cython.ulonglong, _GOLDEN)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)


class GameRng:
    """Compiled, an extension type (rng.pxd) whose state is a C 64-bit unsigned integer and whose
    draws are C calls from the games' typed rules: a random Rumblebots action draws 2.3 numbers
    on average and an Iotabots one 1.6, and each was a Python method call and several
    big-integer operations before."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        # A seed below 2**64 is the state itself (so every record replays as it always has); a
        # larger one is folded in whole (fold_seed): web tables draw 128-bit seeds.
        self.state = seed & _MASK if seed <= _MASK else fold_seed(seed)

    @cython.locals(s=cython.ulonglong, z=cython.ulonglong)
    def next64(self) -> int:
        # Compiled, s and z are unsigned 64-bit C integers whose arithmetic wraps modulo 2**64:
        # the masks then do nothing, and the numbers are the same as Python's.
        self.state = s = (self.state + _GOLDEN64) & _MASK64
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK64
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK64
        return z ^ (z >> 31)

    @cython.locals(m=cython.ulonglong, r=cython.ulonglong, x=cython.ulonglong)
    def below(self, n: int) -> int:
        """A uniform integer in [0, n). Rejection sampling keeps it unbiased: a draw at or above
        the largest multiple of n that fits in 64 bits is drawn again."""
        if n <= 0:
            raise ValueError(f"GameRng.below needs n > 0, got {n}")
        m = n
        # r = 2**64 mod n, written so that no step leaves 64 bits (2**64 - n fits; 2**64 does
        # not), and a draw x is kept when x < 2**64 - r, that is x <= 2**64 - 1 - r.
        r = (_MASK64 - m + 1) % m
        while True:
            x = self.next64()
            if x <= _MASK64 - r:
                return x % m

    def randrange(self, n: int) -> int:
        """A uniform integer in [0, n) (the one-argument form of random.Random.randrange)."""
        return self.below(n)

    def getrandbits(self, k: int) -> int:
        """k uniform random bits, as random.Random.getrandbits."""
        out, have = 0, 0
        while have < k:
            out = (out << 64) | self.next64()
            have += 64
        return out >> (have - k)

    def sample(self, population, k: int) -> list:
        """k distinct items in random order, as random.Random.sample."""
        pool = list(population)
        if not 0 <= k <= len(pool):
            raise ValueError(f"GameRng.sample: cannot take {k} of {len(pool)}")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included (a die: randint(1, 6))."""
        return low + self.below(high - low + 1)

    def random(self) -> float:
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq):
        return seq[self.below(len(seq))]

    @cython.locals(i=cython.Py_ssize_t, j=cython.Py_ssize_t)
    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def clone(self) -> GameRng:
        twin = cython.declare(GameRng, GameRng.__new__(GameRng))
        twin.state = self.state
        return twin

    def spawn(self) -> GameRng:
        """An independent child stream (for determinized copies, per-game seeds)."""
        return GameRng(self.next64())

    def __reduce__(self):
        # A compiled GameRng pickles to the same thing as the pure one: the class and its state
        # (a state is already below 2**64, so the constructor's mask keeps it as it is).
        return (GameRng, (self.state,))


def fold_seed(seed: int) -> int:
    """The 64-bit state a seed gives: the XOR of its 64-bit words, least significant first.

    Every bit of the seed reaches the state, so two seeds that differ only above bit 64 give
    different deals, and a seed of 128 random bits gives a uniform 64-bit state. A seed below
    2**64 is its own state (its one word); a negative one keeps its low 64 bits, as always.
    """
    if seed <= _MASK:
        return seed & _MASK
    state = 0
    while seed:
        state ^= seed & _MASK
        seed >>= 64
    return state


def derive_seed(master: int, index: int) -> int:
    """The seed of game number `index` in a run with master seed `master`.

    Independent of worker count and backend, so a run gives the same games wherever it runs.
    """
    # Masked: the product passes 2**64, and a seed that large would be folded (fold_seed), not
    # cut to its low word as every run's games have always been.
    rng = GameRng(((master * 0x100000001B3) ^ (index * _GOLDEN)) & _MASK)
    rng.next64()
    return rng.next64() >> 1


@cython.locals(
    i=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
    k=cython.int,
    need=cython.Py_ssize_t,
    at=cython.Py_ssize_t,
    word=cython.ulonglong,
    top=cython.ulonglong,
    raw=bytes,
)
def shuffle(rng: Any, items: list) -> None:
    """`rng.shuffle(items)`: the same permutation from the same stream, for any generator.

    For a plain `random.Random` (what agents sample determinizations with) it is CPython's own
    algorithm inlined: `random.shuffle` calls two Python functions per item to draw each index,
    which made a third of a Betabotz MCTS iteration. Checked against `random.shuffle` once per
    process; a Python whose algorithm differs gets `rng.shuffle` itself.

    Compiled, the words are drawn in one call: CPython makes a draw of k <= 32 bits from one
    32-bit word (its top k bits) and a draw of 32m bits from m words, least significant first,
    so `getrandbits(32 * (n - 1))` is the first n - 1 words the per-item draws would take, in
    order; a rejected draw takes the next word, and any past those come one call each. The
    stream is left where `random.shuffle` leaves it. One call instead of one per item: a
    24-item shuffle 0.78x the CPU, where shuffles were a twelfth of a Rumblebots MCTS
    iteration (its determinized decks; docs/performance.md).
    """
    if type(rng) is not random.Random or not _inline_matches():
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    n = len(items)
    if not cython.compiled or n < 3:
        for i in range(n - 1, 0, -1):
            k = (i + 1).bit_length()
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            items[i], items[j] = items[j], items[i]
        return
    need = n - 1
    raw = getrandbits(32 * need).to_bytes(4 * need, "little")
    at = 0
    i = n - 1
    while i > 0:
        k = 0
        top = i + 1
        while top:
            k += 1
            top >>= 1
        if at < need:
            word = _word32(raw, 4 * at)
            at += 1
        else:
            word = getrandbits(32)
        j = word >> (32 - k)
        if j <= i:
            items[i], items[j] = items[j], items[i]
            i -= 1


@cython.locals(n=cython.Py_ssize_t, k=cython.int)
def randbelow(rng: Any, n: int) -> int:
    """`rng.randrange(n)` for n > 0: the same number from the same stream, for any generator.

    For a plain `random.Random` it is CPython's own `_randbelow` inlined (the `shuffle` above
    draws its indices the same way): `randrange` is two Python functions per call, and MCTS
    calls it at every rollout step. Checked with `shuffle`'s once-per-process check.
    """
    if type(rng) is not random.Random or n <= 0 or not _inline_matches():
        return rng.randrange(n)
    k = n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


@cython.locals(
    n=cython.Py_ssize_t,
    k=cython.Py_ssize_t,
    i=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
    bits=cython.int,
)
def sample(rng: Any, population: Any, k: int) -> list:
    """`rng.sample(population, k)`: the same items in the same order from the same stream, for
    any generator.

    For a plain `random.Random` it is CPython's own algorithm inlined (a list pool when the
    population is small beside k, else a set of drawn indices; each index drawn as `randbelow`
    draws it): `random.sample` made a quarter of a Betabotz determinization. Checked with
    `shuffle`'s once-per-process check.
    """
    n = len(population)
    if type(rng) is not random.Random or not 0 <= k <= n or not _inline_matches():
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    result = [None] * k
    setsize = 21  # CPython's threshold: an n-item list against a k-item set
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            m = n - i
            bits = m.bit_length()
            j = getrandbits(bits)
            while j >= m:
                j = getrandbits(bits)
            result[i] = pool[j]
            pool[j] = pool[m - 1]
        return result
    bits = n.bit_length()
    selected = set()
    for i in range(k):
        j = getrandbits(bits)
        while j >= n or j in selected:
            j = getrandbits(bits)
        selected.add(j)
        result[i] = population[j]
    return result


@cython.cfunc
@cython.inline
@cython.returns(cython.ulonglong)
@cython.locals(raw=bytes, j=cython.Py_ssize_t)
def _word32(raw: bytes, j: int) -> int:
    """The 32-bit word at byte j of `getrandbits(32 * m).to_bytes(4 * m, "little")`: the
    generator's words in the order it drew them (shuffle and random_bits read them)."""
    return (
        raw[j]
        | (raw[j + 1] << 8)
        | (raw[j + 2] << 16)
        | (cython.cast(cython.ulonglong, raw[j + 3]) << 24)
    )


_inline_checked: list[bool] = []


def _inline_matches() -> bool:
    if not _inline_checked:
        ours, theirs = random.Random(20261125), random.Random(20261125)
        mine = list(range(300))
        reference = list(range(300))
        _inline_checked.append(True)  # provisional, so the check below runs the inline path
        shuffle(ours, mine)
        theirs.shuffle(reference)
        same = mine == reference and ours.random() == theirs.random()
        draws = [randbelow(ours, n) for n in range(1, 300)]
        same = same and draws == [theirs.randrange(n) for n in range(1, 300)]
        for size, take in ((10, 3), (40, 4), (500, 30)):
            same = same and sample(ours, list(range(size)), take) == theirs.sample(
                range(size), take
            )
        _inline_checked[0] = same and ours.random() == theirs.random()
    return _inline_checked[0]


@cython.locals(
    count=cython.Py_ssize_t,
    i=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
    drop=cython.int,
    lo=cython.ulonglong,
    hi=cython.ulonglong,
    raw=bytes,
)
def random_bits(rng: Any, bits: int, count: int) -> list[int]:
    """`[rng.getrandbits(bits) for _ in range(count)]` for 32 < bits <= 64: the same numbers
    from the same stream, for any generator.

    For a plain `random.Random` in the compiled engine it is one `getrandbits(64 * count)`,
    split in C: CPython builds a k-bit draw from 32-bit words, least significant first, keeping
    the top k % 32 bits of its last word, so draw i is word 2i plus word 2i+1's top `bits` - 32
    bits. One call instead of one per card (determinizing a Stak Bots state draws 40 bits per
    hidden card, most of its time). Checked against `getrandbits` once per process; otherwise,
    and in the pure engine, the calls themselves.
    """
    if not cython.compiled or type(rng) is not random.Random or not 32 < bits <= 64:
        return [rng.getrandbits(bits) for _ in range(count)]
    if count <= 0 or not _split_matches():
        return [rng.getrandbits(bits) for _ in range(count)]
    raw = rng.getrandbits(64 * count).to_bytes(8 * count, "little")
    drop = 64 - bits
    out = []
    for i in range(count):
        j = 8 * i
        lo = _word32(raw, j)
        hi = _word32(raw, j + 4)
        out.append(lo | ((hi >> drop) << 32))
    return out


_split_checked: list[bool] = []


def _split_matches() -> bool:
    if not _split_checked:
        ours, theirs = random.Random(20261125), random.Random(20261125)
        _split_checked.append(True)  # provisional, so the check below runs the split path
        mine = [x for bits in (33, 40, 63, 64) for x in random_bits(ours, bits, 50)]
        reference = [theirs.getrandbits(bits) for bits in (33, 40, 63, 64) for _ in range(50)]
        _split_checked[0] = mine == reference and ours.random() == theirs.random()
    return _split_checked[0]
