#!/usr/bin/env node
// Writes schema/bench-report.schema.json from the schema object in src/report/bench-report-json-schema.ts
// (through dist/: run `pnpm --filter @kreplay/bench build` first). A test checks that the two agree.
import { writeFileSync } from 'node:fs';
import { benchReportJsonSchema } from '../dist/index.js';

const target = new URL('../schema/bench-report.schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(benchReportJsonSchema, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
