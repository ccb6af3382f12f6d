/**
 * Validation and packing of {@link ConditionalCopyOptions} and {@link PageListCopyOptions}.
 * @internal
 */
import { countPages, packSegments, type RangeScope } from './packed-ranges.js';
import type { ConditionalCopyOptions, PageListCompact, PageListCopyOptions } from '../runtime/runtime-types.js';
import { argumentError, MAXIMUM_PAGE_COUNT, requireBoolean, requireChoice, requireInteger, requireKnownKeys, requireLiveRange, requireObject, requirePageBytes } from '../errors/validate.js';

export interface PackedConditionalCopy {
  readonly segments: Float64Array;
  /** `[pageBytes, hashDestination, storedHashesAddress, updateStoredHashes, pageListAddress, pageCountAddress]`. */
  readonly options: Float64Array;
}

export interface PackedPageListCopy {
  readonly segments: Float64Array;
  readonly pageBytes: number;
  readonly pageListAddress: number;
  readonly pageCountAddress: number;
  /** 0 when no hashes are stored. */
  readonly storedHashesAddress: number;
  /** `[address, pages, 1 when the buffer is the destination]`; address 0 without a compact buffer. */
  readonly compact: readonly [number, number, number];
}

/** Checks the arrays a page list needs: one uint32 per page for the list, one for the count. */
function requirePageList(scope: RangeScope, options: Record<string, unknown>, pages: number): void {
  requireLiveRange(scope.component, 'options.pageListAddress', scope.memory, scope.agentId, options['pageListAddress'], pages * 4);
  requireLiveRange(scope.component, 'options.pageCountAddress', scope.memory, scope.agentId, options['pageCountAddress'], 4);
}

/**
 * @throws {ArgumentError} for unknown options, bad segments or page size, an unknown hashedSide,
 * or stored hashes / page list / page count arrays that are not inside live memory with room for every page.
 */
export function packConditionalCopy(scope: RangeScope, value: unknown): PackedConditionalCopy {
  const options = requireObject(scope.component, 'options', value) as Partial<ConditionalCopyOptions> & Record<string, unknown>;
  requireKnownKeys(scope.component, 'options', options, [
    'segments',
    'pageBytes',
    'hashedSide',
    'storedHashesAddress',
    'updateStoredHashes',
    'pageListAddress',
    'pageCountAddress',
  ]);
  const segments = packSegments(scope, 'options.segments', options.segments);
  const pageBytes = requirePageBytes(scope.component, 'options.pageBytes', options.pageBytes);
  const hashedSide = requireChoice(scope.component, 'options.hashedSide', options.hashedSide, ['source', 'destination'] as const);
  const update = requireBoolean(scope.component, 'options.updateStoredHashes', options.updateStoredHashes);
  const pages = countPages(scope, 'options.segments', segments, 3, pageBytes);
  requireLiveRange(scope.component, 'options.storedHashesAddress', scope.memory, scope.agentId, options.storedHashesAddress, pages * 8);
  requirePageList(scope, options, pages);
  return {
    segments,
    options: Float64Array.of(
      pageBytes,
      hashedSide === 'destination' ? 1 : 0,
      options.storedHashesAddress as number,
      update ? 1 : 0,
      options.pageListAddress as number,
      options.pageCountAddress as number,
    ),
  };
}

/**
 * @throws {ArgumentError} for unknown options, bad segments or page size, or page list / page count
 * / stored hashes arrays that are not inside live memory with room for every page.
 */
export function packPageListCopy(scope: RangeScope, value: unknown): PackedPageListCopy {
  const options = requireObject(scope.component, 'options', value) as Partial<PageListCopyOptions> & Record<string, unknown>;
  requireKnownKeys(scope.component, 'options', options, ['segments', 'pageBytes', 'pageListAddress', 'pageCountAddress', 'storedHashesAddress', 'compact']);
  const segments = packSegments(scope, 'options.segments', options.segments);
  const pageBytes = requirePageBytes(scope.component, 'options.pageBytes', options.pageBytes);
  const pages = countPages(scope, 'options.segments', segments, 3, pageBytes);
  requirePageList(scope, options, pages);
  const hashes = options.storedHashesAddress;
  if (hashes !== undefined) requireLiveRange(scope.component, 'options.storedHashesAddress', scope.memory, scope.agentId, hashes, pages * 8);
  return {
    segments,
    pageBytes,
    pageListAddress: options.pageListAddress as number,
    pageCountAddress: options.pageCountAddress as number,
    storedHashesAddress: hashes ?? 0,
    compact: packCompact(scope, options.compact, pageBytes, hashes !== undefined),
  };
}

/** Checks a page list's compact buffer: a side, a page count, and room for that many pages in live memory. */
function packCompact(scope: RangeScope, value: unknown, pageBytes: number, storesHashes: boolean): readonly [number, number, number] {
  if (value === undefined) return [0, 0, 0];
  const compact = requireObject(scope.component, 'options.compact', value) as Partial<PageListCompact> & Record<string, unknown>;
  requireKnownKeys(scope.component, 'options.compact', compact, ['address', 'pages', 'side']);
  if (storesHashes) {
    throw argumentError(scope.component, 'options.compact', 'a page-list copy was given both storedHashesAddress and compact', 'Leave out one of them');
  }
  const side = requireChoice(scope.component, 'options.compact.side', compact.side, ['source', 'destination'] as const);
  const pages = requireInteger(scope.component, 'options.compact.pages', compact.pages, 1, MAXIMUM_PAGE_COUNT);
  requireLiveRange(scope.component, 'options.compact.address', scope.memory, scope.agentId, compact.address, pages * pageBytes);
  return [compact.address as number, pages, side === 'destination' ? 1 : 0];
}
