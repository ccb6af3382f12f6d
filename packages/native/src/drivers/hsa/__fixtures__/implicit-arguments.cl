// A fixture kernel that reads the code object v5 implicit (hidden) arguments after its explicit
// ones, so the metadata tests see hidden_block_count_x, hidden_group_size_x, ... in a real code
// object. Built by scripts/build-amdgpu-kernels.mjs; never loaded by the driver.
typedef unsigned int u32;
typedef unsigned long u64;

__kernel void implicit_arguments(__global u32* output, u64 count, float scale) {
  __constant u32* implicit = (__constant u32*)__builtin_amdgcn_implicitarg_ptr();
  __constant unsigned short* shorts = (__constant unsigned short*)implicit;
  output[0] = implicit[0];      // hidden_block_count_x
  output[1] = shorts[6];        // hidden_group_size_x
  output[2] = shorts[9];        // hidden_remainder_x
  output[3] = shorts[32];       // hidden_grid_dims
  output[4] = (u32)count + (u32)scale;
}
