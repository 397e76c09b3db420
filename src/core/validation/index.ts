export type { ComponentVerdict, DeploymentFile, DeploymentFiles, RuleCode, RuleViolation, SignatureVerdict, SizedDeploymentFile, ValidationEnvironment } from './types.js';
export { asDeploymentFile, fileOfBytes } from './single-read.js';
export { ruleCodes } from './types.js';
export { validateDeployment, mainExtension, purlOf } from './validate.js';
export { formatFailure, parseFailureText, failureHeadline } from './format.js';
export type { FailedComponentText } from './format.js';
export { ruleCodeOfText, ruleText } from './texts.js';
