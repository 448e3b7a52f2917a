#!/bin/sh
# Render docker/nginx/mangala.conf.template with the MANGALA_* values of the environment (defaults below)
# into OUT (default /etc/nginx/conf.d/mangala.conf) and check the whole nginx configuration (nginx -t).
# Only the ${MANGALA_*} names are replaced: nginx's own $variables are left alone. Needs envsubst (Debian:
# gettext-base). With `--exec`: then run nginx in the foreground (the container's entry point).
#
#   sudo MANGALA_SERVER_NAME=turnuva.example.org MANGALA_STATIC_ROOT=/srv/mangala/var/static \
#        MANGALA_UPSTREAM_SERVERS="server 127.0.0.1:8000;" sh docker/nginx/render.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec_nginx=0
if [ "${1:-}" = "--exec" ]; then exec_nginx=1; shift; fi
out=${1:-/etc/nginx/conf.d/mangala.conf}
template=${MANGALA_TEMPLATE:-$here/mangala.conf.template}

: "${MANGALA_LISTEN:=80}"
: "${MANGALA_SERVER_NAME:=_}"
: "${MANGALA_UPSTREAM_SERVERS:=server 127.0.0.1:8000;}"
: "${MANGALA_STATIC_ROOT:=/srv/mangala/static}"
: "${MANGALA_CACHE_DIR:=/var/cache/nginx/mangala}"
: "${MANGALA_CACHE_SECONDS:=3}"
: "${MANGALA_SESSION_COOKIE:=sessionid}"
: "${MANGALA_FORWARDED_PROTO:=\$scheme}"
: "${MANGALA_REAL_IP_FROM:=127.0.0.1}"
: "${MANGALA_ACCESS_LOG:=/var/log/nginx/mangala-access.log}"
export MANGALA_LISTEN MANGALA_SERVER_NAME MANGALA_UPSTREAM_SERVERS MANGALA_STATIC_ROOT MANGALA_CACHE_DIR \
  MANGALA_CACHE_SECONDS MANGALA_SESSION_COOKIE MANGALA_FORWARDED_PROTO MANGALA_REAL_IP_FROM MANGALA_ACCESS_LOG

case "$MANGALA_CACHE_SECONDS" in
  ''|*[!0-9]*) echo "MANGALA_CACHE_SECONDS must be a whole number of seconds, not '$MANGALA_CACHE_SECONDS'" >&2; exit 2;;
esac
mkdir -p "$MANGALA_CACHE_DIR"
envsubst '${MANGALA_LISTEN} ${MANGALA_SERVER_NAME} ${MANGALA_UPSTREAM_SERVERS} ${MANGALA_STATIC_ROOT} ${MANGALA_CACHE_DIR} ${MANGALA_CACHE_SECONDS} ${MANGALA_SESSION_COOKIE} ${MANGALA_FORWARDED_PROTO} ${MANGALA_REAL_IP_FROM} ${MANGALA_ACCESS_LOG}' \
  < "$template" > "$out"
echo "wrote $out (cache ${MANGALA_CACHE_SECONDS} s; upstream: $MANGALA_UPSTREAM_SERVERS)"
nginx -t -q
if [ "$exec_nginx" = 1 ]; then exec nginx -g 'daemon off;'; fi
