from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self):
        """Listen to what tournaments and the member register tell the ratings (:mod:`tournaments.signals`,
        :mod:`federation.signals`) and add the rating checks to the invariants
        (:func:`tournaments.invariants.register_check`): neither imports ratings (docs/architecture.md)."""
        from federation import signals as register
        from tournaments import invariants, signals

        from ratings import receivers
        from ratings.lists import tasks as list_tasks  # noqa: F401 - registers ratings.rating_list_pdf with the worker
        from ratings.invariants import MESSAGES, check_ratings

        signals.rated_results_changed.connect(receivers.rate_on_change, dispatch_uid="ratings.rate_on_change")
        signals.rated_probe.connect(receivers.was_rated, dispatch_uid="ratings.was_rated")
        register.player_merged.connect(receivers.merge_ratings, dispatch_uid="ratings.merge_ratings")
        register.players_anonymised.connect(receivers.anonymise_list_entries, dispatch_uid="ratings.anonymise")
        register.player_data_exported.connect(receivers.player_rating_data, dispatch_uid="ratings.player_data")
        register.player_page_shown.connect(receivers.player_page_section, dispatch_uid="ratings.player_page")
        invariants.register_check("ratings", check_ratings, messages=MESSAGES)
