"""Alembic migrations of the store's schema (SQLite and PostgreSQL alike); see ``migrate.py``."""
