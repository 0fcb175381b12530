"""Check that shared places are rated fairly: tied players alike, never below anyone placed lower."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from storage.rating_model import MODEL, Skill, rate

PLAIN = PlackettLuce()


def conservative(skill: tuple[float, float]) -> float:
    """Return mu - 3 sigma, the rating players read."""
    return skill[0] - 3 * skill[1]


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[int], tuple[float, float]]:
    """Draw a finish of 2-6 players with ties (ranks as the games give them: 1, 1, 3, ...) and a shared rating."""
    size = draw(st.integers(2, 6))
    scores = draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))
    ranks = [1 + sum(1 for other in scores if other > score) for score in scores]
    mu = draw(st.floats(10, 40))
    sigma = draw(st.floats(1, 25 / 3))
    return ranks, (mu, sigma)


@settings(max_examples=300, deadline=None)
@given(tables())
def test_a_shared_place_gains_alike_and_never_less_than_a_lower_place(table: tuple[list[int], Skill]) -> None:
    ranks, skill = table
    after = [team[0] for team in rate([[skill] for _ in ranks], [float(r) for r in ranks])]
    change = [conservative(a) - conservative(skill) for a in after]
    moved = [a[0] - skill[0] for a in after]
    for i, rank_i in enumerate(ranks):
        for j, rank_j in enumerate(ranks):
            if rank_i == rank_j:
                assert change[i] == change[j] and moved[i] == moved[j], (ranks, change)
            elif rank_i < rank_j:
                assert change[i] >= change[j] - 1e-9, (ranks, change)
                assert moved[i] >= moved[j] - 1e-9, (ranks, moved)


def test_the_reported_six_player_table_no_longer_rates_the_tied_winners_below_third() -> None:
    ranks = [1.0, 1.0, 3.0, 4.0, 5.0, 6.0]
    after = [conservative(team[0]) for team in rate([[(MODEL.mu, MODEL.sigma)] for _ in ranks], ranks)]
    assert after[0] == after[1] > after[2] > after[3]
    plain = PLAIN.rate([[PLAIN.rating()] for _ in ranks], ranks=ranks)
    assert conservative((plain[0][0].mu, plain[0][0].sigma)) < conservative((plain[2][0].mu, plain[2][0].sigma))


def test_a_finish_without_ties_is_rated_exactly_as_openskill_does() -> None:
    skills = [[(30.0, 5.0), (20.0, 7.0)], [(25.0, 8.0)], [(18.0, 3.0)]]
    ranks = [2.0, 1.0, 3.0]
    mine = rate(skills, ranks)
    theirs = PLAIN.rate([[PLAIN.rating(mu, sigma) for mu, sigma in team] for team in skills], ranks=ranks)
    assert mine == [[(r.mu, r.sigma) for r in team] for team in theirs]


def test_a_tie_between_unequal_ratings_moves_the_weaker_up_and_the_stronger_down() -> None:
    (strong,), (weak,) = rate([[(30.0, 4.0)], [(20.0, 4.0)]], [1.0, 1.0])
    assert strong[0] < 30.0 and weak[0] > 20.0
