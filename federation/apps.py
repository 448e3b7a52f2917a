from django.apps import AppConfig


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = "Federasyon"

    def ready(self) -> None:
        from federation import roles
        from federation import schema  # noqa: F401  (registers the OpenAPI serializer extensions)
        from federation.versions import connect_signals

        connect_signals()
        roles.connect_signals()
