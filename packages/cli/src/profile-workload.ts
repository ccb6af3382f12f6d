import { InvalidArgumentError } from 'commander';
import { ArgumentError, readKernelModuleFile, readRegularFile } from '@kreplay/native';
import { createScatterWorkload, validateScatterWorkloadOptions } from '@kreplay/bench';
import type { ScatterWorkloadOptions } from '@kreplay/bench';
import type { CaptureFolder } from '@kreplay/native';
import type { Access, Agent, DeviceAllocation, KernelArguments, KernelDescriptor, KernelLaunch, KernelParameter, ParameterType } from '@kreplay/native';
import { parseByteSize } from './byte-size.js';
import { damagedRecordsNote, readCaptureArgument } from './capture-argument.js';
import { UsageError } from './usage-error.js';

/** One declared argument of a PTX kernel: `name=type:access:value` (a pointer's value is the bytes to allocate). */
export interface DeclaredArgument {
  readonly name: string;
  readonly type: ParameterType;
  readonly access?: Access;
  /** A scalar's value, or a pointer's allocation size in bytes. */
  readonly value: number;
}

/** What `kreplay profile` dispatches: a kernel, its arguments, its launch shape, and its memory. */
export interface ProfileWorkload {
  readonly description: string;
  dispatch(index: number): { readonly kernel: KernelDescriptor; readonly args: KernelArguments; readonly launch?: KernelLaunch };
  free(): void;
}

const types: readonly ParameterType[] = ['pointer', 'u32', 'u64', 'f32', 'f64'];
const accesses: readonly Access[] = ['read', 'write', 'readwrite', 'unknown'];

/** Parses `--arg name=type:access:value` (`data=pointer:readwrite:64MiB`, `count=u32::1048576`). */
export function parseDeclaredArgument(text: string, previous: readonly DeclaredArgument[] = []): DeclaredArgument[] {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=([a-z0-9]+):([a-z]*):(.+)$/.exec(text);
  const type = match?.[2] as ParameterType | undefined;
  if (!match || type === undefined || !types.includes(type)) {
    throw new InvalidArgumentError(`"${text}" is not name=type:access:value with type ${types.join('|')} (e.g. data=pointer:readwrite:64MiB, count=u32::1048576).`);
  }
  const access = (match[3] || undefined) as Access | undefined;
  if (access !== undefined && (!accesses.includes(access) || type !== 'pointer')) {
    throw new InvalidArgumentError(`"${text}": access ${access} ${type === 'pointer' ? `is not one of ${accesses.join('|')}` : 'is for pointers only'}.`);
  }
  const value = type === 'pointer' ? parseByteSize(match[4]!) : Number(match[4]);
  if (!Number.isFinite(value)) throw new InvalidArgumentError(`"${text}": ${match[4]} is not a number.`);
  return [...previous, { name: match[1]!, type, ...(access && { access }), value }];
}

/** The most bytes `--args` reads: a list of declared arguments is a few hundred bytes. */
const declaredArgumentsMaxBytes = 16 * 2 ** 20;

/**
 * Reads declared arguments from a JSON file: `[{ "name", "type", "access"?, "value" }]` (a pointer's
 * value may be "64MiB"). Only a regular file of at most 16 MiB is read (a FIFO would block).
 * @throws InvalidArgumentError saying what is wrong with the file or its contents; SyntaxError when it is not JSON.
 */
