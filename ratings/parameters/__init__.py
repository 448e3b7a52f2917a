"""The parameter sets of the federation's rating: tuning, adoption, and what a failed re-rating undoes
(docs/ratings.md, "Tuning and adoption")."""
