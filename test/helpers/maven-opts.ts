/**
 * The JVM options of every Maven the test suite starts: vitest.config.ts sets them as the workers'
 * MAVEN_OPTS, which relctl and Maven inherit; a test that adds its own `-D` properties to
 * MAVEN_OPTS starts from this constant. A test's Maven
 * is a short run: C1 alone (no C2 compiles competing for the two cores) and the serial collector
 * take about a third off each JVM, and neither changes what Maven does.
 */
export const testMavenOpts = '-Xmx512m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC';
