#!/usr/bin/env node
// Thin shim: the compiled CLI lives in dist/ (built by `npm install` through the prepare script).
import { runFromProcess } from '../dist/cli.js';

await runFromProcess();
