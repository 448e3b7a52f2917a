"""Root URL configuration: UI pages, the REST API (with OpenAPI schema) and the admin."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("", include("tournaments.urls")),
    path("", include("federation.urls_members")),
    path("games/", include("games.urls")),
    path("ratings/", include("ratings.urls")),
    path("api/ratings/", include("ratings.urls_api")),
    path("api/", include("federation.urls_api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI with its start script as a file of its own (no inline script: Content-Security-Policy);
    # Swagger UI sets inline styles, allowed on this page only
    path("api/docs/", csp_update({"style-src": [UNSAFE_INLINE]})(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
         name="api-docs"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

handler404 = "federation.api.api_not_found"
handler500 = "federation.api.api_server_error"
