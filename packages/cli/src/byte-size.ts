import { InvalidArgumentError } from 'commander';

const units: Readonly<Record<string, number>> = {
  '': 1, b: 1,
  kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
  kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12,
  k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40,
};

/**
 * Parses a byte size such as `4096`, `64MiB`, `1.5GiB` or `2GB` (binary units for KiB/MiB/GiB/TiB
 * and the single letters, decimal for KB/MB/GB/TB).
 * @throws InvalidArgumentError when the text is not a positive whole number of bytes.
 */
export function parseByteSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(text);
  const unit = match ? units[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    throw new InvalidArgumentError(`"${text}" is not a byte size; write e.g. 4096, 64MiB or 2GiB.`);
  }
  const bytes = Number(match[1]) * unit;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new InvalidArgumentError(`"${text}" is not a positive whole number of bytes below 2^53.`);
  }
  return bytes;
}

const binaryUnitNames = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/**
 * A byte size as help shows a default: exact, in the largest binary unit it is a whole number of,
 * e.g. `64 MiB`, `1 GiB`, `4096 B` below 1 KiB or when not whole.
 */
export function describeByteSize(bytes: number): string {
  for (let unit = binaryUnitNames.length - 1; unit > 0; unit -= 1) {
    const size = 1024 ** unit;
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${binaryUnitNames[unit]}`;
  }
  return `${bytes} B`;
}

/** Parses a whole number of at least `minimum`; `what` names such a number in the error. */
function parseWholeNumber(text: string, minimum: number, what: string): number {
  const value = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < minimum) {
    throw new InvalidArgumentError(`"${text}" is not ${what}.`);
  }
  return value;
}

/** Parses a positive integer option such as --agents or --dispatches. */
export function parsePositiveInteger(text: string): number {
  return parseWholeNumber(text, 1, 'a positive whole number');
}

/** Parses a whole number >= 0, such as --warmup. */
export function parseNonNegativeInteger(text: string): number {
  return parseWholeNumber(text, 0, 'a whole number >= 0');
}

/** Parses a fraction in (0, 1], such as --write-fraction. */
export function parseFraction(text: string): number {
  const value = Number(text);
  if (!/^\s*\d*\.?\d+(e-?\d+)?\s*$/i.test(text) || !(value > 0 && value <= 1)) {
    throw new InvalidArgumentError(`"${text}" is not a fraction in (0, 1].`);
  }
  return value;
}

/** Parses a share in [0, 1], such as --input-share (0 allowed). */
export function parseShare(text: string): number {
  const value = Number(text);
  if (!/^\s*\d*\.?\d+(e-?\d+)?\s*$/i.test(text) || !(value >= 0 && value <= 1)) {
    throw new InvalidArgumentError(`"${text}" is not a share in [0, 1].`);
  }
  return value;
}
