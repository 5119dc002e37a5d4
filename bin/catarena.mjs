#!/usr/bin/env node
// Entry point: loads the TypeScript sources through tsx (no build step to forget).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../orchestrator/cli/main.ts');
process.exitCode = await main(process.argv);
