#!/bin/bash
# Initialises the cluster on first start the way the official image does, then runs the server as
# the postgres user with whatever arguments the container was given (`postgres -c fsync=off`).
set -euo pipefail

if [ "${1:0:1}" = "-" ]; then
  set -- postgres "$@"
fi
if [ "$1" != "postgres" ]; then
  exec "$@"
fi

user="${POSTGRES_USER:-postgres}"
password="${POSTGRES_PASSWORD:-postgres}"
db="${POSTGRES_DB:-$user}"

mkdir -p "$PGDATA" /var/run/postgresql
chown -R postgres:postgres "$PGDATA" /var/run/postgresql
chmod 700 "$PGDATA"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$password" > "$pwfile"
  chown postgres "$pwfile"
  runuser -u postgres -- initdb -D "$PGDATA" --username="$user" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  {
    echo "listen_addresses = '*'"
    echo "shared_preload_libraries = 'pg_stat_statements'"
    # pgjdbc names every savepoint anew (JDBC_SAVEPOINT_<n>), one entry each: with the default
    # 5,000 entries a benchmark round of nested transactions evicted a third of its own counts.
    echo "pg_stat_statements.max = 50000"
    echo "max_connections = 200"
  } >> "$PGDATA/postgresql.conf"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"

  # A server on the Unix socket only, to create the database; it logs "ready" the first time.
  runuser -u postgres -- pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
  if [ "$db" != "postgres" ]; then
    runuser -u postgres -- psql -v ON_ERROR_STOP=1 -U "$user" -d postgres -q \
      -c "CREATE DATABASE \"$db\" OWNER \"$user\""
  fi
  runuser -u postgres -- pg_ctl -D "$PGDATA" -m fast -w stop
fi

exec runuser -u postgres -- "$@"
