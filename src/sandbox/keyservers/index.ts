export { KeyDirectory } from './key-directory.js';
export type { AddressStatus, Issuer, KeyDirectoryState, Mail, PrimaryEntry, SecondaryEntry } from './key-directory.js';
export { KeyServerHost } from './host.js';
