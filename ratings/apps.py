from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self):
        """Listen to what tournaments tells the ratings (:mod:`tournaments.signals`): tournaments never imports
        ratings (docs/architecture.md)."""
        from tournaments import signals

        from ratings import receivers

        signals.rated_results_changed.connect(receivers.rate_on_change, dispatch_uid="ratings.rate_on_change")
        signals.rated_probe.connect(receivers.was_rated, dispatch_uid="ratings.was_rated")
