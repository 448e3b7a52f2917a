"""Root URL configuration: UI pages, the REST API (with OpenAPI schema) and the admin."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language
from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from federation import views as federation_views
from tournaments.people import views as people_views

def favicon(request):
    """``/favicon.ico``, asked by browsers on every page whatever the page links: the SVG icon."""
    from django.shortcuts import redirect
    from django.templatetags.static import static

    return redirect(static("img/favicon.svg"), permanent=True)


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("", include("tournaments.urls")),
    path("", include("tournaments.events.urls")),  # multi-section events: /events/…, /api/events/…
    path("", include("tournaments.teams.urls")),  # team championships: /t/<slug>/teams/…, /api/tournaments/<slug>/teams/
    path("", include("tournaments.placement.urls")),  # why a player is placed here: /t/<slug>/standings/<no>/why/
    path("", include("tournaments.lots.urls")),  # the drawing of lots: /t/<slug>/lots/
    path("", include("tournaments.rules.urls")),  # the organiser's settings in words: /t/<slug>/rules/
    path("", include("federation.urls_members")),
    path("games/", include("tournaments.records.urls")),
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
    # password reset by e-mail (Django's views; templates/registration/), and changing one's own password
    path("accounts/password-reset/", federation_views.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password-reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", federation_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("accounts/password/", federation_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # people: a logged-in player's pages, a player's results, the staff's account pages
    path("me/", people_views.my_page, name="my-page"),
    path("me/next-board/", people_views.my_next_board, name="my-next-board"),
    path("me/results/", people_views.my_results, name="my-results"),
    path("players/<str:federation_id>/results/", people_views.player_results, name="player-results"),
    path("staff/users/", federation_views.user_list, name="user-list"),
    path("staff/users/new/", federation_views.user_create, name="user-create"),
    path("staff/users/<int:user_id>/", federation_views.user_detail, name="user-detail"),
    path("staff/users/<int:user_id>/roles/", people_views.user_role_add, name="user-role-add"),
    path("staff/users/<int:user_id>/roles/<int:role_id>/remove/", people_views.user_role_remove,
         name="user-role-remove"),
    path("staff/users/<int:user_id>/password/", federation_views.user_password_set, name="user-password-set"),
    path("staff/users/<int:user_id>/password-link/", federation_views.user_password_link, name="user-password-link"),
    path("staff/users/<int:user_id>/player/", federation_views.user_player_link, name="user-player-link"),
    # the language switch: Django's view without the CSRF check (changing the language is harmless), so the
    # public pages' switch needs no token and an anonymous page sets no cookie (federation/pagecache.py)
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
]

# translated pages (templates/403.html, 404.html, 500.html), the JSON envelope for /api/ (federation.error_views)
handler403 = "federation.error_views.permission_denied"
handler404 = "federation.error_views.page_not_found"
handler500 = "federation.error_views.server_error"
