import { arrayOf, boolean, count, kreplayDocumentSchema, nullable, objectOf, optionalAmount, string } from '../report/json-schema-parts.js';
import { deviceComparisonSchemaId, deviceComparisonVersion } from './device-comparison.js';

const device = objectOf({ label: string, driver: string, deviceName: string, hostLink: string, sources: arrayOf(string), hosts: arrayOf(string) });
const cell = nullable('object', {
  required: ['device', 'perPassMs', 'fixedMs', 'perPassStandardErrorMs', 'perPassVsFirstDevice'],
  properties: { device: string, perPassMs: { type: 'number' }, fixedMs: { type: 'number' }, perPassStandardErrorMs: optionalAmount, perPassVsFirstDevice: nullable('number') },
});
const row = objectOf({ key: string, variant: string, footprintBytes: count, cells: arrayOf(cell) });

/**
 * The JSON Schema (draft-07) of a by-device comparison (`kreplay compare --by-device -o FILE` or
 * `--json`, and `kreplay bench --slurm`), version 1. Ships as
 * `@kreplay/bench/schema/device-comparison.schema.json`.
 */
export const deviceComparisonJsonSchema = kreplayDocumentSchema({
  id: deviceComparisonSchemaId,
  version: deviceComparisonVersion,
  title: 'kreplay by-device comparison, version 1',
  description: 'Bench reports of several machines merged by device and host link: per fitted configuration, the median per-pass and fixed cost on each device and the per-pass cost against the first device; the reports that never arrived.',
  properties: {
    complete: boolean,
    devices: arrayOf(device),
    rows: arrayOf(row),
    missing: arrayOf(string),
  },
});
