import { amount, arrayOf, boolean, count, kreplayDocumentSchema, kreplaySchemaId, nullable, objectOf, positiveCount, string } from '../report/json-schema-parts.js';

/** The version of the JSON `kreplay capture --json` prints. */
export const captureResultVersion = 1;
/** The `schema` of what `kreplay capture --json` prints. */
export const captureResultSchemaId = kreplaySchemaId('capture-result', captureResultVersion);

const countsByReason = { type: 'object', additionalProperties: count };
const cost = objectOf({ wallSeconds: amount, deviceBytesHashed: amount, bytesCopiedToHost: amount, bytesStored: amount, blobsStored: count, launches: count, programWaitSeconds: amount });
const kernel = objectOf({ function: string, launches: positiveCount, codeBytes: nullable('integer', { minimum: 0 }), registers: nullable('integer', { minimum: 0 }) });

/** What one process's capture folder holds. */
const captureSummary = objectOf({
  directory: string,
  pid: nullable('integer', { minimum: 0 }),
  command: arrayOf(string),
  device: objectOf({ name: string, architecture: string }),
  complete: boolean,
  launches: count,
  kernels: arrayOf(kernel),
  bytesStored: count,
  blobs: count,
  notCaptured: countsByReason,
  formatVersion: positiveCount,
  sequences: nullable('integer', { minimum: 0 }),
  sequenceBreaks: countsByReason,
  graphLaunches: nullable('integer', { minimum: 0 }),
  cost: { oneOf: [{ type: 'null' }, cost] },
  damaged: arrayOf(objectOf({ file: string, reason: string })),
  incomplete: arrayOf(string),
  selectionError: nullable('string'),
});

/**
 * The JSON Schema (draft-07) of what `kreplay capture --json` prints, version 1: how the program
 * ended, the capture library's settings, and a summary of each process's capture. Ships as
 * `@kreplay/bench/schema/capture-result.schema.json`.
 */
export const captureResultJsonSchema = kreplayDocumentSchema({
  id: captureResultSchemaId,
  version: captureResultVersion,
  title: 'kreplay capture result, version 1',
  description: 'What `kreplay capture --json` prints: the program and how it ended, the capture settings, and per capturing process its launches, kernels, bytes stored, what was not captured and what capturing cost.',
  properties: {
    program: objectOf({ command: arrayOf(string), exitCode: nullable('integer'), signal: nullable('string') }),
    settings: objectOf({ stagingBytes: positiveCount, writerThreads: { oneOf: [{ const: 'auto' }, positiveCount] } }),
    capture: { oneOf: [{ type: 'null' }, captureSummary] },
    processes: arrayOf(captureSummary),
    unreadable: arrayOf(objectOf({ directory: string, reason: string })),
  },
});
