#!/usr/bin/env node
// Writes every schema/*.schema.json from the schema objects in src (kreplayDocumentSchemas: bench
// reports, profiles, their comparison, the JSON of replay and calibrate), through dist/: run
// `pnpm --filter @kreplay/bench build` first. A test checks that the files and the objects agree.
import { writeFileSync } from 'node:fs';
import { kreplayDocumentSchemas } from '../dist/index.js';

for (const { file, schema } of kreplayDocumentSchemas) {
  const target = new URL(`../schema/${file}`, import.meta.url);
  writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote ${target.pathname}`);
}
