import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kreplayDocumentSchemas } from './document-schemas.js';

describe('the JSON Schemas of kreplay documents', () => {
  it('ship as files equal to the objects they validate with, each exported by the package', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(manifest.files).toContain('schema');
    for (const { file, schema } of kreplayDocumentSchemas) {
      const written = JSON.parse(readFileSync(new URL(`../../schema/${file}`, import.meta.url), 'utf8')) as unknown;
      // If this fails after a change to a schema object: pnpm --filter @kreplay/bench build && node scripts/write-report-schema.mjs
      expect({ file, schema: written }).toEqual({ file, schema: JSON.parse(JSON.stringify(schema)) });
      expect(manifest.exports[`./schema/${file}`]).toBe(`./schema/${file}`);
    }
    expect(readdirSync(new URL('../../schema/', import.meta.url)).sort()).toEqual(kreplayDocumentSchemas.map((entry) => entry.file).sort());
  });

  it('have ids of one scheme, urn:kreplay:schema:<name>:<version>, named as their files', () => {
    for (const { file, schema } of kreplayDocumentSchemas) {
      expect(schema.$id).toBe(`urn:kreplay:schema:${file.replace('.schema.json', '')}:1`);
    }
  });
});
