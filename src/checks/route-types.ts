/**
 * What the publishing route (route.ts) is made of: the types the facts, the route detection, the
 * nexus-staging clients (route-nexus.ts) and the renderers share. Apart from route.ts so that the facts
 * can hold a route without importing the detection that reads the facts.
 */

export type RouteKind = 'staging-api' | 'legacy-ossrh' | 'portal-plugin' | 'nexus-staging' | 'other' | 'unknown';

export interface RouteEvidence {
  file: string;
  line: number;
  why: string;
}

/** A settings `<server>` id the Central Portal plugin authenticates with (Maven). */
export interface PortalServer {
  id: string;
  file: string;
  line: number;
  module: string;
}

export interface PublishingRoute {
  kind: RouteKind;
  evidence: RouteEvidence[];
  /** portal-plugin on Maven: the central-publishing plugin's `publishingServerId`s. */
  portalServers?: PortalServer[];
  /** A publishing plugin aimed at a retired host by its default or its host setting (no URL written). */
  legacyPluginHosts?: RouteEvidence[];
  /** nexus-staging: the Nexus 2 staging clients and what they are told (release and rehearse read it). */
  nexusClients?: NexusStagingClient[];
}

/** A Nexus 2 staging client of the build (nexus-staging route) and the settings that shape a release. */
export interface NexusStagingClient {
  tool: 'nexus-staging-maven-plugin' | 'gradle-nexus' | 'io.codearte.nexus-staging' | 'jreleaser-nexus2';
  file: string;
  line: number;
  nexusUrl?: string;
  /** Maven: the settings `<server>` it authenticates with. */
  serverId?: string;
  /** As written; the plugin's default (false) when absent. */
  autoReleaseAfterClose?: string;
  /** Minutes, as written; the plugin's default (5) when absent. */
  stagingProgressTimeoutMinutes?: string;
}
