/* arm_nnfunctions.h - stand-in for the kernel library a helia-aot module's
 * headers include (ns-cmsis-nn), so that tests/test_helia_compat.py can
 * compile an application against those headers alone. It declares only
 * the version the headers check; nothing is linked against it. */
#ifndef HELIA_COMPAT_KERNEL_STUB_H
#define HELIA_COMPAT_KERNEL_STUB_H
#define NS_CMSIS_NN_VERSION_MAJOR 7
#define NS_CMSIS_NN_VERSION_MINOR 47
#define NS_CMSIS_NN_VERSION_PATCH 0
#endif
