"""Rumblebots decisions: one small frozen dataclass per kind.

Cards in actions are named by their printed name (two copies of a design are interchangeable),
and Laboratory builds by row and slot, so the same action means the same thing in every
determinized copy of a position.
"""

from __future__ import annotations

from robotable.core.protocol import Action, action


@action("build_lab", "build {name} from the tier {tier} Laboratory row")
class BuildLab(Action):
    """RB-4.3: build the bot in slot `slot` of the tier `tier` Laboratory row."""

    tier: int
    slot: int
    name: str


@action("build_scanned", "build {name} from your scanned hand")
class BuildScanned(Action):
    """RB-4.3: build a bot from your scanned hand."""

    name: str


@action("recycle", "recycle {name}")
class Recycle(Action):
    """RB-4.4: trash one of your bots (not built this phase) for its green scrap value."""

    name: str


@action("upgrade", "upgrade the Workshop (3 scraps)")
class Upgrade(Action):
    """RB-4.5: pay 3 scraps, Workshop tier +1."""


@action("energize_scrap", "energize a crystal for scraps")
class EnergizeScrap(Action):
    """RB-4.6: Storage crystal to the Reactor, gain scraps."""


@action("energize_scan", "energize a crystal and scan the tier {tier} deck")
class EnergizeScan(Action):
    """RB-4.6: Storage crystal to the Reactor, scan two cards of a tier deck."""

    tier: int


@action("energize_cryo", "energize a Cryo-cell crystal for 1 scrap")
class EnergizeCryo(Action):
    """RB-7.4: in the Showdown, a Cryo-cell crystal to the Reactor for 1 scrap."""


@action("end_turn", "end your Build Phase")
class EndTurn(Action):
    """RB-4.7: end your Build Phase (clean-up follows)."""


@action("choose_faction", "form a {faction} defense gang")
class ChooseFaction(Action):
    """RB-5.6: the winning Challenger picks the faction of the new defense gang."""

    faction: str


@action("use_contraption", "use {name}")
class UseContraption(Action):
    """RB-5.8: use an upright Contraption now."""

    name: str


@action("pass_contraption", "use no Contraption")
class PassContraption(Action):
    """RB-5.8: use no Contraption now."""


@action("choose_target", "target {name}")
class ChooseTarget(Action):
    """RB-8: the bot an ability acts on (a defending bot, or one of your defeated bots)."""

    name: str


ACTION_CLASSES: tuple[type[Action], ...] = (
    BuildLab,
    BuildScanned,
    Recycle,
    Upgrade,
    EnergizeScrap,
    EnergizeScan,
    EnergizeCryo,
    EndTurn,
    ChooseFaction,
    UseContraption,
    PassContraption,
    ChooseTarget,
)
