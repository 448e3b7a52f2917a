from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self):
        """Listen to what tournaments tells the ratings (:mod:`tournaments.signals`) and add the rating checks to
        its invariants (:func:`tournaments.invariants.register_check`): tournaments never imports ratings
        (docs/architecture.md)."""
        from tournaments import invariants, signals

        from ratings import receivers
        from ratings.invariants import MESSAGES, check_ratings

        signals.rated_results_changed.connect(receivers.rate_on_change, dispatch_uid="ratings.rate_on_change")
        signals.rated_probe.connect(receivers.was_rated, dispatch_uid="ratings.was_rated")
        invariants.register_check("ratings", check_ratings, messages=MESSAGES)
