/** Portal deployment states (reference/portal-api.md §B). */
export type DeploymentState = 'PENDING' | 'VALIDATING' | 'VALIDATED' | 'PUBLISHING' | 'PUBLISHED' | 'FAILED';
export type PublishingType = 'user_managed' | 'automatic' | 'portal_api';

export interface ComponentRecord {
  purl: string;
  groupId: string;
  artifactId: string;
  version: string;
  packaging: string;
  files: string[];
  errors: string[];
}

export interface DeploymentRecord {
  id: string;
  name: string;
  /** The staging repository it was made from (the portal keeps its own copy of the files). */
  repositoryKey: string;
  namespace: string;
  user: string;
  state: DeploymentState;
  publishingType: PublishingType;
  components: ComponentRecord[];
  /** The failure text (validation, or a publish refused because the version exists): what the manual upload and a Nexus 2 close or promote answer. */
  failure?: string;
  /** Deployment-level errors, reported under `common` (a publish that could not complete). */
  commonErrors?: string[];
  /** Files and bytes of the bundle: what publishing limits count. */
  fileCount?: number;
  bytes?: number;
  createdAt: string;
  publishedAt?: string;
}
