"""Rate one finish with openskill's Plackett-Luce model, shared places counted as every order they stand for.

openskill 6.2.0 gets tied places wrong (vivekjoshy/openskill.py issue 155): two players tied first gain less
than the third. Plackett-Luce itself has no ties (a finish is an order), so a shared place is rated as each of
the orders it stands for, equally likely: every way to order the teams that share a place is rated with the
plain model and each team keeps the mean of its results. A finish without ties is rated exactly as before;
players who tie with the same rating get the same change, between what the best and the worst of their places
would have given, so never less than anyone placed below them (docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import permutations, product
from math import fsum

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The model with openskill's default parameters (mu 25, sigma 25/3, beta 25/6): never change it silently."""

Skill = tuple[float, float]
"""A rating as (mu, sigma)."""


def orders(ranks: Sequence[float]) -> Iterator[list[int]]:
    """Yield every strict ranking (0 first) that breaks the ties of `ranks` one way, each once."""
    places = sorted(set(ranks))
    groups = [[i for i, r in enumerate(ranks) if r == place] for place in places]
    for arrangement in product(*(permutations(group) for group in groups)):
        strict = [0] * len(ranks)
        for position, team in enumerate(i for group in arrangement for i in group):
            strict[team] = position
        yield strict


def rate(teams: Sequence[Sequence[Skill]], ranks: Sequence[float]) -> list[list[Skill]]:
    """Return every member's new (mu, sigma) after a finish where lower ranks placed better; equal ranks tie."""
    results: list[list[tuple[list[float], list[float]]]] = [[([], []) for _ in team] for team in teams]
    for strict in orders(ranks):
        models = [[MODEL.rating(mu, sigma) for mu, sigma in team] for team in teams]
        rated = MODEL.rate(models, ranks=[float(r) for r in strict])
        for t, team in enumerate(rated):
            for m, member in enumerate(team):
                results[t][m][0].append(member.mu)
                results[t][m][1].append(member.sigma)
    # fsum is exact whatever the order, so players tied with the same rating get exactly the same figures.
    return [[(fsum(mus) / len(mus), fsum(sigmas) / len(sigmas)) for mus, sigmas in team] for team in results]
