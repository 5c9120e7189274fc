"""The audit store: every recorded run and its results, kept in SQLite or PostgreSQL.

A store is named by a target: a file path (SQLite; the file is created on
first use) or a database URL (``postgresql://user:password@host:5432/db``,
``sqlite:///path``). Without one, the default is ``runs.sqlite`` under
``$XDG_DATA_HOME/quoteverify`` (else ``~/.local/share/quoteverify``).
``postgresql://`` URLs connect through psycopg (``pip install
'quoteverify[postgres]'``) when it is installed, else through SQLAlchemy's
default driver, psycopg2.

Tables:

- ``runs``: ``id``, ``time`` (ISO 8601, UTC), ``version`` of quoteverify,
  ``config`` (JSON: every setting), counts (``quotes``, ``verified``, ``review``,
  ``unverified``), ``corpus`` (JSON: doc_id, path and sha256 of every document),
  ``quotes_sha256`` (of the quote table file) and ``embedder``.
- ``results``: ``run_id``, ``position`` (0-based, input order),
  ``claimed_speaker`` (the speaker the quote table named, needed to check the
  quote again) and one column per QuoteResult field; lists and mappings as
  JSON. When QuoteResult gains a field, opening an older store adds its column.

SQLAlchemy is imported when a store is opened, not with this module.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import time
import types
import typing
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_data_path

from ..model.config import load_config
from ..model.decoders import DecodeError, json_loads, record_of, shown
from ..model.errors import QuoteverifyError
from ..model.text import displayable_data, masked
from ..model.types import BAND_MEDIUM, Quote, QuoteResult, count_by_status
from ..model.version import __version__
from ..sources.quotes import quotes_from_records
from .support import timestamp

if TYPE_CHECKING:
    from ..model.types import Run

STORE_FILE = "runs.sqlite"
# Tries at making the tables while other runs make them too (see Store._create_tables).
SCHEMA_ATTEMPTS = 10
# What a database says when another connection made the table, index or column first.
_RACE_MESSAGES = ("already exists", "duplicate column", "duplicate key value", "pg_type_typname_nsp_index")
MAX_RUN_ID = 2**63 - 1  # SQL's BIGINT
# A quote below this confidence is rechecked: the upper edge of the low band (classify.band).
RECHECK_BELOW = BAND_MEDIUM


class StoreError(QuoteverifyError):
    """A store that cannot be opened or written, or a run that is not in it."""


def default_path() -> Path:
    """The default audit store (Linux: $XDG_DATA_HOME/quoteverify or ~/.local/share/quoteverify)."""
    return user_data_path("quoteverify", appauthor=False) / STORE_FILE


# --- schema ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Schema:
    metadata: Any
    runs: Any
    results: Any


def _column_type(hint: Any) -> Any:
    """The SQL type of a QuoteResult field: str, int, float (optional or not), else JSON."""
    # SQLAlchemy takes half a second to import; only the audit store needs it.
    import sqlalchemy as sa

    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        hint = args[0] if len(args) == 1 else Any
    return {str: sa.Text, int: sa.Integer, float: sa.Float, bool: sa.Boolean}.get(hint, sa.JSON)


@functools.cache
def _schema() -> _Schema:
    # SQLAlchemy takes half a second to import; only the audit store needs it.
    import sqlalchemy as sa

    metadata = sa.MetaData()
    runs = sa.Table(
        "runs", metadata,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("time", sa.String(40), nullable=False),
        sa.Column("version", sa.String(40), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("quotes", sa.Integer, nullable=False),
        sa.Column("verified", sa.Integer, nullable=False),
        sa.Column("review", sa.Integer, nullable=False),
        sa.Column("unverified", sa.Integer, nullable=False),
        sa.Column("corpus", sa.JSON, nullable=False),
        sa.Column("quotes_sha256", sa.String(64), nullable=False),
        sa.Column("embedder", sa.Text),
    )
    hints = typing.get_type_hints(QuoteResult)
    results = sa.Table(
        "results", metadata,
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("claimed_speaker", sa.Text),
        *(sa.Column(f.name, _column_type(hints[f.name])) for f in fields(QuoteResult) if f.name != "claimed_speaker"),
        sa.Index("ix_results_run_quote", "run_id", "quote_id"),
    )
    return _Schema(metadata, runs, results)


# --- the store ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpusFile:
    """One document of a recorded run."""

    doc_id: str
    path: str
    sha256: str


@dataclass(frozen=True)
class StoredRun:
    """One row of the ``runs`` table."""

    run_id: int
    time: str
    version: str
    config: dict[str, Any]
    quotes: int
    verified: int
    review: int
    unverified: int
    corpus: tuple[CorpusFile, ...]
    quotes_sha256: str
    embedder: str | None


def _is_url(target: str) -> bool:
    return "://" in target


def _resolve(target: str | Path | None, *, create: bool) -> tuple[Any, str]:
    """(SQLAlchemy URL, how messages name the store) for ``target``."""
    # SQLAlchemy takes half a second to import; only the audit store needs it.
    import sqlalchemy as sa

    if target is not None and _is_url(str(target)):
        return _database_url(str(target))
    path = Path(target) if target is not None else default_path()
    if not path.exists() and not create:
        how = "--record" if target is None else f"--store {path}"
        raise StoreError(f"{path}: no audit store here yet; record a run into it with "
                         f"'quoteverify verify DOCS... QUOTES {how}'")
    if not path.parent.exists():
        if target is not None:
            raise StoreError(f"{path}: folder {path.parent} does not exist; create it or choose another path")
        path.parent.mkdir(parents=True, exist_ok=True)  # several first runs at once all make it
    return sa.engine.URL.create("sqlite", database=str(path)), str(path)


def store_file(target: str | Path | None) -> Path | None:
    """The SQLite file a store target names (a path, a sqlite:/// URL, or None: the default store); None
    for a database on a server."""
    if target is None:
        return default_path()
    if not _is_url(str(target)):
        return Path(target)
    if not str(target).startswith("sqlite:"):
        return None
    # SQLAlchemy takes half a second to import; only the audit store needs it.
    import sqlalchemy as sa

    try:
        database = sa.engine.make_url(str(target)).database
    except (sa.exc.ArgumentError, ValueError):
        return None  # not a URL at all: Store says so when it opens it
    return Path(database) if database and database != ":memory:" else None


def _select(table: Any) -> Any:
    # SQLAlchemy takes half a second to import; only the audit store needs it.
    import sqlalchemy as sa

    return sa.select(table)


class Store:
    """An open audit store; use as a context manager, or call close().

    ``create``: make a missing SQLite file (on recording); reading a store that
    does not exist is an error that says how to make one.
    """

    def __init__(self, target: str | Path | None = None, *, create: bool = True, busy_seconds: float | None = None):
        # SQLAlchemy takes half a second to import; only the audit store needs it.
        import sqlalchemy as sa

        url, self.location = _resolve(target, create=create)
        self._schema = _schema()
        if busy_seconds is None:
            busy_seconds = load_config().store.busy_seconds
        self.busy_seconds = busy_seconds
        # A writer waits this long for another run's transaction (a 100,000-quote record takes a while).
        connect_args = {"timeout": self.busy_seconds} if url.get_backend_name() == "sqlite" else {}
        try:
            # Every JSON column is read through the bounded decoder: a damaged row is an error, not a traceback.
            self.engine = sa.create_engine(url, connect_args=connect_args, json_deserializer=json_loads)
        except ModuleNotFoundError as exc:
            raise StoreError(f"{self.location}: needs the database driver '{exc.name}', which is not installed; "
                             "for PostgreSQL: pip install 'quoteverify[postgres]'") from None
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ValueError) as exc:
            raise StoreError(f"{self.location}: not a database URL quoteverify can use ({_one_line(exc)}); give a "
                             "file path for SQLite or a URL such as postgresql://user@localhost/quoteverify") from None
        with self._errors("cannot open the store"):
            self._create_tables(sqlite_file=url.get_backend_name() == "sqlite")

    def _create_tables(self, *, sqlite_file: bool) -> None:
        """Check the tables and make the missing ones. Runs that open a new store at once race to make them: the
        loser of a race finds the table (or column) made meanwhile, and checks again."""
        # SQLAlchemy takes half a second to import; only the audit store needs it.
        import sqlalchemy as sa

        for attempt in range(SCHEMA_ATTEMPTS):
            try:
                self._check_tables(sqlite_file=sqlite_file)
                self._schema.metadata.create_all(self.engine)
                self._add_missing_columns()
                return
            except (sa.exc.OperationalError, sa.exc.ProgrammingError, sa.exc.IntegrityError) as exc:
                reason = str(getattr(exc, "orig", None) or exc)
                if attempt == SCHEMA_ATTEMPTS - 1 or not any(m in reason for m in _RACE_MESSAGES):
                    raise
                time.sleep(0.05 * (attempt + 1))

    def _check_tables(self, *, sqlite_file: bool) -> None:
        """Refuse a database whose tables quoteverify did not make, before anything is written to it."""
        # SQLAlchemy takes half a second to import; only the audit store needs it.
        import sqlalchemy as sa

        inspector = sa.inspect(self.engine)
        tables = set(inspector.get_table_names())
        for table in (self._schema.runs, self._schema.results):
            if table.name not in tables:
                continue
            present = {c["name"] for c in inspector.get_columns(table.name)}
            # Columns an older version's store lacks are added (_add_missing_columns); these it always had.
            needed = {"id", "time", "version", "config", "corpus"} if table is self._schema.runs else \
                {"run_id", "position", "quote_id", "quote", "status"}
            if not needed <= present:
                raise StoreError(f"{self.location}: refused: its '{table.name}' table is not a quoteverify "
                                 f"store's (no column {', '.join(sorted(needed - present))}); give another store")
        others = sorted(tables - {"runs", "results", "sqlite_sequence"})
        if sqlite_file and others:
            shown = ", ".join(others[:5]) + (f" and {len(others) - 5} more" if len(others) > 5 else "")
            raise StoreError(f"{self.location}: refused: it is another application's database (tables {shown}); "
                             "give a new file or a quoteverify store")

    @contextlib.contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Turn a database error into a StoreError that names the store."""
        # SQLAlchemy takes half a second to import; only the audit store needs it.
        import sqlalchemy as sa

        try:
            yield
        except DecodeError as exc:
            raise StoreError(f"{self.location}: {doing}: a recorded row is damaged ({exc}); record the run again "
                             "into a new store") from None
        except sa.exc.SQLAlchemyError as exc:
            reason = masked(str(getattr(exc, "orig", None) or exc).strip().splitlines()[0])
            if "database is locked" in reason:
                raise StoreError(f"{self.location}: {doing} (database is locked: other runs kept it busy for more "
                                 f"than {self.busy_seconds:g} s); try again when they are done") from None
            if isinstance(exc, sa.exc.DatabaseError) and "not a database" in reason:
                raise StoreError(f"{self.location}: {doing} ({reason}); give a new file or a quoteverify "
                                 "store") from None
            raise StoreError(f"{self.location}: {doing} ({reason}); check the path or URL, that the server "
                             "runs, and the credentials") from None

    def _add_missing_columns(self) -> None:
        """Give a store made by an older version the columns of QuoteResult's newer fields."""
        # SQLAlchemy takes half a second to import; only the audit store needs it.
        import sqlalchemy as sa

        table = self._schema.results
        with self.engine.begin() as connection:
            present = {c["name"] for c in sa.inspect(connection).get_columns(table.name)}
            quote = self.engine.dialect.identifier_preparer.quote
            for column in table.columns:
                if column.name not in present:
                    kind = column.type.compile(dialect=self.engine.dialect)
                    connection.execute(sa.text(f"ALTER TABLE {table.name} ADD COLUMN {quote(column.name)} {kind}"))

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.engine.dispose()

    def record(self, run: Run, *, time: datetime | None = None) -> int:
        """Record ``run`` and its results; returns the new run's id. ``time`` defaults to now."""
        schema = self._schema
        counts = count_by_status(run.results)
        speakers = [q.speaker for q in run.quotes] if len(run.quotes) == len(run.results) else []
        with self._errors("cannot record the run"), self.engine.begin() as connection:
            inserted = connection.execute(schema.runs.insert().values(**displayable_data(dict(
                time=timestamp(time), version=__version__, config=run.config.as_dict(), quotes=len(run.results),
                verified=counts["verified"], review=counts["review"], unverified=counts["unverified"],
                corpus=[asdict(CorpusFile(d.doc_id, d.path, d.sha256)) for d in run.documents],
                quotes_sha256=run.quotes_sha256, embedder=run.embedder))))
            key = inserted.inserted_primary_key
            assert key is not None  # an insert into a table with a primary key returns it
            run_id = key[0]
            # A database holds UTF-8 only: lone surrogates (bytes that were not UTF-8) are stored as U+FFFD.
            rows = [displayable_data({"run_id": run_id, "position": k, "claimed_speaker": speakers[k] if speakers
                                      else "", **result.to_dict()}) for k, result in enumerate(run.results)]
            if rows:
                connection.execute(schema.results.insert(), rows)
        return run_id

    def runs(self) -> list[StoredRun]:
        """Every recorded run, oldest first."""
        table = self._schema.runs
        with self._errors("cannot read the runs"), self.engine.connect() as connection:
            rows = connection.execute(_select(table).order_by(table.c.id)).mappings().all()
            return [_stored_run(row) for row in rows]

    def run(self, run_id: int) -> StoredRun:
        """The recorded run ``run_id``."""
        if not 0 < run_id <= MAX_RUN_ID:
            raise StoreError(f"{self.location}: no run {run_id} here; run ids are whole numbers from 1 up; "
                             f"'quoteverify runs --store {self.location}' lists the runs recorded")
        table = self._schema.runs
        with self._errors("cannot read the runs"), self.engine.connect() as connection:
            row = connection.execute(_select(table).where(table.c.id == run_id)).mappings().first()
            if row is None:
                raise StoreError(f"{self.location}: no run {run_id} here; 'quoteverify runs --store "
                                 f"{self.location}' lists the runs recorded")
            return _stored_run(row)

    def _rows(self, run_id: int) -> list[Any]:
        self.run(run_id)
        table = self._schema.results
        with self._errors("cannot read the results"), self.engine.connect() as connection:
            query = _select(table).where(table.c.run_id == run_id).order_by(table.c.position)
            return list(connection.execute(query).mappings().all())

    def results(self, run_id: int) -> list[QuoteResult]:
        """The results of run ``run_id``, in input order, as they were recorded."""
        return [result for _, result in self._results(run_id)]

    def _results(self, run_id: int) -> list[tuple[Any, QuoteResult]]:
        rows = self._rows(run_id)
        with self._errors(f"cannot read run {run_id}"):
            return [(row, _stored_result(row)) for row in rows]

    def quotes(self, run_id: int) -> list[Quote]:
        """The quotes of run ``run_id`` as the quote table gave them, in input order, to check again."""
        records = []
        for row, result in self._results(run_id):
            confidence = result.finding_confidence
            records.append((result.row, {
                **result.extra, "quote": result.quote, "quote_id": result.quote_id,
                "document": result.claimed_document, "speaker": str(row["claimed_speaker"] or ""),
                "finding": result.finding, "finding_confidence": "" if confidence is None else repr(confidence)}))
        header = list(dict.fromkeys(key for _, record in records for key in record)) or ["quote"]
        quotes, _ = quotes_from_records(records, header, f"{self.location}: run {run_id}")
        return quotes


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _database_url(target: str) -> tuple[Any, str]:
    """(SQLAlchemy URL, ``target`` without its password); plain ``postgresql://`` uses psycopg (3) when installed."""
    # SQLAlchemy takes half a second to import; only the audit store needs it.
    import sqlalchemy as sa

    try:
        url = sa.engine.make_url(target)
        url.get_dialect()  # an unknown scheme (http://) fails here, not in the middle of a run
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ValueError) as exc:
        raise StoreError(masked(f"{target}: not a database URL quoteverify can use ({_one_line(exc)}); give a "
                                "file path for SQLite or a URL such as postgresql://user@localhost/quoteverify")
                         ) from None
    except ModuleNotFoundError:
        pass  # a known database without its driver: Store names the driver to install
    location = url.render_as_string(hide_password=True)
    if url.drivername == "postgresql" and importlib.util.find_spec("psycopg") is not None:
        url = url.set(drivername="postgresql+psycopg")
    return url, location


def _stored_run(row: Any) -> StoredRun:
    """A row of ``runs`` as a StoredRun, each value checked for its type (a DecodeError if one is wrong)."""
    return record_of(StoredRun, {"run_id": row["id"], **{f.name: row[f.name] for f in fields(StoredRun)
                                                       if f.name != "run_id"}}, name=f"run {row['id']}")


def _stored_result(row: Any) -> QuoteResult:
    """A row of ``results`` as a QuoteResult, each value checked for its type (a DecodeError if one is wrong)."""
    # A NULL is a field added since the row was recorded: it takes the field's default.
    return record_of(QuoteResult, {f.name: row[f.name] for f in fields(QuoteResult) if row[f.name] is not None},
                     name=f"run {row['run_id']}, result {shown(row['position'])}")


def open_store(target: str | Path | None = None, *, create: bool = True,
               busy_seconds: float | None = None) -> Store:
    """The store at ``target`` (a SQLite file path or a database URL; None: the default SQLite file).
    ``busy_seconds``: how long a SQLite writer waits for another (default: store.busy_seconds of the config)."""
    return Store(target, create=create, busy_seconds=busy_seconds)


# --- recheck --------------------------------------------------------------------------------------
