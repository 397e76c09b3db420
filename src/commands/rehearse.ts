import type { Define } from './registry.js';

export const define: Define = (program) => {
  program.command('rehearse').description('the whole chain against an embedded sandbox, in a throwaway copy of the project');
};
