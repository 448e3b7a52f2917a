"""Writes to user accounts and logins of players (federation staff;
``<entity>_<action>``, keyword-only, atomic).

``auth.User`` has no history table of its own: what staff do to an account (created, temporary
password set, password link sent) is written to Django's admin log (``LogEntry``, shown on the
staff user page and in /admin/), with a change message ``"<action>: <detail>"``. The login of a player
(``Player.user``) is a tracked model: its history rows carry the action (``player.link_user``) through
audit_context. Per-tournament roles are the tournaments' (:mod:`tournaments.people.services`).
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from federation import roles, signals
from federation.audit import audit_context
from federation.errors import Conflict, PermissionDenied, ValidationFailed
from federation.input_checks import clean_reason_text, clean_text, require_staff, save_fields
from federation.models import Player
from federation.validators import first_control_character

#: What a new account is for (:func:`user_create`).
ACCOUNT_KINDS = ("referee", "organiser", "player")


def account_log(*, user, account, action: str, detail: str = "", added: bool = False) -> None:
    """One admin-log line about ``account``: ``"<action>: <detail>"`` (no line for an anonymous actor)."""
    from django.contrib.admin.models import ADDITION, CHANGE, LogEntry

    actor = user if getattr(user, "is_authenticated", False) else None
    if actor is None:
        return
    message = f"{action}: {detail}" if detail else action
    LogEntry.objects.log_actions(actor.pk, [account], ADDITION if added else CHANGE, change_message=message[:500],
                                 single_object=True)


def login_unlock(account) -> None:
    """Lift django-axes lockouts of ``account``'s user name (after a new password)."""
    from django.conf import settings

    if getattr(settings, "AXES_ENABLED", False):
        from axes.utils import reset

        reset(username=account.get_username())


def _password(password, *, account) -> str:
    """``password`` checked by ``AUTH_PASSWORD_VALIDATORS``; ValidationFailed (field ``password``) naming
    every rule it breaks."""
    from django.contrib.auth import password_validation
    from django.core.exceptions import ValidationError

    if not isinstance(password, str) or not password:
        raise ValidationFailed(_("Give a password."), field="password")
    if first_control_character(password) is not None:
        raise ValidationFailed(_("The password contains a control character."), field="password")
    try:
        password_validation.validate_password(password, user=account)
    except ValidationError as exc:
        raise ValidationFailed(" ".join(str(m) for m in exc.messages), field="password") from exc
    return password


def _email(value, *, account=None) -> str:
    from django.contrib.auth import get_user_model
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    value = (value or "").strip() if isinstance(value, str) else value
    if value in (None, ""):
        return ""
    if not isinstance(value, str) or len(value) > 254:
        raise ValidationFailed(_("Enter a valid e-mail address."), field="email")
    try:
        validate_email(value)
    except ValidationError as exc:
        raise ValidationFailed(_("Enter a valid e-mail address."), field="email") from exc
    others = get_user_model().objects.filter(email__iexact=value)
    if account is not None:
        others = others.exclude(pk=account.pk)
    if others.exists():  # one address, one account: a reset link goes to one person
        raise ValidationFailed(_("Another account already has the e-mail address %(e)s.") % {"e": value},
                               field="email")
    return value


def may_manage_login_of(user, account) -> bool:
    """Staff manage ordinary accounts; a staff or superuser account only a superuser."""
    if account.is_superuser or account.is_staff or roles.in_group(account, roles.STAFF):
        return bool(getattr(user, "is_superuser", False))
    return True


@transaction.atomic
def user_create(
    *,
    user,
    username: str,
    first_name: str,
    last_name: str,
    kind: str,
    email: str = "",
    federation_wide: bool = False,
    password: str = "",
    player: Player | None = None,
    tournament=None,
):
    """Create a login for a referee, an organiser or a player (federation staff only); returns the user.

    - ``kind`` ``"referee"`` or ``"organiser"``: with ``federation_wide`` the account joins that global
      group (a referee of every tournament; an organiser who creates and runs any tournament); without,
      it acts only in the tournaments it is given (``tournament``: a first one, role ``kind``, given by the
      tournaments' receiver of :data:`federation.signals.account_created`; more with
      :func:`tournaments.people.services.tournament_role_assign`). ``kind`` ``"player"``: ``player`` is
      required and gets this login (:func:`player_link_user`); no group, no tournament.
    - ``password``: a temporary password (checked by the password validators) the person changes after
      logging in; empty: a random one nobody knows — then ``email`` is required and the caller sends a
      link to choose one (:func:`user_password_link_send`).
    - ``username``: Django's rules (letters, digits and @.+-_, at most 150), new in any case; first and
      last name are required (people are shown by name); ``email`` is optional with a password, unique.

    Every refusal is ValidationFailed (or Conflict) naming the field. Logged in the admin log
    (``user.create``); the role and the player link in their histories.
    """
    import secrets

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.core.exceptions import ValidationError

    User = get_user_model()
    require_staff(user, _("Only federation staff can create accounts."))
    if kind not in ACCOUNT_KINDS:
        raise ValidationFailed(_("Choose what the account is for."), field="kind")
    if not isinstance(username, str) or not username.strip():
        raise ValidationFailed(_("Give a user name."), field="username")
    username = username.strip()
    if len(username) > 150:
        raise ValidationFailed(_("A user name has at most 150 characters."), field="username")
    try:
        User.username_validator(username)
    except ValidationError as exc:
        raise ValidationFailed(" ".join(str(m) for m in exc.messages), field="username") from exc
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationFailed(_("The user name %(u)s is taken.") % {"u": username}, field="username")
    first_name = clean_text(first_name, model=User, field="first_name", max_length=150, required=True)
    last_name = clean_text(last_name, model=User, field="last_name", max_length=150, required=True)
    email = _email(email)
    if kind == "player":
        if player is None:
            raise ValidationFailed(_("Give the federation id of the player."), field="player")
        if tournament is not None:
            raise ValidationFailed(_("A player's account has no tournament role."), field="tournament")
        federation_wide = False
    if not password and not email:
        raise ValidationFailed(
            _("Without a temporary password the account needs an e-mail address for the link."), field="email"
        )
    account = User(username=username, first_name=first_name, last_name=last_name, email=email)
    if password:
        account.set_password(_password(password, account=account))
    else:  # usable but unknown: the person chooses their own through the e-mailed link (or a reset later)
        account.set_password(secrets.token_urlsafe(32))
    try:
        with transaction.atomic():
            account.save()
    except IntegrityError as exc:  # the same name created meanwhile
        raise ValidationFailed(_("The user name %(u)s is taken.") % {"u": username}, field="username") from exc
    if federation_wide:
        account.groups.add(Group.objects.get_or_create(name=kind)[0])
    detail = kind + (", federation-wide" if federation_wide else "") + (", temporary password" if password else "")
    account_log(user=user, account=account, action="user.create", detail=detail, added=True)
    if player is not None:
        player_link_user(user=user, player=player, account=account)
    # the apps above add what the account starts with (tournaments: the role ``kind`` in ``tournament``)
    signals.account_created.send(sender=User, user=user, account=account, kind=kind, tournament=tournament)
    return account


