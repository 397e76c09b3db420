#!/usr/bin/env bash
# Installs the Debian packages relctl's demo and tests need, only those missing:
#   --maven   Java, Maven and Maven's plugins (used offline from /usr/share/maven-repo), gpg, git
#   --browser Chromium, for the sandbox web-page test
#   --image   buildah (rootless image builds, vfs storage), Debian's docker-registry (a real registry
#             on loopback for the image tests) and apache2-utils (htpasswd for the registry's auth)
#   --formats xmllint (libxml2-utils), which validates `--format junit` against the vendored XSD
# Needs root or sudo when something is missing; prints what it installs.
set -euo pipefail

maven=(
  maven openjdk-17-jdk-headless gnupg git
  libmaven-deploy-plugin-java libmaven-install-plugin-java libmaven-jar-plugin-java
  libmaven-war-plugin-java libmaven-resources-plugin-java libmaven-compiler-plugin-java
  libsurefire-java libmaven-clean-plugin-java libmaven-source-plugin-java
  libmaven-javadoc-plugin-java libmaven-antrun-plugin-java
)
browser=(chromium)
image=(buildah docker-registry apache2-utils)
formats=(libxml2-utils)

wanted=()
for arg in "$@"; do
  case "$arg" in
    --maven) wanted+=("${maven[@]}") ;;
    --browser) wanted+=("${browser[@]}") ;;
    --image) wanted+=("${image[@]}") ;;
    --formats) wanted+=("${formats[@]}") ;;
    *) echo "usage: $0 [--maven] [--browser] [--image] [--formats]" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
  echo "missing packages (install them with your package manager): ${missing[*]}" >&2
  exit 3
fi
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "run as root or install sudo: missing ${missing[*]}" >&2; exit 3; }
  sudo_cmd=(sudo)
fi
echo "installing Debian packages: ${missing[*]}" >&2
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
