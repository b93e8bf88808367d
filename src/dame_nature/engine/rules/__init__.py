"""The twelve advanced rules, one module each, registered in their canonical order
(path 1 stage 1 first, path 4 stage 3 last)."""

from __future__ import annotations

from .associated_conditions import AssociatedConditions
from .base import Rule
from .climate_change import ClimateChange
from .dependent_conditions import DependentConditions
from .environmental_changes import EnvironmentalChanges
from .first_predator import FirstPredator
from .incomplete_symbioses import IncompleteSymbioses
from .invasive_species import InvasiveSpecies
from .privileged_symbioses import PrivilegedSymbioses
from .species_biodiversity import SpeciesBiodiversity
from .species_reintroductions import SpeciesReintroductions
from .temporary_conditions import TemporaryConditions
from .wetland import Wetland

_ORDERED: tuple[type[Rule], ...] = (
    AssociatedConditions,
    DependentConditions,
    Wetland,
    PrivilegedSymbioses,
    TemporaryConditions,
    SpeciesBiodiversity,
    ClimateChange,
    EnvironmentalChanges,
    SpeciesReintroductions,
    InvasiveSpecies,
    IncompleteSymbioses,
    FirstPredator,
)

RULES: dict[str, type[Rule]] = {cls.mode: cls for cls in _ORDERED}
MODES: tuple[str, ...] = tuple(RULES)

#: path number -> its three modes, stage 1 first
PATHS: dict[int, tuple[str, ...]] = {p: MODES[3 * (p - 1) : 3 * p] for p in (1, 2, 3, 4)}


def modes_for_path(path: int, stage: int) -> list[str]:
    """Stage N of path P plays with that path's rules 1..N.

    >>> modes_for_path(3, 2)
    ['climate_change', 'environmental_changes']
    """
    if path not in PATHS or stage not in (1, 2, 3):
        raise ValueError("Paths are numbered 1 to 4 and stages 1 to 3.")
    return list(PATHS[path][:stage])


__all__ = ["MODES", "PATHS", "RULES", "Rule", "modes_for_path"]