@transaction.atomic
def user_set_password(*, user, account, password: str):
    """Give ``account`` a temporary password (federation staff; a staff or superuser account only a
    superuser). Checked by the password validators (ValidationFailed, field ``password``); lifts a
    login lockout of the account; other sessions of the account end. Logged (``password.set``)."""
    from django.contrib.auth import get_user_model

    require_staff(user, _("Only federation staff can set passwords."))
    if not may_manage_login_of(user, account):
        raise PermissionDenied(_("Only a superuser can set the password of a staff account."))
    account = get_user_model().objects.select_for_update().get(pk=account.pk)
    account.set_password(_password(password, account=account))
    account.save(update_fields=["password"])
    account_log(user=user, account=account, action="password.set")
    transaction.on_commit(lambda: login_unlock(account))
    return account


def password_link_context(account, *, domain: str, use_https: bool) -> dict:
    """What a password link e-mail needs: the one-time link's ``uid`` and ``token`` (Django's
    ``default_token_generator``: valid ``PASSWORD_RESET_TIMEOUT`` seconds, once), ``domain``, ``protocol``."""
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    return {
        "email": account.email, "domain": domain, "site_name": domain, "user": account,
        "uid": urlsafe_base64_encode(force_bytes(account.pk)), "token": default_token_generator.make_token(account),
        "protocol": "https" if use_https else "http",
    }


def send_templated_email(*, subject_template: str, body_template: str, context: dict, to: str) -> None:
    """Render a subject (one line) and a plain-text body and send them by the Celery job
    (:func:`federation.tasks.send_email_task`); a mail server error is logged, never shown."""
    import logging

    from django.conf import settings
    from django.template import loader

    from federation.tasks import send_email_task

    subject = "".join(loader.render_to_string(subject_template, context).splitlines())
    body = loader.render_to_string(body_template, context)
    try:
        send_email_task.delay(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
    except Exception:  # noqa: BLE001 - the page answers the same; the log says why no e-mail left
        logging.getLogger(__name__).exception("e-mail to user %s not sent", context.get("user") and context["user"].pk)


def user_password_link_send(*, user, account, domain: str, use_https: bool, new_account: bool = False) -> None:
    """E-mail ``account`` a one-time link to choose a password (federation staff). ``new_account``: the
    text welcomes a new account; otherwise it is a password reset. The account needs an e-mail address
    and must be active (ValidationFailed / Conflict). Logged (``password.link``)."""
    require_staff(user, _("Only federation staff can send password links."))
    if not account.email:
        raise ValidationFailed(_("This account has no e-mail address."), field="email")
    if not account.is_active:
        raise Conflict(_("This account is deactivated."))
    context = password_link_context(account, domain=domain, use_https=use_https)
    name = "account_created" if new_account else "password_reset"
    send_templated_email(subject_template=f"registration/{name}_subject.txt",
                         body_template=f"registration/{name}_email.html", context=context, to=account.email)
    account_log(user=user, account=account, action="password.link", detail=account.email)


@transaction.atomic
def player_link_user(*, user, player: Player, account, reason: str = "") -> Player:
    """Give ``player`` the login ``account`` (None: take it away) — federation staff. The player then
    sees their next board and results (and their own personal data). Refused (Conflict): a merged
    record, a player with another login, an account that is already another player's. Recorded in the
    player's change history (``player.link_user``)."""
    require_staff(user, _("Only federation staff can link logins to players."))
    reason = clean_reason_text(reason)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.merged_into_id is not None:
        raise Conflict(_("%(id)s was merged into another record; use that one.") % {"id": player.federation_id},
                       field="player")
    if account is not None:
        if player.user_id is not None and player.user_id != account.pk:
            raise Conflict(_("%(p)s already has another login.") % {"p": player.full_name}, field="player")
        other = Player.objects.filter(user=account).exclude(pk=player.pk).first()
        if other is not None:
            raise Conflict(_("This account is already the login of %(p)s (%(id)s).")
                           % {"p": other.full_name, "id": other.federation_id}, field="player")
    new_id = account.pk if account is not None else None
    if player.user_id == new_id:
        return player
    player.user = account
    with audit_context(action="player.link_user", user=user, reason=reason):
        save_fields(player, ["user"], unique={"user": _("This account is already another player's login.")})
    return player
