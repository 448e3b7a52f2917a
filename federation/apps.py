from django.apps import AppConfig


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = "Federasyon"

    def ready(self) -> None:
        from federation import roles
        from federation.versions import connect_signals

        connect_signals()
        roles.connect_signals()
