import { captureBlobLength } from './capture-blob.js';
import type { CaptureFormatVersion, CaptureLaunch, CaptureMemoryRange, CaptureWork, DamagedCaptureLaunch } from './capture-folder-types.js';
import { captureJsonNestingProblem } from './capture-json-nesting.js';
import { jsonFieldProblemText } from './json-schema-problem.js';
import { captureJsonProblem } from './validate-capture-json.js';

/** A work item as the schema describes it (addresses as hex strings). */
type WorkJson = { readonly [key: string]: string | number };

/**
 * A launch record as the schema describes it (before conversion): the version 2 fields are there
 * in version 2, and in version 1 not described, so never read.
 */
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
    readonly pageHashesBefore?: readonly string[];
  })[];
  readonly stream?: string;
  readonly context?: string;
  readonly follows?: number | null;
  readonly sequenceBreak?: string | null;
  readonly workBefore?: readonly WorkJson[];
  readonly graph?: CaptureLaunch['graph'];
}

type Problem = { readonly field: string; readonly problem: string } | null;

/** The fields of a work item that hold addresses. */
const WORK_ADDRESSES = ['address', 'destination', 'source'] as const;

/** What the schema cannot say of the parameters: the buffer's length, slots inside it, no index twice. */
function parameterProblem(record: LaunchRecordJson): Problem {
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
  return null;
}

/** Each range: an address this reader can hold, one blob and hash (before and after) per page, blobs of the page's length. */
function memoryProblem(record: LaunchRecordJson): Problem {
  const version2 = record.formatVersion === 2;
  for (const [position, range] of record.memory.entries()) {
    const field = `memory[${position}]`;
    const pages = Math.ceil(range.bytes / record.pageBytes);
    if (!Number.isSafeInteger(Number(range.base)) || !Number.isSafeInteger(Number(range.base) + range.bytes)) {
      return { field: `${field}.base`, problem: `${range.base} plus ${range.bytes} bytes is past the addresses this reader can hold (2^53)` };
    }
    if (range.pagesBefore.length !== pages) return { field: `${field}.pagesBefore`, problem: `lists ${range.pagesBefore.length} pages, not ${pages}` };
    if (version2 && range.pageHashesBefore!.length !== pages) {
      return { field: `${field}.pageHashesBefore`, problem: `lists ${range.pageHashesBefore!.length} hashes, not ${pages}` };
    }
    if (range.pageHashesAfter.length !== pages) return { field: `${field}.pageHashesAfter`, problem: `lists ${range.pageHashesAfter.length} hashes, not ${pages}` };
    for (const [page, id] of range.pagesBefore.entries()) {
      const expected = Math.min(record.pageBytes, range.bytes - page * record.pageBytes);
      if (captureBlobLength(id) !== expected) return { field: `${field}.pagesBefore[${page}]`, problem: `names a ${captureBlobLength(id)}-byte blob, not a ${expected}-byte page` };
    }
  }
  return null;
}

/** Version 2: `follows` an earlier launch, `sequenceBreak` null exactly when it follows one, addresses this reader can hold. */
function sequenceProblem(record: LaunchRecordJson): Problem {
  const follows = record.follows ?? null;
  const sequenceBreak = record.sequenceBreak ?? null;
  if (follows !== null && follows >= record.sequence) return { field: 'follows', problem: `names launch ${follows}, which is not before launch ${record.sequence}` };
  if (follows !== null && sequenceBreak !== null) return { field: 'sequenceBreak', problem: `is ${JSON.stringify(sequenceBreak)}, but the launch follows launch ${follows}` };
  if (follows === null && sequenceBreak === null) return { field: 'sequenceBreak', problem: 'is null, but the launch follows no launch (it must say why it starts a captured sequence)' };
  for (const [position, work] of (record.workBefore ?? []).entries()) {
    for (const name of WORK_ADDRESSES) {
      const value = work[name];
      if (typeof value === 'string' && !Number.isSafeInteger(Number(value) + Number(work['bytes'] ?? 0))) {
        return { field: `workBefore[${position}].${name}`, problem: `${value} is past the addresses this reader can hold (2^53)` };
      }
    }
  }
  return null;
}

/** What the schema cannot say: the relations between fields. Returns the first problem. */
function relationProblem(record: LaunchRecordJson, sequence: number): Problem {
  if (record.sequence !== sequence) return { field: 'sequence', problem: `is ${record.sequence}, but the file is named for launch ${sequence}` };
  return parameterProblem(record) ?? memoryProblem(record) ?? (record.formatVersion === 2 ? sequenceProblem(record) : null);
}

function bytesOfHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

const hashes = (texts: readonly string[]) => texts.map((hash) => BigInt(`0x${hash}`));

function workOf(json: WorkJson): CaptureWork {
  const converted: Record<string, string | number> = { ...json };
  for (const name of WORK_ADDRESSES) if (typeof json[name] === 'string') converted[name] = Number(json[name]);
  return converted as unknown as CaptureWork;
}

function launchOf(file: string, sequence: number, record: LaunchRecordJson): CaptureLaunch {
  const version2 = record.formatVersion === 2;
  return {
    sequence,
    file,
    function: record.function,
    module: record.module,
    shape: record.shape,
    parameterBuffer: bytesOfHex(record.parameters.buffer),
    parameters: record.parameters.slots,
    pageBytes: record.pageBytes,
    memory: record.memory.map(({ base, pageHashesAfter, pageHashesBefore, ...range }) => ({
      ...range,
      base: Number(base),
      pageHashesAfter: hashes(pageHashesAfter),
      pageHashesBefore: version2 ? hashes(pageHashesBefore!) : null,
    })),
    formatVersion: record.formatVersion,
    stream: version2 ? record.stream! : null,
    context: version2 ? record.context! : null,
    follows: version2 ? record.follows! : null,
    sequenceBreak: version2 ? record.sequenceBreak! : null,
    workBefore: version2 ? record.workBefore!.map(workOf) : [],
    graph: record.graph ?? null,
  };
}

/**
 * Parses one launch record (`launches/NNNNNNNN.json`) of a folder of format `version`: JSON, the
 * schema of its version, then the relations between fields. Blobs are not checked here.
 * @internal
 */
export function parseLaunchRecord(
  file: string,
  sequence: number,
  text: string,
  version: CaptureFormatVersion = 1,
): { readonly launch: CaptureLaunch } | { readonly damaged: DamagedCaptureLaunch } {
  const damaged = (field: string | null, reason: string) => ({ damaged: { file, sequence, field, reason } });
  const nesting = captureJsonNestingProblem(text);
  if (nesting) return damaged(null, `${file} ${nesting}; it was overwritten`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return damaged(null, `${file} is not valid JSON (${(error as Error).message}); it was cut short or overwritten`);
  }
  const recordVersion = (value as { readonly formatVersion?: unknown } | null)?.formatVersion;
  if ((recordVersion === 1 || recordVersion === 2) && recordVersion !== version) {
    return damaged('formatVersion', `${file}: formatVersion is ${recordVersion}, but the manifest's is ${version}`);
  }
  const schemaProblem = captureJsonProblem('launch', version, value);
  if (schemaProblem) return damaged(schemaProblem.field, `${file}: ${jsonFieldProblemText(schemaProblem, 'the record')}`);
  const record = value as LaunchRecordJson;
  const relation = relationProblem(record, sequence);
  if (relation) return damaged(relation.field, `${file}: ${relation.field} ${relation.problem}`);
  return { launch: launchOf(file, sequence, record) };
}
