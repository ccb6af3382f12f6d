/**
 * The JSON Schema (draft-07) of a capture folder's files, format version 1 (src/capture/FORMAT.md):
 * `definitions.manifest` for manifest.json, `definitions.launch` for each launches/NNNNNNNN.json.
 * What {@link readCaptureFolder} validates on read; relations between fields that a schema cannot
 * state (page counts, slots inside the buffer) are checked after it. The same document ships as
 * `@kreplay/native/schema/capture-folder.schema.json`.
 */

/** The `$id` of the capture folder schema. */
export const captureFolderSchemaId = 'urn:kreplay:schema:capture-folder:1';

const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const objectOf = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });
const arrayOf = (items: unknown, extra: Record<string, unknown> = {}) => ({ type: 'array', items, ...extra });
/** An object schema with `optional` properties beside its required ones. */
const withOptional = <T extends { readonly properties: Record<string, unknown> }, O extends Record<string, unknown>>(object: T, optional: O) => ({
  ...object,
  properties: { ...object.properties, ...optional },
});
const count = { type: 'integer', minimum: 0 };
const string = { type: 'string' };

/** The schema document. */
export const captureFolderJsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: captureFolderSchemaId,
  title: 'kreplay capture folder, format version 1',
  definitions: {
    count,
    blobId: { type: 'string', pattern: '^[0-9a-f]{32}-(0|[1-9][0-9]*)$' },
    address: { type: 'string', pattern: '^0x[0-9a-f]{1,16}$' },
    pageHash: { type: 'string', pattern: '^[0-9a-f]{16}$' },
    dimension: arrayOf({ type: 'integer', minimum: 1, maximum: 4294967295 }, { minItems: 3, maxItems: 3 }),
    manifest: withOptional(objectOf({
      format: { const: 'kreplay-capture' },
      formatVersion: { enum: [1, 2] },
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
        },
        additionalProperties: count,
      },
    }), {
      // Added after the first writer (FORMAT.md): folders written before lack them.
      process: objectOf({ pid: count, parentPid: count }),
      selectionError: string,
    }),
    /** Version 2: a piece of recorded work between two launches (CaptureWork), its addresses in hex. */
    work: {
      oneOf: [
        objectOf({ kind: { const: 'memset' }, stream: string, address: ref('address'), bytes: count, value: count, elementBytes: { enum: [1, 2, 4] } }),
        objectOf({ kind: { const: 'copy' }, stream: string, destination: ref('address'), source: ref('address'), bytes: count }),
        objectOf({ kind: { const: 'upload' }, stream: string, destination: ref('address'), bytes: count }),
        objectOf({ kind: { const: 'download' }, stream: string, source: ref('address'), bytes: count }),
        objectOf({ kind: { const: 'allocation' }, address: ref('address'), bytes: count, memoryKind: { enum: ['device', 'pool', 'vmm', 'host-pinned', 'host-registered', 'module-global'] } }),
        objectOf({ kind: { const: 'free' }, address: ref('address') }),
      ],
    },
    launch: withOptional(objectOf({
      formatVersion: { enum: [1, 2] },
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
      memory: arrayOf(
        withOptional(objectOf({
          base: ref('address'),
          bytes: { type: 'integer', minimum: 1 },
          kind: { enum: ['device', 'pool', 'vmm', 'host-pinned', 'host-registered', 'module-global'] },
          label: string,
          pagesBefore: arrayOf(ref('blobId')),
          pageHashesAfter: arrayOf(ref('pageHash')),
        }), {
          // Version 2.
          pageHashesBefore: arrayOf(ref('pageHash')),
        }),
      ),
    }), {
      // Version 2: the launch's stream and context, the captured sequence it continues, the work before it.
      stream: string,
      context: string,
      follows: { oneOf: [count, { type: 'null' }] },
      sequenceBreak: { oneOf: [string, { type: 'null' }] },
      workBefore: arrayOf(ref('work')),
    }),
  },
} as const;
