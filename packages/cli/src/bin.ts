#!/usr/bin/env node
import { runCli } from './run-cli.js';

// No top-level await: the package's build also emits CommonJS (tsup builds every entry in both formats).
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
