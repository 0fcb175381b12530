"""Rate a finish as the tests expect, from openskill called directly: a tie is every order it stands for."""

from __future__ import annotations

from itertools import permutations
from statistics import fmean

from openskill.models import PlackettLuce

MODEL = PlackettLuce()


Skill = tuple[float, float]


def reference_rate(teams: list[list[tuple[str, Skill | None]]], ranks: list[int]) -> dict[str, Skill]:
    """Return name -> (mu, sigma) after one finish; a None rating is a new player; equal ranks are averaged over."""
    runs: dict[str, list[tuple[float, float]]] = {}
    for order in permutations(range(len(teams))):
        position = {team: n for n, team in enumerate(order)}
        if any(ranks[a] < ranks[b] and position[a] > position[b] for a in order for b in order):
            continue  # this order contradicts the finish
        new = (MODEL.mu, MODEL.sigma)
        models = [[MODEL.rating(*(skill or new), name=name) for name, skill in team] for team in teams]
        for team in MODEL.rate(models, ranks=[float(position[t]) for t in range(len(teams))]):
            for r in team:
                runs.setdefault(str(r.name), []).append((r.mu, r.sigma))
    return {name: (fmean(m for m, _ in v), fmean(s for _, s in v)) for name, v in runs.items()}