export async function readDeclaredArguments(path: string): Promise<DeclaredArgument[]> {
  const read = await readRegularFile(path, { maxBytes: declaredArgumentsMaxBytes, followSymlinks: true });
  if ('problem' in read) throw new InvalidArgumentError(`${path} ${read.problem}.`);
  const parsed = JSON.parse(read.bytes.toString('utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new InvalidArgumentError(`${path} does not hold an array of arguments.`);
  return parsed.reduce<DeclaredArgument[]>((all, entry: Record<string, unknown>) => {
    const value = entry['type'] === 'pointer' && typeof entry['value'] === 'number' ? `${entry['value']}` : String(entry['value']);
    return parseDeclaredArgument(`${String(entry['name'])}=${String(entry['type'])}:${String(entry['access'] ?? '')}:${value}`, all);
  }, []);
}

/** Parses `x,y,z` (missing components are 1). */
export function parseDimensions(text: string): [number, number, number] {
  const parts = text.split(',').map(Number);
  if (parts.length < 1 || parts.length > 3 || parts.some((part) => !Number.isSafeInteger(part) || part < 1)) {
    throw new InvalidArgumentError(`"${text}" is not x[,y[,z]] of positive integers.`);
  }
  return [parts[0]!, parts[1] ?? 1, parts[2] ?? 1];
}

/** The scatter workload's options that `kreplay profile` sets. */
export type ScatterProfileOptions = Required<Pick<ScatterWorkloadOptions, 'footprintBytes' | 'writeFraction' | 'inputShare'>>;

/** The scatter workload of @kreplay/bench: one scatter-write kernel per dispatch, the seed changing with it. */
export async function scatterProfileWorkload(agent: Agent, options: ScatterProfileOptions): Promise<ProfileWorkload> {
  const workload = await createScatterWorkload(agent, options);
  return {
    description: `scatter (${options.footprintBytes} bytes, write fraction ${options.writeFraction}, input share ${options.inputShare})`,
    dispatch: (index) => workload.dispatch(index),
    free: () => workload.free(),
  };
}

/**
 * `ptx:<file>:<kernel>` with declared arguments: pointers get fresh allocations of their size, filled
 * with a pattern. `module` is the file's content, read when the workload was planned.
 */
export async function ptxProfileWorkload(agent: Agent, spec: string, module: Uint8Array, declared: readonly DeclaredArgument[], launch: KernelLaunch): Promise<ProfileWorkload> {
  const [, path, name] = /^ptx:(.+):([^:]+)$/.exec(spec) ?? [];
  if (path === undefined || name === undefined) throw new InvalidArgumentError(`"${spec}" is not ptx:<file>:<kernel>.`);
  const parameters: KernelParameter[] = declared.map(({ name: parameter, type, access }) => ({ name: parameter, type, ...(access && { access }) }));
  const kernel = await agent.runtime.loadKernel({ image: module, name, parameters });
  const allocations: DeviceAllocation[] = [];
  const args: Record<string, number> = {};
  const queue = agent.createQueue();
  try {
    for (const argument of declared) {
      if (argument.type !== 'pointer') {
        args[argument.name] = argument.value;
        continue;
      }
      const allocation = agent.allocate(argument.value);
      allocations.push(allocation);
      queue.enqueueKernel(agent.runtime.kernels.fill, { destination: allocation.address, bytes: allocation.bytes, value: 0x3f800000 + allocations.length });
      args[argument.name] = allocation.address;
    }
    await queue.synchronize();
  } finally {
    await queue.dispose();
  }
  return {
    description: `${name} from ${path}, grid ${launch.grid.join('x')}, block ${launch.block.join('x')}`,
    dispatch: () => ({ kernel, args, launch }),
    free: () => allocations.forEach((allocation) => allocation.free()),
  };
}

/** The workload options of `kreplay profile`, as parsed. */
export interface ProfileWorkloadOptions {
  readonly footprint: number;
  readonly writeFraction: number;
  readonly inputShare: number;
  readonly arg?: readonly DeclaredArgument[];
  readonly args?: string;
  readonly grid?: [number, number, number];
  readonly block?: [number, number, number];
}

/** A profile workload checked before any driver is opened: what {@link createProfileWorkload} makes. */
export type ProfileWorkloadPlan =
  | { readonly kind: 'scatter'; readonly options: ScatterProfileOptions }
  /** `capture:<dir>`: every launch of a capture folder, read when planned. */
  | { readonly kind: 'capture'; readonly folder: CaptureFolder }
  /** `ptx:<file>:<kernel>`: `module` is the file's content, read (as a regular file of a bounded size) when planned. */
  | { readonly kind: 'ptx'; readonly spec: string; readonly module: Uint8Array; readonly declared: readonly DeclaredArgument[]; readonly launch: KernelLaunch };

const scatterFlags: Readonly<Record<string, keyof ProfileWorkloadOptions>> = { '--footprint': 'footprint', '--write-fraction': 'writeFraction', '--input-share': 'inputShare' };
const ptxFlags = ['--arg', '--args', '--grid', '--block'];
/** The scatter workload's option behind each of its arguments. */
const scatterFlagOf: Readonly<Record<string, string>> = { footprintBytes: '--footprint', writeFraction: '--write-fraction', inputShare: '--input-share', stateShare: '--input-share' };

function usage(what: string): UsageError {
  return new UsageError('profile', what, 'See kreplay profile --help');
}

function scatterPlan(options: ProfileWorkloadOptions, given: (flag: string) => boolean): ProfileWorkloadPlan {
  const misplaced = ptxFlags.find(given);
  if (misplaced !== undefined) throw usage(`${misplaced} only applies with a ptx workload`);
  const scatter = { footprintBytes: options.footprint, writeFraction: options.writeFraction, inputShare: options.inputShare };
  try {
    validateScatterWorkloadOptions(scatter);
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    const flag = scatterFlagOf[error.argument] ?? error.argument;
    const value = options[scatterFlags[flag] ?? 'footprint'];
    throw usage(`${flag} ${String(value)} does not fit the scatter workload: ${error.message.replace(/^\[bench\] \[workload\] /, '').replace(/\.$/, '')}`);
  }
  return { kind: 'scatter', options: scatter };
}

async function declaredArguments(options: ProfileWorkloadOptions): Promise<readonly DeclaredArgument[]> {
  if (options.args === undefined) return options.arg ?? [];
  if (options.arg !== undefined) throw usage('--arg and --args both declare the arguments; use one of them');
  try {
    return await readDeclaredArguments(options.args);
  } catch (error) {
    if (error instanceof SyntaxError) throw usage(`--args ${options.args}: is not JSON (${error.message})`);
    throw usage(`--args ${options.args}: ${(error as Error).message.replace(/\.$/, '')}`);
  }
}

async function ptxPlan(spec: string, options: ProfileWorkloadOptions, given: (flag: string) => boolean): Promise<ProfileWorkloadPlan> {
  const misplaced = Object.keys(scatterFlags).find(given);
  if (misplaced !== undefined) throw usage(`${misplaced} only applies with the scatter workload`);
  const [, path] = /^ptx:(.+):([^:]+)$/.exec(spec) ?? [];
  if (path === undefined) throw usage(`"${spec}" is not ptx:<file>:<kernel>`);
  if (options.grid === undefined || options.block === undefined) throw usage('a ptx workload needs --grid and --block');
  const declared = await declaredArguments(options);
  // Read now, once: a directory, a FIFO (which would block), a device or a huge file is a usage error before any driver opens.
  const read = await readKernelModuleFile(path);
  if ('problem' in read) throw usage(`${spec}: ${path} ${read.problem}`);
  return { kind: 'ptx', spec, module: read.bytes, declared, launch: { grid: options.grid, block: options.block } };
}

/**
 * Checks a profile workload and its options without a driver: the spec, the options of its kind
 * (and none of the other kinds'), the PTX file and the declared arguments, or the capture folder.
 * `given` says whether the user gave an option (not its default).
 * @throws UsageError naming the option at fault.
 */
export async function planProfileWorkload(spec: string, options: ProfileWorkloadOptions, given: (flag: string) => boolean): Promise<ProfileWorkloadPlan> {
  if (spec === 'scatter') return scatterPlan(options, given);
  if (spec.startsWith('ptx:')) return ptxPlan(spec, options, given);
  if (spec.startsWith('capture:')) return capturePlan(spec, given);
  throw usage(`unknown workload "${spec}"; use scatter, ptx:<file>:<kernel> or capture:<dir>`);
}

async function capturePlan(spec: string, given: (flag: string) => boolean): Promise<ProfileWorkloadPlan> {
  const misplaced = [...Object.keys(scatterFlags), ...ptxFlags, '--dispatches'].find(given);
  if (misplaced !== undefined) throw usage(`${misplaced} does not apply to a capture: every captured launch is profiled, with its own shape and memory`);
  const directory = spec.slice('capture:'.length);
  if (directory === '') throw usage(`"${spec}" names no folder; use capture:<dir>`);
  const folder = await readCaptureArgument(directory, 'profile', spec);
  if (folder.launches.length === 0) throw usage(`${spec} holds no complete launch${damagedRecordsNote(folder)}`);
  return { kind: 'capture', folder };
}

/** Makes a planned scatter or ptx workload on `agent`: its memory, filled, and its dispatches. */
export function createProfileWorkload(agent: Agent, plan: Exclude<ProfileWorkloadPlan, { readonly kind: 'capture' }>): Promise<ProfileWorkload> {
  if (plan.kind === 'scatter') return scatterProfileWorkload(agent, plan.options);
  return ptxProfileWorkload(agent, plan.spec, plan.module, plan.declared, plan.launch);
}
