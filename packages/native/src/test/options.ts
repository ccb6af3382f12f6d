import type { Runtime } from '../index.js';

/** What a driver can do beyond the contract's required core; the kit skips the tests of what is absent. */
export interface DriverTestCapabilities {
  /** The runtime under test has at least two agents. Default false. */
  readonly multipleAgents?: boolean;
  /** `injectFault` works (failing and delaying operations). Default true. */
  readonly faultInjection?: boolean;
  /** `enqueueAllocate` / `enqueueFree` work. Default true. */
  readonly streamOrderedMemory?: boolean;
}

/** Buffer sizes the kit uses; a GPU run chooses larger ones. */
export interface DriverTestSizes {
  /** Size of most buffers, a multiple of `pageBytes` and at least 4 pages. Default 64 KiB. */
  readonly smallBytes?: number;
  /** Size of the buffers of bulk tests (many-segment plans, delayed copies, hashing volume). Default 4 MiB. */
  readonly largeBytes?: number;
  /** Page size of the hashing and conditional-copy tests, a multiple of 8 and at least 64. Default 4 KiB. */
  readonly pageBytes?: number;
}

/** Options of {@link testDriver}. */
export interface DriverTestOptions {
  /** Shown in the test names, e.g. `host`. */
  readonly name: string;
  /** Opens a fresh runtime; the kit disposes it. Called once per group of tests and by tests that dispose. */
  readonly open: () => Promise<Runtime>;
  readonly capabilities?: DriverTestCapabilities;
  readonly sizes?: DriverTestSizes;
}

/** {@link DriverTestOptions} with every default filled in. */
export interface ResolvedDriverTestOptions {
  readonly name: string;
  readonly open: () => Promise<Runtime>;
  readonly capabilities: Required<DriverTestCapabilities>;
  readonly sizes: Required<DriverTestSizes>;
}

/**
 * Fills in the defaults and checks the sizes.
 * @throws RangeError when a size is not usable by the kit.
 */
export function resolveDriverTestOptions(options: DriverTestOptions): ResolvedDriverTestOptions {
  const sizes = {
    smallBytes: options.sizes?.smallBytes ?? 64 * 1024,
    largeBytes: options.sizes?.largeBytes ?? 4 * 1024 * 1024,
    pageBytes: options.sizes?.pageBytes ?? 4096,
  };
  const { smallBytes, largeBytes, pageBytes } = sizes;
  if (!Number.isSafeInteger(pageBytes) || pageBytes < 64 || pageBytes % 8 !== 0) {
    throw new RangeError(`[native] [test-kit] sizes.pageBytes ${pageBytes} is not usable. Use a multiple of 8 of at least 64.`);
  }
  if (!Number.isSafeInteger(smallBytes) || smallBytes % pageBytes !== 0 || smallBytes < 4 * pageBytes) {
    throw new RangeError(`[native] [test-kit] sizes.smallBytes ${smallBytes} is not usable. Use a multiple of pageBytes (${pageBytes}) of at least 4 pages.`);
  }
  if (!Number.isSafeInteger(largeBytes) || largeBytes % pageBytes !== 0 || largeBytes < smallBytes) {
    throw new RangeError(`[native] [test-kit] sizes.largeBytes ${largeBytes} is not usable. Use a multiple of pageBytes (${pageBytes}) no smaller than smallBytes.`);
  }
  return {
    name: options.name,
    open: options.open,
    capabilities: {
      multipleAgents: options.capabilities?.multipleAgents ?? false,
      faultInjection: options.capabilities?.faultInjection ?? true,
      streamOrderedMemory: options.capabilities?.streamOrderedMemory ?? true,
    },
    sizes,
  };
}

/**
 * A length of `smallBytes - pageBytes + tail` whose last page is short and not a whole number of
 * 64-bit words, so tests exercise the zero-padded last word.
 */
export function oddLength(options: ResolvedDriverTestOptions): number {
  const { smallBytes, pageBytes } = options.sizes;
  return smallBytes - pageBytes + (pageBytes >> 2) + 5;
}

/** How many pages `bytes` make at `pageBytes`, the last one possibly short. */
export function pageCount(bytes: number, pageBytes: number): number {
  return Math.ceil(bytes / pageBytes);
}
