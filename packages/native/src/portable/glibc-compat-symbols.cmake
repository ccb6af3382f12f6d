# The glibc functions the prebuild's files take from glibc-compat.cpp (linked with --wrap=NAME, so
# that every call of NAME, in kreplay's objects and in the libstdc++ and libgcc archives alike, goes to
# __wrap_NAME). Measured: the functions `objdump -T` found above GLIBC_2.28 in the files linked on
# Debian 12 (glibc 2.36) without them. __libc_single_threaded, a variable, is defined there instead.
set(KREPLAY_GLIBC_COMPAT_WRAPPED
  pthread_create pthread_detach pthread_join pthread_once
  pthread_key_create __pthread_key_create pthread_key_delete pthread_getspecific pthread_setspecific
  pthread_rwlock_rdlock pthread_rwlock_wrlock pthread_rwlock_unlock
  dlopen dlclose dlsym dlerror dladdr
  stat fstat64
  _dl_find_object
  arc4random)
