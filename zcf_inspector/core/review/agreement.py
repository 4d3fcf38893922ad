"""Two reviewers' receipts of one packet set side by side: who agreed, who did not, and
Cohen's kappa over the labels they gave, computed exactly (`fractions.Fraction`).

A belief's *label* in a receipt is its last decision's state (profile §6: the last
decision for a belief is its state); a ``superseded`` label names the replacing belief
too, since two reviewers who name different replacements did not agree. A belief is
*undecided* by a reviewer when the receipt has no decision for it or its last decision
is ``unreviewed``. Agreement and kappa are over the beliefs both reviewers decided.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from zcf_inspector.core.formats import ReviewState
from zcf_inspector.core.jsontypes import JsonValue
from zcf_inspector.core.review.decisions import Decision
from zcf_inspector.core.review.previous import earlier_decisions

DECIDED_STATES = (ReviewState.CONFIRMED, ReviewState.REJECTED, ReviewState.SUPERSEDED)


def cohen_kappa(pairs: Sequence[tuple[Hashable, Hashable]]) -> Fraction | None:
    """Cohen's kappa of two raters' labels, exactly: (p_o - p_e) / (1 - p_e), where p_o
    is the share of items labelled alike and p_e the agreement expected by chance from
    each rater's own label frequencies. None when it is undefined: no item, or p_e = 1
    (both raters gave every item one and the same label)."""
    n = len(pairs)
    if n == 0:
        return None
    agreed = sum(1 for a, b in pairs if a == b)
    first = Counter(a for a, _ in pairs)
    second = Counter(b for _, b in pairs)
    # Over n²: p_o = agreed·n / n², p_e = Σ first·second / n² (integers until the end).
    chance = sum(count * second.get(label, 0) for label, count in first.items())
    total = n * n
    if chance == total:
        return None
    return Fraction(agreed * n - chance, total - chance)


def label(decision: Decision | None) -> tuple[ReviewState, str | None] | None:
    """What a reviewer said of a belief (None: undecided)."""
    if decision is None or decision.state is ReviewState.UNREVIEWED:
        return None
    return decision.state, decision.superseded_by


@dataclass(frozen=True, slots=True)
class Pair:
    """One admitted belief, as each receipt left it (None: that reviewer left it undecided)."""

    portable_ref: str
    a: Decision | None
    b: Decision | None

    @property
    def agreed(self) -> bool:
        return label(self.a) is not None and label(self.a) == label(self.b)

    @property
    def both_decided(self) -> bool:
        return label(self.a) is not None and label(self.b) is not None

    @property
    def one_sided(self) -> bool:
        return (label(self.a) is None) != (label(self.b) is None)


@dataclass(frozen=True, slots=True)
class StateAgreement:
    """One state among the beliefs both decided: how often each reviewer gave it, how
    often both did, and the specific agreement 2·both / (a + b) (None when neither did)."""

    state: ReviewState
    a: int
    b: int
    both: int

    @property
    def specific(self) -> Fraction | None:
        return None if self.a + self.b == 0 else Fraction(2 * self.both, self.a + self.b)


@dataclass(frozen=True, slots=True)
class Agreement:
    """Two receipts of one packet compared belief by belief (in packet order)."""

    pairs: tuple[Pair, ...]

    @property
    def compared(self) -> tuple[Pair, ...]:
        return tuple(p for p in self.pairs if p.both_decided)

    @property
    def agreed(self) -> tuple[Pair, ...]:
        return tuple(p for p in self.pairs if p.agreed)

    @property
    def disagreements(self) -> tuple[Pair, ...]:
        return tuple(p for p in self.pairs if p.both_decided and not p.agreed)

    @property
    def one_sided(self) -> tuple[Pair, ...]:
        return tuple(p for p in self.pairs if p.one_sided)

    @property
    def neither(self) -> int:
        return sum(1 for p in self.pairs if label(p.a) is None and label(p.b) is None)

    @property
    def observed(self) -> Fraction | None:
        """The share of the beliefs both decided on which they agreed."""
        compared = len(self.compared)
        return None if compared == 0 else Fraction(len(self.agreed), compared)

    @property
    def kappa(self) -> Fraction | None:
        return cohen_kappa([(label(p.a), label(p.b)) for p in self.compared])

    @property
    def per_state(self) -> tuple[StateAgreement, ...]:
        rows = []
        compared = self.compared
        for state in DECIDED_STATES:
            a = sum(1 for p in compared if p.a is not None and p.a.state is state)
            b = sum(1 for p in compared if p.b is not None and p.b.state is state)
            both = sum(1 for p in compared if p.agreed and p.a is not None and p.a.state is state)
            rows.append(StateAgreement(state, a, b, both))
        return tuple(rows)


def compare_decisions(
    refs: Sequence[str], a: Mapping[str, JsonValue], b: Mapping[str, JsonValue]
) -> Agreement:
    """``refs``: the admitted portableRefs in packet order (a repeated one once); ``a``
    and ``b``: two receipts whose shape was checked (and which match the packet)."""
    first, second = earlier_decisions(a), earlier_decisions(b)
    seen: set[str] = set()
    pairs = []
    for ref in refs:
        if ref in seen:
            continue
        seen.add(ref)
        pairs.append(Pair(ref, first.get(ref), second.get(ref)))
    return Agreement(tuple(pairs))


def fraction_json(value: Fraction | None) -> JsonValue:
    """A fraction as JSON: its exact form and a float rounded to six places."""
    if value is None:
        return None
    return {
        "exact": f"{value.numerator}/{value.denominator}",
        "value": round(float(value), 6),
    }
