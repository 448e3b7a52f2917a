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
