import { constants, type Stats } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /** The most bytes the file may hold; a larger file is refused before any of it is read. */
  readonly maxBytes: number;
  /**
   * Read the file a symbolic link names (default false: the link itself is refused). Whatever the
   * link names must still be a regular file.
   */
  readonly followSymlinks?: boolean;
}

/** Why {@link readRegularFile} refused a file. */
export type UnreadableFileReason = 'missing' | 'symlink' | 'not-regular' | 'too-large' | 'unreadable';

/**
 * What {@link readRegularFile} read: the bytes, or what is wrong with the file as a phrase that
 * follows its path (`is a directory, not a regular file`, `is 629145600 bytes, more than the
 * 268435456 this reader takes`).
 */
export type RegularFileRead = { readonly bytes: Buffer } | RefusedFile;

/** A file {@link readRegularFile} refused: why, as a reason and a phrase, and for `too-large` its size. */
export interface RefusedFile {
  readonly reason: UnreadableFileReason;
  readonly problem: string;
  readonly size?: number;
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'a file of another kind';
}

/** Why the file behind `stats` is refused, or null when it is a regular file of at most `maxBytes`. */
function statsProblem(stats: Stats, maxBytes: number): RefusedFile | null {
  if (stats.isSymbolicLink()) return { reason: 'symlink', problem: 'is a symbolic link' };
  if (!stats.isFile()) return { reason: 'not-regular', problem: `is ${kindOf(stats)}, not a regular file` };
  if (stats.size > maxBytes) return { reason: 'too-large', size: stats.size, problem: `is ${stats.size} bytes, more than the ${maxBytes} this reader takes` };
  return null;
}

function failure(error: unknown): RefusedFile {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { reason: 'missing', problem: 'is missing' };
  // O_NOFOLLOW on a link (dangling or not) fails with ELOOP.
  if (code === 'ELOOP') return { reason: 'symlink', problem: 'is a symbolic link' };
  return { reason: 'unreadable', problem: `cannot be read (${(error as Error).message})` };
}

/**
 * Reads a file that must be a regular file of at most `options.maxBytes`, whatever the path holds:
 * a symbolic link (unless followed), a directory, a FIFO, a socket or a device is refused without
 * blocking or reading from it (the file is checked before it is opened, opened with O_NONBLOCK and
 * O_NOFOLLOW, and checked again once open), and so is a file larger than the limit. For files of
 * folders that are not trusted to be what they claim (a capture, a report given on a command line).
 * @param path the file.
 * @returns its bytes, or why it was refused (never throws for what the path holds).
 * @throws {RangeError} when `options.maxBytes` is not a non-negative safe integer.
 */
export async function readRegularFile(path: string, options: ReadRegularFileOptions): Promise<RegularFileRead> {
  const { maxBytes } = options;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`readRegularFile: maxBytes is ${maxBytes}, not a non-negative safe integer`);
  const follow = options.followSymlinks ?? false;
  try {
    const before = statsProblem(follow ? await stat(path) : await lstat(path), maxBytes);
    if (before) return before;
    const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW));
    try {
      // The path may have been replaced between the check and the open: check what was opened.
      const stats = await handle.stat();
      const opened = statsProblem(stats, maxBytes);
      if (opened) return opened;
      // At most the size it had when opened, were it to grow.
      const bytes = Buffer.alloc(stats.size);
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { bytes: filled === bytes.length ? bytes : bytes.subarray(0, filled) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return failure(error);
  }
}
