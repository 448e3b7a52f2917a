"""Hot statements built once: reads whose SQL the ORM compiles once per database connection, and the
``INSERT``, ``UPDATE`` and ``DELETE`` of the result write (issue 22, "one result POST ≤ 30× a trivial view").

Building a statement costs a Django request more CPU than running it: cloning the QuerySet, resolving
its lookups, ordering, compiling the SQL. A result POST makes a handful of reads that differ only in
their values (the board by slug, round and board number; the match locked by id; the user's roles), so
:class:`PreparedRead` lets the ORM build each one once — from the QuerySet the caller gives, with
placeholder values — and then only executes the SQL with the call's values, turning the rows into model
instances exactly as ``QuerySet.__iter__`` does (``select_related`` included, the backend's converters
applied) or into tuples (``values_list``). The SQL is the ORM's, so it is right on SQLite and
PostgreSQL alike (quoting, ``FOR UPDATE OF``, ``UNION ALL``).

:func:`update_columns` writes the named fields of an instance in one ``UPDATE … WHERE pk = %s`` built
with ``connection.ops.quote_name``, each value as ``Field.get_db_prep_save`` makes it (what ``save()``
sends), without ``save()``'s all-columns statement and signals: the caller writes the history row
(:func:`federation.audit.history_bulk_create`). :func:`insert_rows` is ``bulk_create`` with its statement's
text built once per model and row count; :func:`delete_in` a ``DELETE … WHERE column IN (…)`` without the
delete collector (for rows nothing refers to, or whose referrers the caller deleted first).
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import connections, router
from django.db.transaction import TransactionManagementError
from django.db.models import QuerySet
from django.db.models.query import (
    FlatValuesListIterable, ModelIterable, ValuesListIterable, get_related_populators,
)


# the integer wrappers a backend may put around a parameter (psycopg's, from Django's PostgreSQL lookups):
# their widths in bits — a value outside one is a value no such column holds
_WRAPPER_BITS = {"Int2": 16, "Int4": 32, "Int8": 64}


@dataclass
class _Plan:
    """One compiled read on one connection: the SQL and what turns its rows into results."""

    connection: object
    compiler: object
    sql: str
    params: list
    slots: dict[str, list[tuple[int, type, int]]]  # placeholder -> (position in params, its type, integer bound)
    converters: dict
    needs_transaction: bool
    kind: str  # "models", "tuples" or "flat"
    db: str = ""
    model_cls: type | None = None
    init_list: list[str] = field(default_factory=list)
    start: int = 0
    end: int = 0
    related_populators: list = field(default_factory=list)
    annotation_col_map: dict = field(default_factory=dict)


class PreparedRead:
    """A read built by the ORM once per connection, then only executed.

    ``build(**placeholders)`` returns the QuerySet (model instances, ``values_list`` or
    ``values_list(flat=True)``; slice it for a ``LIMIT``); each placeholder is an ``int`` or a ``str``
    the query sends to the database unchanged (an ``exact`` lookup of an integer, a foreign key or a
    text column) and must not occur in the query otherwise — pick an unlikely value within the column's
    range (the ORM compiles an integer outside it to "no rows"), a string with a NUL. :meth:`all` with
    the real values (same names; each is converted with the placeholder's type, as the ORM's lookups do)
    runs the compiled SQL. A placeholder the compiled parameters do not hold (the ORM folded it into the
    SQL, or the query does not use it) raises ``ValueError`` when first built: a programming error,
    caught by the tests. ``select_for_update`` reads refuse to run outside a transaction, as the ORM
    does. Thread-safe: the compiled plan is kept per thread and connection.
    """

    def __init__(self, build: Callable[..., QuerySet], **placeholders):
        for name, value in placeholders.items():
            if type(value) not in (int, str):
                raise TypeError(f"placeholder {name!r} must be an int or a str, not {type(value).__name__}")
        self._build = build
        self._placeholders = placeholders
        self._db: str | None = None  # the database the QuerySet reads (its router's answer), once built
        self._local = threading.local()

    def _plan(self) -> _Plan:
        if self._db is not None:
            plan = getattr(self._local, self._db, None)
            if plan is not None and plan.connection is connections[self._db]:
                return plan
        qs = self._build(**self._placeholders)
        self._db = db = qs.db
        connection = connections[db]
        if qs._prefetch_related_lookups or qs._known_related_objects or qs._result_cache is not None:
            raise ValueError("a prepared read is one plain SELECT (no prefetch_related, no related managers)")
        kinds = {ModelIterable: "models", ValuesListIterable: "tuples", FlatValuesListIterable: "flat"}
        if qs._iterable_class not in kinds:
            raise ValueError(f"a prepared read returns models or values_list rows, not {qs._iterable_class.__name__}")
        compiler = qs.query.get_compiler(using=db)
        sql, params = compiler.as_sql()
        params = list(params)
        slots = {}
        for name, value in self._placeholders.items():
            hits = [
                (i, type(p), 2 ** (_WRAPPER_BITS.get(type(p).__name__, 64) - 1))
                for i, p in enumerate(params)
                if isinstance(p, type(value)) and not isinstance(p, bool) and p == value
            ]
            if not hits:
                raise ValueError(f"placeholder {name!r} is not a parameter of the compiled query: {sql}")
            slots[name] = hits
        plan = _Plan(
            connection=connection, compiler=compiler, sql=sql, params=params, slots=slots,
            converters=compiler.get_converters([s[0] for s in compiler.select[0:compiler.col_count]]),
            needs_transaction=bool(qs.query.select_for_update and connection.features.has_select_for_update
                                   and connection.features.supports_transactions),
            kind=kinds[qs._iterable_class], db=db,
        )
        if plan.kind == "models":
            klass_info, select = compiler.klass_info, compiler.select
            plan.model_cls = klass_info["model"]
            fields = klass_info["select_fields"]
            plan.start, plan.end = fields[0], fields[-1] + 1
            plan.init_list = [f[0].target.attname for f in select[plan.start:plan.end]]
            plan.related_populators = get_related_populators(klass_info, select, db)
            plan.annotation_col_map = dict(compiler.annotation_col_map or {})
        setattr(self._local, db, plan)
        return plan

    def all(self, **values) -> list:
        """The rows for ``values`` (every placeholder by name): model instances, tuples or single values,
        as the QuerySet would give them (none for an integer wider than its parameter — 64 bits, or the
        column's width where the backend says it — which no row holds, as the ORM answers an ``exact``
        lookup with it). Raises ``TypeError`` for a missing or unknown name, and
        ``TransactionManagementError`` for a ``select_for_update`` read in autocommit mode."""
        if values.keys() != self._placeholders.keys():
            raise TypeError(f"give exactly {sorted(self._placeholders)}, not {sorted(values)}")
        plan = self._plan()
        if plan.needs_transaction and plan.connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(plan.params)
        for name, positions in plan.slots.items():
            value = type(self._placeholders[name])(values[name])
            for i, kind, bound in positions:
                if kind is str:
                    params[i] = value
                elif not -bound <= value < bound:  # an integer no column holds: no row (the ORM's overflow rule)
                    return []
                else:
                    params[i] = value if kind is int else kind(value)
        with plan.connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        if plan.converters:
            rows = list(plan.compiler.apply_converters(rows, plan.converters))
        if plan.kind == "flat":
            return [row[0] for row in rows]
        if plan.kind == "tuples":
            return [tuple(row) for row in rows]
        objs = []
        for row in rows:
            obj = plan.model_cls.from_db(plan.db, plan.init_list, row[plan.start:plan.end])
            for populator in plan.related_populators:
                populator.populate(row, obj)
            for attr, pos in plan.annotation_col_map.items():
                setattr(obj, attr, row[pos])
            objs.append(obj)
        return objs

    def first(self, **values):
        """The first row for ``values``, or None (order and limit are the QuerySet's)."""
        rows = self.all(**values)
        return rows[0] if rows else None


_update_sql: dict[tuple, str] = {}


def update_columns(instance, fields: Sequence[str], *, using: str | None = None) -> int:
    """``UPDATE`` the columns of ``fields`` (field names) of ``instance``'s row to the instance's values, in
    one statement ``UPDATE t SET a = %s, … WHERE pk = %s``; each value as ``Field.get_db_prep_save``
    makes it (what ``save()`` sends). Returns the number of rows updated (0: the row is gone). No
    signals: the caller writes the history row. An ``IntegrityError`` of the database propagates."""
    model = type(instance)
    db = using or instance._state.db or "default"
    connection = connections[db]
    opts = model._meta
    concrete = [opts.get_field(name) for name in fields]
    key = (model, tuple(fields), connection.vendor)
    sql = _update_sql.get(key)
    if sql is None:
        qn = connection.ops.quote_name
        sets = ", ".join(f"{qn(f.column)} = %s" for f in concrete)
        sql = f"UPDATE {qn(opts.db_table)} SET {sets} WHERE {qn(opts.pk.column)} = %s"
        _update_sql[key] = sql
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in concrete]
    params.append(opts.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


_insert_plans: dict[tuple, tuple] = {}


def _insert_fields(model) -> list | None:
    """The fields ``bulk_create`` inserts for rows without a primary key, or None when :func:`insert_rows`
    leaves the model to ``bulk_create`` (no auto primary key, a parent model, a database default or a
    generated column)."""
    opts = model._meta
    if opts.auto_field is None or opts.parents:
        return None
    fields = [f for f in opts.concrete_fields if f is not opts.auto_field]
    if any(getattr(f, "generated", False) or f.has_db_default() for f in fields):
        return None
    return fields


def insert_rows(objs: Sequence, *, using: str | None = None) -> None:
    """Insert ``objs`` — new instances of one model, no primary key set — as ``bulk_create(objs)`` does
    (one ``INSERT … VALUES (…), (…) RETURNING pk``; each instance gets its primary key, ``_state.adding``
    false and its database), with the statement's text built once per model, row count and backend.
    Values as ``bulk_create`` sends them (``Field.pre_save(obj, add=True)``, then ``get_db_prep_save``).
    ``bulk_create`` itself does the work when this shortcut does not fit: a backend without
    ``RETURNING``, too many parameters for one statement, an expression as a value, a primary key
    already set, a model :func:`_insert_fields` leaves to it. No signals (as ``bulk_create``)."""
    if not objs:
        return
    model = type(objs[0])
    db = using or router.db_for_write(model)
    connection = connections[db]
    key = (model, len(objs), connection.vendor)
    plan = _insert_plans.get(key)
    if plan is None:
        fields = _insert_fields(model)
        sql = None
        fits = (fields is not None and connection.features.can_return_rows_from_bulk_insert
                and connection.ops.bulk_batch_size(fields, objs) >= len(objs))
        if fits:
            qn = connection.ops.quote_name
            opts = model._meta
            rows = [["%s"] * len(fields) for _ in objs]
            sql = (f"INSERT INTO {qn(opts.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
                   f"{connection.ops.bulk_insert_sql(fields, rows)} RETURNING {qn(opts.pk.column)}")
        plan = _insert_plans[key] = (fields, sql)
    fields, sql = plan
    if sql is None or any(type(obj) is not model or obj.pk is not None for obj in objs):
        model._base_manager.using(db).bulk_create(objs)
        return
    params = []
    for obj in objs:
        obj._prepare_related_fields_for_save(operation_name="bulk_create")
        for f in fields:
            value = f.pre_save(obj, True)
            if hasattr(value, "resolve_expression"):  # an expression: the ORM compiles it
                model._base_manager.using(db).bulk_create(objs)
                return
            params.append(f.get_db_prep_save(value, connection))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = cursor.fetchall()
    if len(ids) != len(objs):  # never expected: a database that did not return every row
        raise RuntimeError(f"INSERT returned {len(ids)} ids for {len(objs)} rows")
    for obj, (pk,) in zip(objs, ids):
        obj.pk = pk
        obj._state.adding = False
        obj._state.db = db


def delete_in(model, field_name: str, values: Sequence, *, using: str | None = None) -> int:
    """``DELETE FROM t WHERE column IN (%s, …)`` of ``model``'s rows whose ``field_name`` is one of
    ``values`` (each as the field's ``get_db_prep_value`` makes it), built with ``connection.ops.quote_name``;
    the number of rows deleted. As ``QuerySet._raw_delete``: no signals, no cascade — the caller deletes
    what refers to the rows first (or checks ``Collector.can_fast_delete``)."""
    if not values:
        return 0
    db = using or router.db_for_write(model)
    connection = connections[db]
    opts = model._meta
    f = opts.get_field(field_name)
    qn = connection.ops.quote_name
    params = [f.get_db_prep_value(v, connection, prepared=False) for v in values]
    deleted = 0
    with connection.cursor() as cursor:
        for start in range(0, len(params), 500):  # within every backend's limit of parameters
            chunk = params[start:start + 500]
            cursor.execute(
                f"DELETE FROM {qn(opts.db_table)} WHERE {qn(f.column)} IN ({', '.join(['%s'] * len(chunk))})", chunk
            )
            deleted += cursor.rowcount
    return deleted
