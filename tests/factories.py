"""factory-boy factories for the suite: users (with role groups), clubs, players, tournaments, entries.

Keep them general: every factory builds a valid row with plain defaults; tests set the values they
assert on. Roles are Django groups named in :mod:`federation.roles` — ``UserFactory(groups=["organiser"])``.
"""
from __future__ import annotations

from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from federation import roles
from federation.models import Club, Player
from tournaments.models import Entry, Tournament, TournamentRole

PASSWORD = "mangala-test-pass"


class UserFactory(factory.django.DjangoModelFactory):
    """A user with password :data:`PASSWORD`; ``groups=["organiser", "referee"]`` adds role groups."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def groups(self, create, extracted, **kwargs):
        if not extracted:
            if create:
                self.save()
            return
        for name in extracted:
            group, _ = Group.objects.get_or_create(name=name)
            self.groups.add(group)
        self.save()


def organiser(**kwargs):
    """A user in the global ``organiser`` group."""
    return UserFactory(groups=[roles.ORGANISER], **kwargs)


def referee(**kwargs):
    """A user in the global ``referee`` group."""
    return UserFactory(groups=[roles.REFEREE], **kwargs)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Mangala Kulübü {n}")
    short_name = factory.Sequence(lambda n: f"MK{n}")
    city = "Ankara"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    federation_id = factory.Sequence(lambda n: f"TR{10000 + n}")
    first_name = factory.Sequence(lambda n: f"Oyuncu{n}")
    last_name = factory.Sequence(lambda n: f"Soyad{n}")
    sex = Player.Sex.MALE
    birth_year = 2000
    club = None
    city = "Ankara"
    rating = 1500


class TournamentFactory(factory.django.DjangoModelFactory):
    """A draft 3-set Swiss tournament of 5 rounds (federation rules)."""

    class Meta:
        model = Tournament

    slug = factory.Sequence(lambda n: f"turnuva-{n}")
    name = factory.Sequence(lambda n: f"Turnuva {n}")
    system = Tournament.System.SWISS
    rounds_total = 5
    sets_per_match = 3
    variant = Tournament.Variant.FEDERATION
    bye_points = Decimal("1.0")
    status = Tournament.Status.DRAFT
    city = "Ankara"
    created_by = None


class EntryFactory(factory.django.DjangoModelFactory):
    """An entry with the next free starting number and the player's rating."""

    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    start_no = factory.LazyAttribute(
        lambda e: (Entry.objects.filter(tournament=e.tournament).order_by("-start_no").values_list("start_no", flat=True).first() or 0) + 1
    )
    rating = factory.LazyAttribute(lambda e: e.player.rating)


class TournamentRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = TournamentRole.Role.REFEREE
