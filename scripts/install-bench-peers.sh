#!/usr/bin/env bash
# Installs the real servers kiln-bench measures against (nginx for `kiln-bench client`).
set -euo pipefail
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] && exit 0
sudo_=""
[ "$(id -u)" = 0 ] || sudo_=sudo
$sudo_ apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq nginx
