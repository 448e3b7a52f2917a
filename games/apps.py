from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        # The Celery tasks, registered in every process (in the web's too, where Celery does not look for
        # them): games.services queues ``games.import_records`` by its name, as games.tasks imports it.
        from games import tasks  # noqa: F401
