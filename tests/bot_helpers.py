"""Helpers for the bot and advisor tests: positions from real games, the same position with the
hidden cards dealt differently, and the legality sweep every bot kind must pass."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator

import msgspec
import pytest

from mqtui.bots import Bot, make_bot
from mqtui.engine.cards import DXM, TREASURE
from mqtui.engine.defs import COLOURS
from mqtui.engine.game import Engine, copy_state
from mqtui.engine.state import REWARD, STAGE_OVER, State
from mqtui.engine.view import view_for

# on the tests that draw positions from these games: xdist runs them on one worker, which then plays
# each game once (``positions`` replays it for the next test)
same_games = pytest.mark.xdist_group("bot-games")


def new_game(engine: Engine, seed: int, players: int = 4) -> State:
    names = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")
    s, _ = engine.new_game([(names[i], COLOURS[i]) for i in range(players)], seed)
    return s


class _Game:
    """One game between bots, as far as it has been played: the state before each decision (msgpack),
    and the state and the bots to go on with."""

    def __init__(self, engine: Engine, seed: int, drivers: str) -> None:
        self.players = 2 + seed % 3
        self.bots = [make_bot(drivers, seed * 10 + i) for i in range(self.players)]
        self.state = new_game(engine, seed, self.players)
        self.kept: list[bytes] = []
        self.tops: list[str] = []  # the kind of each kept position's top frame

    def reach(self, engine: Engine, step: int) -> bool:
        """Play on until the position before decision ``step`` is kept; False if the game ends first
        (the game is over, or round 60 is over)."""
        s = self.state
        while len(self.kept) <= step:
            if s.stage == STAGE_OVER or s.round > 60:
                return False
            self.kept.append(_ENCODE(s))
            self.tops.append(s.frames[-1].kind if s.frames else "")
            seat = engine.deciding(s)
            bot = self.bots[seat]
            view = view_for(s, seat) if bot.needs_view else None
            engine.apply(s, bot.choose(engine, view, seat, list(engine.legal(s, seat))).action)
        return True


_ENCODE = msgspec.msgpack.Encoder().encode
_DECODE = msgspec.msgpack.Decoder(State).decode


@functools.cache
def _game(engine: Engine, seed: int, drivers: str) -> _Game:
    return _Game(engine, seed, drivers)


def positions(
    engine: Engine, seeds: range, every: int, drivers: str = "random", top: str | None = None
) -> Iterator[State]:
    """States met while ``drivers`` bots play whole games, one in ``every`` decisions (each a state of
    the caller's own); with ``top``, only those whose top frame is of that kind.

    Each game is played once per process (per xdist worker), and the position before each decision
    kept (msgpack, ~3 KB): a later call reads the positions it wants from there instead of playing
    the game again, and the bots play on only where no call got to."""
    for seed in seeds:
        game = _game(engine, seed, drivers)
        rnd = random.Random(seed)
        step = 0
        while game.reach(engine, step):
            if step % every == rnd.randrange(every) and top in (None, game.tops[step]):
                yield _DECODE(game.kept[step])
            step += 1


def ending(engine: Engine, seed: int, drivers: str) -> State:
    """The last position of the pooled game ``seed`` between ``drivers`` bots (played out first): the
    game is over, or round 60 is."""
    game = _game(engine, seed, drivers)
    while game.reach(engine, len(game.kept)):
        pass
    return game.state


def hide_differently(engine: Engine, s: State, seat: int, rnd: random.Random) -> State:
    """The same position with everything ``seat`` cannot see dealt differently: other hands and the
    draw piles reshuffled among themselves (sizes kept), and a different generator."""
    t = engine.cards
    out = copy_state(s)
    others = [h for h in out.heroes if h.seat != seat]
    slots = [(h.seat, i) for h in others for i in range(len(h.hand))]
    pool = [u for h in others for u in h.hand] + out.dxm + out.treasure
    rnd.shuffle(pool)
    dxm = [u for u in pool if t.deck_of[u] == DXM]
    treasure = [u for u in pool if t.deck_of[u] == TREASURE]
    out.dxm, out.treasure = dxm[: len(s.dxm)], treasure[: len(s.treasure)]
    rest = dxm[len(s.dxm) :] + treasure[len(s.treasure) :]
    rnd.shuffle(rest)
    for (who, i), uid in zip(slots, rest, strict=True):
        out.heroes[who].hand[i] = uid
    rnd.shuffle(out.monster_deck)
    rnd.shuffle(out.tiles)
    rnd.shuffle(out.bag)
    out.rng = rnd.getrandbits(64)
    return out


def hidden_variants(
    engine: Engine, seeds: range, every: int, rnd: random.Random
) -> Iterator[tuple[State, int, State]]:
    """(position, deciding seat, the same position with what that seat cannot see dealt differently),
    from games between normal bots; the seat's view is checked to be the same in both. Positions where
    a Treasure is being shared out are left out (those cards are seen by two seats)."""
    for s in positions(engine, seeds, every=every, drivers="normal"):
        if any(f.kind == REWARD for f in s.frames):
            continue
        seat = engine.deciding(s)
        other = hide_differently(engine, s, seat, rnd)
        assert msgspec.msgpack.encode(view_for(s, seat)) == msgspec.msgpack.encode(view_for(other, seat))
        yield s, seat, other


def legal_choices_everywhere(
    engine: Engine, bot: Callable[[int], Bot], games: Iterable[tuple[str, range]], every: int = 3
) -> int:
    """Ask ``bot(n)`` (a new one each time) in one position in ``every`` of each ``(drivers, seeds)`` run
    of games; every choice must be legal and explained in one line. Returns how many were asked."""
    asked = 0
    for drivers, seeds in games:
        for s in positions(engine, seeds, every=every, drivers=drivers):
            seat = engine.deciding(s)
            legal = engine.legal(s, seat)
            choice = bot(asked).choose(engine, view_for(s, seat), seat, list(legal))
            assert choice.action in legal, f"{choice.action} is not legal"
            assert isinstance(choice.why, str) and "\n" not in choice.why
            asked += 1
    return asked
