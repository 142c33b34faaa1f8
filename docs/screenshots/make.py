"""Make the screenshots in this folder: ``.venv/bin/python docs/screenshots/make.py`` (SVG, and PNG
when ``rsvg-convert`` is installed). Fixed seeds, so the pictures only change when the UI does."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests"))
os.environ["MQTUI_DATA"] = tempfile.mkdtemp(prefix="mqshots")

from endgame_helpers import game_until, replay_to_round_3  # noqa: E402
from ui_helpers import add_monster, add_room, empty_hands, give, local_app, make_app, settle, store_for  # noqa: E402

from mqtui.engine.actions import Action  # noqa: E402
from mqtui.saves import slots  # noqa: E402

slots.new_game_id = lambda now=None: "20261130-170000-shot"  # the same file name in every picture


def save(app, name: str) -> None:  # type: ignore[no-untyped-def]
    path = HERE / f"{name}.svg"
    app.save_screenshot(str(path))
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", str(path), "-o", str(path.with_suffix(".png"))], check=False)
    print("wrote", path.name)


def game_store():  # type: ignore[no-untyped-def]
    store = store_for((("Ann", "human"), ("Bob", "random"), ("Cy", "random")), seed=11)
    give(store, 0, ["traffic-cone-helm"], "equipped")
    give(store, 0, ["flask-of-bravado"], "belt")
    add_room(store, "coat-check", 1, 0)
    add_room(store, "pawn-shop", -1, 0)
    add_room(store, "first-aid-closet", 0, 1)
    add_room(store, "hall-of-mirrors", 1, -1)
    add_room(store, "lost-and-found", -1, 1)
    add_monster(store, "tax-goblin", -1, 0, "blue")
    add_monster(store, "skeleton-intern", 1, -1, "green")
    return store


async def shots() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        save(app, "title-80x24")
        await pilot.press("n")
        await pilot.pause()
        save(app, "new-game-80x24")
    for size in ((80, 24), (120, 40)):
        app = make_app(game_store())
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("shift+right")
            await settle(pilot, app)
            save(app, f"game-{size[0]}x{size[1]}")
            if size == (80, 24):
                await pilot.press("f1")
                await pilot.pause()
                save(app, "help-80x24")
    for theme in ("mq-light", "mq-colourblind", "mq-contrast", "mq-terminal"):
        app = make_app(game_store(), theme=theme)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            save(app, f"theme-{theme}")
    # a fight with several terms
    store = store_for((("Ann", "human"), ("Bob", "human")), seed=5)
    empty_hands(store)
    add_room(store, "hall-of-mirrors", 0, -1)
    add_monster(store, "goblin-middle-manager", 0, -1, "red")
    give(store, 0, ["traffic-cone-helm", "convenient-dagger"], "equipped")
    (potion,) = give(store, 0, ["suspicious-potion"], "belt")
    (enhancer,) = give(store, 0, ["gym-membership"])
    for size in ((80, 24), (120, 40)):
        app = make_app(store if size == (80, 24) else None)
        if size == (120, 40):
            continue
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")  # the hand-off before the first turn of a hot-seat game
            await settle(pilot, app)
            await pilot.press("shift+up")
            await settle(pilot, app)
            await app.screen.perform(Action(0, "use", potion, 0))
            await app.screen.perform(Action(0, "enhance", enhancer, store.state.monsters[0].id))
            await settle(pilot, app)
            save(app, "combat-80x24")
            await pilot.press("space")  # Ann passes: the keyboard goes to Bob
            await settle(pilot, app)
            save(app, "handoff-80x24")
            await pilot.resize_terminal(70, 20)
            await pilot.pause(0.1)
            save(app, "too-small-70x20")

    await end_of_a_game()


async def end_of_a_game() -> None:
    """A whole game (seed 7, Grizzlebeard beats the boss): the deciding fight, the results, the replay."""
    app = local_app(game_until(-1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        save(app, "final-fight-80x24")
        await pilot.press("enter")
        for _ in range(10):
            await pilot.pause()
        save(app, "game-over-80x24")
        await pilot.press("r")
        await replay_to_round_3(pilot)
        save(app, "replay-80x24")
        await pilot.press("v")
        await pilot.pause()
        save(app, "replay-one-seat-80x24")


if __name__ == "__main__":
    asyncio.run(shots())
