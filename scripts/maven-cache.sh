#!/usr/bin/env bash
# Fills the project-local Maven repository .cache/m2 (git-ignored) from Maven Central with exactly
# what the real-plugin e2e tests (test/e2e/maven-release) run: the plugins of
# test/fixtures/maven-release/plugin-versions.properties, the lifecycle plugins the fixture's parent
# pins, and what their builds load. It builds the fixture reactor the way the tests do (package,
# the gpg `release` profile, deploy to a folder, release:clean, the central-publishing bundle),
# so a second run of the tests needs no network. Quick when the cache is already full.
# An empty repository starts as a copy of the machine's (RELCTL_M2_SEED, default
# ~/.cache/relctl/m2; set it empty for none), and the script leaves the machine's copy equal to
# the repository it filled, less the tests' own org.example artifacts, so a second clone on the
# same machine (CI's clean clone) downloads nothing again. The copy holds only public artifacts
# from Maven Central, and every step below still runs and fetches what it lacks.
# Usage: scripts/maven-cache.sh [local repository, default .cache/m2]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
repo="$(mkdir -p "${1:-$root/.cache/m2}" && cd "${1:-$root/.cache/m2}" && pwd)"
seed="${RELCTL_M2_SEED-${HOME:+${XDG_CACHE_HOME:-$HOME/.cache}/relctl/m2}}"
if [ -n "$seed" ] && [ -d "$seed" ] && [ -z "$(ls -A "$repo")" ]; then
  echo "maven-cache: starting from the machine's copy $seed"
  cp -a "$seed/." "$repo/"
fi
fixture="$root/test/fixtures/maven-release"
# shellcheck disable=SC1091
source "$fixture/plugin-versions.properties"

work="$(mktemp -d "${TMPDIR:-/tmp}/relctl-maven-cache-XXXXXX")"
trap 'rm -rf "$work"' EXIT
# Short builds: C1 alone and the serial collector take about a third off each JVM (as the tests'
# test/helpers/maven-opts.ts does); a caller's own MAVEN_OPTS wins.
export MAVEN_OPTS="${MAVEN_OPTS:--XX:TieredStopAtLevel=1 -XX:+UseSerialGC}"
mvn_() { mvn -B -q -Dstyle.color=never -s "$work/settings.xml" "-Dmaven.repo.local=$repo" "$@"; }
cat >"$work/settings.xml" <<'EOF'
<settings/>
EOF

echo "maven-cache: plugins into $repo"
for gav in \
  "org.apache.maven.plugins:maven-release-plugin:$RELEASE_PLUGIN" \
  "org.apache.maven.plugins:maven-gpg-plugin:$GPG_PLUGIN" \
  "org.sonatype.central:central-publishing-maven-plugin:$CENTRAL_PUBLISHING"; do
  mvn_ dependency:get "-Dartifact=$gav"
done

# The fixture reactor, as the tests write it (a folder stands in for the sandbox and the remote).
group=org.example.e2e.cache
portal_plugin="<build><plugins><plugin><groupId>org.sonatype.central</groupId><artifactId>central-publishing-maven-plugin</artifactId><version>$CENTRAL_PUBLISHING</version><extensions>true</extensions><configuration><centralBaseUrl>http://127.0.0.1:9/portal</centralBaseUrl></configuration></plugin></plugins></build>"
fill() { # fill <from> <to> <build xml>
  sed -e "s#@GROUP@#$group#g" -e "s#@REMOTE@#$work/remote.git#g" -e "s#@STAGING@#file://$work/deployed#g" \
    -e "s#@GPG_PLUGIN@#$GPG_PLUGIN#g" -e "s#@RELEASE_PLUGIN@#$RELEASE_PLUGIN#g" -e "s#@BUILD@#$3#g" "$1" >"$2"
}
parent_dir="$repo/${group//.//}/eco/eco-parent/7"
mkdir -p "$parent_dir"
fill "$fixture/eco-parent/pom.xml" "$parent_dir/eco-parent-7.pom" ""
for variant in staging portal; do
  cp -r "$fixture/project" "$work/$variant"
  build=""
  [ "$variant" = portal ] && build="$portal_plugin"
  for pom in pom.xml core/pom.xml webapp/pom.xml; do fill "$fixture/project/$pom" "$work/$variant/$pom.tmp" "$build" && mv "$work/$variant/$pom.tmp" "$work/$variant/$pom"; done
