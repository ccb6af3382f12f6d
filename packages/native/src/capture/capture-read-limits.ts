/**
 * The most a capture folder's files may hold for readCaptureFolder to read them, so that a damaged
 * or hostile folder costs bounded memory and stack: a larger file is refused before it is read.
 * @internal
 */
export const captureReadLimits = Object.freeze({
  /** manifest.json: a few hundred bytes and the captured program's command line. */
  manifestBytes: 16 * 2 ** 20,
  /**
   * A launch record: about 60 bytes per page of the memory it reaches (a blob id and a hash), so
   * 256 MiB lists over 4 million pages, 256 GiB of memory at the writer's 64 KiB pages.
   */
  recordBytes: 256 * 2 ** 20,
  /** A blob (a module image or a page): its id declares its length, which may be no more. */
  blobBytes: 2 ** 30,
  /**
   * Levels of nested arrays and objects in manifest.json or a record. The format nests at most 5
   * (a record's shape.attributes[].values); deeper text is refused before it is parsed.
   */
  jsonDepth: 8,
});
