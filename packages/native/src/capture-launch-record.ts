import { captureBlobLength } from './capture-blob.js';
import type { CaptureFormatVersion, CaptureLaunch, CaptureMemoryRange, CaptureWork, DamagedCaptureLaunch } from './capture-folder-types.js';
import { captureJsonNestingProblem } from './capture-json-nesting.js';
import { captureJsonProblem } from './validate-capture-json.js';

/** A launch record as the schema describes it (before conversion). */
interface LaunchRecordJson {
  readonly formatVersion: CaptureFormatVersion;
  readonly sequence: number;
  readonly function: string;
  readonly module: string;
  readonly shape: CaptureLaunch['shape'];
  readonly parameters: { readonly size: number; readonly buffer: string; readonly slots: CaptureLaunch['parameters'] };
  readonly pageBytes: number;
  readonly memory: readonly (Omit<CaptureMemoryRange, 'base' | 'pageHashesAfter' | 'pageHashesBefore'> & {
    readonly base: string;
    readonly pageHashesAfter: readonly string[];
    /** Version 2. */
    readonly pageHashesBefore?: readonly string[];
  })[];
  // Version 2 (read as written; the schema of version 1 does not describe them).
  readonly stream?: string;
  readonly context?: string;
  readonly follows?: number | null;
  readonly sequenceBreak?: string | null;
  readonly workBefore?: readonly Record<string, unknown>[];
}

/** The version 2 fields of a record: what version 1 records get as defaults. */
type SequenceFields = Pick<CaptureLaunch, 'formatVersion' | 'stream' | 'context' | 'follows' | 'sequenceBreak' | 'workBefore'>;

const hashOf = (hash: string) => BigInt(`0x${hash}`);

/** A recorded work item with its hex addresses as numbers. */
function workOf(work: Record<string, unknown>): CaptureWork {
  const converted: Record<string, unknown> = { ...work };
  for (const field of ['address', 'destination', 'source']) if (typeof work[field] === 'string') converted[field] = Number(work[field]);
  return converted as unknown as CaptureWork;
}

/** A version 2 record's sequence fields; version 1's defaults for a version 1 record. */
function sequenceFields(record: LaunchRecordJson): SequenceFields {
  if (record.formatVersion !== 2) return { formatVersion: 1, stream: null, context: null, follows: null, sequenceBreak: null, workBefore: [] };
  return {
    formatVersion: 2,
    stream: record.stream ?? null,
    context: record.context ?? null,
    follows: record.follows ?? null,
    sequenceBreak: record.sequenceBreak ?? null,
    workBefore: (record.workBefore ?? []).map(workOf),
  };
}

/** What the schema cannot say: the relations between fields. Returns the first problem. */
function relationProblem(record: LaunchRecordJson, sequence: number): { readonly field: string; readonly problem: string } | null {
  if (record.sequence !== sequence) return { field: 'sequence', problem: `is ${record.sequence}, but the file is named for launch ${sequence}` };
  const { parameters } = record;
  if (parameters.buffer.length !== parameters.size * 2) {
    return { field: 'parameters.buffer', problem: `holds ${parameters.buffer.length / 2} bytes, not parameters.size (${parameters.size})` };
  }
  const indices = new Set<number>();
  for (const [position, slot] of parameters.slots.entries()) {
    if (slot.offset + slot.size > parameters.size) {
      return { field: `parameters.slots[${position}]`, problem: `ends at byte ${slot.offset + slot.size}, past the ${parameters.size}-byte buffer` };
    }
    if (indices.has(slot.index)) return { field: `parameters.slots[${position}].index`, problem: `repeats parameter ${slot.index}` };
    indices.add(slot.index);
  }
  for (const [position, range] of record.memory.entries()) {
    const field = `memory[${position}]`;
    const pages = Math.ceil(range.bytes / record.pageBytes);
    if (!Number.isSafeInteger(Number(range.base)) || !Number.isSafeInteger(Number(range.base) + range.bytes)) {
      return { field: `${field}.base`, problem: `${range.base} plus ${range.bytes} bytes is past the addresses this reader can hold (2^53)` };
    }
    if (range.pagesBefore.length !== pages) return { field: `${field}.pagesBefore`, problem: `lists ${range.pagesBefore.length} pages, not ${pages}` };
    if (range.pageHashesAfter.length !== pages) return { field: `${field}.pageHashesAfter`, problem: `lists ${range.pageHashesAfter.length} hashes, not ${pages}` };
    if (range.pageHashesBefore !== undefined && range.pageHashesBefore.length !== pages) {
      return { field: `${field}.pageHashesBefore`, problem: `lists ${range.pageHashesBefore.length} hashes, not ${pages}` };
    }
    for (const [page, id] of range.pagesBefore.entries()) {
      const expected = Math.min(record.pageBytes, range.bytes - page * record.pageBytes);
      if (captureBlobLength(id) !== expected) return { field: `${field}.pagesBefore[${page}]`, problem: `names a ${captureBlobLength(id)}-byte blob, not a ${expected}-byte page` };
    }
  }
  for (const [position, work] of (record.workBefore ?? []).entries()) {
    for (const key of ['address', 'destination', 'source']) {
      const address = work[key];
      if (typeof address === 'string' && !Number.isSafeInteger(Number(address))) {
        return { field: `workBefore[${position}].${key}`, problem: `${address} is past the addresses this reader can hold (2^53)` };
      }
    }
  }
  return null;
}

function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/**
 * Parses one launch record (`launches/NNNNNNNN.json`): JSON, the schema, then the relations between
 * fields. Blobs are not checked here.
 * @internal
 */
export function parseLaunchRecord(file: string, sequence: number, text: string): { readonly launch: CaptureLaunch } | { readonly damaged: DamagedCaptureLaunch } {
  const damaged = (field: string | null, reason: string) => ({ damaged: { file, sequence, field, reason } });
  const nesting = captureJsonNestingProblem(text);
  if (nesting) return damaged(null, `${file} ${nesting}; it was overwritten`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return damaged(null, `${file} is not valid JSON (${(error as Error).message}); it was cut short or overwritten`);
  }
  const schemaProblem = captureJsonProblem('launch', value);
  if (schemaProblem) return damaged(schemaProblem.field, `${file}: ${schemaProblem.field || 'the record'} ${schemaProblem.problem}`);
  const record = value as LaunchRecordJson;
  const relation = relationProblem(record, sequence);
  if (relation) return damaged(relation.field, `${file}: ${relation.field} ${relation.problem}`);
  return {
    launch: {
      sequence,
      file,
      function: record.function,
      module: record.module,
      shape: record.shape,
      parameterBuffer: bytesOfHex(record.parameters.buffer),
      parameters: record.parameters.slots,
      pageBytes: record.pageBytes,
      memory: record.memory.map((range) => ({
        ...range,
        base: Number(range.base),
        pageHashesAfter: range.pageHashesAfter.map(hashOf),
        pageHashesBefore: record.formatVersion === 2 && range.pageHashesBefore !== undefined ? range.pageHashesBefore.map(hashOf) : null,
      })),
      ...sequenceFields(record),
    },
  };
}