done
echo "maven-cache: the fixture's builds (staging route, then the central-publishing bundle)"
# gpg.skip still loads maven-gpg-plugin (and its dependencies); only the signing is skipped.
(cd "$work/staging" && mvn_ clean deploy release:clean -Prelease -Dgpg.skip=true)
(cd "$work/portal" && mvn_ clean deploy -Prelease -Dgpg.skip=true -DskipUpload=true)
rm -rf "${repo:?}/${group//.//}" # the warm-up's own throwaway group

# The Nexus 2 staging route's real clients (test/e2e/nexus2): nexus-staging-maven-plugin (both
# versions, as a build extension) and jreleaser-maven-plugin, loaded by the fixture project the way
# the tests load them (no network is needed to load them; they are never pointed anywhere here).
# shellcheck disable=SC1091
source "$root/test/fixtures/nexus2/plugin-versions.properties"
echo "maven-cache: the Nexus 2 staging clients"
for gav in \
  "org.sonatype.plugins:nexus-staging-maven-plugin:$NEXUS_STAGING_OLD" \
  "org.sonatype.plugins:nexus-staging-maven-plugin:$NEXUS_STAGING" \
  "org.jreleaser:jreleaser-maven-plugin:$JRELEASER"; do
  mvn_ dependency:get "-Dartifact=$gav"
done
nexus2_project() { # nexus2_project <folder> <publishing plugin xml>
  cp -r "$root/test/fixtures/nexus2/project" "$work/$1"
  NEXUS2_PLUGIN="$2" perl -0pi -e 's/\@PUBLISHING\@/$ENV{NEXUS2_PLUGIN}/; s/\@GROUP\@/org.example.e2e.cache.nexus2/; s/\@VERSION\@/1.0.0/; s/\@GPG_PLUGIN\@/'"$GPG_PLUGIN"'/' "$work/$1/pom.xml"
}
for version in "$NEXUS_STAGING_OLD" "$NEXUS_STAGING"; do
  nexus2_project "nexus-staging-$version" "<plugin><groupId>org.sonatype.plugins</groupId><artifactId>nexus-staging-maven-plugin</artifactId><version>$version</version><extensions>true</extensions><configuration><serverId>central</serverId><nexusUrl>http://127.0.0.1:9/</nexusUrl></configuration></plugin>"
  (cd "$work/nexus-staging-$version" && mvn_ clean verify -Dgpg.skip=true)
done
nexus2_project jreleaser "<plugin><groupId>org.jreleaser</groupId><artifactId>jreleaser-maven-plugin</artifactId><version>$JRELEASER</version></plugin>"
# jreleaser:deploy with no deployer configured loads the plugin and deploys nothing.
(cd "$work/jreleaser" && mvn_ clean deploy -Dgpg.skip=true "-DaltDeploymentRepository=local::file:$work/jreleaser/target/staging-deploy" && mvn_ jreleaser:deploy)

