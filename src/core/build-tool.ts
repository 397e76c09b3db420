/** The build tools relctl releases with. */
export type BuildTool = 'maven' | 'gradle';
