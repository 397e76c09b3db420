// Shared by the bench scripts (run.mjs skips files starting with an underscore).

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Maven settings that resolve everything from Debian's packaged plugins (file:// mirror, see
 * shared/reference/maven-offline.md) and hold one <server> for the distribution id `central`.
 */
export function debianMirrorSettings(username, password) {
  return `<settings>
  <mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file:///usr/share/maven-repo</url></mirror></mirrors>
  <profiles><profile><id>debian-repo</id>
    <repositories><repository><id>central</id><url>file:///usr/share/maven-repo</url>
      <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
    </repository></repositories>
    <pluginRepositories><pluginRepository><id>central</id><url>file:///usr/share/maven-repo</url>
      <releases><checksumPolicy>ignore</checksumPolicy></releases><snapshots><enabled>false</enabled></snapshots>
    </pluginRepository></pluginRepositories>
  </profile></profiles>
  <activeProfiles><activeProfile>debian-repo</activeProfile></activeProfiles>
  <servers><server><id>central</id><username>${username}</username><password>${password}</password></server></servers>
</settings>
`;
}