# The rehearsal suite (test/e2e/rehearse-real, test/e2e/rehearse*.test.ts): each project released
# the way `relctl rehearse` releases it (release:prepare release:perform in a copy pushing to a bare
# remote, deploying to a folder), so its run loads exactly these plugins; the runs that stop where
# the real release stops (JDK 17) load what the suite's failing rehearsals load. Done once: a
# marker names what was fetched.
realworld="${RELCTL_REALWORLD_SRC:-$root/test/fixtures/realworld-src}"
marker="$repo/.relctl-rehearse-prefetch-1"
rehearse_like() { # rehearse_like <name> <source folder> <release version> <.mvn/maven.config line or "">
  local dir="$work/rh-$1$([ -n "$4" ] && echo -w)" remote="$work/rh-$1.git$([ -n "$4" ] && echo -w)"
  cp -r "$2" "$dir" && chmod -R u+w "$dir"
  git init -q --bare -b main "$remote"
  perl -0pi -e "s#<(developerC|c)onnection>[^<]*#<\$1onnection>scm:git:file://$remote#g" "$dir/pom.xml"
  if [ -n "$4" ]; then mkdir -p "$dir/.mvn" && echo "$4" >"$dir/.mvn/maven.config"; fi
  (cd "$dir" && git init -q -b main && git add -A && git commit -qm prefetch && git remote add origin "$remote" && git push -q origin main)
  (cd "$dir" &&
    export MAVEN_OPTS="$MAVEN_OPTS -DaltDeploymentRepository=central::default::file://$work/rh-deployed -Dgoals=deploy -Dgpg.skip=true -Dmaven.repo.local=$repo" &&
    export JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}" &&
    mvn_ release:prepare release:perform "-DreleaseVersion=$3" "-Dtag=$1-$3" >/dev/null 2>&1) || true
}
if [ -d "$realworld" ] && [ ! -f "$marker" ]; then
  echo "maven-cache: the rehearsal suite's builds (realworld-src and the demo, a few minutes)"
  export GIT_AUTHOR_NAME=prefetch GIT_AUTHOR_EMAIL=prefetch@example.invalid GIT_COMMITTER_NAME=prefetch GIT_COMMITTER_EMAIL=prefetch@example.invalid
  workaround='-DadditionalReleaseArguments=-P!jasig-release'
  rehearse_like basiclti-portlet "$realworld/basiclti-portlet" 1.5.1 ""
  rehearse_like basiclti-portlet "$realworld/basiclti-portlet" 1.5.1 "$workaround"
  rehearse_like portlet-utils "$realworld/portlet-utils" 1.1.4 ""
  rehearse_like cas-server-security-filter "$realworld/cas-server-security-filter" 2.0.10.5 ""
  rehearse_like cas-server-security-filter "$realworld/cas-server-security-filter" 2.0.10.5 "$workaround"
  rehearse_like relctl-demo "$root/examples/demo" 1.0.0 ""
  rehearse_like missing-developers "$root/examples/missing-developers" 1.0.0 ""
  mvn_ dependency:get "-Dartifact=org.apache.maven.plugins:maven-antrun-plugin:3.1.0"
  # What the builds installed as "released" is not a release: only downloads stay.
  rm -rf "$repo/org/jasig/portlet/basiclti-portlet" "$repo/org/jasig/portlet/utils" "$repo/org/apereo/cas/cas-server-security-filter" "$repo/org/example/relctl"
  touch "$marker"
fi
# maven-release-plugin 2.1 (oss-parent 9's) and what its builds load: test/e2e/rehearse-real/oss-parent.test.ts.
# (-Dmaven.repo.local in MAVEN_OPTS above: release plugin 2.x forks Maven without it.)
marker2="$repo/.relctl-rehearse-prefetch-2"
if [ ! -f "$marker2" ]; then
  echo "maven-cache: the oss-parent 9 library's release build (release plugin 2.1)"
  export GIT_AUTHOR_NAME=prefetch GIT_AUTHOR_EMAIL=prefetch@example.invalid GIT_COMMITTER_NAME=prefetch GIT_COMMITTER_EMAIL=prefetch@example.invalid
  rehearse_like oss9-greeting "$root/test/fixtures/oss-parent-9" 1.0.0 ""
  rm -rf "$repo/org/example/relctl/oss9"
  touch "$marker2"
fi
if [ -n "$seed" ] && [ "$seed" != "$repo" ]; then
  # Replaced whole (a copy beside it, then a rename): a run stopped half-way never leaves it partial.
  # org.example is what the tests built and released into .cache/m2, never a download: left out.
  # Best effort: a HOME that cannot be written (a read-only one in a container) costs only the copy.
  if ! { mkdir -p "$(dirname "$seed")" && rm -rf "$seed.new.$$" && cp -a "$repo" "$seed.new.$$" &&
    rm -rf "$seed.new.$$/org/example" && rm -rf "$seed" && mv "$seed.new.$$" "$seed"; } 2>/dev/null; then
    rm -rf "$seed.new.$$" 2>/dev/null || true
    echo "maven-cache: could not keep the machine's copy in $seed (the tests do not need it)" >&2
  fi
fi
echo "maven-cache: done ($(du -sh "$repo" | cut -f1))"
