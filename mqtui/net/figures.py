"""The host's figures, for ``mqtui admin health`` and a monitoring system that scrapes them.

What the tables count as they play (the round trip of each action, failed saves) is kept here for the
whole process (:data:`FIGURES`), since a table does not know its host; the host adds what it counts
itself (sessions, refusals) when it answers (:func:`health`). Two forms: a JSON object, and the
Prometheus text exposition format (version 0.0.4: ``# HELP``/``# TYPE`` lines, then ``name{labels}
value``), which Prometheus, VictoriaMetrics, Telegraf or a node exporter's textfile collector read as
it is.

The **action round trip** is measured at the host: from the moment a player's action is read to the
moment its ``result`` is written back, after the save holding it is on disk (write before tell). It is
most of what a player waits for between a key and their own screen (the rest is the network and their
own app's drawing).
"""

from __future__ import annotations

import bisect
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)  # seconds


@dataclass
class Histogram:
    """Counts by upper bound (Prometheus' cumulative buckets when written), and the latest values for
    the quantiles."""

    counts: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    total: float = 0.0
    n: int = 0
    recent: deque[float] = field(default_factory=lambda: deque(maxlen=2000))

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.total += seconds
        self.n += 1
        self.recent.append(seconds)

    def quantile(self, q: float) -> float | None:
        """The ``q`` quantile of the latest values (None: none yet)."""
        if not self.recent:
            return None
        ordered = sorted(self.recent)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Figures:
    started: float = field(default_factory=time.time)
    save_failures: int = 0  # times a table's save started to fail (each pause)
    actions: Histogram = field(default_factory=Histogram)  # the action round trip, seconds


FIGURES = Figures()


def reason_label(text: str) -> str:
    """A refusal's words as a short label, for counting by reason."""
    for words, label in (
        ("banned", "banned"),
        ("too many wrong join codes", "too_many_wrong_codes"),
        ("no sign-in within", "login_timeout"),
        ("no session opened", "idle_timeout"),
        ("closed to make room", "evicted"),
        ("sign-ins from your address", "signing_in_per_address"),
        ("signing in right now", "signing_in_full"),
        ("signed in without a session", "idle_full"),
        ("sessions here", "sessions_per_address"),
        ("players, its limit", "players_full"),
        ("spectators, its limit", "spectators_full"),
        ("full", "sessions_full"),
        ("file descriptors", "descriptors"),
    ):
        if words in text:
            return label
    return "other"


def health(host: Any) -> dict[str, Any]:
    """The figures of ``host`` (an :class:`~mqtui.net.sshserver.SSHHost`) now, as a JSON-able dict."""
    gate = host.gate
    tables = host.tables_now()
    actions = FIGURES.actions
    return {
        "uptime_seconds": round(time.time() - FIGURES.started, 1),
        "sessions": {kind: n for kind, n in sorted(gate.kinds.items()) if n},
        "sessions_total": sum(gate.kinds.values()),
        "signing_in": len(gate.pending),
        "signed_in_without_session": len(gate.idle),
        "tables": len(tables),
        "tables_paused": sum(1 for a in tables if a.paused),
        "refusals": dict(sorted(host.refusals.items())),
        "ended": dict(sorted(host.ended.items())),
        "save_failures": FIGURES.save_failures,
        "bans": len(gate.bans),
        "action_round_trip": {
            "count": actions.n,
            "sum_seconds": round(actions.total, 6),
            "p50": actions.quantile(0.5),
            "p90": actions.quantile(0.9),
            "p99": actions.quantile(0.99),
        },
    }


def prometheus(figures: dict[str, Any]) -> str:
    """The figures of :func:`health` in the Prometheus text format."""
    out: list[str] = []

    def metric(name: str, kind: str, text: str, values: list[tuple[str, float]]) -> None:
        out.append(f"# HELP mqtui_{name} {text}")
        out.append(f"# TYPE mqtui_{name} {kind}")
        out.extend(f"mqtui_{name}{labels} {value:g}" for labels, value in values)

    def by(label: str, counts: dict[str, int]) -> list[tuple[str, float]]:
        return [(f'{{{label}="{key}"}}', n) for key, n in counts.items()]

    f = figures
    metric("uptime_seconds", "gauge", "Seconds since the host started.", [("", f["uptime_seconds"])])
    metric("sessions", "gauge", "SSH sessions now, by kind.", by("kind", f["sessions"]) or [("", 0)])
    metric("signing_in", "gauge", "Connections still signing in.", [("", f["signing_in"])])
    metric(
        "signed_in_without_session",
        "gauge",
        "Connections signed in that have no session.",
        [("", f["signed_in_without_session"])],
    )
    metric("tables", "gauge", "Tables open.", [("", f["tables"])])
    metric("tables_paused", "gauge", "Tables paused because they cannot save.", [("", f["tables_paused"])])
    metric("bans", "gauge", "Bans in force.", [("", f["bans"])])
    metric(
        "refusals_total",
        "counter",
        "Connections and sessions refused, by reason.",
        by("reason", f["refusals"]),
    )
    metric(
        "sessions_ended_total", "counter", "Sessions ended by the host, by reason.", by("reason", f["ended"])
    )
    metric(
        "save_failures_total",
        "counter",
        "Times a table's saving started to fail.",
        [("", f["save_failures"])],
    )
    actions = FIGURES.actions
    cumulative, buckets = 0, []
    for bound, n in zip((*BUCKETS, float("inf")), actions.counts, strict=True):
        cumulative += n
        buckets.append((f'_bucket{{le="{"+Inf" if bound == float("inf") else f"{bound:g}"}"}}', cumulative))
    out.append(
        "# HELP mqtui_action_round_trip_seconds From a player's action read to its result sent (saved)."
    )
    out.append("# TYPE mqtui_action_round_trip_seconds histogram")
    out.extend(f"mqtui_action_round_trip_seconds{labels} {value:g}" for labels, value in buckets)
    out.append(f"mqtui_action_round_trip_seconds_sum {actions.total:g}")
    out.append(f"mqtui_action_round_trip_seconds_count {actions.n}")
    return "\n".join(out) + "\n"
