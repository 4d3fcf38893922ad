"""Human review of admitted beliefs: the decision rules (`decisions`) and the crash-safe
journal that keeps them (`journal`)."""
