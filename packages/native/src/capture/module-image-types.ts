/**
 * What `readModuleImage` says of a CUDA module image: its entries, and for each cubin its
 * kernels, their parameters and the module's globals. The addon's reader (capture/module-image.cpp)
 * returns these shapes, so the binding's types and the reader share this file.
 */

/** One kernel parameter as the cubin's EIATTR_KPARAM_INFO records describe it. */
export interface ModuleKernelParameter {
  /** Its position in the kernel's signature, from 0. */
  readonly index: number;
  /** Its byte offset in the parameter buffer. */
  readonly offset: number;
  /** Its size in bytes. A pointer is 8; so are a `long long`, a `double` and an 8-byte struct. */
  readonly size: number;
}

/** A kernel (an entry function) of a cubin. */
export interface ModuleKernel {
  /** The symbol name, mangled for C++ kernels (what cuModuleGetFunction takes). */
  readonly name: string;
  /** Ordered by index. Empty for a kernel without parameters. */
  readonly parameters: readonly ModuleKernelParameter[];
  /** The parameter buffer's size in bytes, padding included (EIATTR_CBANK_PARAM_SIZE). */
  readonly parameterBufferBytes: number;
  /** Where the parameters start in constant bank 0, when the cubin says. */
  readonly parameterBankOffset: number | null;
  /** Registers per thread, when the cubin says. */
  readonly registers: number | null;
  /** Bytes of its machine code: the entry symbol's size, else its `.text.<name>` section's. */
  readonly codeBytes: number;
}

/** A `__device__` (`constant: false`) or `__constant__` (`constant: true`) variable. */
export interface ModuleGlobal {
  readonly name: string;
  /** The ELF section holding it, e.g. `.nv.global`, `.nv.global.init`, `.nv.constant3`. */
  readonly section: string;
  readonly constant: boolean;
  /** Its offset in that section. */
  readonly offset: number;
  readonly size: number;
}

/** What one cubin of a module image describes. */
export interface ModuleCubin {
  /** The SM version it runs on, e.g. 90 for sm_90. */
  readonly architecture: number;
  /** The ELF ABI version (e_ident[EI_ABIVERSION]). */
  readonly abiVersion: number;
  readonly kernels: readonly ModuleKernel[];
  readonly globals: readonly ModuleGlobal[];
  /** Codes of .nv.info attributes the reader skipped because it does not know them. */
  readonly unknownAttributes: readonly number[];
}

/** One entry of a module image: a cubin, or PTX the driver can compile. */
export interface ModuleImageEntry {
  readonly kind: 'cubin' | 'ptx';
  /** sm_XX of a cubin, compute_XX of PTX in a fatbin, the `.target` of PTX text. */
  readonly architecture: number;
  /** PTX text only: its `.target` as written, e.g. `sm_90a`. */
  readonly target?: string;
  /** PTX text only: its PTX ISA version (`.version`), e.g. `8.7`. */
  readonly ptxVersion?: string;
  /** How the fatbin stores the payload: LZ4 cubins are decoded and described, zstd ones only listed. */
  readonly compression: 'none' | 'lz4' | 'zstd' | 'unknown';
  /** The payload's byte offset in the image and its stored size. */
  readonly offset: number;
  readonly bytes: number;
  /** The cubin's description; null for PTX and for a zstd-compressed cubin. */
  readonly cubin: ModuleCubin | null;
}

/** A module image (what cuModuleLoadData takes): a bare cubin, a fatbin, or PTX text. */
export interface ModuleImage {
  /** True for a fatbin container, false for a bare cubin or PTX text (then `entries` holds that one entry). */
  readonly fatbin: boolean;
  readonly entries: readonly ModuleImageEntry[];
  /** Whether some entry is PTX, so that a driver of another architecture could compile it. */
  readonly hasPtx: boolean;
}
