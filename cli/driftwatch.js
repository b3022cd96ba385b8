#!/usr/bin/env node
// The `driftwatch` command: registers the TypeScript loader, then runs cli/main.ts.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('./main.ts');
process.exitCode = await runCli(process.argv.slice(2));
