from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self) -> None:
        """Listen to what the member register tells the games (:mod:`federation.signals`): it never imports
        games (docs/architecture.md)."""
        from federation import signals as register

        from games import receivers

        register.players_anonymised.connect(receivers.rename_in_record_imports,
                                            dispatch_uid="games.rename_in_record_imports")
