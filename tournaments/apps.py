from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Turnuvalar"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save

        from tournaments import caching
        from tournaments.models import Tournament
        # The Celery tasks of set records, registered in every process (in the web's too, where Celery does not
        # look for them): tournaments.records.services queues ``games.import_records`` by its name, as
        # tournaments.records.tasks imports it.
        from tournaments.records import tasks  # noqa: F401

        caching.register_public_pages()

        def tournament_saved(sender, instance, **kwargs):
            # a save() of the tournament itself (the admin, a service's field change): its public pages
            # move on as tournament_touch moves them for every other write
            caching.pages_written(instance.slug)

        post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="tournament-pages-saved")
        post_delete.connect(tournament_saved, sender=Tournament, dispatch_uid="tournament-pages-deleted")

        # what the member register tells the tournaments (federation never imports tournaments)
        from federation import signals as register
        from tournaments.people import receivers

        register.members_changed.connect(receivers.touch_tournaments, dispatch_uid="tournaments.touch_tournaments")
        register.player_merging.connect(receivers.refuse_shared_tournament,
                                        dispatch_uid="tournaments.refuse_shared_tournament")
        register.player_merged.connect(receivers.move_entries, dispatch_uid="tournaments.move_entries")
        register.player_data_exported.connect(receivers.player_tournament_data, dispatch_uid="tournaments.player_data")
        register.account_created.connect(receivers.assign_first_role, dispatch_uid="tournaments.assign_first_role")
        register.account_form_built.connect(receivers.account_form_fields, dispatch_uid="tournaments.account_form")
        register.account_page_shown.connect(receivers.account_page_section, dispatch_uid="tournaments.account_page")
        register.account_history_read.connect(receivers.account_role_events, dispatch_uid="tournaments.account_roles")
