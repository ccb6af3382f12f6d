/**
 * The JSON Schema (draft-07) of a capture folder's files, format versions 1 and 2
 * (src/capture/FORMAT.md): `definitions.manifest` for manifest.json, `definitions.launch` for each
 * launches/NNNNNNNN.json, each one of its versions (`manifestVersion1`, `manifestVersion2`,
 * `launchVersion1`, `launchVersion2`). What {@link readCaptureFolder} validates on read, against the
 * version the file says it is; relations between fields that a schema cannot state (page counts,
 * slots inside the buffer, `follows` before the launch) are checked after it. The same document ships
 * as `@kreplay/native/schema/capture-folder.schema.json`.
 */

/** The `$id` of the capture folder schema. */
export const captureFolderSchemaId = 'urn:kreplay:schema:capture-folder:2';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const objectOf = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });
const arrayOf = (items: unknown, extra: Record<string, unknown> = {}) => ({ type: 'array', items, ...extra });
/** An object schema with `optional` properties beside its required ones. */
const withOptional = <T extends { readonly properties: Record<string, unknown> }, O extends Record<string, unknown>>(object: T, optional: O) => ({
  ...object,
  properties: { ...object.properties, ...optional },
});
const count = { type: 'integer', minimum: 0 };
const seconds = { type: 'number', minimum: 0 };
const string = { type: 'string' };
const memoryKind = { enum: ['device', 'pool', 'vmm', 'host-pinned', 'host-registered', 'module-global'] };

const manifestVersion1 = {
  format: { const: 'kreplay-capture' },
  formatVersion: { const: 1 },
  writer: objectOf({ name: string, version: string }),
  driver: { type: 'string', minLength: 1 },
  device: objectOf({ name: string, architecture: string }),
  command: arrayOf(string),
  complete: { type: 'boolean' },
  notCaptured: {
    ...objectOf({
      'graph-launch': count,
      'cooperative-launch': count,
      'multi-device-launch': count,
      'managed-memory': count,
      'texture-or-surface': count,
    }),
    // Reasons added after the first five: optional, so folders written before them still read.
    properties: {
      'graph-launch': count,
      'cooperative-launch': count,
      'multi-device-launch': count,
      'managed-memory': count,
      'texture-or-surface': count,
      'stream-capture': count,
      'no-parameter-metadata': count,
      'graph-child-graph': count,
      'graph-conditional-node': count,
      'graph-host-node': count,
      'graph-event-node': count,
      'device-graph-launch': count,
      collective: count,
      'graph-untracked-change': count,
      'graph-not-cloned': count,
    },
    additionalProperties: count,
  },
};

/** Manifest fields added after the first writer of each version (FORMAT.md): folders written before lack them. */
const manifestOptional = {
  process: objectOf({ pid: count, parentPid: count }),
  selectionError: string,
  graphLaunches: count,
};

const launchVersion1 = {
  formatVersion: { const: 1 },
  sequence: count,
  function: { type: 'string', minLength: 1 },
  module: ref('blobId'),
  shape: objectOf({
    grid: ref('dimension'),
    block: ref('dimension'),
    dynamicSharedBytes: count,
    clusterDims: { oneOf: [ref('dimension'), { type: 'null' }] },
    attributes: arrayOf(objectOf({ name: { type: 'string', minLength: 1 }, values: arrayOf({ type: 'integer' }) })),
  }),
  parameters: objectOf({
    size: count,
    buffer: { type: 'string', pattern: '^([0-9a-f]{2})*$' },
    slots: arrayOf(objectOf({ index: count, offset: count, size: { type: 'integer', minimum: 1 } })),
  }),
  pageBytes: { type: 'integer', minimum: 1 },
};

const rangeVersion1 = {
  base: ref('address'),
  bytes: { type: 'integer', minimum: 1 },
  kind: memoryKind,
  label: string,
  pagesBefore: arrayOf(ref('blobId')),
  pageHashesAfter: arrayOf(ref('pageHash')),
};

const workKinds = {
  memset: { stream: ref('address'), address: ref('address'), bytes: count, value: count, elementBytes: { enum: [1, 2, 4] } },
  copy: { stream: ref('address'), destination: ref('address'), source: ref('address'), bytes: count },
  upload: { stream: ref('address'), destination: ref('address'), bytes: count },
  download: { stream: ref('address'), source: ref('address'), bytes: count },
  allocation: { address: ref('address'), bytes: count, memoryKind },
  free: { address: ref('address') },
};

/** The schema document. */
export const captureFolderJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: captureFolderSchemaId,
  title: 'kreplay capture folder, format versions 1 and 2',
  definitions: {
    count,
    blobId: { type: 'string', pattern: '^[0-9a-f]{32}-(0|[1-9][0-9]*)$' },
    address: { type: 'string', pattern: '^0x[0-9a-f]{1,16}$' },
    pageHash: { type: 'string', pattern: '^[0-9a-f]{16}$' },
    dimension: arrayOf({ type: 'integer', minimum: 1, maximum: 4294967295 }, { minItems: 3, maxItems: 3 }),
    // One item of `workBefore`: its fields by its kind (if/then, so that a problem is named by field).
    work: {
      ...objectOf({ kind: { enum: Object.keys(workKinds) } }),
      allOf: Object.entries(workKinds).map(([kind, properties]) => ({
        if: { properties: { kind: { const: kind } } },
        then: objectOf(properties),
      })),
    },
    manifestVersion1: withOptional(objectOf(manifestVersion1), manifestOptional),
    manifestVersion2: withOptional(objectOf({
      ...manifestVersion1,
      formatVersion: { const: 2 },
      sequences: count,
      sequenceBreaks: { type: 'object', additionalProperties: count },
      cost: objectOf({
        wallSeconds: seconds,
        deviceBytesHashed: count,
        bytesCopiedToHost: count,
        bytesStored: count,
        blobsStored: count,
        launches: count,
        programWaitSeconds: seconds,
      }),
    }), manifestOptional),
    manifest: { oneOf: [ref('manifestVersion1'), ref('manifestVersion2')] },
    launchVersion1: objectOf({ ...launchVersion1, memory: arrayOf(objectOf(rangeVersion1)) }),
    launchVersion2: withOptional(objectOf({
      ...launchVersion1,
      formatVersion: { const: 2 },
      stream: ref('address'),
      context: ref('address'),
      follows: { oneOf: [count, { type: 'null' }] },
      sequenceBreak: { oneOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
      workBefore: arrayOf(ref('work')),
      memory: arrayOf(objectOf({ ...rangeVersion1, pageHashesBefore: arrayOf(ref('pageHash')) })),
    }), {
      // Optional: only kernel nodes of graph launches have it, and records written before graphs lack it.
      graph: objectOf({ graph: ref('address'), node: ref('address'), nodeIndex: count, graphLaunch: count }),
    }),
    launch: { oneOf: [ref('launchVersion1'), ref('launchVersion2')] },
  },
} as const;
