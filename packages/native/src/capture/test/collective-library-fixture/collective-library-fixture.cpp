// A shared object standing in for NCCL's libnccl.so.2 in the capture glue's test, built as
// build/tests/collective-library/libnccl-kreplay-fixture.so (capture.cmake): its own memory holds a
// module image, as libnccl's holds the fatbin of its kernels, which kreplay-capture-test
// --drive-collective-injection copies in and loads through cuModuleLoadData.
extern "C" {
__attribute__((visibility("default"))) unsigned char kreplayFixtureModuleImage[1 << 16];
}
